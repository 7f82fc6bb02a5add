//! Tests of the hosts: the `skills` tool (`tests/hosts/cli.rs`, `tests/hosts/mcp_e2e.rs`), the MCP server
//! in-process (`tests/hosts/mcp_server.rs`) and the rig tool (`tests/hosts/rig_tool.rs`).

// The guide's chapters that need the `mcp` and `rig` features and their crates: their Rust
// samples are doctests of this package (`../skills` is `tests/skills/`).
#[cfg(doctest)]
#[doc = include_str!("../../../docs/src/mcp.md")]
mod guide_mcp {}
#[cfg(doctest)]
#[doc = include_str!("../../../docs/src/rig.md")]
mod guide_rig {}
