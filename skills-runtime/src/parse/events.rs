//! The frontmatter read as YAML events (saphyr-parser, which keeps a span for every event):
//! how deep it nests, checked before the value parser runs, and where each key is written, so
//! that every diagnostic about a field points at its line and column and numbers and booleans
//! can be read back as the author wrote them (`1.10`, not `1.1`).
//!
//! The values themselves come from `serde_yaml` (libyaml). The two parsers agree on structure
//! except where libyaml also ends lines at NEL, LS and PS, so those are read here as `\n`.

use std::borrow::Cow;
use std::fmt;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError};

/// Why a frontmatter is refused before its values are parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum NestingError {
    /// It nests lists and mappings more than `limit` levels deep.
    TooDeep {
        limit: usize,
        /// 0-based line (lines end at `\n`) and 1-based column, in characters, of the list or
        /// mapping that goes past the limit.
        line: usize,
        column: usize,
    },
    /// The event parser stopped at a syntax error and what follows could nest past the limit.
    Unreadable {
        message: String,
        line: usize,
        column: usize,
    },
}

impl NestingError {
    /// The 0-based line and 1-based column to report at.
    pub(super) fn position(&self) -> (usize, usize) {
        match self {
            NestingError::TooDeep { line, column, .. }
            | NestingError::Unreadable { line, column, .. } => (*line, *column),
        }
    }
}

impl fmt::Display for NestingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NestingError::TooDeep { limit, .. } => write!(
                f,
                "the frontmatter nests lists and mappings more than {limit} levels deep; \
                 frontmatter fields need two or three levels: flatten it"
            ),
            NestingError::Unreadable { message, .. } => write!(f, "invalid YAML: {message}"),
        }
    }
}

/// A key of the frontmatter as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct KeyEntry {
    pub(super) key: String,
    /// 0-based line in the frontmatter.
    pub(super) line: usize,
    /// 1-based column of the key.
    pub(super) column: usize,
    /// The value's source text when it is a plain scalar without anchor or tag.
    pub(super) raw: Option<String>,
}

/// The keys of the top-level mapping, and for each the keys of the mapping it holds (empty
/// when its value is not a mapping), in the order written, repeated keys included.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Keys {
    pub(super) top: Vec<KeyEntry>,
    pub(super) children: Vec<Vec<KeyEntry>>,
}

/// Whose keys a mapping holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owner {
    Top,
    /// The mapping held by the top-level key of this index.
    Child(usize),
    Other,
}

enum Frame {
    Map { key_next: bool, owner: Owner },
    Seq,
}

/// Reads the YAML text `yaml` as events: checks that it nests lists and mappings at most
/// `limit` levels deep (the top-level mapping is one), returning the deepest nesting found, and
/// where each key is written. The keys of a part the event parser cannot read are missing
/// (their diagnostics go to the opening fence).
///
/// The value parser's time grows with the square of the nesting; the event parser's does not,
/// and it stops at the first level past the limit.
pub(super) fn read(yaml: &str, limit: usize) -> (Result<usize, NestingError>, Keys) {
    let text = as_libyaml_breaks(yaml);
    let lines = LineIndex::new(yaml);
    let mut keys = Keys::default();
    let mut stack: Vec<Frame> = Vec::new();
    // The entry whose value comes next: its owner and index.
    let mut pending: Option<(Owner, usize)> = None;
    let (mut deepest, mut last) = (0usize, 0usize);
    // The end of the last event when it was a scalar: a `:` right after it belongs to it.
    let mut scalar_end = None;
    let mut parser = Parser::new_from_str(&text);
    while let Some(next) = parser.next_event() {
        let (event, span) = match next {
            Ok(next) => next,
            Err(error) => {
                let nesting =
                    bound_after_error(&text, &lines, limit, stack.len(), last, scalar_end, &error);
                return (nesting.map(|bound| deepest.max(bound)), keys);
            }
        };
        last = span.end.index();
        scalar_end = matches!(event, Event::Scalar(..)).then_some(last);
        let role = match stack.last_mut() {
            Some(Frame::Map { key_next, owner }) if is_node(&event) => {
                let was_key = *key_next;
                *key_next = !was_key;
                Some((was_key, *owner))
            }
            _ => None,
        };
        let value_of = match role {
            Some((false, _)) => pending.take(),
            _ => None,
        };
        if role.is_some_and(|(is_key, _)| is_key) {
            pending = None;
        }
        match event {
            Event::Scalar(text, style, anchor, tag) => match role {
                Some((true, owner)) if owner != Owner::Other => {
                    let (line, column) = lines.at(span.start.index());
                    let entry = KeyEntry {
                        key: text.into_owned(),
                        line,
                        column,
                        raw: None,
                    };
                    let index = match owner {
                        Owner::Child(parent) => {
                            keys.children[parent].push(entry);
                            keys.children[parent].len() - 1
                        }
                        _ => {
                            keys.top.push(entry);
                            keys.children.push(Vec::new());
                            keys.top.len() - 1
                        }
                    };
                    pending = Some((owner, index));
                }
                _ => {
                    let plain = style == ScalarStyle::Plain && anchor == 0 && tag.is_none();
                    if let Some((owner, index)) = value_of.filter(|_| plain) {
                        let list = match owner {
                            Owner::Child(parent) => &mut keys.children[parent],
                            _ => &mut keys.top,
                        };
                        list[index].raw = Some(text.into_owned());
                    }
                }
            },
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                if stack.len() == limit {
                    let (line, column) = lines.at(span.start.index());
                    let too_deep = NestingError::TooDeep {
                        limit,
                        line,
                        column,
                    };
                    return (Err(too_deep), keys);
                }
                stack.push(match event {
                    Event::SequenceStart(..) => Frame::Seq,
                    _ => Frame::Map {
                        key_next: true,
                        owner: match (stack.is_empty(), value_of) {
                            (true, _) => Owner::Top,
                            (false, Some((Owner::Top, index))) => Owner::Child(index),
                            _ => Owner::Other,
                        },
                    },
                });
                deepest = deepest.max(stack.len());
            }
            Event::SequenceEnd | Event::MappingEnd => {
                stack.pop();
            }
            _ => {}
        }
    }
    (Ok(deepest), keys)
}

/// Where saphyr stops at a syntax error, libyaml may read on: every collection it opens after
/// the last event starts at one of the indicators counted here, so their count bounds its
/// nesting. Past `limit` it is refused: as too deep when the count passes it before the error,
/// else as the error.
fn bound_after_error(
    text: &str,
    lines: &LineIndex,
    limit: usize,
    depth: usize,
    last: usize,
    scalar_end: Option<usize>,
    error: &ScanError,
) -> Result<usize, NestingError> {
    let stop = error.marker().index();
    let mut bound = depth;
    let mut key_colon = scalar_end.filter(|&end| end <= stop);
    for (at, c) in text.chars().enumerate().skip(last.min(stop)) {
        if key_colon.is_some_and(|end| at >= end) {
            if c == ':' {
                key_colon = None;
                continue;
            }
            if c != ' ' {
                key_colon = None;
            }
        }
        if !matches!(c, '[' | '{' | '-' | '?' | ':') {
            continue;
        }
        bound += 1;
        if bound > limit {
            let (line, column) = lines.at(at.min(stop));
            return Err(if at < stop {
                NestingError::TooDeep {
                    limit,
                    line,
                    column,
                }
            } else {
                NestingError::Unreadable {
                    message: error.info().to_owned(),
                    line,
                    column,
                }
            });
        }
    }
    Ok(bound)
}

/// Whether an event is a node (a key or a value of the mapping it is in).
fn is_node(event: &Event<'_>) -> bool {
    matches!(
        event,
        Event::Scalar(..) | Event::Alias(_) | Event::SequenceStart(..) | Event::MappingStart(..)
    )
}

/// `yaml` with NEL, LS and PS as `\n`: line breaks to libyaml (YAML 1.1), text to saphyr (YAML
/// 1.2). One character for one, so positions in characters stay.
fn as_libyaml_breaks(yaml: &str) -> Cow<'_, str> {
    if yaml.contains(['\u{85}', '\u{2028}', '\u{2029}']) {
        Cow::Owned(yaml.replace(['\u{85}', '\u{2028}', '\u{2029}'], "\n"))
    } else {
        Cow::Borrowed(yaml)
    }
}

/// Turns a character index of a text into its 0-based line (lines end at `\n`) and 1-based
/// column in characters.
struct LineIndex {
    /// The character index where each line starts.
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.chars()
                .enumerate()
                .filter(|&(_, c)| c == '\n')
                .map(|(at, _)| at + 1),
        );
        LineIndex { starts }
    }

    fn at(&self, index: usize) -> (usize, usize) {
        let line = self.starts.partition_point(|&start| start <= index) - 1;
        (line, index - self.starts[line] + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::testing::finishes;

    /// The depth of a parsed value, counted as [`read`] counts: one per list or
    /// mapping, keys included.
    fn value_depth(value: &serde_yaml::Value) -> usize {
        use serde_yaml::Value;
        match value {
            Value::Sequence(items) => 1 + items.iter().map(value_depth).max().unwrap_or(0),
            Value::Mapping(map) => {
                1 + map
                    .iter()
                    .map(|(k, v)| value_depth(k).max(value_depth(v)))
                    .max()
                    .unwrap_or(0)
            }
            Value::Tagged(tagged) => value_depth(&tagged.value),
            _ => 0,
        }
    }

    #[test]
    fn nesting_counts_what_the_parser_nests() {
        for (yaml, depth) in [
            ("name: a\n", 1),
            ("a: [b, {c: d}]\n", 3),
            ("a: \"[[[[\"\nb: '{{'\n", 1),
            ("a: x [[[[\n  [[[ \"\nb: c\n", 1),
            ("a: |\n  [[[[\n  {{{\nb: >-\n    [[\n", 1),
            ("# [[[[\na: b # [[[\n", 1),
            ("- - - x\n", 3),
            ("a:\n- b:\n  - c\n", 4),
            ("a:\n  b:\n    c: d\n", 3),
            ("? [a, [b]]\n: c\n", 3),
            ("[a]: b\n", 2),
            ("[a: [b: c]]\n", 4),
            ("a: !t [b]\nc: &x {d: e}\nf: *x\n", 2),
            ("a: \"\\\"[[\"\n", 1),
            ("a: 'it''s [['\n", 1),
            ("\u{2028}- a:\u{2028}  - b\n", 3),
        ] {
            let value: serde_yaml::Value = serde_yaml::from_str(yaml).unwrap();
            assert_eq!(value_depth(&value), depth, "{yaml:?}");
            assert_eq!(read(yaml, 64).0, Ok(depth), "{yaml:?}");
        }
    }

    #[test]
    fn deep_nesting_is_refused_where_it_passes_the_limit() {
        let flow = format!("a: {}{}\n", "[".repeat(32_000), "]".repeat(32_000));
        let block: String = (0..2_000)
            .map(|i| format!("{}- \n", " ".repeat(i * 2)))
            .collect();
        let dashes = format!("{}x\n", "- ".repeat(32_000));
        for (yaml, at) in [
            (&flow, (0, 4 + 63)),
            (&block, (64, 129)),
            (&dashes, (0, 129)),
        ] {
            let text = yaml.clone();
            match finishes(move || read(&text, 64).0) {
                Err(NestingError::TooDeep { line, column, .. }) => {
                    assert_eq!((line, column), at, "{}", &yaml[..20]);
                }
                other => panic!("{}: {other:?}", &yaml[..20]),
            }
        }
    }

    #[test]
    fn a_syntax_error_before_deep_nesting_is_refused() {
        // saphyr stops at the block scalar's line, libyaml reads on into the nesting.
        let yaml = format!("a: |2\n #}}?\nb: {}{}\n", "[".repeat(100), "]".repeat(100));
        match read(&yaml, 64).0 {
            Err(error @ NestingError::Unreadable { .. }) => {
                assert_eq!(error.position(), (1, 2));
                assert!(error.to_string().starts_with("invalid YAML: "), "{error}");
            }
            other => panic!("{other:?}"),
        }
        assert!(read("a: |2\n #}?\n", 64).0.is_ok());
    }

    #[test]
    fn nesting_is_never_below_the_parsed_depth() {
        // Random documents from tokens that make scanners disagree; for each one libyaml
        // reads, the check must count at least the depth it built, or refuse it.
        const PIECES: &[&str] = &[
            "[", "]", "{", "}", ", ", " ", "\n", "  ", "- ", "? ", ": ", ":", "a", "b c", "\"",
            "'", "\\", " #", "|", ">", "|-\n", "&x ", "*x", "!t ", "\t", "\"[\"", "'{'", "x\n  y",
            "\n- ", "\n  - ", "a: ", "\n  a: ", "\n    ", "\r\n", "-", "?", "'[", "\"{", "- a: ",
            "\n- a: ", " |\n", " >\n", " |2\n", "\n   ", "...\n", "\u{2028}", "\r",
        ];
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut parsed = 0;
        for _ in 0..60_000 {
            let len = 1 + (next() % 32) as usize;
            let yaml: String = (0..len)
                .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                .collect();
            let Ok(value) = serde_yaml::from_str::<serde_yaml::Value>(&yaml) else {
                continue;
            };
            parsed += 1;
            let depth = value_depth(&value);
            let counted = read(&yaml, usize::MAX).0.unwrap();
            assert!(
                counted >= depth,
                "{yaml:?}: counted {counted}, parsed {depth}"
            );
        }
        assert!(parsed > 3_000, "only {parsed} documents parsed");
    }

    #[test]
    fn keys_and_their_places() {
        let yaml = "name: a\n'it''s': 1.10 # c\nmetadata:\n  k: v\n  n: &x 2\nlist: [x]\n\
                    flow: {f: 1}\nname: b\n";
        let keys = read(yaml, 64).1;
        let top: Vec<_> = keys
            .top
            .iter()
            .map(|e| (e.key.as_str(), e.line, e.column, e.raw.as_deref()))
            .collect();
        assert_eq!(
            top,
            [
                ("name", 0, 1, Some("a")),
                ("it's", 1, 1, Some("1.10")),
                ("metadata", 2, 1, None),
                ("list", 5, 1, None),
                ("flow", 6, 1, None),
                ("name", 7, 1, Some("b")),
            ]
        );
        let metadata: Vec<_> = keys.children[2]
            .iter()
            .map(|e| (e.key.as_str(), e.line, e.column, e.raw.as_deref()))
            .collect();
        assert_eq!(metadata, [("k", 3, 3, Some("v")), ("n", 4, 3, None)]);
        assert_eq!(keys.children[4][0].key, "f");
        assert!(keys.children[3].is_empty());
    }
}
