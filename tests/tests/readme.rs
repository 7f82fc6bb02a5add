//! The README's rule table lists every rule the validator has, with the same summary.

use skills_runtime::parse::Rule;

#[test]
fn readme_lists_every_rule() {
    let readme = include_str!("../../README.md");
    for rule in Rule::ALL {
        let row = format!("| `{}` |", rule.id());
        assert!(
            readme.contains(&row),
            "README.md has no row for rule `{}`",
            rule.id()
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
    let readme = include_str!("../../README.md");
    let first_block = readme
        .split("```sh")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    assert!(first_block.contains("cargo run --example agent"));
    assert!(first_block.contains("cargo test --workspace --all-features"));
    let ci = include_str!("../../.ci/run");
    assert!(
        ci.contains("cargo test --workspace --all-features"),
        ".ci/run must run the README's test command"
    );
}
