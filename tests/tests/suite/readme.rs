//! The README's rule table lists every rule the validator has, with the same summary.

use skills_embed_runtime::parse::Rule;

#[test]
fn readme_lists_every_rule() {
    let readme = include_str!("../../../README.md");
    for rule in Rule::ALL {
        let row = format!("| `{}` |", rule);
        assert!(
            readme.contains(&row),
            "README.md has no row for rule `{}`",
            rule
        );
    }
    // Only the rule table: other tables (MCP surfaces, options) have two-column rows too.
    let rules = readme
        .split("## The rules")
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
        "README.md lists a rule the validator does not have"
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

#[test]
fn every_dependency_snippet_names_a_real_package() {
    let readme = include_str!("../../../README.md");
    let known = known_packages();
    let deps = readme_dependencies(readme);
    assert!(
        deps.iter().any(|(_, p)| p == "skills-embed"),
        "the README never shows how to add skills-embed: {deps:?}"
    );
    for (key, package) in &deps {
        assert!(
            known.contains(package),
            "README.md's `{key} = ...` names the package `{package}`, which is neither a \
             published package of this workspace nor a crates.io package in Cargo.lock"
        );
    }
    // `skills` on crates.io is another project: `skills = "0.1"` must never come back.
    assert!(!deps.iter().any(|(_, p)| p == "skills"));
}

#[test]
fn readme_names_the_crates_by_their_library_names() {
    let readme = include_str!("../../../README.md");
    for old in ["skills_runtime::", "skills_macros::", "cargo add skills\n"] {
        assert!(!readme.contains(old), "README.md still says `{old}`");
    }
    let stale = readme
        .match_indices("skills::")
        .filter(|(at, _)| {
            // `skills_embed::` and `agent_kit::skills!` are fine; a path starting `skills::` is not.
            !readme[..*at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':')
        })
        .count();
    assert_eq!(stale, 0, "README.md has paths starting with `skills::`");
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
