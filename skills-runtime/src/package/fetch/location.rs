//! Where the index and its artifacts are: the index's URL from a site's, and each entry's `url`
//! resolved against the index (RFC 3986) or inside the index's folder on disk.

use std::path::PathBuf;

use crate::package::index::{WELL_KNOWN_PREFIX, valid_index_path};

/// Where the index is and where its files are.
pub(super) enum Base {
    /// The URL up to and including the index's last `/`.
    Url(String),
    /// The index's folder.
    Dir(PathBuf),
}

/// Whether `location` is a `http://` or `https://` URL.
pub(super) fn is_url(location: &str) -> bool {
    let lower = location.to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// The index's URL: a site without a path means its well-known index.
pub(super) fn index_url(location: &str) -> String {
    let after_scheme = location.find("://").map_or(0, |i| i + 3);
    let path_start = location[after_scheme..]
        .find(['/', '?', '#'])
        .map(|i| i + after_scheme);
    match path_start {
        None => format!("{location}{WELL_KNOWN_PREFIX}index.json"),
        Some(i) if &location[i..] == "/" => {
            format!("{}{WELL_KNOWN_PREFIX}index.json", &location[..i])
        }
        Some(_) => location.to_owned(),
    }
}

/// Where an entry's `url` leads, resolved against the index (RFC 3986 reference resolution):
/// a `http(s)://` URL, or, for an index on disk, a path inside the index's folder. A URL of
/// another scheme, or `http` from an `https` index, is refused (the error says why).
pub(super) enum Target {
    Url(String),
    Dir(String),
}

/// `reference` resolved against `base` (see [`Target`]).
pub(super) fn resolve(base: &Base, reference: &str) -> Result<Target, String> {
    let scheme = reference
        .split_once(':')
        .filter(|(s, _)| !s.contains(['/', '?', '#']))
        .map(|(s, _)| s.to_ascii_lowercase());
    if let Some(scheme) = &scheme
        && scheme != "http"
        && scheme != "https"
    {
        return Err(format!(
            "its url {reference:?} has the scheme {scheme:?}; an index's urls are http, https or relative"
        ));
    }
    match base {
        Base::Url(base) => {
            let base = url::Url::parse(base).map_err(|e| format!("the index's URL: {e}"))?;
            let resolved = base
                .join(reference)
                .map_err(|e| format!("its url {reference:?} is not a URL reference ({e})"))?;
            match resolved.scheme() {
                "https" => {}
                "http" if base.scheme() == "http" => {}
                "http" => {
                    return Err(format!(
                        "its url {reference:?} leads to plain http from an https index; the artifact must be served over https too"
                    ));
                }
                other => {
                    return Err(format!(
                        "its url {reference:?} has the scheme {other:?}; an index's urls are http, https or relative"
                    ));
                }
            }
            Ok(Target::Url(resolved.into()))
        }
        Base::Dir(dir) => {
            if scheme.is_some() {
                return Ok(Target::Url(reference.to_owned()));
            }
            // A root-relative url names the site's well-known folder, which holds the index.
            let relative = match reference.strip_prefix(WELL_KNOWN_PREFIX) {
                Some(rest) if dir.ends_with(WELL_KNOWN_PREFIX.trim_matches('/')) => rest,
                _ => reference,
            };
            if valid_index_path(relative) {
                Ok(Target::Dir(relative.to_owned()))
            } else {
                Err(format!(
                    "its url {reference:?} is not a path inside the index's folder (relative, no `.` or `..` segment, printable ASCII without \\ ? # [ ])"
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_site_means_its_well_known_index() {
        assert_eq!(
            index_url("https://site.test"),
            "https://site.test/.well-known/agent-skills/index.json"
        );
        assert_eq!(
            index_url("https://site.test/"),
            "https://site.test/.well-known/agent-skills/index.json"
        );
        assert_eq!(index_url("http://h:8/x/i.json"), "http://h:8/x/i.json");
    }

    #[test]
    fn urls_resolve_against_the_index_and_never_downgrade() {
        let https = Base::Url("https://site.test/.well-known/agent-skills/".into());
        let url = |base: &Base, r: &str| match resolve(base, r) {
            Ok(Target::Url(url)) => Ok(url),
            Ok(Target::Dir(path)) => Ok(format!("dir:{path}")),
            Err(e) => Err(e),
        };
        assert_eq!(
            url(&https, "pdf/SKILL.md").unwrap(),
            "https://site.test/.well-known/agent-skills/pdf/SKILL.md"
        );
        assert_eq!(
            url(&https, "/.well-known/agent-skills/pdf.zip").unwrap(),
            "https://site.test/.well-known/agent-skills/pdf.zip"
        );
        assert_eq!(
            url(&https, "https://cdn.test/pdf.tar.gz").unwrap(),
            "https://cdn.test/pdf.tar.gz"
        );
        assert_eq!(
            url(&https, "../pdf.zip").unwrap(),
            "https://site.test/.well-known/pdf.zip"
        );
        let downgrade = url(&https, "http://site.test/pdf.zip").unwrap_err();
        assert!(
            downgrade.contains("plain http from an https index"),
            "{downgrade}"
        );
        let scheme_relative = url(&https, "//other.test/pdf.zip").unwrap();
        assert_eq!(scheme_relative, "https://other.test/pdf.zip");
        for bad in [
            "file:///etc/passwd",
            "ftp://site.test/pdf.zip",
            "javascript:alert(1)",
        ] {
            let err = url(&https, bad).unwrap_err();
            assert!(err.contains("http, https or relative"), "{bad}: {err}");
        }
        let http = Base::Url("http://127.0.0.1:8/.well-known/agent-skills/".into());
        assert!(url(&http, "http://127.0.0.1:8/x/pdf.zip").is_ok());

        let dir = Base::Dir(PathBuf::from("/site/.well-known/agent-skills"));
        assert_eq!(url(&dir, "pdf.zip").unwrap(), "dir:pdf.zip");
        assert_eq!(
            url(&dir, "/.well-known/agent-skills/pdf/SKILL.md").unwrap(),
            "dir:pdf/SKILL.md"
        );
        assert!(url(&dir, "../secret.zip").is_err());
        assert!(url(&dir, "/etc/passwd").is_err());
    }
}
