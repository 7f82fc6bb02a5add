//! [`Guarded`], the server as rmcp serves it over stdio: clearer errors where rmcp's dispatch
//! answers before the handler.

use rmcp::ErrorData;
use rmcp::model::{ClientNotification, ErrorCode, ProtocolVersion, ServerConfig};
use rmcp::service::{RequestContext, RoleServer};

use super::SCHEME;
use super::handler::Handler;
use super::request::skill_uris;
use crate::model::skill::MANIFEST;
use crate::text::echo;

/// The server as rmcp serves it from [`McpServer::serve`](super::McpServer::serve): it answers
/// the `skills/get` requests rmcp's dispatch would refuse with the whole URI echoed, with the
/// URI clipped, and says more than the method's name when rmcp answers "method not found"
/// (over HTTP rmcp's service takes the handler itself, so these two stay rmcp's there).
pub(super) struct Guarded(pub(super) Handler);

impl rmcp::Service<RoleServer> for Guarded {
    async fn handle_request(
        &self,
        request: rmcp::model::ClientRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ServerResult, ErrorData> {
        if let rmcp::model::ClientRequest::GetSkillRequest(get) = &request
            && rmcp::model::skill_name_from_uri(&get.params.uri).is_none()
        {
            let set = self.0.current(&context.peer).await;
            let known = skill_uris(&self.0.tools(&set));
            return Err(ErrorData::invalid_params(
                format!(
                    "\"{}\" is not the URI of a skill's {MANIFEST}: skills/get takes \
                     {SCHEME}<skill>/{MANIFEST}. The skills are: {}.",
                    echo(&get.params.uri),
                    known.join(", ")
                ),
                None,
            ));
        }
        let version = context.protocol_version();
        rmcp::Service::handle_request(&self.0, request, context)
            .await
            .map_err(|error| explained(error, version.as_ref()))
    }

    async fn handle_notification(
        &self,
        notification: ClientNotification,
        context: rmcp::service::NotificationContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        rmcp::Service::handle_notification(&self.0, notification, context).await
    }

    fn get_info(&self) -> ServerConfig {
        rmcp::Service::get_info(&self.0)
    }

    fn supported_protocol_versions(
        &self,
    ) -> std::borrow::Cow<'static, [rmcp::model::ProtocolVersion]> {
        rmcp::Service::supported_protocol_versions(&self.0)
    }
}

/// rmcp's "method not found" carries the method's name alone: this says which revision lacks
/// it and what to use instead. Errors that say more already are kept.
fn explained(mut error: ErrorData, version: Option<&ProtocolVersion>) -> ErrorData {
    if error.code != ErrorCode::METHOD_NOT_FOUND || error.message.contains(' ') {
        return error;
    }
    let method = echo(&error.message);
    let instead = match method.as_str() {
        "ping" => " Any request (server/discover, say) tells whether the server answers.",
        "resources/subscribe" | "resources/unsubscribe" => {
            " Changes of a live set reach a client through subscriptions/listen."
        }
        _ => "",
    };
    error.message = if version.is_some_and(|v| !v.has_initialize()) {
        format!(
            "{method} is not a method of MCP 2026-07-28, which this request speaks: the \
             revision removed it.{instead} Speak 2025-11-25 (initialize) to use it."
        )
    } else {
        format!(
            "This server does not answer {method} at protocol {}. It answers the MCP methods \
             for tools, resources, prompts, completion and the skills extension.",
            version.map_or("2025-11-25 or earlier", ProtocolVersion::as_str)
        )
    }
    .into();
    error
}
