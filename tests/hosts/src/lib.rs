//! Tests of the hosts: the `skills` tool (`tests/hosts/cli.rs`, `tests/hosts/mcp_e2e.rs`), the MCP server
//! in-process (`tests/hosts/mcp_server.rs`) and the rig tool (`tests/hosts/rig_tool.rs`).
