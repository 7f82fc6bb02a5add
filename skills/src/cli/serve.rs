//! `skills serve`: an overlay of the target served over MCP (stdio, or Streamable HTTP), its
//! permission and token files.

use std::path::Path;

use super::args::{Common, Target};
use super::check::plural;
use super::{Outcome, base, left_out, left_out_line};
use crate::disk::Discovery;
use crate::tools::Settings;

/// How often the served folders are read again for changes; also how long a 2026-07-28 client
/// may keep an answer (`ttlMs`), so it sees an edit within two of these.
const RELOAD: std::time::Duration = std::time::Duration::from_secs(1);

/// Reads a permission rules file (`Permissions::parse` format).
pub(super) fn read_permissions(path: &Path) -> Result<crate::policy::Permissions, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    crate::policy::Permissions::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// `skills serve --http` and the flags that go with it.
pub(super) struct HttpFlags {
    pub(super) addr: std::net::SocketAddr,
    pub(super) tokens: Vec<(String, Option<crate::policy::Permissions>)>,
    pub(super) stateless: bool,
    pub(super) hosts: Vec<String>,
    pub(super) origins: Vec<String>,
    pub(super) max_sessions: usize,
    pub(super) max_connections: Option<usize>,
    pub(super) header_read_timeout: std::time::Duration,
    pub(super) idle_timeout: std::time::Duration,
}

/// How `ask` approvals outlast a request: the key their `requestState` is sealed with, and
/// where the "always" answers are kept.
pub(super) struct Approvals {
    pub(super) state_key: Option<crate::mcp::rmcp::model::RequestStateCodec>,
    pub(super) grants_file: Option<std::path::PathBuf>,
}

/// The largest state key file read: a key is some dozens of bytes.
const MAX_KEY_FILE: u64 = 4096;

/// The key in `path` (its bytes as they are, at least 32).
pub(super) fn read_state_key(
    path: &Path,
) -> Result<crate::mcp::rmcp::model::RequestStateCodec, String> {
    use std::io::Read;
    let mut key = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_KEY_FILE + 1).read_to_end(&mut key))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if key.len() as u64 > MAX_KEY_FILE {
        return Err(format!(
            "{}: the state key file is over {MAX_KEY_FILE} bytes; a key is 32 to 64 random bytes \
             (make one with `head -c 32 /dev/urandom > FILE`)",
            path.display()
        ));
    }
    crate::mcp::rmcp::model::RequestStateCodec::try_new(key).map_err(|e| {
        format!(
            "{}: {e}; make a key with `head -c 32 /dev/urandom > FILE` and give every replica \
             the same file",
            path.display()
        )
    })
}

/// The bearer tokens in `path`, one a line, each with the rules of the permissions file that
/// may follow it; a file with no token is refused.
pub(super) fn read_tokens(
    path: &Path,
) -> Result<Vec<(String, Option<crate::policy::Permissions>)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let folder = path.parent().unwrap_or(Path::new("."));
    let mut tokens = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (token, rules) = match line.split_once(char::is_whitespace) {
            Some((token, file)) => (token, Some(read_permissions(&folder.join(file.trim()))?)),
            None => (line, None),
        };
        tokens.push((token.to_owned(), rules));
    }
    if tokens.is_empty() {
        return Err(format!(
            "{}: the token file holds no token; put the bearer token clients send in it",
            path.display()
        ));
    }
    Ok(tokens)
}

/// The SKILL.md files the overlay serves now, named as the PATHs were given.
fn served(overlay: &crate::disk::Overlay, target: &Target) -> Vec<std::path::PathBuf> {
    let manifests = overlay
        .sources()
        .into_values()
        .map(|(_, manifest)| manifest);
    match target {
        Target::Paths(paths) => manifests
            .map(|m| super::show::given_path(paths, &m))
            .collect(),
        Target::Discover => manifests.collect(),
    }
}

/// `skills serve`: an overlay of the target's folder (or of what discovery finds) over no
/// embedded skills, served over stdio (or Streamable HTTP with `--http`) and reloaded when its
/// files change.
pub(super) fn serve(
    target: &Target,
    common: &Common,
    rules: crate::policy::Permissions,
    (only, deny): (&[String], &[String]),
    config: Settings,
    approvals: Approvals,
    http: Option<HttpFlags>,
) -> Outcome {
    use std::sync::Arc;

    use crate::disk::Overlay;
    use crate::mcp::McpServer;
    use crate::policy::Access;

    let unreadable = super::show::unreadable(target, common);
    if !unreadable.is_empty() {
        for d in &unreadable {
            eprintln!("{d}");
        }
        return Outcome::Usage;
    }
    let mut discovery = common.discovery(target);
    // A reload is bounded in time as discovery's are, so no tree can hold one for ever.
    discovery.scan.max_time = Discovery::default().scan.max_time;
    // Over the binary's Rust scripts, which the overlay keeps with the skills of their names.
    let overlay = Arc::new(Overlay::new(base(), discovery));
    let diagnostics: Vec<_> = overlay
        .diagnostics()
        .into_iter()
        .map(|d| super::show::as_given(target, d))
        .collect();
    for d in &diagnostics {
        eprintln!("{d}");
    }
    if let Some(line) = left_out_line(&left_out(&diagnostics, &served(&overlay, target))) {
        eprintln!("{line}");
    }
    let set = overlay.snapshot();
    let over = http
        .as_ref()
        .map_or_else(|| "stdio".to_owned(), |h| format!("http://{}/mcp", h.addr));
    eprintln!(
        "skills serve: {} skill{} over {over}",
        set.len(),
        plural(set.len())
    );

    // The last matching rule wins: the file's rules, then --only, then --deny.
    let restrict = |rules: crate::policy::Permissions| {
        let mut permissions = if only.is_empty() {
            rules
        } else {
            only.iter()
                .fold(rules.with_default(Access::Deny), |p, pattern| {
                    p.allow(pattern.as_str())
                })
        };
        for pattern in deny {
            permissions = permissions.deny(pattern.as_str());
        }
        permissions
    };
    let permissions = restrict(rules);

    // Reloads run on a thread of their own (`Overlay::watch`, at the lowest CPU priority), a
    // second after a change the file system reports (or a poll finds); requests take the
    // overlay's last complete snapshot, which a reload swaps in whole when it is done, so a
    // slow reload never delays an answer (issue 13: a reload on the request path, walking a
    // link to `/`, left the server answering nothing, not even `ping`).
    drop(set);
    let named = target.clone();
    // Weak: the watcher lives as long as the overlay, and must not keep it alive.
    let watched = Arc::downgrade(&overlay);
    let _watching = overlay
        .watch(RELOAD, move |report| {
            let diagnostics: Vec<_> = report
                .diagnostics
                .iter()
                .map(|d| super::show::as_given(&named, d.clone()))
                .collect();
            for d in &diagnostics {
                eprintln!("{d}");
            }
            let served = watched
                .upgrade()
                .map(|overlay| served(&overlay, &named))
                .unwrap_or_default();
            if let Some(line) = left_out_line(&left_out(&diagnostics, &served)) {
                eprintln!("{line}");
            }
            eprintln!(
                "skills serve: reloaded (added {:?}, removed {:?}, changed {:?})",
                report.added, report.removed, report.changed
            );
        })
        .map_err(|e| {
            eprintln!("skills serve: cannot start the reload thread ({e}); serving without reloads")
        });
    let with = |permissions| Settings {
        permissions,
        ..config.clone()
    };
    let server = McpServer::new(Arc::clone(&overlay), with(permissions));
    let Approvals {
        state_key,
        grants_file,
    } = approvals;
    let served = match http {
        None => server
            .with_options(crate::mcp::Options {
                grants_file,
                ..crate::mcp::Options::default()
            })
            .run_stdio(),
        Some(flags) => {
            let options = crate::mcp::Options {
                state_key,
                grants_file,
                stateless: flags.stateless,
                // A 2026-07-28 client keeps an answer as long as the folders go unread.
                cache_ttl: Some(RELOAD),
                allowed_hosts: flags.hosts,
                allowed_origins: flags.origins,
                max_sessions: flags.max_sessions,
                max_connections: flags.max_connections,
                header_read_timeout: flags.header_read_timeout,
                idle_timeout: flags.idle_timeout,
                // The skills this server shows anyone, as a site's well-known index too.
                well_known: true,
                ..crate::mcp::Options::default()
            };
            let server = flags
                .tokens
                .into_iter()
                .fold(server.with_options(options), |server, (token, rules)| {
                    server.with_token(token, rules.map(|r| with(restrict(r))))
                });
            crate::__private::run_http(server, flags.addr)
        }
    };
    match served {
        Ok(()) => Outcome::Ok,
        Err(e) => {
            eprintln!("error: {e}");
            Outcome::Usage
        }
    }
}
