//! Issue 13 item 1: `skills serve` on a folder whose skill is a link to `/` answered nothing,
//! not even `ping`: the reload walked the whole file system on the server's request path.
//! Reloads run in the background now, on the bounded walk every scan shares; requests get the
//! last snapshot at once.
//!
//! The server is driven with raw JSON-RPC lines over its stdio, and every answer is awaited with
//! a deadline, so a stalled server fails the test instead of hanging it.
#![cfg(unix)]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long one answer may take.
const DEADLINE: Duration = Duration::from_secs(5);

struct Server {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(dir: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skills-cli"))
            .arg("serve")
            .arg(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the skills binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
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
        }
    }

    fn send(&mut self, message: &Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends a request and waits (at most [`DEADLINE`]) for the answer with its id.
    fn request(&mut self, id: u64, method: &str, params: Value) -> (Value, Duration) {
        let start = Instant::now();
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let left = DEADLINE.saturating_sub(start.elapsed());
            let line = self.lines.recv_timeout(left).unwrap_or_else(|_| {
                panic!("no answer to `{method}` within {DEADLINE:?}: the server is stalled")
            });
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message["id"] == json!(id) {
                return (message, start.elapsed());
            }
        }
    }

    fn initialize(&mut self) {
        let (answer, took) = self.request(
            1,
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "serve-links-test", "version": "0"}
            }),
        );
        println!("initialize answered in {took:?}");
        assert_eq!(answer["result"]["serverInfo"]["name"], "skills", "{answer}");
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }

    fn tool_enum(&mut self, id: u64) -> Value {
        let (answer, _) = self.request(id, "tools/list", json!({}));
        answer["result"]["tools"][0]["inputSchema"]["properties"]["skill"]["enum"].clone()
    }
}

fn write_skill(dir: &Path, name: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let text = format!("---\nname: {name}\ndescription: The {name} skill.\n---\nBody of {name}.\n");
    std::fs::write(dir.join("SKILL.md"), text).unwrap();
}

#[test]
fn serve_answers_at_once_when_a_skill_is_a_link_to_the_file_system_root() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(&tmp.path().join("good"), "good");
    std::os::unix::fs::symlink("/", tmp.path().join("escape")).unwrap();

    let mut server = Server::start(tmp.path());
    server.initialize();
    let (pong, took) = server.request(2, "ping", json!({}));
    assert!(pong.get("result").is_some(), "{pong}");
    println!("ping answered in {took:?}");
    assert_eq!(server.tool_enum(3), json!(["good"]));
    // Past the reload interval: the background reload runs, answers do not wait for it.
    std::thread::sleep(Duration::from_millis(1_500));
    for id in 4..8 {
        let (pong, took) = server.request(id, "ping", json!({}));
        assert!(pong.get("result").is_some(), "{pong}");
        assert!(took < Duration::from_secs(1), "ping {id} took {took:?}");
    }
}

#[test]
fn serve_keeps_answering_when_a_skill_is_swapped_for_a_link_to_the_root() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(&tmp.path().join("good"), "good");
    write_skill(&tmp.path().join("other"), "other");

    let mut server = Server::start(tmp.path());
    server.initialize();
    assert_eq!(server.tool_enum(2), json!(["good", "other"]));

    std::fs::remove_dir_all(tmp.path().join("good")).unwrap();
    std::os::unix::fs::symlink("/", tmp.path().join("good")).unwrap();
    // The background reload sees the swap within a few seconds; every answer meanwhile is
    // immediate.
    let start = Instant::now();
    let mut id = 3;
    loop {
        let (pong, took) = server.request(id, "ping", json!({}));
        assert!(pong.get("result").is_some(), "{pong}");
        assert!(took < Duration::from_secs(1), "ping took {took:?}");
        id += 1;
        let names = server.tool_enum(id);
        id += 1;
        if names == json!(["other"]) {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the swap was not picked up: {names}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}
