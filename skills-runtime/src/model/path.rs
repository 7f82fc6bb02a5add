//! Paths a model sends, checked and compared without allocating.
//!
//! A request path is relative to the skill's folder and uses `/`. `./a` and `a//b` are accepted
//! and mean `a` and `a/b`. Anything that could name a file outside the skill is refused before
//! any lookup, so no table can be reached with it.

use std::cmp::Ordering;
use std::fmt;

/// Why a requested path was refused before any lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PathProblem {
    /// The path is empty, or only `.` and `/`.
    Empty,
    /// The path starts with `/`, or with a drive such as `C:`.
    Absolute,
    /// A `..` segment.
    ParentSegment,
    /// A `\`: paths use `/` only.
    Backslash,
    /// A NUL byte or another control character.
    ControlCharacter,
    /// A percent-encoded byte such as `%2e`: paths are sent decoded.
    PercentEncoded,
}

impl PathProblem {
    /// A short phrase for messages: what the path contains.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Self::Empty => "it is empty",
            Self::Absolute => "it is absolute",
            Self::ParentSegment => "it contains a `..` segment",
            Self::Backslash => "it contains a backslash",
            Self::ControlCharacter => "it contains a NUL or control character",
            Self::PercentEncoded => "it contains a percent-encoded byte",
        }
    }
}

impl fmt::Display for PathProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// A request path that passed [`check`]: its segments, without `.` and empty ones.
#[derive(Debug, Clone, Copy)]
pub struct RequestPath<'a> {
    raw: &'a str,
    /// Whether `raw` is already normal (no `.` or empty segments), the common case.
    normal: bool,
}

/// Checks a path sent by a model.
pub fn check(raw: &str) -> Result<RequestPath<'_>, PathProblem> {
    let bytes = raw.as_bytes();
    if bytes.first() == Some(&b'/') {
        return Err(PathProblem::Absolute);
    }
    // A drive (`C:`) counts wherever the path's first real segment is: `./C:/x` normalises to
    // `C:/x`, which must not pass only because a `./` came first (found by the property tests:
    // normalising was not idempotent).
    let first = raw
        .split('/')
        .find(|s| !s.is_empty() && *s != ".")
        .unwrap_or("");
    if matches!(first.as_bytes(), [letter, b':', ..] if letter.is_ascii_alphabetic()) {
        return Err(PathProblem::Absolute);
    }
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'\\' => return Err(PathProblem::Backslash),
            0..=0x1f | 0x7f => return Err(PathProblem::ControlCharacter),
            b'%' if bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit) =>
            {
                return Err(PathProblem::PercentEncoded);
            }
            _ => {}
        }
    }
    let mut normal = true;
    let mut any = false;
    for segment in raw.split('/') {
        match segment {
            ".." => return Err(PathProblem::ParentSegment),
            "" | "." => normal = false,
            _ => any = true,
        }
    }
    if !any {
        return Err(PathProblem::Empty);
    }
    Ok(RequestPath { raw, normal })
}

impl<'a> RequestPath<'a> {
    /// The segments, in order.
    pub fn segments(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.raw.split('/').filter(|s| !s.is_empty() && *s != ".")
    }

    /// The path as sent, before normalisation.
    pub fn raw(&self) -> &'a str {
        self.raw
    }

    /// The normal form as a borrowed `str`, when the path was sent in normal form.
    pub fn as_normal_str(&self) -> Option<&'a str> {
        self.normal.then_some(self.raw)
    }

    /// Compares a stored (normal) path with this one, byte by byte, as if this one were normal.
    pub(crate) fn cmp_stored(&self, stored: &str) -> Ordering {
        if let Some(normal) = self.as_normal_str() {
            return stored.cmp(normal);
        }
        let mut first = true;
        let query = self.segments().flat_map(move |segment| {
            let sep: &[u8] = if std::mem::replace(&mut first, false) {
                b""
            } else {
                b"/"
            };
            sep.iter().chain(segment.as_bytes()).copied()
        });
        stored.bytes().cmp(query)
    }
}

impl fmt::Display for RequestPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.segments().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            f.write_str(segment)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_dots_and_doubled_slashes() {
        for (raw, normal) in [
            ("a", "a"),
            ("./a", "a"),
            ("a//b", "a/b"),
            ("a/./b/", "a/b"),
            ("././a", "a"),
        ] {
            assert_eq!(check(raw).unwrap().to_string(), normal, "{raw}");
        }
    }

    #[test]
    fn refuses_escapes() {
        for (raw, problem) in [
            ("", PathProblem::Empty),
            ("./", PathProblem::Empty),
            ("/etc/passwd", PathProblem::Absolute),
            ("C:/x", PathProblem::Absolute),
            ("./C:/x", PathProblem::Absolute),
            ("././c:x", PathProblem::Absolute),
            ("a/../b", PathProblem::ParentSegment),
            ("..", PathProblem::ParentSegment),
            ("a\\b", PathProblem::Backslash),
            ("a\0b", PathProblem::ControlCharacter),
            ("%2e%2e/b", PathProblem::PercentEncoded),
            ("a%2Fb", PathProblem::PercentEncoded),
        ] {
            assert_eq!(check(raw).unwrap_err(), problem, "{raw:?}");
        }
    }

    #[test]
    fn compares_as_normal_form() {
        let p = check("./a//b").unwrap();
        assert_eq!(p.cmp_stored("a/b"), Ordering::Equal);
        assert_eq!(p.cmp_stored("a/a"), Ordering::Less);
        assert_eq!(p.cmp_stored("a/c"), Ordering::Greater);
        assert_eq!(p.cmp_stored("a"), Ordering::Less);
        assert_eq!(p.cmp_stored("a/b/c"), Ordering::Greater);
    }
}

/// Examples of items this module keeps to the crate.
#[cfg(test)]
mod examples {
    #[test]
    fn check_example() {
        use crate::model::path::{PathProblem, check};
        assert_eq!(
            check("./references//forms.md").unwrap().to_string(),
            "references/forms.md"
        );
        assert_eq!(
            check("../other/SKILL.md").unwrap_err(),
            PathProblem::ParentSegment
        );
        assert_eq!(check("%2e%2e/x").unwrap_err(), PathProblem::PercentEncoded);
    }
}
