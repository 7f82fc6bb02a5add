//! What the MCP tests of this package share: an in-memory connection to a server, a tool call's
//! parameters, and the text of an answer. Each test file uses what it needs.
#![allow(dead_code)]

use rmcp::model::{CallToolRequestParams, CallToolResult, ProtocolVersion};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::transport::IntoTransport;
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, ServiceExt};
use serde_json::Value;
use skills_embed::mcp::McpServer;

/// Starts `server` on one end of an in-memory pipe and connects a client to the other.
pub async fn connect<C: ClientHandler>(
    server: McpServer,
    client: C,
) -> RunningService<RoleClient, C> {
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(server.serve(server_end));
    client.serve(client_end).await.expect("initialize")
}

/// `client` connected over `transport` at `version`: `initialize` for the revisions that have
/// it, `server/discover` (2026-07-28) for those that do not.
pub async fn open_at<C, T, E, A>(
    client: C,
    transport: T,
    version: ProtocolVersion,
) -> RunningService<RoleClient, C>
where
    C: ClientHandler,
    T: IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    if version.has_initialize() {
        client.serve(transport).await.expect("initialize")
    } else {
        let lifecycle = ClientLifecycleMode::Discover {
            preferred_versions: vec![version],
        };
        client
            .serve_with_lifecycle(transport, lifecycle)
            .await
            .expect("server/discover")
    }
}

/// The parameters of a call of `tool` with `arguments`, a JSON object.
pub fn call(tool: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments)
}

/// The text blocks of an answer, joined.
pub fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect()
}

/// The message of an MCP error answer.
pub fn error_message(error: ServiceError) -> String {
    match error {
        ServiceError::McpError(data) => data.message.into_owned(),
        other => panic!("expected an MCP error answer, got {other}"),
    }
}
