//! `skills plugin PATH --out DIR`: the plugin folder read back (its `skills/` passes
//! `skills validate`), and each format's MCP server entry run as its client runs it (the root
//! variable replaced by the plugin's folder, the command found on PATH) until it answers
//! `initialize` over stdio.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

const SKILLS: &str = env!("CARGO_BIN_EXE_skills-cli");

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(name)
}

fn skills(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(SKILLS)
        .args(args)
        .output()
        .expect("the binary runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Starts `server` (`command`, `args`) as a client would, `root_variable` in its arguments
/// replaced by `root` and PATH holding the tool's folder, and gives its answer to `initialize`.
fn initialize(server: &Value, root_variable: &str, root: &Path) -> Value {
    let command = server["command"].as_str().unwrap();
    let args: Vec<String> = server["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            a.as_str()
                .unwrap()
                .replace(root_variable, root.to_str().unwrap())
        })
        .collect();
    let bin_dir = Path::new(SKILLS).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_owned()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let mut child = Command::new(command)
        .args(&args)
        .env("PATH", path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{command} {args:?}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let request = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "plugin-test", "version": "0"}}
    });
    writeln!(stdin, "{request}").unwrap();
    let mut answer = None;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let message: Value = serde_json::from_str(&line.unwrap()).unwrap();
        if message["id"] == json!(1) {
            answer = Some(message);
            break;
        }
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    answer.expect("an answer to initialize")
}

#[test]
fn skills_plugin_writes_a_plugin_that_validates_and_whose_servers_answer() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("basic-skills");
    let fixture = fixture("basic");
    let (code, stdout, stderr) = skills(&[
        "plugin",
        fixture.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
        "--version",
        "1.0.0",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("(all): 2 skills"), "{stdout}");
    for file in [
        ".claude-plugin/plugin.json",
        ".cursor-plugin/plugin.json",
        "plugin.json",
        "mcp.json",
        "skills/pdf/SKILL.md",
        "skills/pdf/scripts/extract.sh",
        "skills/code-review/SKILL.md",
    ] {
        assert!(
            stdout.contains(&format!("{}\n", dir.join(file).display())),
            "{file}: {stdout}"
        );
    }

    // Read back: the plugin's skills are valid as `skills!` wants them.
    let skills_dir = dir.join("skills");
    let (code, stdout, stderr) = skills(&["validate", skills_dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stderr.contains("checked 2 skills: 0 errors"), "{stderr}");

    // Each format's server entry starts this tool's own `serve` on the plugin's skills.
    for (manifest, pointer, variable) in [
        (
            ".claude-plugin/plugin.json",
            "/mcpServers/basic-skills",
            "${CLAUDE_PLUGIN_ROOT}",
        ),
        (
            ".cursor-plugin/plugin.json",
            "/mcpServers/basic-skills",
            "${CURSOR_PLUGIN_ROOT}",
        ),
        ("mcp.json", "/mcpServers/basic-skills", "${PLUGIN_ROOT}"),
    ] {
        let json = read_json(&dir.join(manifest));
        let server = json
            .pointer(pointer)
            .unwrap_or_else(|| panic!("{manifest}: {json:#}"));
        assert_eq!(server["command"], "skills-cli", "{manifest}");
        let answer = initialize(server, variable, &dir);
        assert_eq!(
            answer["result"]["serverInfo"]["name"], "skills",
            "{manifest}: {answer}"
        );
        assert!(
            answer["result"]["capabilities"]["tools"].is_object(),
            "{manifest}: {answer}"
        );
    }
}

#[test]
fn skills_plugin_checks_strictly_first_and_refuses_what_the_formats_refuse() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("p");
    let dir_arg = dir.to_str().unwrap();
    // An invalid skill: nothing written, the validator's errors on stderr.
    let bad = fixture("fail/name-case");
    let (code, _, stderr) = skills(&["plugin", bad.to_str().unwrap(), "--out", dir_arg]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("before making a plugin of"), "{stderr}");
    assert!(!dir.exists());

    let basic = fixture("basic");
    let basic = basic.to_str().unwrap();
    // A name Claude Code refuses, with the one to use.
    let (code, _, stderr) = skills(&["plugin", basic, "--out", dir_arg, "--name", "Acme.Tools"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--name acme-tools"), "{stderr}");
    // Periods are fine for Cursor and Agent Plugins alone.
    let (code, _, stderr) = skills(&[
        "plugin",
        basic,
        "--out",
        dir_arg,
        "--name",
        "acme.tools",
        "--format",
        "cursor,agent-plugins",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!dir.join(".claude-plugin").exists());
    assert_eq!(read_json(&dir.join("plugin.json"))["name"], "acme.tools");
    // Not over what exists, unless --force.
    let (code, _, stderr) = skills(&["plugin", basic, "--out", dir_arg, "--format", "claude"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--force"), "{stderr}");
    let (code, _, stderr) = skills(&[
        "plugin", basic, "--out", dir_arg, "--format", "claude", "--force",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(dir.join(".claude-plugin/plugin.json").is_file() && !dir.join("plugin.json").exists());
    // A format that does not exist is a usage error naming the ones that do.
    let (code, _, stderr) = skills(&["plugin", basic, "--out", dir_arg, "--format", "vscode"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("agent-plugins"), "{stderr}");
}
