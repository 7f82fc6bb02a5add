//! Where a SKILL.md body refers to a Rust script: a Markdown link whose target is
//! `script:NAME`, as in `[fill the form](script:fill_form)`, outside fenced code blocks.
//! `skills!` checks that each one names a script registered for the skill.

use crate::text::lines::{Fences, Lines};

/// One reference to a Rust script in a body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptReference {
    /// The script's name.
    pub name: String,
    /// The 1-based line in the text given, and the 1-based column of `script:`.
    pub line: usize,
    /// The 1-based column (in characters) of `script:`.
    pub column: usize,
}

/// The link target that marks a Rust script.
pub const SCRIPT_SCHEME: &str = "script:";

/// Every `](script:NAME)` in `text` outside fenced code blocks, in order. `NAME` is what a Rust
/// function's name holds (ASCII letters, digits, `_`); a target such as `script:` alone or
/// `script:a b` is reported with the name as written up to the `)`, so the check can say it is
/// not a script name.
pub fn script_references(text: &str) -> Vec<ScriptReference> {
    let mut found = Vec::new();
    let mut fences = Fences::default();
    for line in Lines::new(text) {
        if fences.is_code(line.text) {
            continue;
        }
        let marker = format!("]({SCRIPT_SCHEME}");
        let mut from = 0;
        while let Some(at) = line.text[from..].find(&marker) {
            let start = from + at + 2;
            let rest = &line.text[start + SCRIPT_SCHEME.len()..];
            let end = rest.find(')').unwrap_or(rest.len());
            found.push(ScriptReference {
                name: rest[..end].trim().to_owned(),
                line: line.number,
                column: line.text[..start].chars().count() + 1,
            });
            from = start;
        }
    }
    found
}

/// Whether `name` can be a Rust script's name as a reference writes it.
pub fn is_script_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_in_code_are_not_references() {
        let body = "a [x](script:one) and [y](script:two)\n~~~\n[z](script:three)\n~~~\n    [w](script:four)\n";
        let names: Vec<String> = script_references(body)
            .into_iter()
            .map(|r| r.name)
            .collect();
        // An indented line is not a fence; only fenced blocks are skipped.
        assert_eq!(names, ["one", "two", "four"]);
    }

    #[test]
    fn odd_targets_are_reported_as_written() {
        let found = script_references("[a](script:) [b](script:a b) [c](script:x");
        let names: Vec<&str> = found.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["", "a b", "x"]);
        assert!(!is_script_name("") && !is_script_name("a b") && is_script_name("x_1"));
        assert!(!is_script_name("1x"));
    }
}

/// Examples of items this module keeps to the crate.
#[cfg(test)]
mod examples {
    #[test]
    fn script_references_example() {
        use crate::parse::script_refs::script_references;
        let body = "Fill it with [the filler](script:fill_form).\n```\n[x](script:ignored)\n```\n";
        let found = script_references(body);
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].name.as_str(), found[0].line, found[0].column),
            ("fill_form", 1, 27)
        );
    }
}
