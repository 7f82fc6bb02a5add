//! Issue 27 item 3: every command reads a collection the one way `validate` does (dot folders
//! included, tool folders skipped, `--no-dot-folders` shared), leniently outside `validate`, and
//! names what it cannot serve on stderr and in the MCP server's log. The fixtures under
//! `tests/fixtures/collections/` reproduce real layouts with our own text: `dot-folders` as
//! openai/skills (`.curated/`, `.system/`, `.experimental/`), `lenient` as a collection with one
//! description over the limit and one skill with no name.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn collection(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/collections")
        .join(name)
        .to_str()
        .unwrap()
        .to_owned()
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .args(args)
        .output()
        .expect("the skills binary runs")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The names in `skills list`'s rows.
fn listed(o: &Output) -> Vec<String> {
    out(o)
        .lines()
        .skip(1)
        .filter_map(|l| l.split(' ').next().map(str::to_owned))
        .collect()
}

const DOT_SKILLS: [&str; 3] = ["csv-tidy", "gh-review", "skill-maker"];

#[test]
fn every_command_finds_the_skills_validate_finds_in_dot_folders() {
    let root = collection("dot-folders");
    let o = run(&["validate", &root]);
    assert_eq!(o.status.code(), Some(0), "{}{}", out(&o), err(&o));
    assert!(
        err(&o).contains("checked 3 skills: 0 errors, 0 warnings"),
        "{}",
        err(&o)
    );

    let o = run(&["list", &root]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(listed(&o), DOT_SKILLS, "{}", out(&o));
    assert!(
        out(&o).contains("dot-folders/skills/.curated/gh-review"),
        "{}",
        out(&o)
    );

    let o = run(&["menu", &root]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    for name in DOT_SKILLS {
        assert!(
            out(&o).contains(&format!("/{name} ")),
            "{name}: {}",
            out(&o)
        );
    }

    let o = run(&["prompt", &root]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o).lines().count(), 3, "{}", out(&o));
    assert!(
        out(&o).starts_with("- csv-tidy: Tidy a CSV file"),
        "{}",
        out(&o)
    );

    let o = run(&["schema", &root]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let schema: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(
        schema[0]["parameters"]["properties"]["skill"]["enum"],
        json!(DOT_SKILLS),
        "{schema}"
    );

    let o = run(&["read", &root, "csv-tidy", "references/rules.md"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), "# Rules\n\nOne header row.\n");

    let o = run(&["call", &root, "load_skill", r#"{"skill":"gh-review"}"#]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o).contains("Read the diff, then the tests"),
        "{}",
        out(&o)
    );

    let o = run(&["invoke", &root, "/skill-maker please"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("# Making a skill"), "{}", out(&o));

    let mut server = Server::start(&[&root]);
    server.initialize();
    assert_eq!(server.tool_enum(2), json!(DOT_SKILLS));
    drop(server.stop());

    // The one flag turns dot folders off for every command alike.
    let o = run(&["validate", "--no-dot-folders", &root]);
    assert!(out(&o).contains("holds no SKILL.md"), "{}", out(&o));
    let o = run(&["list", "--no-dot-folders", &root]);
    assert_eq!(listed(&o), Vec::<String>::new(), "{}", out(&o));
    assert!(err(&o).contains("holds no SKILL.md"), "{}", err(&o));
}

/// `validate` stays strict; the commands that read a collection keep the skill over a limit
/// with a warning, exit 0 when they did what was asked, and name the skill they cannot serve.
#[test]
fn reading_is_lenient_validate_is_strict() {
    let root = collection("lenient");
    let o = run(&["validate", &root]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        out(&o).contains("wordy/SKILL.md:3:1: error[description-too-long]: description is 1119"),
        "{}",
        out(&o)
    );
    let o = run(&["validate", "--lenient", &root]);
    assert!(
        out(&o).contains("warning[description-too-long]"),
        "{}",
        out(&o)
    );

    let o = run(&["list", &root]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(listed(&o), ["brief", "wordy"], "{}", out(&o));
    let stderr = err(&o);
    assert!(
        stderr.contains("lenient/wordy/SKILL.md:3:1: warning[description-too-long]"),
        "{stderr}"
    );
    assert!(
        stderr.contains("lenient/nameless/SKILL.md:1:1: error[name-missing]")
            && stderr
                .contains("skipped 1 skill that cannot be served (the errors above say why): ")
            && stderr.contains("lenient/nameless/SKILL.md (name-missing)"),
        "{stderr}"
    );

    let o = run(&["read", &root, "wordy"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).starts_with("# Summaries"), "{}", out(&o));
    // A skill that is not there is still a miss.
    assert_eq!(run(&["read", &root, "nameless"]).status.code(), Some(1));

    let mut server = Server::start(&[&root]);
    server.initialize();
    assert_eq!(server.tool_enum(2), json!(["brief", "wordy"]));
    // A client that asks for the log learns what is not served, with the rule.
    server.send(&json!({"jsonrpc": "2.0", "id": 3, "method": "logging/setLevel", "params": {"level": "info"}}));
    let log = server.wait_for(|m| m["method"] == "notifications/message");
    let line = log["params"]["data"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert_eq!(log["params"]["level"], "warning", "{log}");
    assert!(
        line == "not served: nameless/SKILL.md:1:1: error[name-missing]",
        "{log}"
    );
    let stderr = server.stop();
    assert!(
        stderr.contains("lenient/nameless/SKILL.md (name-missing)")
            && stderr.contains("skills serve: 2 skills over stdio"),
        "{stderr}"
    );
}

/// What a server logs of the skills it cannot serve names only skills the client may see: a
/// folder its rules deny (`--deny`, or left out by `--only`) is never named, broken or not.
#[test]
fn the_log_of_what_is_not_served_names_no_denied_skill() {
    let root = collection("lenient");
    for rules in [["--deny", "nameless"], ["--only", "brief"]] {
        let mut server = Server::start(&[rules[0], rules[1], &root]);
        server.initialize();
        server.send(&json!({"jsonrpc": "2.0", "id": 3, "method": "logging/setLevel", "params": {"level": "debug"}}));
        // The log lines of `logging/setLevel` are sent before its answer.
        let logged = std::cell::RefCell::new(Vec::new());
        server.wait_for(|m| {
            if m["method"] == "notifications/message" {
                logged.borrow_mut().push(m["params"]["data"].to_string());
            }
            m["id"] == json!(3)
        });
        let logged = logged.into_inner();
        assert!(
            logged.iter().all(|line| !line.contains("nameless")),
            "{rules:?}: {logged:?}"
        );
        // The server itself still says what it left out, on its own stderr.
        let stderr = server.stop();
        assert!(
            stderr.contains("nameless/SKILL.md (name-missing)"),
            "{stderr}"
        );
    }
}

/// `serve` (and `list`) take several PATHs; a name in two of them is taken from the first, and
/// the other copy is named as shadowed, the way discovery's precedence says.
#[test]
fn serve_takes_several_paths_and_the_first_wins_a_name() {
    let tmp = tempfile::tempdir().unwrap();
    for (root, body) in [("a", "From A."), ("b", "From B.")] {
        for name in ["shared", root] {
            let dir = tmp.path().join(root).join(name);
            std::fs::create_dir_all(&dir).unwrap();
            let text = format!("---\nname: {name}\ndescription: The {name} skill.\n---\n{body}\n");
            std::fs::write(dir.join("SKILL.md"), text).unwrap();
        }
    }
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let o = run(&["list", a, b]);
    assert_eq!(listed(&o), ["a", "b", "shared"], "{}", out(&o));
    let o = run(&["read", b, "shared"]);
    assert_eq!(out(&o), "From B.\n");

    let mut server = Server::start(&[a, b]);
    server.initialize();
    assert_eq!(server.tool_enum(2), json!(["a", "b", "shared"]));
    let (answer, _) = server.request(
        3,
        "tools/call",
        json!({"name": "load_skill", "arguments": {"skill": "shared"}}),
    );
    assert!(answer.to_string().contains("From A."), "{answer}");
    let stderr = server.stop();
    assert!(
        stderr.contains(
            "b/shared/SKILL.md: warning[duplicate-name]: skill \"shared\" here is shadowed by"
        ) && stderr.contains("a/shared/SKILL.md (both are code skills, and"),
        "{stderr}"
    );
}

/// The server over stdio, driven with raw JSON-RPC lines; its stderr kept for the end.
struct Server {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
}

impl Server {
    fn start(paths: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skills-cli"))
            .arg("serve")
            .args(paths)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the skills binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut pipe = child.stderr.take().unwrap();
        let stderr = Arc::new(Mutex::new(String::new()));
        let kept = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    return;
                }
                kept.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Server {
            child,
            stdin,
            lines,
            stderr,
        }
    }

    fn send(&mut self, message: &Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The first message that `matches`, within five seconds.
    fn wait_for(&mut self, matches: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let left = Duration::from_secs(5).saturating_sub(start.elapsed());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no such message within 5 s: {}", self.stderr()));
            if let Ok(message) = serde_json::from_str::<Value>(&line)
                && matches(&message)
            {
                return message;
            }
        }
    }

    fn request(&mut self, id: u64, method: &str, params: Value) -> (Value, Duration) {
        let start = Instant::now();
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        (self.wait_for(|m| m["id"] == json!(id)), start.elapsed())
    }

    fn initialize(&mut self) {
        let (answer, _) = self.request(
            1,
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "cli-collections-test", "version": "0"}
            }),
        );
        assert_eq!(answer["result"]["serverInfo"]["name"], "skills", "{answer}");
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }

    fn tool_enum(&mut self, id: u64) -> Value {
        let (answer, _) = self.request(id, "tools/list", json!({}));
        answer["result"]["tools"][0]["inputSchema"]["properties"]["skill"]["enum"].clone()
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Stops the server and gives what it wrote on stderr.
    fn stop(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // The reading thread ends with the pipe.
        std::thread::sleep(Duration::from_millis(50));
        self.stderr()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Issue 27 item 4: what the walker says about links, as every command prints it.
#[test]
fn link_messages_say_what_happened() {
    let root = collection("agents-link");
    let o = run(&["validate", &root]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(
        err(&o).contains("checked 1 skill: 0 errors, 0 warnings"),
        "{}",
        err(&o)
    );
    let o = run(&["list", &root]);
    assert_eq!(err(&o), "");
    assert!(
        out(&o).trim_end().ends_with("agents-link/skills/tidy"),
        "{}",
        out(&o)
    );

    let root = collection("link-faults");
    let o = run(&["validate", &root]);
    let report = out(&o);
    assert!(
        report.contains("link-faults/dangling/notes.md: error[read-error]: broken symbolic link to `missing.md`: ")
            && report.contains("link-faults/looping/again: error[read-error]: symbolic link to `.` loops back to ")
            && !report.contains("skipped"),
        "{report}"
    );
    let o = run(&["validate", &format!("{root}/escape")]);
    assert_eq!(out(&o).lines().count(), 1, "{}", out(&o));
    assert!(
        out(&o).contains("escape/SKILL.md: error[symlink-escape]"),
        "{}",
        out(&o)
    );
    // The skills around a fault are still served.
    let o = run(&["list", &root]);
    assert_eq!(
        listed(&o),
        ["dangling", "looping"],
        "{}{}",
        out(&o),
        err(&o)
    );
}

/// Issue 27 item 5: `skills new` writes a skill `validate` passes strictly, the folders the
/// specification names, and the lines that embed it; it refuses an invalid name with the
/// validator's message and never writes over what exists.
#[test]
fn skills_new_writes_a_valid_skill_and_refuses_what_it_must() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("skills");
    let dir_text = dir.to_str().unwrap();
    let o = run(&["new", "pdf-forms", dir_text]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let skill = dir.join("pdf-forms");
    for sub in ["scripts", "references", "assets"] {
        assert!(skill.join(sub).is_dir(), "{sub}");
    }
    let text = std::fs::read_to_string(skill.join("SKILL.md")).unwrap();
    assert!(
        text.starts_with("---\nname: pdf-forms\ndescription: "),
        "{text}"
    );
    assert!(
        out(&o).contains(&format!("    skills_embed::skills!({dir_text:?});"))
            && out(&o).contains(&format!(
                "    println!(\"cargo::rerun-if-changed={dir_text}\");"
            )),
        "{}",
        out(&o)
    );
    let o = run(&["validate", dir_text]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert_eq!(out(&o), "");
    assert!(
        err(&o).contains("checked 1 skill: 0 errors, 0 warnings"),
        "{}",
        err(&o)
    );

    // Never over what exists: the file is left as it was.
    std::fs::write(skill.join("SKILL.md"), "mine").unwrap();
    let o = run(&["new", "pdf-forms", dir_text]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("exists already; nothing was written"),
        "{}",
        err(&o)
    );
    assert_eq!(
        std::fs::read_to_string(skill.join("SKILL.md")).unwrap(),
        "mine"
    );

    // An invalid name: the validator's own rule and message, and nothing written.
    for (name, rule) in [
        (
            "Pdf Forms",
            "error[name-case]: name \"Pdf Forms\" must be lowercase",
        ),
        ("a: b", "error[name-chars]"),
        ("", "error[name-missing]"),
    ] {
        let o = run(&["new", name, dir_text]);
        assert_eq!(o.status.code(), Some(1), "{name}");
        assert!(err(&o).contains(rule), "{name}: {}", err(&o));
        assert!(err(&o).contains("no skill written"), "{}", err(&o));
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}
