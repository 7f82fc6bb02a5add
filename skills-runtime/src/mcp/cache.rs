//! The cache hints of MCP 2026-07-28 (SEP-2549): how long a client may keep a cacheable
//! answer and whether shared caches may.

use std::time::Duration;

use rmcp::model::{
    CacheScope, GetSkillResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListSkillsResult, ListToolsResult, ReadResourceResult,
};

use super::{FIXED_CACHE_TTL, LIVE_CACHE_TTL};

/// What this server's cacheable answers say to a client of 2026-07-28 (SEP-2549's `ttlMs` and
/// `cacheScope`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Cache {
    /// [`Options::cache_ttl`](super::Options::cache_ttl) as given (`None`: by the kind of set).
    pub(super) ttl: Option<Duration>,
    /// Whether every answer is the same whoever asks (no token has settings of its own), so
    /// shared caches may keep it.
    pub(super) public: bool,
}

impl Cache {
    /// The cache hints of every cacheable answer: [`Options::cache_ttl`](super::Options::cache_ttl),
    /// by default an hour for a fixed set and a reload interval for a `live` one; `public` when
    /// the answer is the same whoever asks.
    pub(super) fn values(&self, live: bool) -> (u64, CacheScope) {
        let ttl = self.ttl.unwrap_or(if live {
            LIVE_CACHE_TTL
        } else {
            FIXED_CACHE_TTL
        });
        let scope = if self.public {
            CacheScope::Public
        } else {
            CacheScope::Private
        };
        (u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX), scope)
    }
}

/// A cacheable answer (SEP-2549): where its `ttlMs` and `cacheScope` go.
pub(super) trait Cacheable: Sized {
    fn hint_fields(&mut self) -> (&mut Option<u64>, &mut Option<CacheScope>);

    /// The answer with `hints`, when the client's revision takes them (`None`: as it is).
    fn cached(mut self, hints: Option<(u64, CacheScope)>) -> Self {
        if let Some((ttl, scope)) = hints {
            let (ttl_ms, cache_scope) = self.hint_fields();
            *ttl_ms = Some(ttl);
            *cache_scope = Some(scope);
        }
        self
    }
}

macro_rules! cacheable {
    ($($answer:ty),*) => {$(
        impl Cacheable for $answer {
            fn hint_fields(&mut self) -> (&mut Option<u64>, &mut Option<CacheScope>) {
                (&mut self.ttl_ms, &mut self.cache_scope)
            }
        }
    )*};
}

// `resources/directory/read` answers a `ListResourcesResult`.
cacheable!(
    ListToolsResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ReadResourceResult,
    ListSkillsResult,
    GetSkillResult
);
