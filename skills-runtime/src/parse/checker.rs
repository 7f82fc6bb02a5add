//! The checker's state: where diagnostics about one SKILL.md are collected, and how each is
//! placed at the line and column of the field it concerns (through the [key positions](super::events)).

use std::path::Path;

use super::dialect::{Dialect, Dialects, Reading};
use super::events::{KeyEntry, Keys};
use super::frontmatter::Split;
use super::yaml::has_other_breaks;
use super::{Diagnostic, Profile, Rule, Severity};

/// A place in the file: 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Pos {
    line: usize,
    column: usize,
}

/// State shared by every check of one file.
pub(super) struct Checker<'a> {
    pub(super) file: &'a Path,
    pub(super) profile: Profile,
    /// The client dialects whose fields are known fields.
    pub(super) dialects: Dialects,
    /// The frontmatter, one entry per line (without line endings); repaired in place when the
    /// lenient profile rewrites an unquoted colon, so line numbers never move.
    pub(super) lines: Vec<String>,
    /// The file line of `lines[0]`.
    pub(super) first_line: usize,
    /// The top-level keys as written, indexed once the YAML has loaded (and `lines` is final).
    pub(super) keys: Keys,
    pub(super) diagnostics: Vec<Diagnostic>,
    /// Whether the frontmatter holds a line break the parser counts and `lines` does not
    /// (the YAML parser also ends lines at `\r`, NEL, LS and PS); found once, since repairs only
    /// ever remove such breaks.
    pub(super) other_breaks: bool,
}

impl<'a> Checker<'a> {
    pub(super) fn new(file: &'a Path, profile: Profile, split: &Split<'_>) -> Self {
        let lines: Vec<String> = split
            .yaml
            .lines()
            .map(|line| line.trim_end_matches('\r').to_owned())
            .collect();
        let other_breaks = lines.iter().any(|line| has_other_breaks(line));
        Checker {
            file,
            profile,
            dialects: Dialects::NONE,
            lines,
            first_line: split.yaml_line,
            keys: Keys::default(),
            diagnostics: Vec::new(),
            other_breaks,
        }
    }

    pub(super) fn lenient(&self) -> bool {
        self.profile == Profile::Lenient
    }

    pub(super) fn push(&mut self, severity: Severity, rule: Rule, pos: Pos, message: String) {
        let diagnostic = match severity {
            Severity::Error => Diagnostic::error(rule, self.file, pos.line, pos.column, message),
            Severity::Warning => {
                Diagnostic::warning(rule, self.file, pos.line, pos.column, message)
            }
        };
        self.diagnostics.push(diagnostic);
    }

    pub(super) fn error(&mut self, rule: Rule, pos: Pos, message: String) {
        self.push(Severity::Error, rule, pos, message);
    }

    /// An error under the strict profile, a warning under the lenient one.
    pub(super) fn strict_error(&mut self, rule: Rule, pos: Pos, message: String) {
        let severity = if self.lenient() {
            Severity::Warning
        } else {
            Severity::Error
        };
        self.push(severity, rule, pos, message);
    }

    /// The opening fence: where problems with no better place are reported.
    pub(super) fn top(&self) -> Pos {
        Pos {
            line: self.first_line.saturating_sub(1).max(1),
            column: 1,
        }
    }

    /// The file position of a 0-based frontmatter line and a 1-based column.
    pub(super) fn at(&self, yaml_line: usize, column: usize) -> Pos {
        Pos {
            line: self.first_line + yaml_line,
            column,
        }
    }

    /// Where the top-level key `key` is written (its first occurrence), else the opening fence.
    pub(super) fn key_pos(&self, key: &str) -> Pos {
        match self.keys.top.iter().find(|entry| entry.key == key) {
            Some(entry) => self.at(entry.line, entry.column),
            None => self.top(),
        }
    }

    /// The value of `key` as written when it is a plain scalar, for reading numbers and
    /// booleans back as the author wrote them (`1.10`, not `1.1`).
    pub(super) fn raw_value(&self, key: &str) -> Option<String> {
        self.keys
            .top
            .iter()
            .find(|entry| entry.key == key)
            .and_then(|entry| entry.raw.clone())
    }

    /// The keys written in the mapping of the top-level key `parent`.
    pub(super) fn children_of(&self, parent: &str) -> Vec<KeyEntry> {
        self.keys
            .top
            .iter()
            .position(|entry| entry.key == parent)
            .and_then(|index| self.keys.children.get(index))
            .cloned()
            .unwrap_or_default()
    }

    /// Where the key `key` of the block of the top-level key `parent` is written, else where
    /// `parent` is.
    pub(super) fn child_pos(&self, parent: &str, key: &str) -> Pos {
        self.children_of(parent)
            .iter()
            .find(|entry| entry.key == key)
            .map_or_else(|| self.key_pos(parent), |e| self.at(e.line, e.column))
    }

    /// How this file reads the fields of `dialect`.
    pub(super) fn reading(&self, dialect: Dialect) -> Reading {
        Reading::of(dialect, self.profile, self.dialects)
    }
}
