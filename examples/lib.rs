//! Nothing here: this package only holds examples (`cargo run -p skills-examples --example
//! mcp_server`, `--example rig_agent`) whose dependencies `skills-embed` should not carry.
