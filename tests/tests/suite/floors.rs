//! The runtime's floors (ARCHITECTURE.md): every `crate::` path in a module of
//! skills-runtime/src points to its own floor or one below, `parse` knows only the text
//! utilities and the fields, and no two modules import each other, directly or in a ring.
//!
//! Read from the source, test code left out: a `#[cfg(test)]` module may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Floors from the bottom. A module's floor is the first entry whose prefix its path starts with.
const FLOORS: &[(&str, usize)] = &[
    ("text", 0),
    ("listing", 1),
    ("model", 2),
    ("embedded", 3),
    ("parse", 3),
    ("load", 4),
    ("disk", 5),
    ("package", 5),
    ("invoke", 6),
    ("policy", 7),
    ("tools", 8),
    ("host", 9),
    ("mcp", 10),
    ("rig", 10),
];

/// What `parse` may import besides itself: it is a leaf that knows text and one `Fields` (with
/// its invocation part).
const PARSE_MAY_USE: &[&str] = &["text", "model::fields", "model::invocation"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../skills-runtime/src")
}

/// Every module file with its path as `a::b` (`mod.rs` names its folder).
fn modules() -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, prefix: &str, out: &mut BTreeMap<String, PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
            let name = if prefix.is_empty() {
                stem.clone()
            } else {
                format!("{prefix}::{stem}")
            };
            if path.is_dir() {
                walk(&path, &name, out);
            } else if stem == "mod" {
                out.insert(prefix.to_owned(), path);
            } else if stem != "lib" {
                out.insert(name, path);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(&src(), "", &mut out);
    out
}

/// The source without `#[cfg(test)]` items and without comments.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            // Skip the item that follows: to the end of its braces (or its `;`).
            let mut depth = 0i32;
            let mut opened = false;
            for next in lines.by_ref() {
                depth += next.matches('{').count() as i32 - next.matches('}').count() as i32;
                opened |= next.contains('{');
                if (opened && depth <= 0) || (!opened && next.trim_end().ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The crate-internal modules a source names: `crate::a::b::Item` and
/// `use crate::a::{b::X, c::{d, e}}` resolve each item to the longest known module path.
///
/// `super::` paths resolve against `module` (`parent`: the module's parent, the folder of a
/// leaf file; for a `mod.rs`, the folder's parent).
fn imports(code: &str, parent: &str, known: &BTreeMap<String, PathBuf>) -> BTreeSet<String> {
    let mut paths = Vec::new();
    for (keyword, base) in [("crate::", String::new()), ("super::", parent.to_owned())] {
        let mut i = 0;
        while let Some(at) = code[i..].find(keyword) {
            let start = i + at;
            i = start + keyword.len();
            let before = code[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == ':') {
                continue; // `$crate::`, `super::super::` (read from its first `super`), ...
            }
            let mut base = base.clone();
            while code[i..].starts_with("super::") {
                base = base
                    .rsplit_once("::")
                    .map_or(String::new(), |(b, _)| b.to_owned());
                i += "super::".len();
            }
            let prefix = if base.is_empty() {
                base
            } else {
                format!("{base}::")
            };
            i = expand(code, i, &prefix, &mut paths);
        }
    }
    paths
        .iter()
        .filter_map(|path| {
            let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
            resolve(&segments, known, 0)
        })
        .collect()
}

/// The module that defines what `segments` names: the longest known module path, followed
/// through the re-exports of a folder's `mod.rs` and of the crate root (`crate::Item`).
fn resolve(segments: &[&str], known: &BTreeMap<String, PathBuf>, depth: usize) -> Option<String> {
    if depth > 8 {
        return None;
    }
    for n in (1..=segments.len()).rev() {
        let candidate = segments[..n].join("::");
        if let Some(file) = known.get(&candidate) {
            // An item a folder re-exports is an import of the module it comes from, so rings
            // through re-exports are seen.
            if let Some(item) = segments.get(n)
                && let Some(from) = reexported(file, item)
            {
                let mut inner: Vec<String> = candidate.split("::").map(str::to_owned).collect();
                inner.extend(from.split("::").map(str::to_owned));
                inner.push((*item).to_owned());
                let inner: Vec<&str> = inner.iter().map(String::as_str).collect();
                return resolve(&inner, known, depth + 1).or(Some(candidate));
            }
            return Some(candidate);
        }
    }
    // `crate::Item`: through the crate root's re-exports.
    let from = reexported(&src().join("lib.rs"), segments.first()?)?;
    let mut inner: Vec<&str> = from.split("::").collect();
    inner.push(segments[0]);
    resolve(&inner, known, depth + 1)
}

/// The module path a folder's `mod.rs` (or the crate's `lib.rs`) re-exports `item` from, if
/// any: `pub use child::Item` gives `child`, `pub use model::skill::{Item, ..}` gives
/// `model::skill`.
fn reexported(mod_rs: &Path, item: &str) -> Option<String> {
    let stem = mod_rs.file_stem()?;
    if stem != "mod" && stem != "lib" {
        return None;
    }
    let text = fs::read_to_string(mod_rs).ok()?;
    let code = code(&text);
    let mut at = 0;
    while let Some(found) = code[at..].find("pub use ") {
        let start = at + found + "pub use ".len();
        let end = start + code[start..].find(';')?;
        at = end;
        let statement: String = code[start..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let (path, names) = match statement.split_once("::{") {
            Some((path, names)) => (path.to_owned(), names.trim_end_matches('}').to_owned()),
            None => match statement.rsplit_once("::") {
                Some((path, name)) => (path.to_owned(), name.to_owned()),
                None => continue,
            },
        };
        let path = path.trim_start_matches("crate::").to_owned();
        let found = names.split(',').any(|n| {
            let n = n.trim();
            n.rsplit(' ').next() == Some(item) || n.rsplit("::").next() == Some(item)
        });
        if found {
            return Some(path);
        }
    }
    None
}

/// Reads one path (with its `{...}` groups) at `at`, pushing every full path; returns where it
/// ends.
fn expand(code: &str, mut at: usize, prefix: &str, out: &mut Vec<String>) -> usize {
    let rest = &code[at..];
    let len = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(rest.len());
    let path = format!("{prefix}{}", &rest[..len]);
    at += len;
    if code[at..].starts_with('{') {
        at += 1;
        loop {
            at += code[at..].len() - code[at..].trim_start().len();
            if code[at..].starts_with('}') || at >= code.len() {
                return at + 1;
            }
            at = expand(code, at, &path, out);
            at += code[at..].len() - code[at..].trim_start().len();
            // Skip an `as name` and the comma.
            if let Some(close) = code[at..].find([',', '}']) {
                at += close;
                if code[at..].starts_with(',') {
                    at += 1;
                }
            } else {
                return code.len();
            }
        }
    }
    out.push(path);
    at
}

fn floor(module: &str) -> usize {
    let top = module.split("::").next().unwrap();
    FLOORS
        .iter()
        .find(|(name, _)| *name == top)
        .unwrap_or_else(|| {
            panic!("module {module} has no floor: add it to FLOORS and ARCHITECTURE.md")
        })
        .1
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let known = modules();
    known
        .iter()
        .map(|(name, path)| {
            let text = fs::read_to_string(path).unwrap();
            let is_folder = path.file_stem().is_some_and(|s| s == "mod");
            let parent = match name.rsplit_once("::") {
                Some((parent, _)) if !is_folder => parent.to_owned(),
                Some((grand, _)) => grand.to_owned(),
                None if is_folder => String::new(),
                None => String::new(),
            };
            let mut uses = imports(&code(&text), &parent, &known);
            uses.remove(name);
            // A folder's `mod.rs` re-exports its children: an import of the folder is an import
            // of what it holds, checked through the children's own edges.
            (name.clone(), uses)
        })
        .collect()
}

#[test]
fn every_import_points_to_the_same_floor_or_below() {
    let mut wrong = Vec::new();
    for (module, uses) in graph() {
        for used in &uses {
            if floor(used) > floor(&module) {
                wrong.push(format!(
                    "{module} (floor {}) imports {used} (floor {})",
                    floor(&module),
                    floor(used)
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports pointing up:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn parse_knows_only_text_and_fields() {
    let mut wrong = Vec::new();
    for (module, uses) in graph() {
        if !module.starts_with("parse") {
            continue;
        }
        for used in uses {
            let allowed = used.starts_with("parse")
                || PARSE_MAY_USE
                    .iter()
                    .any(|a| used == *a || used.starts_with(&format!("{a}::")));
            if !allowed {
                wrong.push(format!("{module} imports {used}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "parse reaches past text and fields:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_module_imports_another_that_imports_it_back() {
    let graph = graph();
    // Edges into a folder's `mod.rs` stand for its children, so rings are looked for among
    // leaf files only: a `mod.rs` is skipped as a node.
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        rings: &mut Vec<String>,
    ) {
        if let Some(at) = stack.iter().position(|n| n == node) {
            let mut ring = stack[at..].to_vec();
            ring.push(node.to_owned());
            rings.push(ring.join(" -> "));
            return;
        }
        if !done.insert(node.to_owned()) {
            return;
        }
        stack.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            let is_folder = graph.keys().any(|k| k.starts_with(&format!("{next}::")));
            if !is_folder {
                visit(next, graph, stack, done, rings);
            }
        }
        stack.pop();
    }
    let mut rings = Vec::new();
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        visit(node, &graph, &mut Vec::new(), &mut done, &mut rings);
    }
    assert!(rings.is_empty(), "import rings:\n{}", rings.join("\n"));
}

#[test]
fn the_check_sees_the_imports_it_checks() {
    // Guards the parser above: a module known to import two others is seen to.
    let graph = graph();
    let tools = &graph["tools::handler"];
    assert!(tools.contains("policy::permission"), "{tools:?}");
    assert!(tools.contains("model::skill"), "{tools:?}");
    assert!(graph.len() > 30, "{}", graph.len());
    let known = modules();
    let seen = imports(
        "use crate::model::{error::SkillError, skill::Skill};",
        "",
        &known,
    );
    assert!(
        seen.contains("model::error") && seen.contains("model::skill"),
        "{seen:?}"
    );
}

/// The lines of `text` before its first top-level `#[cfg(test)]` (all of them without one).
fn lines_before_tests(text: &str) -> usize {
    text.lines()
        .position(|line| line.starts_with("#[cfg(test)]"))
        .unwrap_or_else(|| text.lines().count())
}

/// ARCHITECTURE.md's rule: one concern per file, and no file over 1,000 lines before its tests
/// (doc examples count: they grow a file as its code does).
#[test]
fn no_file_is_over_a_thousand_lines_before_its_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let files: Vec<PathBuf> = ["skills-runtime/src", "skills/src", "skills-macros/src"]
        .iter()
        .flat_map(|dir| skills_tests::rust_files(&root.join(dir)))
        .collect();
    assert!(files.len() > 100, "{} files", files.len());
    let long: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let lines = lines_before_tests(&fs::read_to_string(path).unwrap());
            (lines > 1_000).then(|| format!("{}: {lines} lines", path.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files over 1,000 lines before their tests (split them along their concerns):\n{}",
        long.join("\n")
    );
}

#[test]
fn lines_before_tests_stop_at_the_test_module() {
    assert_eq!(lines_before_tests("a\nb\n#[cfg(test)]\nmod tests {}\n"), 2);
    assert_eq!(lines_before_tests("a\n    #[cfg(test)]\nb\n"), 3);
}
