//! Tests of the hosts: the `skills` tool (`tests/cli.rs`, `tests/mcp_e2e.rs`), the MCP server
//! in-process (`tests/mcp_server.rs`) and the rig tool (`tests/rig_tool.rs`).
