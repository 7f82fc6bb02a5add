//! `GET /.well-known/agent-skills/...` ([`Options::well_known`](crate::mcp::Options)): the
//! Agent Skills Discovery index (RFC v0.2.0 as revised on 2026-03-12,
//! <https://github.com/cloudflare/agent-skills-discovery-rfc/blob/main/README.md>: one artifact
//! per skill) of what an anonymous client may see, each artifact it names (a `SKILL.md`, or a
//! `.zip` with `SKILL.md` at its root), and every file of a listed skill at `{name}/{path}`,
//! from the source's current snapshot.
//!
//! What is listed is what the server's own settings show a model ([`Tools::visible`]: the
//! permissions, `deny` and the hide predicate; a token's settings play no part): a hidden skill
//! is neither in the index nor fetchable, and every miss is the same bare 404, so a request
//! cannot tell a hidden name from an unknown one. The index and the archives are built once per
//! snapshot (a reload makes a new snapshot, so it shows up at the next request) and kept while it
//! is current; files are read from the snapshot on each request.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Response, StatusCode, header};
use http_body_util::{BodyExt, Full};

use super::body::Body;
use crate::host::lock;
use crate::model::skill::Skill;
use crate::package::{
    INDEX_FILE, WELL_KNOWN_PREFIX, check_indexable, index_of, needs_archive, packed_files,
    skill_zip, to_json,
};
use crate::tools::{Settings, Snapshot, Source, Tools};

/// The route's state: where the set comes from, what an anonymous client may see of it, and
/// the index of the last snapshot.
pub(super) struct Site {
    source: Source,
    settings: Arc<Settings>,
    /// The names accepted in `Host`, as the MCP endpoint accepts them.
    hosts: Vec<String>,
    built: Mutex<Option<Arc<Built>>>,
}

/// What one snapshot serves.
struct Built {
    snapshot: Snapshot,
    /// `index.json`'s bytes and digest.
    index: (Bytes, String),
    /// `{name}/{path}` of every file listed, with its digest.
    files: BTreeMap<String, String>,
    /// `{name}.zip` of every archive listed (`SKILL.md` at its root), with its bytes and digest.
    archives: BTreeMap<String, (Bytes, String)>,
}

impl Site {
    pub(super) fn new(source: Source, settings: Arc<Settings>, hosts: Vec<String>) -> Self {
        Site {
            source,
            settings,
            hosts,
            built: Mutex::new(None),
        }
    }

    /// The same route, accepting `hosts` in `Host` (once the address bound is known).
    pub(super) fn allowing(&self, hosts: Vec<String>) -> Self {
        Site::new(self.source.clone(), Arc::clone(&self.settings), hosts)
    }

    /// The route's path pattern.
    pub(super) fn route() -> String {
        format!("{WELL_KNOWN_PREFIX}{{*path}}")
    }

    /// The answer to a GET of `path` (what follows the well-known prefix).
    pub(super) fn answer(&self, path: &str, headers: &HeaderMap) -> Response<Body> {
        if !self.host_allowed(headers) {
            return bare(StatusCode::FORBIDDEN, "Forbidden: Host not allowed.");
        }
        let built = self.current();
        let found = if path == INDEX_FILE {
            Some((
                built.index.0.clone(),
                built.index.1.clone(),
                "application/json",
            ))
        } else if let Some((bytes, digest)) = built.archives.get(path) {
            Some((bytes.clone(), digest.clone(), "application/zip"))
        } else if let Some(digest) = built.files.get(path) {
            file(&built.snapshot, path).map(|(bytes, media)| (bytes, digest.clone(), media))
        } else {
            None
        };
        let Some((bytes, digest, media)) = found else {
            return bare(StatusCode::NOT_FOUND, "Not found.");
        };
        let etag = format!("\"{digest}\"");
        let unchanged = headers
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.split(',')
                    .any(|tag| tag.trim() == etag || tag.trim() == "*")
            });
        let mut answer = if unchanged {
            let mut answer = Response::new(Full::new(Bytes::new()).boxed());
            *answer.status_mut() = StatusCode::NOT_MODIFIED;
            answer
        } else {
            Response::new(Full::new(bytes).boxed())
        };
        let headers = answer.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(media));
        if let Ok(etag) = HeaderValue::from_str(&etag) {
            headers.insert(header::ETAG, etag);
        }
        answer
    }

    /// What the current snapshot serves, built on its first request.
    fn current(&self) -> Arc<Built> {
        let snapshot = self.source.snapshot();
        let mut built = lock(&self.built);
        if let Some(done) = built
            .as_ref()
            .filter(|b| Arc::ptr_eq(&b.snapshot, &snapshot))
        {
            return Arc::clone(done);
        }
        // Built under the lock: concurrent first requests wait for one build.
        let fresh = Arc::new(Built::new(snapshot, &self.settings));
        *built = Some(Arc::clone(&fresh));
        fresh
    }

    /// Whether `Host` names this server, as the MCP endpoint checks it (DNS rebinding): a
    /// request without one passes, as HTTP/1.0 may send none.
    fn host_allowed(&self, headers: &HeaderMap) -> bool {
        let Some(host) = headers.get(header::HOST) else {
            return true;
        };
        let Ok(host) = host.to_str() else {
            return false;
        };
        let host = host_name(host);
        self.hosts
            .iter()
            .any(|allowed| host_name(allowed).eq_ignore_ascii_case(host))
    }
}

impl Built {
    fn new(snapshot: Snapshot, settings: &Arc<Settings>) -> Self {
        let tools = Tools::shared(Arc::clone(&snapshot), Arc::clone(settings));
        let skills: Vec<&Skill> = tools
            .visible()
            .filter(|skill| check_indexable(skill).is_ok())
            .collect();
        let mut archives = BTreeMap::new();
        for skill in skills.iter().filter(|skill| needs_archive(skill)) {
            // A skill that cannot be zipped is left out of the index: its entry needs one.
            if let Ok(zip) = skill_zip(skill) {
                let digest = crate::package::file_digest(&zip);
                archives.insert(format!("{}.zip", skill.name()), (Bytes::from(zip), digest));
            }
        }
        let index = index_of(skills.iter().copied(), |name| {
            archives.get(&format!("{name}.zip")).map(|(_, d)| d.clone())
        });
        // Every file of a listed skill stays readable at `{name}/{path}` (progressive reads).
        let files = skills
            .iter()
            .filter(|skill| index.skills.iter().any(|e| e.name == skill.name()))
            .flat_map(|skill| {
                packed_files(skill).into_iter().map(|f| {
                    let digest = crate::package::file_digest(&f.bytes);
                    (format!("{}/{}", skill.name(), f.path), digest)
                })
            })
            .collect();
        let json = to_json(&index);
        let digest = crate::package::file_digest(json.as_bytes());
        drop(tools);
        Built {
            snapshot,
            index: (Bytes::from(json), digest),
            files,
            archives,
        }
    }
}

/// A listed file's bytes as served (`SKILL.md` whole) and its media type.
fn file(snapshot: &Snapshot, key: &str) -> Option<(Bytes, &'static str)> {
    let (name, path) = key.split_once('/')?;
    let skill = snapshot.get(name).ok()?;
    let media = if path.ends_with(".md") {
        "text/markdown; charset=utf-8"
    } else {
        skill.load(path).ok()?.media_type()
    };
    packed_files(skill)
        .into_iter()
        .find(|f| f.path == path)
        .map(|f| (Bytes::from(f.bytes.into_owned()), media))
}

/// The name part of a `Host` value or an allowed host: without its port, IPv6 without brackets.
fn host_name(host: &str) -> &str {
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    match host.split_once(':') {
        Some((name, port)) if !port.contains(':') => name,
        _ => host,
    }
}

/// A short plain answer that names nothing of the set.
fn bare(status: StatusCode, text: &'static str) -> Response<Body> {
    let mut answer = Response::new(Full::new(Bytes::from_static(text.as_bytes())).boxed());
    *answer.status_mut() = status;
    answer.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    answer
}

#[cfg(test)]
mod tests {
    use super::host_name;

    #[test]
    fn host_names_drop_the_port() {
        assert_eq!(host_name("localhost:8080"), "localhost");
        assert_eq!(host_name("127.0.0.1"), "127.0.0.1");
        assert_eq!(host_name("[::1]:80"), "::1");
        assert_eq!(host_name("::1"), "::1");
        assert_eq!(host_name("skills.example.com"), "skills.example.com");
    }
}
