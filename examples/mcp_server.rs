//! An MCP server binary with its skills inside: point any MCP host at it and the five sample
//! skills of `examples/skills/` are served from the binary, with no files at run time.
//!
//! What a client gets (see `skills_embed::mcp`): the `load_skill` tool with the skill names as its
//! `enum`, every file as a `skill://<name>/<path>` resource (with one resource template per
//! skill), the MCP skills extension (`skills/list`, `skills/get` with `sha256:` digests computed
//! when this binary compiled), and the listing as the `skills` prompt and in the server's
//! instructions. `brand-guidelines` is denied: no MCP surface shows it.
//!
//! Build it, then register the binary with a host, e.g. for Claude Desktop's
//! `claude_desktop_config.json`:
//!
//! ```text
//! cargo build --release -p skills-examples --example mcp_server
//! ```
//!
//! ```json
//! { "mcpServers": { "skills": { "command": "/path/to/target/release/examples/mcp_server" } } }
//! ```
//!
//! Or try it by hand: it reads JSON-RPC lines on stdin and answers on stdout.
//!
//! ```text
//! cargo run -p skills-examples --example mcp_server
//! {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"me","version":"1"}}}
//! ```

use skills_embed::mcp::{McpServer, Options};
use skills_embed::policy::Permissions;

// `pub enum SkillId` and `pub static SKILLS`, checked and embedded when this example compiles.
skills_embed::skills!("../skills/examples/skills");

fn main() -> std::io::Result<()> {
    // stdout carries the protocol: anything for a person goes to stderr.
    eprintln!(
        "mcp_server: serving {} embedded skills over stdio",
        SKILLS.len()
    );
    McpServer::new(
        &SKILLS,
        skills_embed::tools::Settings {
            permissions: Permissions::new().deny("brand-guidelines"),
            ..skills_embed::tools::Settings::default()
        },
    )
    .with_options(Options {
        name: "skills-example".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        ..Options::default()
    })
    .on_event(|event| eprintln!("mcp_server: {event}"))
    .run_stdio()
}
