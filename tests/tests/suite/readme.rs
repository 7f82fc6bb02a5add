//! The README and the guide (`docs/`): the guide's rule table lists every rule the validator
//! has, the README opens with the two commands, dependency snippets name real packages, and
//! every relative link resolves.

use std::fs;
use std::path::{Path, PathBuf};

use skills_embed_runtime::parse::Rule;

#[test]
fn the_guide_lists_every_rule() {
    let guide = include_str!("../../../docs/src/validation.md");
    for rule in Rule::ALL {
        let row = format!("| `{}` |", rule);
        assert!(
            guide.contains(&row),
            "docs/src/validation.md has no row for rule `{}`",
            rule
        );
    }
    // Only the rule table: other tables (MCP surfaces, options) have two-column rows too.
    let rules = guide
        .split("| rule | checks |")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    let rows = rules
        .lines()
        .filter(|l| l.starts_with("| `") && l.matches('|').count() == 3);
    assert_eq!(
        rows.count(),
        Rule::ALL.len(),
        "docs/src/validation.md lists a rule the validator does not have"
    );
}

#[test]
fn readme_opens_with_the_two_commands() {
    let readme = include_str!("../../../README.md");
    let first_block = readme
        .split("```sh")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    assert!(first_block.contains("cargo run --example agent"));
    assert!(first_block.contains("cargo test --workspace --all-features"));
    let ci = include_str!("../../../.ci/run");
    assert!(
        ci.contains("cargo test --workspace --all-features"),
        ".ci/run must run the README's test command"
    );
}

/// Issue 26: a README a newcomer reads in ten minutes, at most 300 lines; what does not fit
/// goes to the guide (sections added by later issues had taken it to 370).
#[test]
fn readme_fits_in_300_lines() {
    let lines = include_str!("../../../README.md").lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines: move detail to a guide chapter under docs/src/ and link it"
    );
}

/// The packages `cargo add` would find: this workspace's published ones, and every crates.io
/// package `Cargo.lock` resolved (so each is a real crate at a real version).
fn known_packages() -> Vec<String> {
    let mut known: Vec<String> = [
        "skills-embed",
        "skills-embed-runtime",
        "skills-embed-macros",
    ]
    .map(String::from)
    .to_vec();
    let lock = include_str!("../../../Cargo.lock");
    for block in lock.split("[[package]]").skip(1) {
        let field = |key: &str| {
            block
                .lines()
                .find_map(|l| l.strip_prefix(key))
                .map(|v| v.trim_matches('"').to_owned())
        };
        if field("source = ").is_some_and(|s| s.contains("crates.io-index")) {
            known.extend(field("name = "));
        }
    }
    known
}

/// `(dependency key, package)` of every line under a `[dependencies]`-like table of the
/// README's `toml` blocks.
fn readme_dependencies(readme: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for block in readme.split("```toml").skip(1) {
        let block = block.split("```").next().unwrap_or_default();
        let mut in_deps = false;
        for line in block.lines().map(str::trim) {
            if line.starts_with('[') {
                in_deps = line.ends_with("dependencies]");
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            if !in_deps || line.starts_with('#') {
                continue;
            }
            let key = key.trim().to_owned();
            let package = value
                .split("package = \"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .map_or_else(|| key.clone(), str::to_owned);
            out.push((key, package));
        }
    }
    out
}

/// The README and every chapter of the guide, with their paths from the repository's root.
fn pages() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = vec![root.join("README.md")];
    let mut chapters: Vec<PathBuf> = fs::read_dir(root.join("docs/src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    chapters.sort();
    paths.extend(chapters);
    paths
        .into_iter()
        .map(|p| {
            let text = fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// The anchors of a Markdown page's headings, as GitHub and mdBook spell them.
fn anchors(page: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in page.lines() {
        fenced ^= line.starts_with("```");
        if let Some(heading) = line.strip_prefix('#').filter(|_| !fenced) {
            let heading = heading.trim_start_matches('#').trim().to_lowercase();
            out.push(
                heading
                    .chars()
                    .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
                    .map(|c| if c == ' ' { '-' } else { c })
                    .collect(),
            );
        }
    }
    out
}

#[test]
fn every_relative_link_resolves() {
    let mut broken = Vec::new();
    for (page, text) in pages() {
        let mut fenced = false;
        for line in text.lines() {
            fenced ^= line.starts_with("```");
            // Code spans hold link-like text (`[$name](path)`) that is not a link.
            let prose: String = line.split('`').step_by(2).collect();
            if fenced {
                continue;
            }
            for target in prose
                .split("](")
                .skip(1)
                .filter_map(|t| t.split(')').next())
            {
                let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
                if file.is_empty() || target.contains(':') {
                    continue; // an anchor on the same page, a URL or a `script:NAME` link
                }
                let path = page.parent().unwrap().join(file);
                let found = fs::read_to_string(&path)
                    .map(|t| anchor.is_empty() || anchors(&t).contains(&anchor.to_owned()));
                if !path.exists() || found.is_ok_and(|found| !found) {
                    broken.push(format!("{}: {target}", page.display()));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to no file or no heading: {broken:#?}"
    );
}

#[test]
fn every_dependency_snippet_names_a_real_package() {
    let readme: String = pages().into_iter().map(|(_, text)| text).collect();
    let readme = readme.as_str();
    let known = known_packages();
    let deps = readme_dependencies(readme);
    assert!(
        deps.iter().any(|(_, p)| p == "skills-embed"),
        "the README never shows how to add skills-embed: {deps:?}"
    );
    for (key, package) in &deps {
        assert!(
            known.contains(package),
            "the README's or guide's `{key} = ...` names the package `{package}`, which is neither a \
             published package of this workspace nor a crates.io package in Cargo.lock"
        );
    }
    // `skills` on crates.io is another project: `skills = "0.1"` must never come back.
    assert!(!deps.iter().any(|(_, p)| p == "skills"));
}

#[test]
fn readme_names_the_crates_by_their_library_names() {
    let readme: String = pages().into_iter().map(|(_, text)| text).collect();
    let readme = readme.as_str();
    for old in ["skills_runtime::", "skills_macros::", "cargo add skills\n"] {
        assert!(
            !readme.contains(old),
            "the README or the guide still says `{old}`"
        );
    }
    let stale = readme
        .match_indices("skills::")
        .filter(|(at, _)| {
            // `skills_embed::` and `agent_kit::skills!` are fine; a path starting `skills::` is not.
            !readme[..*at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':')
        })
        .count();
    assert_eq!(
        stale, 0,
        "the README or the guide has paths starting with `skills::`"
    );
}

/// The runtime's docs are read inlined in `skills-embed`'s, so an example there names the
/// facade's paths (`skills_embed::tools::Tools`): a `skills_embed_runtime::` path would send a
/// user to a crate they do not depend on, a second path to one name.
#[test]
fn the_runtime_docs_name_the_paths_users_have() {
    let mut found = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for path in skills_tests::rust_files(&root.join("skills-runtime/src")) {
        let text = fs::read_to_string(&path).unwrap();
        for (at, line) in text.lines().enumerate() {
            let doc = line.trim_start();
            if (doc.starts_with("///") || doc.starts_with("//!"))
                && doc.contains("skills_embed_runtime")
            {
                found.push(format!("{}:{}: {}", path.display(), at + 1, doc));
            }
        }
    }
    assert!(
        found.is_empty(),
        "doc comments naming `skills_embed_runtime` (write `skills_embed`):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_dependency_reader_sees_renames_and_skips_other_tables() {
    let deps = readme_dependencies(
        "```toml\n[package]\nname = \"x\"\n[dependencies]\nkit = { package = \"skills-embed\", version = \"0.1\" }\nserde = \"1\"\n[dev-dependencies]\ntrybuild = \"1\"\n```\n",
    );
    assert_eq!(
        deps,
        [
            ("kit".to_owned(), "skills-embed".to_owned()),
            ("serde".to_owned(), "serde".to_owned()),
            ("trybuild".to_owned(), "trybuild".to_owned()),
        ]
    );
}

/// A chapter with Rust samples is included as doctests by one of the two test crates, so a new
/// chapter's samples cannot go uncompiled.
#[test]
fn every_chapter_with_rust_samples_is_compiled() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let includes = fs::read_to_string(root.join("tests/src/lib.rs")).unwrap()
        + &fs::read_to_string(root.join("tests/hosts/src/lib.rs")).unwrap();
    let missing: Vec<_> = pages()
        .into_iter()
        .filter(|(_, text)| text.contains("```rust"))
        .filter_map(|(page, _)| {
            let name = page.file_name().unwrap().to_string_lossy().into_owned();
            let included = includes.contains(&format!("docs/src/{name}\")"))
                || (name == "README.md" && includes.contains("README.md\")"));
            (!included).then_some(name)
        })
        .collect();
    assert!(
        missing.is_empty(),
        "pages with Rust samples that no crate compiles: {missing:?}"
    );
}
