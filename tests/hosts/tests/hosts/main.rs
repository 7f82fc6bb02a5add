//! The integration tests of `skills-host-tests`, one module per host or concern, linked into
//! one binary: each file links rmcp, tokio and rig, so one link instead of one per file keeps
//! a fresh build fast and its target folder small.

mod cli;
mod cli_collections;
mod cli_links;
mod cli_scripts;
mod common;
mod extract_race;
mod fleet;
mod install_cargo;
mod install_cli;
mod install_index;
mod invocation_hosts;
mod mcp_ask;
mod mcp_e2e;
mod mcp_hostile;
mod mcp_http;
mod mcp_http_limits;
mod mcp_http_script_runs;
mod mcp_protocol;
mod mcp_revisions;
mod mcp_server;
mod mcp_sessions;
mod package_hosts;
mod plugin_cli;
mod plugin_schema;
mod rig_tool;
mod script_runs;
mod scripts_hosts;
mod serve_links;
