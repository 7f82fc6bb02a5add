//! The `skills` command-line tool, run as a process.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

// The same folders, embedded by the macro, to compare with what the tool prints.
mod basic {
    skills_embed::skills!("../fixtures/basic");
}
mod basic_xml {
    skills_embed::skills!("../fixtures/basic", summary = xml);
}
mod example {
    skills_embed::skills!("../../skills/examples/skills");
}
mod client {
    skills_embed::skills!("../fixtures/client", dialects = [claude_code, codex]);
}

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .args(args)
        .output()
        .expect("the skills binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn path(p: &str) -> String {
    fixture(p).to_str().unwrap().to_owned()
}

#[test]
fn validate_a_valid_folder_exits_0_and_prints_nothing() {
    let o = run(&[
        "validate",
        &path("tests/fixtures/basic"),
        &path("skills/examples/skills"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("checked 7 skills: 0 errors, 0 warnings"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn validate_prints_one_rustc_style_line_per_problem_and_exits_1() {
    let o = run(&["validate", &path("tests/fixtures/fail/many")]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    for line in &lines {
        let (location, rest) = line.split_once(": error[").expect(line);
        let mut parts = location.rsplitn(3, ':');
        assert!(parts.next().unwrap().parse::<usize>().is_ok(), "{line}");
        assert!(parts.next().unwrap().parse::<usize>().is_ok(), "{line}");
        assert!(parts.next().unwrap().ends_with("SKILL.md"), "{line}");
        let rule = rest.split(']').next().unwrap();
        assert!(rule.parse::<skills_embed::parse::Rule>().is_ok(), "{line}");
    }
    assert!(lines[0].ends_with("many/alpha/SKILL.md:2:1: error[name-case]: name \"Alpha\" must be lowercase: use \"alpha\""), "{}", lines[0]);
}

#[test]
fn validate_accepts_a_single_skill_md() {
    let o = run(&["validate", &path("tests/fixtures/basic/pdf/SKILL.md")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&[
        "validate",
        &path("tests/fixtures/fail/name-case/Demo/SKILL.md"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("error[name-case]"));
}

#[test]
fn validate_json() {
    let o = run(&[
        "validate",
        "--format",
        "json",
        &path("tests/fixtures/fail/unknown-field"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["rule"], "unknown-field");
    assert_eq!(items[0]["severity"], "error");
    assert_eq!(items[0]["line"], 4);
    assert_eq!(items[0]["column"], 1);
    assert!(items[0]["file"].as_str().unwrap().ends_with("SKILL.md"));
}

#[test]
fn lenient_turns_errors_into_warnings() {
    let folder = path("tests/fixtures/fail/lenient-warning");
    assert_eq!(run(&["validate", &folder]).status.code(), Some(1));
    let o = run(&["validate", "--lenient", &folder]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("warning[name-dir-mismatch]"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn missing_path_and_bad_usage_exit_2() {
    assert_eq!(
        run(&["validate", &path("tests/fixtures/nope")])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(run(&["validate"]).status.code(), Some(2));
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        run(&["list", &path("tests/fixtures/nope")]).status.code(),
        Some(2)
    );
}

#[test]
fn prompt_is_byte_identical_to_the_macro_summary() {
    let o = run(&["prompt", &path("tests/fixtures/basic")]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), basic::SKILLS.summary());
    let o = run(&["prompt", "--format", "xml", &path("tests/fixtures/basic")]);
    assert_eq!(stdout(&o), basic_xml::SKILLS.summary());
    let o = run(&["prompt", &path("skills/examples/skills")]);
    assert_eq!(stdout(&o), example::SKILLS.summary());
}

#[test]
fn prompt_lists_when_to_use_as_the_macro_does() {
    let folder = path("tests/fixtures/client");
    let args = [
        "prompt",
        "--dialect",
        "claude-code",
        "--dialect",
        "codex",
        &folder,
    ];
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), client::SKILLS.summary());
    assert!(stdout(&o).contains("style. - The user asks for a review"));
    let o = run(&[
        "validate",
        "--dialect",
        "claude-code",
        "--dialect",
        "codex",
        &folder,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn list_shows_one_row_per_skill() {
    let o = run(&["list", &path("tests/fixtures/basic")]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let rows: Vec<&str> = out.lines().collect();
    assert!(rows[0].starts_with("NAME"));
    assert!(rows[1].starts_with("code-review "), "{out}");
    assert!(rows[2].starts_with("pdf "), "{out}");
    let pdf_bytes: usize = basic::SKILLS
        .skill(basic::SkillId::Pdf)
        .files()
        .map(|f| f.bytes().len())
        .sum();
    assert!(
        rows[2].contains(&format!("4  {pdf_bytes:>9}  "))
            && rows[2].ends_with("fixtures/basic/pdf"),
        "{}",
        rows[2]
    );
}

/// Issue 27: the commands that read a collection read it leniently; what cannot be served is
/// named on stderr with its rule, the rest is served and the command succeeds.
#[test]
fn other_commands_skip_the_skills_they_cannot_serve_name_them_and_exit_0() {
    let o = run(&["list", &path("tests/fixtures/fail/no-cascade")]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("good "));
    assert!(!stdout(&o).contains("broken"));
    assert!(stderr(&o).contains("error[description-missing]"));
    assert!(
        stderr(&o).contains("skipped 1 skill that cannot be served (the errors above say why): ")
            && stderr(&o).contains("broken/SKILL.md (description-missing)"),
        "{}",
        stderr(&o)
    );
    let o = run(&["prompt", &path("tests/fixtures/fail/no-cascade")]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "- good: Does a thing. Use when asked.\n");
}

#[test]
fn read_prints_the_body_or_a_file() {
    let o = run(&["read", &path("tests/fixtures/basic"), "pdf"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), basic::SKILLS.skill(basic::SkillId::Pdf).body());
    let o = run(&[
        "read",
        &path("tests/fixtures/basic"),
        "pdf",
        "assets/icon.png",
    ]);
    assert_eq!(
        o.stdout,
        std::fs::read(fixture("tests/fixtures/basic/pdf/assets/icon.png")).unwrap()
    );
}

#[test]
fn read_misses_list_what_exists() {
    let o = run(&["read", &path("tests/fixtures/basic"), "pdf", "forms.md"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("Available files: SKILL.md, assets/icon.png, references/forms.md, scripts/extract.sh. Did you mean \"references/forms.md\"?"), "{}", stderr(&o));
    let o = run(&["read", &path("tests/fixtures/basic"), "pfd"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(
        r#"Skill "pfd" not found. Available skills: code-review, pdf. Did you mean "pdf"?"#
    ));
    let o = run(&[
        "read",
        &path("tests/fixtures/basic"),
        "pdf",
        "../code-review/SKILL.md",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("refused because it contains a `..` segment"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn schema_in_each_format_and_style() {
    let folder = path("tests/fixtures/basic");
    let o = run(&["schema", &folder]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v[0]["name"], "load_skill");
    assert_eq!(
        v[0]["parameters"]["properties"]["skill"]["enum"],
        serde_json::json!(["code-review", "pdf"])
    );
    for (format, key) in [
        ("openai", "function"),
        ("anthropic", "input_schema"),
        ("mcp", "inputSchema"),
    ] {
        let o = run(&["schema", &folder, "--format", format]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert!(v[0].get(key).is_some(), "{format}: {v}");
    }
    let o = run(&["schema", &folder, "--style", "split"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 3);
}

#[test]
fn call_prints_what_the_model_receives() {
    let folder = path("tests/fixtures/basic");
    let o = run(&["call", &folder, "load_skill", r#"{"skill":"pdf"}"#]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(
            "[Skill: pdf | source=disk]\n[Skill Path: SKILL.md]\n[Load Report: sha256="
        ),
        "{out}"
    );
    assert!(out.contains(basic::SKILLS.skill(basic::SkillId::Pdf).body()));
    // The same digest the embedded copy hashes to.
    let digest = skills_embed::__private::hex(
        &basic::SKILLS
            .skill(basic::SkillId::Pdf)
            .load("SKILL.md")
            .unwrap()
            .sha256(),
    );
    assert!(out.contains(&digest));

    let o = run(&[
        "call",
        &folder,
        "read_skill_resource",
        r#"{"skill":"pdf","file":"forms.md"}"#,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains(r#"Did you mean "references/forms.md"?"#));
    let o = run(&["call", &folder, "load_skill", "{not json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("not valid JSON"));
    let o = run(&[
        "call",
        &folder,
        "load_skill",
        r#"{"skill":"pdf"}"#,
        "--shape",
        "xml",
    ]);
    assert!(stdout(&o).starts_with("<skill_content name=\"pdf\" source=\"disk\""));
    assert_eq!(run(&["call", &folder]).status.code(), Some(2));
}

/// Runs the tool inside `dir` with `home` as $HOME and no $SKILLS_PATH.
fn run_in(dir: &Path, home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .args(args)
        .current_dir(dir)
        .env("HOME", home)
        .env_remove("SKILLS_PATH")
        .output()
        .expect("the skills binary runs")
}

fn write_skill(root: &Path, name: &str, body: &str) {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let text =
        format!("---\nname: {name}\ndescription: The {name} skill. Use when testing.\n---\n{body}");
    std::fs::write(dir.join("SKILL.md"), text).unwrap();
}

#[test]
fn discover_finds_project_and_user_skills_and_shows_their_source() {
    let repo = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir(repo.path().join(".git")).unwrap();
    write_skill(
        &repo.path().join(".agents/skills"),
        "alpha",
        "Project alpha.\n",
    );
    write_skill(
        &home.path().join(".claude/skills"),
        "alpha",
        "User alpha.\n",
    );
    write_skill(&home.path().join(".claude/skills"), "beta", "User beta.\n");
    let sub = repo.path().join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();

    let o = run_in(&sub, home.path(), &["list", "--discover"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let alpha = out.lines().find(|l| l.starts_with("alpha ")).unwrap();
    assert!(
        alpha.contains("project: ") && alpha.contains(".agents/skills/alpha/SKILL.md"),
        "{alpha}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("beta ") && l.contains("user: ")),
        "{out}"
    );
    // The shadowed user copy is named in a warning.
    assert!(
        stderr(&o).contains("warning[duplicate-name]"),
        "{}",
        stderr(&o)
    );

    let o = run_in(&sub, home.path(), &["read", "--discover", "alpha"]);
    assert_eq!(stdout(&o), "Project alpha.\n");
    let o = run_in(&sub, home.path(), &["prompt", "--discover"]);
    assert_eq!(
        stdout(&o),
        "- alpha: The alpha skill. Use when testing.\n- beta: The beta skill. Use when testing.\n"
    );
    let o = run_in(
        &sub,
        home.path(),
        &["call", "--discover", "read_skill", r#"{"skill":"beta"}"#],
    );
    assert!(stdout(&o).contains("User beta."), "{}", stdout(&o));
    let o = run_in(&sub, home.path(), &["schema", "--discover"]);
    assert!(stdout(&o).contains("\"alpha\""));
    // PATH and --discover together is a usage error.
    assert_eq!(
        run_in(&sub, home.path(), &["list", "--discover", "x"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn extract_writes_the_whole_skill_with_exec_bits() {
    let dest = tempfile::tempdir().unwrap();
    let o = run(&[
        "extract",
        &path("tests/fixtures/basic"),
        "pdf",
        dest.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("wrote "));
    let script = dest.path().join("pdf/scripts/extract.sh");
    assert_eq!(
        std::fs::read(&script).unwrap(),
        std::fs::read(fixture("tests/fixtures/basic/pdf/scripts/extract.sh")).unwrap()
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_ne!(
            std::fs::metadata(&script).unwrap().permissions().mode() & 0o111,
            0
        );
    }
    assert!(
        dest.path().join("pdf/references/forms.md").is_file(),
        "references come along"
    );
    let again = run(&[
        "extract",
        &path("tests/fixtures/basic"),
        "pdf",
        dest.path().to_str().unwrap(),
    ]);
    assert!(
        stdout(&again).starts_with("unchanged: "),
        "{}",
        stdout(&again)
    );
    let miss = run(&[
        "extract",
        &path("tests/fixtures/basic"),
        "pfd",
        dest.path().to_str().unwrap(),
    ]);
    assert_eq!(miss.status.code(), Some(1));
    assert!(stderr(&miss).contains(r#"Did you mean "pdf"?"#));
}

// --- Issue 12: the validator on real repositories -------------------------------------------

/// The fixtures of issue 12, under `tests/fixtures/validator/`.
fn validator(p: &str) -> String {
    path(&format!("tests/fixtures/validator/{p}"))
}

/// A `|` or `>` value keeps its final newline whether another field follows it or not, so its
/// length does not depend on field order.
#[test]
fn validate_measures_a_block_scalar_the_same_first_or_last() {
    let o = run(&["validate", &validator("block-scalar")]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let found: Vec<(&str, &str)> = out
        .lines()
        .map(|l| {
            let (location, message) = l.split_once(": error[").unwrap();
            let skill = location.split('/').rev().nth(1).unwrap();
            (skill, message)
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "compatibility-first",
                "compatibility-length]: compatibility is 501 characters; the limit is 500"
            ),
            (
                "compatibility-last",
                "compatibility-length]: compatibility is 501 characters; the limit is 500"
            ),
            (
                "description-first",
                "description-too-long]: description is 1025 characters; the limit is 1024"
            ),
            (
                "description-last",
                "description-too-long]: description is 1025 characters; the limit is 1024"
            ),
        ],
        "{out}"
    );
}

/// `validate` checks every SKILL.md below a folder, dot folders included, except tool folders;
/// `--no-dot-folders` turns dot folders off, in `validate` and in `list` alike.
#[test]
fn validate_searches_dot_folders_but_not_tool_folders() {
    let folder = validator("dot-folders");
    let o = run(&["validate", &folder]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(stdout(&o), "", "node_modules/ and .venv/ are not searched");
    assert!(
        stderr(&o).contains("checked 6 skills: 0 errors, 0 warnings"),
        "{}",
        stderr(&o)
    );
    let o = run(&["validate", "--no-dot-folders", &folder]);
    assert!(
        stderr(&o).contains("checked 1 skill: 0 errors"),
        "{}",
        stderr(&o)
    );
    let o = run(&["validate", &validator("dot-folders/skills")]);
    assert!(stderr(&o).contains("checked 4 skills"), "{}", stderr(&o));
    // Issue 27: `list` finds what `validate` checks, and `--no-dot-folders` is shared.
    let names = |args: &[&str]| {
        let listed = stdout(&run(args));
        listed
            .lines()
            .skip(1)
            .filter_map(|l| l.split(' ').next().map(str::to_owned))
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&["list", &folder]).len(), 6);
    assert_eq!(names(&["list", "--no-dot-folders", &folder]), ["visible"]);

    // A dot-file stays out of its skill's resources.
    let o = run(&["list", &validator("dot-folders/.agents/skills")]);
    let row = stdout(&o);
    let row = row.lines().nth(1).unwrap();
    assert!(
        row.starts_with("agents ") && row.contains("    1  "),
        "{row}"
    );

    // Nothing in `.git` is checked, even a broken SKILL.md.
    let repo = tempfile::tempdir().unwrap();
    write_skill(&repo.path().join(".claude/skills"), "claude", "Claude.\n");
    let in_git = repo.path().join(".git/modules/x");
    std::fs::create_dir_all(&in_git).unwrap();
    std::fs::write(in_git.join("SKILL.md"), "no frontmatter").unwrap();
    let o = run(&["validate", repo.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("checked 1 skill: 0 errors"),
        "{}",
        stderr(&o)
    );
}

/// A resource over the size cap is a warning in `validate` (an error only with an explicit
/// `--max-resource-bytes`), and the loading commands leave the one file out, not the skill.
#[test]
fn a_resource_over_the_cap_is_a_warning_and_only_that_file_is_left_out() {
    let folder = validator("resource-cap");
    let o = run(&["validate", &folder]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), ""));
    let o = run(&["validate", "--max-resource-bytes", "1000", &folder]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).ends_with(
            "big-data/data.txt: error[resource-too-large]: is 3000 bytes; the cap is 1000 bytes: \
             exclude the file, or raise the cap (`max_resource_bytes` in `skills!`, \
             `--max-resource-bytes` in `skills`)\n"
        ),
        "{}",
        stdout(&o)
    );
    let o = run(&["list", "--max-resource-bytes", "1_000", &folder]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("data.txt: warning[resource-too-large]: is 3000 bytes"),
        "{}",
        stderr(&o)
    );
    let row = stdout(&o);
    let row = row.lines().nth(1).unwrap();
    assert!(
        row.starts_with("big-data ") && row.contains("    2  "),
        "{row}"
    );
    let o = run(&[
        "read",
        "--max-resource-bytes",
        "1000",
        &folder,
        "big-data",
        "notes.md",
    ]);
    assert_eq!(stdout(&o), "Small notes.\n");
    assert_eq!(
        run(&["validate", "--max-resource-bytes", "lots", &folder])
            .status
            .code(),
        Some(2)
    );

    // The default cap, 2,000,000 bytes: a warning, even without --lenient, and the skill loads.
    let root = tempfile::tempdir().unwrap();
    write_skill(root.path(), "big-script", "Run scripts/big.py.\n");
    let scripts = root.path().join("big-script/scripts");
    std::fs::create_dir_all(&scripts).unwrap();
    std::fs::write(scripts.join("big.py"), "#".repeat(2_100_000)).unwrap();
    let root = root.path().to_str().unwrap();
    let o = run(&["validate", root]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains(
            "big.py: warning[resource-too-large]: is 2100000 bytes; the cap is 2000000 bytes"
        ),
        "{}",
        stdout(&o)
    );
    let o = run(&["prompt", root]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "- big-script: The big-script skill. Use when testing.\n"
    );
}

/// A problem with a whole folder prints the folder alone (no made-up `:1:1`), and JSON gives
/// it no line or column.
#[test]
fn a_problem_with_a_folder_has_no_line_or_column() {
    let folder = validator("no-skill");
    let o = run(&["validate", &folder]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        format!(
            "{folder}: error[missing-skill-md]: holds no SKILL.md: a skill is a folder with a \
             SKILL.md file\n"
        )
    );
    let o = run(&["validate", "--format", "json", &folder]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v[0]["rule"], "missing-skill-md");
    assert_eq!(v[0]["file"], folder.as_str());
    assert!(v[0]["line"].is_null() && v[0]["column"].is_null(), "{v}");
}

/// `validate SKILL_FOLDER` (or its SKILL.md) checks and reports the skills nested in it too.
#[test]
fn validate_reports_skills_nested_in_the_skill_given() {
    for given in ["nested/outer", "nested/outer/SKILL.md"] {
        let o = run(&["validate", &validator(given)]);
        assert_eq!(o.status.code(), Some(1), "{given}");
        let out = stdout(&o);
        assert!(
            out.lines()
                .all(|l| l.contains("nested/outer/inner/SKILL.md:2:1: error[")),
            "{out}"
        );
        assert!(
            stderr(&o).contains("checked 2 skills: 2 errors"),
            "{}",
            stderr(&o)
        );
    }
}

// --- Issue 11, item 8: what the help says -----------------------------------------------------

#[test]
fn help_shows_what_is_required_and_the_exit_codes() {
    let o = run(&["serve", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    let help = stdout(&o);
    assert!(
        help.contains("Usage: skills serve [OPTIONS] <PATH... | --discover>"),
        "{help}"
    );
    assert!(
        help.contains("required unless --discover is given"),
        "{help}"
    );
    let o = run(&["serve"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("<PATH... | --discover>"),
        "{}",
        stderr(&o)
    );

    for flag in ["-h", "--help"] {
        let help = stdout(&run(&["validate", flag]));
        assert!(
            help.contains(
                "Exit status: 0 all valid (warnings allowed), 1 any error, 2 usage or I/O error"
            ),
            "{help}"
        );
    }
    let help = stdout(&run(&["validate", "--help"]));
    for folder in skills_embed::__private::SKIPPED_FOLDERS {
        assert!(help.contains(folder), "{folder} is not in the help: {help}");
    }
    for words in [
        "--no-dot-folders",
        "--max-resource-bytes",
        "nested below it",
    ] {
        assert!(help.contains(words), "{words}: {help}");
    }
}

/// Runs the tool and kills it when it has not finished within `limit`.
#[cfg(unix)]
fn run_within(args: &[&str], limit: std::time::Duration) -> (Output, std::time::Duration) {
    use std::process::Stdio;
    use std::time::Instant;
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the skills binary runs");
    // Drain the pipes on threads, so a chatty child cannot block on a full pipe.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out, &mut bytes);
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = std::io::Read::read_to_end(&mut err, &mut bytes);
        bytes
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "`skills {}` did not finish within {limit:?}",
                args.join(" ")
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let took = start.elapsed();
    let output = Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    };
    (output, took)
}

/// Issue 13 item 2: a skill whose folders each hold two links to the next level (no loop)
/// doubled the files per level: 16 levels took 79 s in `validate`. Each real folder is read
/// once per skill now, and the repeat is reported.
#[cfg(unix)]
#[test]
fn validate_reads_a_link_graph_once_per_real_folder() {
    use std::os::unix::fs::symlink;
    use std::time::Duration;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    write_skill(root, "graph", "Body\n");
    let skill = root.join("graph");
    let levels = 24;
    for i in 0..levels {
        let level = skill.join(format!("l{i:02}"));
        std::fs::create_dir(&level).unwrap();
        std::fs::write(level.join("f.md"), "level\n").unwrap();
        if i + 1 < levels {
            for link in ["a", "b"] {
                symlink(format!("../l{:02}", i + 1), level.join(link)).unwrap();
            }
        }
    }
    for command in ["validate", "list"] {
        let (o, took) = run_within(&[command, root.to_str().unwrap()], Duration::from_secs(20));
        println!("skills {command} took {took:?}");
        assert!(took < Duration::from_secs(5), "{command}: {took:?}");
        assert_eq!(o.status.code(), Some(0), "{command}: {}", stderr(&o));
        let report = format!("{}{}", stdout(&o), stderr(&o));
        assert!(
            report.contains("warning[scan-limit]"),
            "{command}: {report}"
        );
    }
}

/// Issue 13 item 1: `skills list` reported a skill folder linked to `/` at once; the other
/// commands do too.
#[cfg(unix)]
#[test]
fn commands_refuse_a_skill_folder_linked_to_the_file_system_root_at_once() {
    use std::time::Duration;
    let tmp = tempfile::tempdir().unwrap();
    write_skill(tmp.path(), "good", "Body\n");
    std::os::unix::fs::symlink("/", tmp.path().join("escape")).unwrap();
    let root = tmp.path().to_str().unwrap();
    for args in [
        &["validate", root][..],
        &["list", root],
        &["prompt", root],
        &["read", root, "good"],
    ] {
        let (o, took) = run_within(args, Duration::from_secs(20));
        assert!(took < Duration::from_secs(5), "{args:?}: {took:?}");
        assert!(
            stdout(&o).contains("symlink-escape") || stderr(&o).contains("symlink-escape"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn invoke_prints_what_a_host_inserts_and_reports_unknown_names() {
    let basic = path("tests/fixtures/basic");
    let pdf = basic::SKILLS.get("pdf").unwrap().body().to_owned();
    let review = basic::SKILLS.get("code-review").unwrap().body().to_owned();

    // `/name args` at the start: no placeholder in the body, so the arguments are appended.
    let o = run(&["invoke", &basic, r#"/pdf fill a.pdf "b c""#]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!("{pdf}\nARGUMENTS: fill a.pdf \"b c\"\n")
    );
    assert_eq!(stderr(&o), "");

    // Several mentions; unknown names and paths stay text, the unknown ones on stderr.
    let o = run(&[
        "invoke",
        &basic,
        "please /code-review and $pdf, not /pfd or a/pdf",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{review}\n{pdf}"));
    assert_eq!(
        stderr(&o),
        "not a skill, left as text: /pfd (byte 34). Did you mean \"pdf\"?\n"
    );

    // Nothing invoked: exit 1; missing MESSAGE: exit 2.
    let o = run(&["invoke", &basic, "see http://x/pdf and /tmp"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "not a skill, left as text: /tmp (byte 21)\nno skill invoked\n"
    );
    assert_eq!(run(&["invoke", &basic]).status.code(), Some(2));
}

#[test]
fn invoke_substitutes_arguments_and_the_skill_folder() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("fill");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: fill\ndescription: Fill a form. Use when testing.\narguments: [form, values]\n\
         argument-hint: FORM VALUES\n---\nFill $form with $1 ($ARGUMENTS[0]) via ${SKILL_DIR}/x.sh.\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.path().join("hidden")).unwrap();
    std::fs::write(
        root.path().join("hidden/SKILL.md"),
        "---\nname: hidden\ndescription: Not for users. Use when testing.\nuser-invocable: false\n---\nHidden.\n",
    )
    .unwrap();
    let folder = root.path().to_str().unwrap();
    let o = run(&["invoke", folder, "/fill 'my form.pdf' v.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!(
            "Fill my form.pdf with v.json (my form.pdf) via {}/x.sh.\n",
            dir.display()
        )
    );
    let o = run(&["invoke", folder, "/hidden"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("not a skill, left as text: /hidden (byte 0)\n"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn dialects_on_the_command_line() {
    let folder = path("tests/fixtures/invocation");
    let all = [
        "--dialect",
        "claude-code",
        "--dialect",
        "codex",
        "--dialect",
        "opencode",
    ];
    let with = |command: &str, rest: &[&str]| {
        let mut args = vec![command];
        args.extend(all);
        args.push(&folder);
        args.extend(rest);
        run(&args)
    };
    // Strict without dialects: Claude Code's fields are unknown fields, as the spec says.
    let o = run(&["validate", &folder]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("checked 5 skills: 8 errors, 0 warnings"),
        "{}",
        stderr(&o)
    );
    // Lenient: honoured, with warnings naming the client.
    let o = run(&["validate", "--lenient", &folder]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o) + &stderr(&o);
    assert!(out.contains("deploy/SKILL.md:4:1: warning[unknown-field]: field \"disable-model-invocation\" is a Claude Code field"), "{out}");
    assert!(
        out.contains("release/agents/openai.yaml:4:3: warning[unknown-field]"),
        "{out}"
    );
    // Opted in: known fields, no warning.
    let o = with("validate", &[]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stderr(&o).contains("checked 5 skills: 0 errors, 0 warnings"),
        "{}",
        stderr(&o)
    );
    // The model's view leaves out what it may not invoke.
    assert_eq!(
        stdout(&with("prompt", &[])),
        "- pdf: Fill PDF forms. Use when the user asks to fill a PDF.\n\
         - style-guide: The house style for prose. Use when writing documentation.\n"
    );
    let schema: serde_json::Value = serde_json::from_str(&stdout(&with("schema", &[]))).unwrap();
    assert_eq!(
        schema[0]["parameters"]["properties"]["skill"]["enum"],
        serde_json::json!(["pdf", "style-guide"])
    );
    let o = with("call", &["load_skill", r#"{"skill":"deploy"}"#]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o) + &stderr(&o),
        "Skill \"deploy\" not found. Available skills: pdf, style-guide.\n"
    );
    // The user's menu leaves out what the user may not invoke, and the user invokes the rest.
    assert_eq!(
        stdout(&with("menu", &[])),
        "/autoinvoke-off       Rotate the API keys. Use only when the user asks.\n\
         /deploy [env]         Deploy the site to an environment. Only the user starts a deploy.\n\
         /pdf [file] [values]  Fill PDF forms. Use when the user asks to fill a PDF.\n\
         /release              Cut a release. Use when the user asks for a release.\n"
    );
    assert_eq!(
        stdout(&with("invoke", &["/deploy prod"])),
        "Deploy to prod.\n"
    );
    // A bad dialect name is a usage error.
    assert_eq!(
        run(&["validate", "--dialect", "claude", &folder])
            .status
            .code(),
        Some(2)
    );
}

/// Issue 25: a body's placeholders multiplied the arguments without bound (a 1.98 MB SKILL.md
/// with a 1 KB argument printed 180 MB; 128 KB aborted). Over the cap: exit 1 and the sizes.
#[test]
fn invoke_refuses_a_text_over_the_substitution_cap() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("echo");
    std::fs::create_dir_all(&dir).unwrap();
    // Inside the body's limits (40,000 characters), 3,900 placeholders.
    let body = "$ARGUMENTS".repeat(3_900);
    std::fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: echo\ndescription: Echo. Use when testing.\n---\n{body}\n"),
    )
    .unwrap();
    let folder = root.path().to_str().unwrap();
    // 3.9 MB, then about 470 MB (near the kernel's 128 KiB limit on one argument).
    for arg in ["a".repeat(1_000), "b".repeat(120_000)] {
        let o = run(&["invoke", folder, &format!("/echo {arg}")]);
        assert_eq!(
            (o.status.code(), o.stdout.len()),
            (Some(1), 0),
            "{}",
            stderr(&o)
        );
        let rendered = 3_900 * arg.len() + 1;
        assert_eq!(
            stderr(&o),
            format!(
                "Invoking skill \"echo\" with these arguments would give {rendered} bytes of text \
                 (a body of 39001 bytes with 3900 placeholders, arguments of {} bytes); the limit \
                 is 2000000 bytes. Invoke it with shorter arguments, or without them.\n",
                arg.len()
            )
        );
    }
    // Within the cap, as before.
    let o = run(&["invoke", folder, "/echo ab"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{}\n", "ab".repeat(3_900)));
}

/// `skills serve --tool-name NAME` over stdio: exit status, stdout lines up to the answer to
/// `tools/list`, stderr.
fn serve_with_tool_name(name: &str) -> (Option<i32>, Vec<String>, String) {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .args(["serve", "--tool-name", name, &path("tests/fixtures/basic")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // A server that refused its flags has exited: the writes may fail, which is fine.
    let _ = stdin.write_all(
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
            "\n"
        )
        .as_bytes(),
    );
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let done = line.contains(r#""id":2"#);
        lines.push(line);
        if done {
            break;
        }
    }
    drop(stdin);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (child.wait().unwrap().code(), lines, stderr)
}

/// Issue 25: `--tool-name` took an empty name and newlines, and served them as the tool's name.
#[test]
fn serve_refuses_a_tool_name_providers_refuse_as_a_usage_error() {
    let (_, lines, stderr) = serve_with_tool_name("skills_load-2");
    assert!(
        lines
            .last()
            .is_some_and(|l| l.contains(r#""name":"skills_load-2""#)),
        "{lines:?} {stderr}"
    );
    let long = "x".repeat(65);
    for (name, problem) in [
        ("", "is empty"),
        ("load\nskill", r"has '\n' at byte 4"),
        ("load skill", "has ' ' at byte 4"),
        ("load.skill", "has '.' at byte 4"),
        ("\u{e9}", r"has 'é' at byte 0"),
        (long.as_str(), "is 65 characters long"),
    ] {
        let (status, lines, stderr) = serve_with_tool_name(name);
        assert_eq!((status, lines.len()), (Some(2), 0), "{name:?}: {lines:?}");
        assert!(
            stderr.contains(&format!(
                "Tool name {} {problem}. A tool name is 1 to 64 characters",
                serde_json::to_string(name).unwrap()
            )),
            "{name:?}: {stderr}"
        );
    }
}

/// `skills serve --state-key-file` refuses a key the codec would not take, saying how to make
/// one, before serving anything.
#[test]
fn serve_refuses_a_short_state_key_with_how_to_make_one() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("state.key");
    std::fs::write(&key, "short").unwrap();
    let o = run(&[
        "serve",
        "--http",
        "127.0.0.1:0",
        "--state-key-file",
        key.to_str().unwrap(),
        &path("tests/fixtures/basic"),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let message = stderr(&o);
    assert!(
        message.contains(
            "state.key: request state signing key is too short: expected at least 32 bytes, got 5"
        ),
        "{message}"
    );
    assert!(
        message.contains("head -c 32 /dev/urandom > FILE"),
        "{message}"
    );
}
