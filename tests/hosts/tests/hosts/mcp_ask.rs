//! `ask` over MCP (issue 30 item 3): a 2025-11-25 session that declares elicitation is asked
//! with `elicitation/create`; a 2026-07-28 client gets `input_required` with a signed,
//! time-bounded, caller-bound `requestState` that any replica holding the same key completes;
//! "always" answers reach every replica through the grants file; a client that cannot be
//! asked keeps the clear refusal.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rmcp::model::{
    CallToolResponse, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, InputRequest, InputRequiredResult, InputResponses, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, RequestStateCodec, ResourceContents,
};
use rmcp::service::{RequestContext, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, ErrorData};
use serde_json::json;
use skills_embed::mcp::{McpServer, Options};
use skills_embed::policy::Permissions;
use skills_embed::tools::Settings;

use crate::common::{call, open_at, text};
use crate::mcp_http::start;

skills_embed::skills!("../../skills/examples/skills");

const ASKED: &str = "pdf-forms";
const MODERN: ProtocolVersion = ProtocolVersion::V_2026_07_28;
const SESSIONS: ProtocolVersion = ProtocolVersion::V_2025_11_25;

/// A client whose user answers every approval with `answer`, counting the questions; it
/// declares elicitation only when `elicits`.
#[derive(Clone)]
struct User {
    version: ProtocolVersion,
    elicits: bool,
    answer: &'static str,
    asked: Arc<AtomicUsize>,
    questions: Arc<std::sync::Mutex<Vec<String>>>,
}

impl User {
    fn new(version: ProtocolVersion, answer: &'static str) -> Self {
        User {
            version,
            elicits: true,
            answer,
            asked: Arc::default(),
            questions: Arc::default(),
        }
    }

    fn asked(&self) -> usize {
        self.asked.load(Ordering::SeqCst)
    }
}

impl ClientHandler for User {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        if let ElicitRequestParams::FormElicitationParams { message, .. } = &request {
            self.questions.lock().unwrap().push(message.clone());
        }
        Ok(ElicitResult::new(ElicitationAction::Accept)
            .with_content(json!({"answer": self.answer})))
    }

    fn get_info(&self) -> ClientConfig {
        let capabilities = if self.elicits {
            ClientCapabilities::builder().enable_elicitation().build()
        } else {
            ClientCapabilities::default()
        };
        let mut info = ClientConfig::default().with_protocol_version(self.version.clone());
        info.capabilities = capabilities;
        info
    }
}

fn server(options: Options) -> McpServer {
    McpServer::new(
        &SKILLS,
        Settings {
            permissions: Permissions::new().ask(ASKED),
            ..Settings::default()
        },
    )
    .with_options(options)
}

/// `user` connected to `server` over an in-memory pipe at the user's revision.
async fn connect(server: McpServer, user: User) -> RunningService<RoleClient, User> {
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(server.serve(server_end));
    open(client_end, user).await
}

/// `user` connected over `transport` at the user's revision.
async fn open<T, E, A>(transport: T, user: User) -> RunningService<RoleClient, User>
where
    T: rmcp::transport::IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let version = user.version.clone();
    open_at(user, transport, version).await
}

fn load() -> rmcp::model::CallToolRequestParams {
    call("load_skill", json!({"skill": ASKED}))
}

/// The `input_required` answer of a first call.
async fn input_required(client: &RunningService<RoleClient, User>) -> InputRequiredResult {
    match client.call_tool_once(load()).await.expect("answer") {
        CallToolResponse::InputRequired(input) => input,
        other => panic!("expected input_required, got {other:?}"),
    }
}

fn accept(answer: &str) -> InputResponses {
    let mut responses = InputResponses::new();
    responses.insert(
        "approval".into(),
        json!({"action": "accept", "content": {"answer": answer}}),
    );
    responses
}

/// The retry of the load with `input`'s state and `responses`.
fn retry(
    input: &InputRequiredResult,
    responses: InputResponses,
) -> rmcp::model::CallToolRequestParams {
    load()
        .with_request_state(input.request_state.clone().expect("a requestState"))
        .with_input_responses(responses)
}

fn body_of(response: CallToolResponse) -> String {
    match response {
        CallToolResponse::Complete(result) => {
            assert_ne!(result.is_error, Some(true), "{}", text(&result));
            text(&result)
        }
        other => panic!("expected a result, got {other:?}"),
    }
}

fn shared_key() -> Options {
    Options {
        state_key: Some(RequestStateCodec::try_new(vec![42u8; 32]).unwrap()),
        ..Options::default()
    }
}

#[tokio::test]
async fn a_2026_07_28_client_is_asked_with_input_required_and_completes_in_a_retry() {
    let client = connect(server(Options::default()), User::new(MODERN, "once")).await;
    let input = input_required(&client).await;
    let Some(InputRequest::Elicitation(request)) = input
        .input_requests
        .as_ref()
        .and_then(|requests| requests.get("approval"))
    else {
        panic!("an elicitation under \"approval\": {input:?}")
    };
    let form = serde_json::to_value(&request.params).unwrap();
    assert_eq!(form["mode"], "form");
    assert!(
        form["message"].as_str().unwrap().contains("\"pdf-forms\""),
        "{form}"
    );
    assert_eq!(
        form["requestedSchema"]["properties"]["answer"]["enum"],
        json!(["once", "always", "reject"])
    );
    let body = body_of(
        client
            .call_tool_once(retry(&input, accept("once")))
            .await
            .unwrap(),
    );
    assert!(body.contains("pdf"), "{body}");
    // `once`: the next call asks again.
    input_required(&client).await;
    // A rejection is the refusal, as a tool result.
    let rejected = client
        .call_tool_once(retry(&input, accept("reject")))
        .await
        .unwrap();
    let CallToolResponse::Complete(rejected) = rejected else {
        panic!("a result")
    };
    assert_eq!(rejected.is_error, Some(true));
    assert!(text(&rejected).contains("declined"), "{}", text(&rejected));
    // rmcp's client helper answers through the user and retries by itself.
    let user = User::new(MODERN, "once");
    let client = connect(server(Options::default()), user.clone()).await;
    let result = client.call_tool(load()).await.unwrap();
    assert!(text(&result).contains("pdf"), "{}", text(&result));
    assert_eq!(user.asked(), 1);
}

#[tokio::test]
async fn a_state_forged_or_from_another_key_is_refused_with_what_to_do() {
    let client = connect(server(Options::default()), User::new(MODERN, "once")).await;
    let input = input_required(&client).await;
    let mut forged = input.clone();
    forged.request_state = Some(format!("{}x", input.request_state.clone().unwrap()));
    let error = client
        .call_tool_once(retry(&forged, accept("once")))
        .await
        .unwrap_err();
    let message = crate::common::error_message(error);
    assert!(
        message.contains("not issued by this server to this caller"),
        "{message}"
    );
    assert!(message.contains("--state-key-file"), "{message}");
    // A replica with a key of its own cannot open it either.
    let other = connect(server(shared_key()), User::new(MODERN, "once")).await;
    let error = other
        .call_tool_once(retry(&input, accept("once")))
        .await
        .unwrap_err();
    assert!(crate::common::error_message(error).contains("not issued"));
}

#[tokio::test]
async fn an_approval_started_on_one_replica_completes_on_another_sharing_the_key() {
    let one = connect(server(shared_key()), User::new(MODERN, "once")).await;
    let two = connect(server(shared_key()), User::new(MODERN, "once")).await;
    let input = input_required(&one).await;
    let body = body_of(
        two.call_tool_once(retry(&input, accept("once")))
            .await
            .unwrap(),
    );
    assert!(body.contains("pdf"), "{body}");
}

#[tokio::test]
async fn always_answers_reach_every_replica_through_the_grants_file() {
    let dir = tempfile::tempdir().unwrap();
    let options = || Options {
        grants_file: Some(dir.path().join("grants.jsonl")),
        ..shared_key()
    };
    let first = User::new(MODERN, "always");
    let one = connect(server(options()), first.clone()).await;
    one.call_tool(load()).await.unwrap();
    assert_eq!(first.asked(), 1);
    // Another replica, another client of the same caller: not asked again.
    let second = User::new(MODERN, "once");
    let two = connect(server(options()), second.clone()).await;
    let body = body_of(two.call_tool_once(load()).await.unwrap());
    assert!(body.contains("pdf"), "{body}");
    assert_eq!(second.asked(), 0);
    // The resource of the skill too.
    let read = two
        .read_resource_once(ReadResourceRequestParams::new("skill://pdf-forms/SKILL.md"))
        .await
        .unwrap();
    let ReadResourceResponse::Complete(read) = read else {
        panic!("the file, not a question: {read:?}")
    };
    assert!(matches!(
        &read.contents[0],
        ResourceContents::TextResourceContents { .. }
    ));
}

#[tokio::test]
async fn a_2025_11_25_session_that_declares_elicitation_is_asked_during_the_call() {
    let user = User::new(SESSIONS, "always");
    let client = connect(server(Options::default()), user.clone()).await;
    let result = client.call_tool(load()).await.unwrap();
    assert!(text(&result).contains("pdf"), "{}", text(&result));
    assert_eq!(user.asked(), 1);
    assert!(user.questions.lock().unwrap()[0].contains("pdf-forms"));
    // "always": not asked again, the file either.
    client.call_tool(load()).await.unwrap();
    client
        .read_resource(ReadResourceRequestParams::new("skill://pdf-forms/SKILL.md"))
        .await
        .unwrap();
    assert_eq!(user.asked(), 1);
}

#[tokio::test]
async fn a_client_that_cannot_be_asked_keeps_the_clear_refusal() {
    for version in [SESSIONS, MODERN] {
        let user = User {
            elicits: false,
            ..User::new(version.clone(), "once")
        };
        let client = connect(server(Options::default()), user).await;
        let result = client.call_tool(load()).await.unwrap();
        assert_eq!(result.is_error, Some(true), "{version:?}");
        assert!(
            text(&result).contains("has no way to ask for it"),
            "{}",
            text(&result)
        );
    }
}

#[tokio::test]
async fn over_http_a_state_is_bound_to_the_token_it_was_issued_to() {
    let server = server(Options {
        stateless: true,
        ..shared_key()
    })
    .with_token("alice-token", None)
    .with_token("bob-token", None);
    let (addr, stop, running) = start(server).await;
    let client = |token: &str| {
        let config = StreamableHttpClientTransportConfig::with_uri(format!("http://{addr}/mcp"))
            .auth_header(token.to_owned());
        open(
            StreamableHttpClientTransport::from_config(config),
            User::new(MODERN, "once"),
        )
    };
    let alice = client("alice-token").await;
    let bob = client("bob-token").await;
    let input = input_required(&alice).await;
    let error = bob
        .call_tool_once(retry(&input, accept("once")))
        .await
        .unwrap_err();
    assert!(
        crate::common::error_message(error).contains("not issued by this server to this caller")
    );
    // Stateless: the retry is a request of its own, as on another replica.
    let body = body_of(
        alice
            .call_tool_once(retry(&input, accept("once")))
            .await
            .unwrap(),
    );
    assert!(body.contains("pdf"), "{body}");
    drop((alice, bob));
    let _ = stop.send(());
    let _ = running.await;
}
