"""agentskills-mcp-server's own CLI (`agentskills_mcp_server.__main__.main`), plus `--port`.

Run with the venv's python: `python peer.py --config FILE [--transport T] [--port N]`.

Its CLI has no port option (Streamable HTTP always binds 127.0.0.1:8000); this passes
`--port N` on to `MCPServer.run(transport="streamable-http", port=N)` and changes nothing else.
"""

import pathlib
import sys

# agentskills-fs calls Path.is_junction (Python 3.12+), always False off Windows. On 3.11
# (installed with --ignore-requires-python) supply it; on 3.12+ this changes nothing.
if not hasattr(pathlib.Path, "is_junction"):
    pathlib.Path.is_junction = lambda self: False

from agentskills_mcp_server import native  # noqa: E402

argv = sys.argv[1:]
if "--port" in argv:
    i = argv.index("--port")
    port = int(argv[i + 1])
    del argv[i : i + 2]
    run = native.NativeSkillsServer.run

    def run_on_port(self, transport="stdio", **kwargs):
        if transport == "streamable-http":
            kwargs["port"] = port
        return run(self, transport, **kwargs)

    native.NativeSkillsServer.run = run_on_port

sys.argv = ["agentskills-mcp-server", *argv]

from agentskills_mcp_server.__main__ import main  # noqa: E402

main()
