//! What the server says of itself: its capabilities, name and version, and its instructions
//! (the listing), which only the answers to `initialize` and `server/discover` carry.

#![allow(
    deprecated,
    reason = "rmcp deprecates logging for protocol 2026-07-28; clients of 2025-11-25 use it"
)]

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use rmcp::ServerHandler;
use rmcp::model::{Implementation, ProtocolVersion, ServerCapabilities, ServerConfig};

use super::skill_md::served;
use crate::host::{Host, lock};
use crate::tools::{Disclosure, Session, Snapshot, Source};

/// The instructions of the last snapshot, rendered once per snapshot and shared by the
/// sessions of one settings: what the model may see depends on the set and the settings only
/// (not on the answers given).
#[derive(Default)]
pub(super) struct Instructions {
    rendered: Mutex<Option<(Snapshot, Arc<str>)>>,
}

impl Instructions {
    /// The listing of `set` as `host`'s settings show it.
    fn of(&self, host: &Host, set: Snapshot) -> Arc<str> {
        let mut rendered = lock(&self.rendered);
        match &*rendered {
            Some((seen, text)) if Arc::ptr_eq(seen, &set) => Arc::clone(text),
            _ => {
                let text: Arc<str> = Session::new(served(host, &set))
                    .system_prompt(&Disclosure::Progressive, "")
                    .into();
                *rendered = Some((set, Arc::clone(&text)));
                text
            }
        }
    }
}

/// The server's info; with `instructions`, the listing too. rmcp asks for the info on other
/// requests than `initialize` and `server/discover` (each 2026-07-28 request, which has a
/// server of its own), where a copy of the listing would cost every request time that grows
/// with the skills (BENCHMARKS.md, "MCP 2026-07-28 under load").
pub(super) fn info(
    source: &Source,
    host: &Host,
    server: &Implementation,
    instructions: Option<&Instructions>,
) -> ServerConfig {
    let builder = ServerCapabilities::builder()
        .enable_logging()
        .enable_tools()
        .enable_resources()
        .enable_prompts()
        .enable_completions();
    let capabilities = if source.is_live() {
        builder
            .enable_tool_list_changed()
            .enable_prompts_list_changed()
            .enable_resources_list_changed()
            .enable_resources_subscribe()
            .enable_skills_with_directory_read()
            .build()
    } else {
        builder.enable_skills_with_directory_read().build()
    };
    let config = ServerConfig::new(capabilities).with_server_info(server.clone());
    let Some(instructions) = instructions else {
        return config;
    };
    let text = instructions.of(host, source.snapshot());
    if text.is_empty() {
        config
    } else {
        config.with_instructions(text.to_string())
    }
}

/// rmcp's own `initialize` negotiation, run over a fixed answer and the versions the server
/// speaks: the handler's `get_info` leaves the instructions out, and the negotiation stays
/// rmcp's (its version check is not public).
pub(super) struct Initialize {
    pub(super) answer: ServerConfig,
    pub(super) versions: Cow<'static, [ProtocolVersion]>,
}

impl ServerHandler for Initialize {
    fn get_info(&self) -> ServerConfig {
        self.answer.clone()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.versions.clone()
    }
}
