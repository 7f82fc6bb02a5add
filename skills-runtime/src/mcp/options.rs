//! [`Options`]: what an MCP server says of itself and the limits on what a client can make it
//! hold, one value for every transport.

use std::time::Duration;

use super::connection::{SERVER_MAX_IN_FLIGHT, SharedLimit};

/// What an [`McpServer`](super::McpServer) says of itself, and the limits on what a client can
/// make it hold: one value for every transport, each field with a documented default.
/// [`McpServer::with_options`](super::McpServer::with_options) takes it.
///
/// The fields from `stateless` on apply to Streamable HTTP only
/// ([`McpServer::serve_http`](super::McpServer::serve_http), feature `mcp-http`); the
/// in-flight limits apply to every transport (see the
/// [module documentation](super#limits-on-what-a-client-can-make-the-server-hold)).
///
/// ```
/// use std::time::Duration;
/// use skills_embed::mcp::{McpServer, Options};
/// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
/// let options = Options {
///     name: "acme-skills".into(),
///     version: "2.1.0".into(),
///     max_in_flight: 4,
///     server_max_in_flight: 16,
///     allowed_hosts: vec!["skills.example.com".into()],
///     idle_timeout: Duration::from_secs(2),
///     ..Options::default()
/// };
/// let server = McpServer::new(&SKILLS, Default::default()).with_options(options);
/// # drop(server);
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    /// The name the server gives in its `initialize` answer. Default `skills`.
    pub name: String,
    /// The version the server gives in its `initialize` answer. Default: this crate's version.
    pub version: String,
    /// Answers a second load of a body already loaded on this connection briefly (see
    /// [`Session::handle`](crate::tools::Session::handle)). Default `false`: an MCP host often
    /// keeps one connection for many conversations, where "already loaded" would be wrong.
    pub remember_loads: bool,
    /// Requests of one connection (stdio, a transport) or one HTTP session answered at once:
    /// a request counts from when it is read until its answer is written and the work it
    /// started (a script run) has ended; while they are all taken nothing more is read from
    /// that client (over HTTP, its next request waits). Default 8; at least one.
    pub max_in_flight: usize,
    /// Requests answered at once by every server built from this value (or a clone of it)
    /// together, its HTTP sessions included: the bound for the whole process when one program
    /// serves many connections. Default 64 (with files of up to 2 MB, some hundreds of
    /// megabytes at worst); at least one. A server given no `Options` shares one process-wide
    /// limit of 64 with every other such server. Over HTTP a session's event stream (GET) does
    /// not count.
    ///
    /// ```
    /// use skills_embed::mcp::{McpServer, Options};
    /// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
    /// // These two servers answer at most 32 requests at once together.
    /// let options = Options { server_max_in_flight: 32, ..Options::default() };
    /// let first = McpServer::new(&SKILLS, Default::default()).with_options(options.clone());
    /// let second = McpServer::new(&SKILLS, Default::default()).with_options(options);
    /// # drop((first, second));
    /// ```
    pub server_max_in_flight: usize,
    /// Not a public API: what the servers built from this value share (their in-flight limit).
    #[doc(hidden)]
    pub shared: SharedLimit,
    /// How long a client of protocol 2026-07-28 may keep a cacheable answer: the `ttlMs` of
    /// `server/discover`, `tools/list`, `prompts/list`, `resources/list`,
    /// `resources/templates/list`, `resources/read`, `skills/list` and `skills/get`. `None` (the
    /// default): one hour for a fixed set (the one `skills!` embeds cannot change while the
    /// server runs), one second for a live set (the interval `skills serve` reloads its folders
    /// at; a program that reloads at another pace gives its interval here, so a client sees a
    /// change at most one interval after the reload that found it). `Some(Duration::ZERO)`:
    /// nothing is cached.
    ///
    /// The `cacheScope` goes with it: `public` (shared caches may keep the answer) when the
    /// answer is the same whoever asks, that is with no bearer token or with tokens that all
    /// serve the server's own settings ([`McpServer::with_token`](super::McpServer::with_token)
    /// with `None`); `private` when a token has settings of its own. A file of a skill under
    /// `ask` is `ttlMs: 0`, `private`: each read asks. Clients of earlier revisions get no hints.
    ///
    /// ```
    /// use std::time::Duration;
    /// use skills_embed::mcp::{McpServer, Options};
    /// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
    /// // A set that changes once a day: clients may keep answers ten minutes.
    /// let options = Options { cache_ttl: Some(Duration::from_secs(600)), ..Options::default() };
    /// let server = McpServer::new(&SKILLS, Default::default()).with_options(options);
    /// # drop(server);
    /// ```
    pub cache_ttl: Option<Duration>,
    /// The key `requestState`s are sealed with (HMAC-SHA256, rmcp's codec; a keyring rotates
    /// keys): when a 2026-07-28 client calls a skill under `ask` and the host gave no approval
    /// hook, the answer is `input_required` with an elicitation and a `requestState` bound to the
    /// caller (its bearer token) that expires after ten minutes. Replicas behind a balancer
    /// share one key, so the retry may reach any of them (`skills serve --state-key-file`).
    /// Default `None`: a key made for this process, so the retry completes only on the
    /// replica that asked.
    ///
    /// ```
    /// use skills_embed::mcp::rmcp::model::RequestStateCodec;
    /// use skills_embed::mcp::Options;
    /// let key = std::fs::read("/etc/skills/state.key").unwrap_or_else(|_| vec![7; 32]);
    /// let options = Options { state_key: Some(RequestStateCodec::try_new(key)?), ..Options::default() };
    /// # drop(options);
    /// # Ok::<(), skills_embed::mcp::rmcp::model::RequestStateError>(())
    /// ```
    pub state_key: Option<rmcp::model::RequestStateCodec>,
    /// A file the "always" answers are kept in, one JSON line per answer, appended: replicas
    /// given the same file (and the same [`state_key`](Self::state_key)) honour each other's
    /// answers, and a restart keeps them. An answer belongs to its caller (the bearer token;
    /// every client of a server without tokens is one caller) and to the skill's content as it
    /// was approved. The file is created (mode 0600) if missing, never followed through a link,
    /// read again when it changes, and not written past 16 MiB. Default `None`: the answers
    /// last as long as the server, shared by the caller's sessions.
    pub grants_file: Option<std::path::PathBuf>,
    /// HTTP: serve without sessions, every request answered by a new server in plain JSON, so
    /// replicas need no sticky routing; what belongs to a session (`remember_loads`,
    /// `logging/setLevel`, `resources/subscribe`, list-changed notifications) lasts one
    /// request, while `always` answers belong to the caller (its token) and an `ask` approval
    /// completes on any replica sharing [`state_key`](Self::state_key); a 2026-07-28 `subscriptions/listen` is one request, its
    /// answer the stream of changes, so it works. Default `false`.
    pub stateless: bool,
    /// HTTP: names accepted in `Host` (with or without a port) besides the loopback ones
    /// (`localhost`, `127.0.0.1`, `::1`) and the address the server is bound to: the names
    /// clients use to reach a server bound to a non-loopback address. Default none.
    pub allowed_hosts: Vec<String>,
    /// HTTP: browser origins accepted (`scheme://host:port`; `:*` for any port) besides the
    /// server's own; every other `Origin` is refused with 403, requests without one pass.
    /// Default none.
    pub allowed_origins: Vec<String>,
    /// HTTP: the largest request body, in bytes; a larger one is refused with 413. Default
    /// 1 MiB (a `tools/call` is some hundred bytes).
    pub max_body: usize,
    /// HTTP: sessions held at once, over all tokens; a request that would open one more is
    /// answered 503 with `Retry-After`. A session ends when its client sends `DELETE` or after
    /// 5 minutes idle. Default 1,024.
    pub max_sessions: usize,
    /// HTTP: connections open at once (at least one); the next waits in the listen queue
    /// until one closes, and sessions' event streams hold at most half of them. `None` (the
    /// default): 4,096, or three quarters of the descriptor limit (`ulimit -n`) if lower, so
    /// the server keeps descriptors for its files and scripts.
    pub max_connections: Option<usize>,
    /// HTTP: how long a connection has to send a request's head, from when it was accepted or
    /// its previous answer ended, and then as long for the body; a connection late with either
    /// is closed (408 for a late body). Default 10 s.
    pub header_read_timeout: Duration,
    /// HTTP: how long a connection that has been answered stays open with no request in
    /// progress (HTTP keep-alive). Default 5 s.
    pub idle_timeout: Duration,
    /// HTTP (feature `package`): also answer `GET /.well-known/agent-skills/index.json`, the
    /// Agent Skills Discovery index (v0.2.0) of the skills an anonymous client may see, and the
    /// files and archives it names, at `/.well-known/agent-skills/{name}/{path}` and
    /// `/.well-known/agent-skills/{name}.zip`, so installers that read a site's index can
    /// install from this server. What is listed is what the server's own settings show a model
    /// (permissions, `deny`, the hide predicate; a token's settings play no part): a hidden
    /// skill is neither listed nor fetchable, and every miss is the same bare 404. Answered
    /// from the source's current snapshot, so a reload shows up; `ETag` is each file's digest.
    /// The route is public, checked for `Host` as `/mcp` is; a server that takes bearer
    /// tokens ([`McpServer::with_token`](super::McpServer::with_token)) does not serve it, since
    /// the index would show without one what the tokens guard. Default `false`;
    /// `skills serve --http` turns it on.
    #[cfg(feature = "package")]
    pub well_known: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            name: "skills".to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            remember_loads: false,
            max_in_flight: 8,
            server_max_in_flight: SERVER_MAX_IN_FLIGHT,
            shared: SharedLimit::default(),
            cache_ttl: None,
            state_key: None,
            grants_file: None,
            stateless: false,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            max_body: 1 << 20,
            max_sessions: 1024,
            max_connections: None,
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(5),
            #[cfg(feature = "package")]
            well_known: false,
        }
    }
}

impl Options {
    /// The in-flight limit of a server built from these options.
    pub(super) fn server_limit(&self) -> super::connection::InFlightLimit {
        self.shared.get(self.server_max_in_flight)
    }

    /// What a server given no `Options` serves with: the defaults, and the process-wide limit.
    pub(super) fn process() -> Self {
        Options {
            shared: SharedLimit::process(),
            ..Options::default()
        }
    }
}
