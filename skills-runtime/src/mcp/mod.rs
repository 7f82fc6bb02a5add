//! An MCP server for a skill set, on [rmcp](https://docs.rs/rmcp) (the official Rust SDK).
//!
//! [`McpServer`] serves any [`SkillSet`] (the one `skills!` embeds, one built at run time, or a
//! live view such as an overlay of skills on disk) to an MCP client over stdio or any other
//! rmcp transport. A client sees the skills four ways:
//!
//! | MCP surface | what it holds |
//! |---|---|
//! | `tools/list`, `tools/call` | the load tool(s) of [`Tools`], with the `skill` enum, answered through a per-connection [`Session`] |
//! | `resources/list`, `resources/read`, `resources/templates/list` | every file as `skill://<name>/<path>`: the listing names each skill's `SKILL.md`, one template per skill (`skill://<name>/{+path}`, with the skill's description) reaches the rest |
//! | `skills/list`, `skills/get`, `resources/directory/read` | the MCP skills extension (`io.modelcontextprotocol/skills`, SEP-2640): each skill's frontmatter and every file with its `sha256:` digest and size |
//! | `prompts/list`, `prompts/get` | `skills`: the L1 listing with how to load a skill (the same text a [`Session`] puts in a system prompt); and one prompt per skill the user may invoke, named after it, its arguments from its `arguments` field (or one `arguments` described by its `argument-hint`), rendered by [`invoke::render`](crate::invoke::render) (a skill named `skills` is not a prompt: the listing keeps the name) |
//!
//! The initialize result's `instructions` carry the same listing, so hosts that put server
//! instructions in the system prompt disclose the skills without a prompt call.
//!
//! [`McpServer`] is the one builder: [`McpServer::run_stdio`] serves one client over stdio,
//! [`McpServer::serve`] one over any rmcp transport, and with feature `mcp-http`
//! [`McpServer::serve_http`] serves many over MCP's Streamable HTTP transport (sessions or
//! stateless, Host/Origin checks, bearer tokens, graceful shutdown; `skills serve --http ADDR`
//! on the command line), or [`McpServer::http_router`] gives the endpoint to mount in an app.
//! [`Options`] holds what the server says of itself and its limits, one value for every
//! transport.
//!
//! # Permissions and sessions
//!
//! Every surface goes through [`Tools`] with the server's [`Permissions`]: a denied skill, and
//! a skill the model may not invoke (its [invocation policy](crate::Skill::invocation), e.g.
//! Claude Code's `disable-model-invocation: true`), is absent from the tool's `enum`, the
//! resource listing and templates, the skills extension and the listing prompt, and naming it
//! anywhere answers exactly like naming a skill that does not exist (a skill the model may not
//! invoke but the user may is still its own prompt: a command for the user). With no skill left to show,
//! `tools/list` is empty (a reload that brings one notifies the client).
//! Tool calls are answered by one [`Session`] per connection (so its events and approvals
//! apply). A skill under `ask` is loaded, by the tool or by `resources/read`, only after the
//! user says so: through the host's approval hook
//! ([`Settings::with_approval`](crate::tools::Settings::with_approval)) when it has one, else
//! through the client: a 2025-11-25 session that declared elicitation is sent
//! `elicitation/create` during the call; a 2026-07-28 client that declares it gets an
//! `input_required` result (SEP-2322) whose `requestState` is sealed with
//! [`Options::state_key`] (HMAC-SHA256), bound to the caller's bearer token and good for ten
//! minutes, so the retry may reach another replica holding the key. The form has one field,
//! `answer`: `once`, `always` or `reject`. An `always` answer belongs to the caller (its token;
//! every client of a server without tokens is one caller), across its sessions and requests,
//! and through [`Options::grants_file`] across replicas and restarts, while the skill stays as it
//! was approved: when a live set's reload changes the skill, the next load asks again (see
//! [`Grants`]). A client that cannot be asked gets a refusal that says why.
//!
//! A change of a live set is told to a client (`notifications/tools/list_changed`,
//! `notifications/resources/list_changed` and `notifications/prompts/list_changed`) only when what that client may see changed: editing
//! a denied skill on disk tells it nothing. A skill whose name the skills extension cannot
//! carry (over 64 characters, say, which the lenient profile loads with a warning) is served on
//! no surface, so every surface lists the same skills.
//!
//! # Errors, log notifications and subscriptions
//!
//! Each request is answered by the rules of the protocol revision it speaks (2025-11-25 with
//! sessions, 2026-07-28 stateless). `tools/call` answers as the MCP specification ("Error
//! Handling") lists: an unknown tool is a JSON-RPC error `-32602` (invalid params); arguments
//! that do not fit the tool's input schema (a missing `skill`, a number for a string, an
//! `offset` that is no count) are a tool result with `isError` from 2025-11-25 on (SEP-1303:
//! input validation errors are tool execution errors, so the model reads what was wrong and a
//! valid call), `-32602` before. The tools of both [styles](crate::tools::ToolStyle) are known
//! whichever is listed; while no skill is visible no tool is. A known tool with well-formed
//! arguments naming a skill, file, section or chunk that does not exist, or a load refused by
//! the approval hook, is a tool result with `isError` and a message the model can act on. A
//! resource that is not there is an error with the URI asked for in `data.uri` (`-32002`
//! before 2026-07-28, `-32602` from it). 2026-07-28 removed `logging/setLevel` (and `ping`,
//! `resources/subscribe`): such a request answers "method not found" (`-32601`).
//!
//! To a client of 2026-07-28 every cacheable answer (`server/discover`, the lists,
//! `resources/read`, `skills/list`, `skills/get`) says how long it may be kept
//! ([`Options::cache_ttl`]: an hour for a fixed set, a reload interval for a live one) and
//! whether shared caches may keep it (`public` unless a token has settings of its own; a file
//! of a skill under `ask` is never cached).
//!
//! After `logging/setLevel` (nothing is logged before it; a client of 2026-07-28 cannot send it), the server sends
//! `notifications/message` (logger `skills`) at or above the level set: `info` when a live set
//! changed in what this client may see, `notice` when the host is asked to approve a skill
//! under `ask`, `warning` when a load was refused, and, when the client sets its level, a
//! `warning` for each error of an overlay's last scan about a skill it may see, or about a
//! folder that never loaded whose name its rules do not deny (`not served:
//! nameless/SKILL.md:1:1: error[name-missing]`, the path relative to its root, so the operator
//! can fix it). Only names of skills the client may see appear; absolute paths, diagnostics'
//! messages and other clients' activity never do.
//!
//! For a live set (a [`Source::live`], an overlay), `resources/subscribe`
//! takes the URI of a served file; when its content changes (a reload) or it goes away, the
//! client gets `notifications/resources/updated` for it, within a fraction of a second and
//! without a request of its own. A fixed set cannot change, so its capabilities do not list
//! `resources.subscribe` and subscribing answers "method not found".
//!
//! # Limits on what a client can make the server hold
//!
//! A client can send requests faster than it reads the answers. [`McpServer::serve`] (and so
//! [`McpServer::run_stdio`]) bounds the requests being answered: at most
//! [`Options::max_in_flight`] per connection (8 by default) and
//! [`Options::server_max_in_flight`] across the servers built from one `Options` (64 by
//! default; servers given no `Options` share one limit of 64 for the process). A request counts from when it is
//! read until its answer has been written to the transport; while the limit is reached the
//! server reads nothing more from that client, so the client's own writes wait (backpressure)
//! and the server's memory stays flat whatever the client pipelines. A client must therefore read answers while it
//! sends; one that writes thousands of requests before reading any stalls itself, not the
//! server. A client that never reads keeps its share of the process limit until it disconnects:
//! with the defaults, eight such connections hold all 64, and the others wait; size the process
//! limit for the connections one program serves. A request reusing the id of a request still
//! being answered waits for that answer.
//! A script run counts too, until it ends, even after nobody waits for its answer.
//! `notifications/cancelled` for a request and the client's disconnect stop its script run (an
//! `async` script is dropped, a script file's process killed through
//! [`FileRun::wait`](crate::tools::FileRun::wait), a plain function runs to its end); the
//! cancelled request is still answered, saying so (the client drops the late answer), which
//! keeps the count exact. With rmcp's own serving API (the handler given to rmcp directly), the
//! transport is rmcp's and these limits do not apply; nor does the clipping of a `skills/get`
//! URI that is not a `SKILL.md` one, which rmcp's dispatch refuses before the handler runs.
//!
//! Whatever a request echoes back in an error (a URI, a name, a path) is cut to 100 characters,
//! on every surface. Over stdio, a request nested deeper than the JSON parser reads (127
//! levels) is answered with an error carrying its id; a notification nested so deep has no id
//! to answer and is dropped. Over another transport given to [`McpServer::serve`], rmcp's
//! transport drops such a line unanswered.
//!
//! # Streamable HTTP
//!
//! [`McpServer::serve_http`] (feature `mcp-http`) builds a server for every session (stateful,
//! the default: the client keeps an `Mcp-Session-Id`, and its approvals, loads and
//! subscriptions are that session's) or for every request ([`Options::stateless`]: no session,
//! so any number of replicas can answer behind a load balancer without sticky routing;
//! embedded sets are identical in every replica). Safe by default:
//!
//! - The endpoint is `/mcp`; any other path answers 404, but for the well-known index of the
//!   skills anyone may see (`/.well-known/agent-skills/`) when `Options::well_known` asks for
//!   it (feature `package`; never with bearer tokens).
//! - `Host` must name a loopback address (`localhost`, `127.0.0.1`, `::1`) or the address the
//!   server is bound to, unless more are allowed ([`Options::allowed_hosts`]): a DNS-rebinding
//!   page cannot reach a loopback server under its own name.
//! - A request with an `Origin` header (what a browser sends) is refused with 403 unless the
//!   origin is the server's own or allowed ([`Options::allowed_origins`]). Requests without
//!   `Origin` (MCP clients that are not browsers) pass.
//! - With bearer tokens ([`McpServer::with_token`]), a request without
//!   `Authorization: Bearer <token>` gets 401 (compared in constant time). A token can have
//!   settings of its own (its own permission rules, say, so one team's agents see their skills
//!   only). Every token has its own sessions: a session opened with one token is unknown (404)
//!   under another, for every method.
//! - A request body over [`Options::max_body`] is refused (413), at most
//!   [`Options::server_max_in_flight`] requests are answered at once, and at most
//!   [`Options::max_sessions`] sessions are held (one more is answered 503). One session has at
//!   most [`Options::max_in_flight`] of the server's requests in flight, as a stdio connection:
//!   a client that floods one session waits behind itself, not in front of the others.
//! - Connections: a client has [`Options::header_read_timeout`] to send a request's head and
//!   again its body, a connection with no request in progress is closed after
//!   [`Options::idle_timeout`], and at most [`Options::max_connections`] are open at once (the
//!   next waits in the listen queue). Connections that send nothing are closed, so a new client
//!   is answered within the header-read timeout even while more of them are held than the
//!   process has descriptors. Sessions' event streams (GET), which hold their connection as
//!   long as the session lives, take at most half the connections; one more is answered 503
//!   with `Retry-After`.
//! - When its shutdown completes, the server accepts no new connection, lets the requests in
//!   flight finish (up to 10 s), then closes the sessions.
//!
//! # `SKILL.md` over MCP
//!
//! A skill's `SKILL.md` resource is the file a host expects: YAML frontmatter, then the body.
//! The frontmatter is written from the skill's fields (every value quoted as JSON, which is
//! valid YAML), so it matches the `frontmatter` of `skills/list` exactly; its digest is computed
//! when the entry is built. Every other file is served byte for byte, with the digest computed
//! when the crate compiled (embedded skills) or when the file was read (skills from disk).
//!
//! ```no_run
//! use skills_embed::mcp::McpServer;
//! use skills_embed::policy::Permissions;
//! use skills_embed::tools::Settings;
//! # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
//!
//! fn main() -> std::io::Result<()> {
//!     // `SKILLS` is what `skills_embed::skills!("skills")` generates.
//!     let settings = Settings { permissions: Permissions::new().deny("internal-*"), ..Settings::default() };
//!     McpServer::new(&SKILLS, settings).run_stdio()
//! }
//! ```
//!
//! [`SkillSet`]: crate::SkillSet
//! [`Tools`]: crate::tools::Tools
//! [`Session`]: crate::tools::Session
//! [`Permissions`]: crate::policy::Permissions
//! [`Source::live`]: crate::tools::Source::live
//! [`Grants`]: crate::policy::Grants

/// The rmcp release this module is built on (3.x), for naming its types without a second
/// dependency that could drift to another version.
///
/// ```
/// use skills_embed::mcp::rmcp::ServerHandler;
/// fn is_a_handler<H: ServerHandler>() {}
/// is_a_handler::<skills_embed::mcp::McpServer>();
/// ```
#[doc(no_inline)]
pub use rmcp;

mod approval;
mod cache;
pub(crate) mod connection;
mod guarded;
mod handler;
#[cfg(feature = "mcp-http")]
pub(crate) mod http;
mod info;
mod notify;
mod options;
mod prompt;
mod request;
mod server;
mod session;
pub(crate) mod skill_md;
pub(crate) mod uri;

pub use options::Options;
pub use server::McpServer;

/// The URI scheme of skill files: `skill://<name>/<path>`.
const SCHEME: &str = "skill://";

/// The name of the prompt that holds the L1 listing (`prompts/get` with this name).
const LISTING_PROMPT: &str = "skills";

/// The logger name of the server's log notifications.
const LOGGER: &str = "skills";

/// How often a live set is checked for changes while a client has subscriptions.
const SUBSCRIPTION_POLL: std::time::Duration = std::time::Duration::from_millis(200);

/// The `subscriptions/listen` streams one connection keeps open at once: each is a task that
/// polls the set, and a client needs one or two (a stream per filter).
const MAX_LISTENS: usize = 8;

/// The media type of a `SKILL.md` resource.
const MARKDOWN: &str = "text/markdown";

/// The media type the skills extension gives a folder.
const DIRECTORY: &str = "inode/directory";

/// The deepest nesting of arrays and objects a request may have: serde_json, which reads
/// every request, refuses more. Over stdio a deeper request is answered with an error that
/// carries its id.
const MAX_JSON_DEPTH: usize = 127;

/// The method a request nested too deep is rewritten to, so the server answers it with an
/// error under its id (a client that sends it gets the same error).
const TOO_DEEP: &str = "skills-embed/nested-too-deep";

/// How long a 2026-07-28 client may keep an answer about a fixed set, by default: it cannot
/// change while the server runs.
const FIXED_CACHE_TTL: std::time::Duration = std::time::Duration::from_secs(3600);

/// How long a 2026-07-28 client may keep an answer about a live set, by default: the interval
/// `skills serve` reloads its folders at.
const LIVE_CACHE_TTL: std::time::Duration = std::time::Duration::from_secs(1);
