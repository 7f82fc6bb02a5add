//! `skills validate`: every diagnostic of each PATH, as text or JSON.

use std::io::Write;
use std::path::PathBuf;

use super::args::{Common, ReportFormat};
use super::{Outcome, outcome_of};
use crate::__private::scan;
use crate::parse::{Diagnostic, Profile};

pub(super) fn validate(
    paths: &[PathBuf],
    common: &Common,
    lenient: bool,
    format: ReportFormat,
    unreferenced: bool,
) -> Outcome {
    let profile = if lenient {
        Profile::Lenient
    } else {
        Profile::Strict
    };
    let mut options = common.scan_options(Some(profile));
    options.unreferenced_files = unreferenced;
    let mut all = Vec::new();
    let mut skills = 0;
    for path in paths {
        let tree = scan(path, &options);
        skills += tree.skills.len();
        all.extend(tree.diagnostics);
    }
    let mut out = std::io::stdout().lock();
    match format {
        ReportFormat::Text => {
            for d in &all {
                let _ = writeln!(out, "{d}");
            }
        }
        ReportFormat::Json => {
            let items: Vec<serde_json::Value> = all.iter().map(diagnostic_json).collect();
            let _ = writeln!(out, "{}", serde_json::Value::Array(items));
        }
    }
    let errors = all.iter().filter(|d| d.is_error()).count();
    let warnings = all.len() - errors;
    eprintln!(
        "checked {skills} skill{}: {errors} error{}, {warnings} warning{}",
        plural(skills),
        plural(errors),
        plural(warnings)
    );
    outcome_of(&all)
}

/// One diagnostic as JSON; `line` and `column` are null for a problem with a whole file or
/// folder.
pub(super) fn diagnostic_json(d: &Diagnostic) -> serde_json::Value {
    let (line, column) = match d.line {
        0 => (None, None),
        line => (Some(line), Some(d.column)),
    };
    serde_json::json!({
        "file": d.file.display().to_string(),
        "line": line,
        "column": column,
        "severity": if d.is_error() { "error" } else { "warning" },
        "rule": d.rule.to_string(),
        "message": d.message,
    })
}

pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
