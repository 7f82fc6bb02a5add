//! The MCP server against a hostile client: a pipeline of reads that never drains, URIs of
//! megabytes, arguments nested past the JSON parser's limit, and notifications that would tell a
//! client about skills it may not see.
//!
//! Tests that start `skills serve` as a child process bound every wait with a deadline, so a
//! server that stops answering fails the test instead of hanging it.

use crate::common::connect;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use rmcp::ClientHandler;
use rmcp::model::{
    GetSkillRequestParams, ReadResourceDirectoryRequestParams, ReadResourceRequestParams,
};
use rmcp::service::{NotificationContext, RoleClient, ServiceError};
use serde_json::{Value, json};
use skills_embed::disk::{Discovery, Overlay};
use skills_embed::mcp::McpServer;
use skills_embed::policy::Permissions;
use skills_embed::{Fields, File, Skill, SkillSet, listing::ListingFormat};

fn demo_set() -> Arc<SkillSet> {
    let skill = Skill::owned(
        Fields {
            name: "demo".into(),
            description: "A demo skill. Use it in tests.".into(),
            ..Fields::default()
        },
        "Do the demo.\n".into(),
        vec![File::owned(
            "references/notes.md".into(),
            b"# Notes\n".to_vec(),
            false,
        )],
    );
    Arc::new(SkillSet::from_skills(vec![skill], &ListingFormat::Markdown))
}

/// The size of an error answer as the client receives it (message and data, as JSON).
fn answer_size(error: &ServiceError) -> usize {
    match error {
        ServiceError::McpError(data) => serde_json::to_string(data).unwrap().len(),
        other => panic!("expected an MCP error answer, got {other}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Item 4: every surface clips what it echoes.

#[tokio::test(flavor = "current_thread")]
async fn huge_uris_get_short_errors_on_every_surface() {
    const LIMIT: usize = 4096;
    let client = connect(
        McpServer::new(demo_set(), skills_embed::tools::Settings::default()),
        (),
    )
    .await;
    let long = "a".repeat(4 << 20);
    let zero_width = "\u{200B}".repeat(1 << 20);
    let control = "\u{1}".repeat(1 << 20);
    let mut uris = Vec::new();
    for filler in [&long, &zero_width, &control] {
        uris.push(format!("skill://demo/{filler}"));
        uris.push(format!("skill://demo/{filler}/"));
        uris.push(format!("skill://demo/references/{filler}"));
        uris.push(format!("skill://{filler}/SKILL.md"));
        uris.push(format!("skill://demo/{filler}?x"));
        uris.push(format!("file://{filler}"));
    }
    for uri in &uris {
        let what = format!(
            "{}… ({} bytes)",
            uri.chars().take(20).collect::<String>().escape_debug(),
            uri.len()
        );
        let read = client
            .read_resource(ReadResourceRequestParams::new(uri.clone()))
            .await
            .unwrap_err();
        assert!(
            answer_size(&read) < LIMIT,
            "resources/read {what}: {} bytes",
            answer_size(&read)
        );
        let dir = client
            .read_resource_directory(ReadResourceDirectoryRequestParams::new(uri.clone()))
            .await
            .unwrap_err();
        assert!(
            answer_size(&dir) < LIMIT,
            "resources/directory/read {what}: {} bytes",
            answer_size(&dir)
        );
        let get = client
            .get_skill(GetSkillRequestParams::new(uri.clone()))
            .await
            .unwrap_err();
        assert!(
            answer_size(&get) < LIMIT,
            "skills/get {what}: {} bytes",
            answer_size(&get)
        );
    }
    client.cancel().await.unwrap();
}

// ---------------------------------------------------------------------------------------------
// Item 5: change notifications cover only what the client may see.

/// A client that counts the two list-changed notifications.
#[derive(Clone, Default)]
struct Counter {
    tools: Arc<Mutex<usize>>,
    resources: Arc<Mutex<usize>>,
}

impl Counter {
    fn counts(&self) -> (usize, usize) {
        (*self.tools.lock().unwrap(), *self.resources.lock().unwrap())
    }
}

impl ClientHandler for Counter {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        *self.tools.lock().unwrap() += 1;
    }

    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        *self.resources.lock().unwrap() += 1;
    }
}

fn write_skill(root: &Path, name: &str, description: &str) {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: {description}\n---\nDo it.\n"),
    )
    .unwrap();
}

/// Waits up to `limit` for the counts to reach `want` (or to move at all when `want` is zero),
/// and returns them.
async fn counts_after(counter: &Counter, want: (usize, usize), limit: Duration) -> (usize, usize) {
    let start = Instant::now();
    while start.elapsed() < limit {
        let now = counter.counts();
        if want != (0, 0) && now.0 >= want.0 && now.1 >= want.1 {
            return now;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    counter.counts()
}

#[tokio::test(flavor = "current_thread")]
async fn editing_a_denied_skill_tells_the_client_nothing() {
    static NONE: SkillSet = SkillSet::empty();
    let dir = tempfile::tempdir().unwrap();
    write_skill(dir.path(), "public-notes", "Public notes. Use for notes.");
    write_skill(dir.path(), "secret-notes", "Secret notes. Use for secrets.");
    let discovery = Discovery::only(dir.path());
    let overlay = Arc::new(Overlay::new(&NONE, discovery));
    let counter = Counter::default();
    let server = McpServer::new(
        Arc::clone(&overlay),
        skills_embed::tools::Settings {
            permissions: Permissions::new().deny("secret-*"),
            ..skills_embed::tools::Settings::default()
        },
    );
    let client = connect(server, counter.clone()).await;
    let names: Vec<String> = client
        .list_all_skills()
        .await
        .unwrap()
        .iter()
        .map(|s| s.name().to_owned())
        .collect();
    assert_eq!(names, ["public-notes"]);

    // The denied skill's description, then its files, change on disk.
    write_skill(
        dir.path(),
        "secret-notes",
        "Secret notes, edited. Use for secrets.",
    );
    assert_eq!(overlay.reload().changed, ["secret-notes"]);
    client.list_all_tools().await.unwrap();
    std::fs::create_dir_all(dir.path().join("secret-notes/references")).unwrap();
    std::fs::write(dir.path().join("secret-notes/references/x.md"), "# X\n").unwrap();
    assert_eq!(overlay.reload().changed, ["secret-notes"]);
    client.list_all_resources().await.unwrap();
    let quiet = counts_after(&counter, (0, 0), Duration::from_millis(400)).await;
    assert_eq!(
        quiet,
        (0, 0),
        "tools/list_changed and resources/list_changed sent for a denied skill"
    );

    // A visible skill's change is still told.
    write_skill(
        dir.path(),
        "public-notes",
        "Public notes, edited. Use for notes.",
    );
    assert_eq!(overlay.reload().changed, ["public-notes"]);
    client.list_all_tools().await.unwrap();
    let told = counts_after(&counter, (1, 1), Duration::from_secs(5)).await;
    assert_eq!(told, (1, 1));
    client.cancel().await.unwrap();
}

// ---------------------------------------------------------------------------------------------
// One set on every surface: a lenient name the skills extension cannot carry.

#[tokio::test(flavor = "current_thread")]
async fn every_surface_serves_the_same_skills() {
    let long = "a".repeat(70);
    let skills = ["fine-skill", long.as_str()]
        .into_iter()
        .map(|name| {
            Skill::owned(
                Fields {
                    name: name.into(),
                    description: "A skill. Use it in tests.".into(),
                    ..Fields::default()
                },
                "Body.\n".into(),
                vec![],
            )
        })
        .collect();
    let set = Arc::new(SkillSet::from_skills(skills, &ListingFormat::Markdown));
    let client = connect(
        McpServer::new(set, skills_embed::tools::Settings::default()),
        (),
    )
    .await;

    let tools = client.list_all_tools().await.unwrap();
    let schema = Value::Object((*tools[0].input_schema).clone());
    let from_tools: BTreeSet<String> = schema["properties"]["skill"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    let from_resources: BTreeSet<String> = client
        .list_all_resources()
        .await
        .unwrap()
        .iter()
        .map(|r| r.name.clone())
        .collect();
    let from_templates: BTreeSet<String> = client
        .list_all_resource_templates()
        .await
        .unwrap()
        .iter()
        .map(|t| t.name.clone())
        .collect();
    let from_extension: BTreeSet<String> = client
        .list_all_skills()
        .await
        .unwrap()
        .iter()
        .map(|s| s.name().to_owned())
        .collect();
    assert_eq!(from_tools, from_extension, "tools/list vs skills/list");
    assert_eq!(
        from_resources, from_extension,
        "resources/list vs skills/list"
    );
    assert_eq!(from_templates, from_extension, "templates vs skills/list");
    assert!(from_extension.contains("fine-skill"));
    let instructions = client.peer_info().unwrap().instructions.clone();
    assert_eq!(
        instructions.unwrap_or_default().contains(&long),
        from_extension.contains(&long),
        "the instructions disagree with skills/list"
    );
    client.cancel().await.unwrap();
}

// ---------------------------------------------------------------------------------------------
// `skills serve` as a child process, driven with raw JSON-RPC lines.

/// The server process, killed when dropped.
struct Server {
    child: Child,
    input: ChildStdin,
    answers: mpsc::Receiver<String>,
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
            .stderr(Stdio::null())
            .spawn()
            .expect("the skills binary starts");
        let input = child.stdin.take().unwrap();
        let output = child.stdout.take().unwrap();
        let (sender, answers) = mpsc::channel();
        std::thread::spawn(move || read_lines(output, &sender));
        let mut server = Server {
            child,
            input,
            answers,
        };
        server.send(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "hostile", "version": "0"}}}),
        );
        let init = server.answer(Duration::from_secs(30)).expect("initialize");
        assert!(init.contains("\"id\":0"), "{init}");
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    fn send(&mut self, message: &Value) {
        self.send_raw(&message.to_string());
    }

    fn send_raw(&mut self, line: &str) {
        self.input.write_all(line.as_bytes()).unwrap();
        self.input.write_all(b"\n").unwrap();
        self.input.flush().unwrap();
    }

    fn answer(&self, limit: Duration) -> Option<String> {
        self.answers.recv_timeout(limit).ok()
    }

    /// The peak resident memory of the server so far, in bytes (`VmHWM`).
    fn peak_rss(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("/proc/PID/status");
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|kb| kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .expect("VmHWM")
            * 1024
    }
}

fn read_lines(output: ChildStdout, sender: &mpsc::Sender<String>) {
    let mut reader = BufReader::new(output);
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if sender.send(line).is_err() {
                    return;
                }
            }
        }
    }
}

/// A folder holding one skill with a text file of about 1.9 MB.
fn big_skill_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_skill(dir.path(), "big", "A big skill. Use it for load tests.");
    std::fs::create_dir_all(dir.path().join("big/references")).unwrap();
    let line = "All work and no play makes a long file longer, line after line.\n";
    let text = line.repeat(1_900_000 / line.len());
    std::fs::write(dir.path().join("big/references/big.md"), text).unwrap();
    dir
}

#[test]
fn a_pipeline_of_big_reads_keeps_the_server_small() {
    const READS: usize = 300;
    const LIMIT: u64 = 256 << 20;
    let dir = big_skill_folder();
    let mut server = Server::start(dir.path());
    let before = server.peak_rss();

    // 300 reads of the 1.9 MB file in one write (about 30 KB), and nobody reads the answers
    // for a while: the server must not compute and hold them all.
    let mut pipeline = String::new();
    for id in 1..=READS {
        pipeline.push_str(
            &json!({"jsonrpc": "2.0", "id": id, "method": "resources/read",
                    "params": {"uri": "skill://big/references/big.md"}})
            .to_string(),
        );
        pipeline.push('\n');
    }
    server.input.write_all(pipeline.as_bytes()).unwrap();
    server.input.flush().unwrap();
    let start = Instant::now();
    let mut peak = server.peak_rss();
    while start.elapsed() < Duration::from_secs(4) {
        std::thread::sleep(Duration::from_millis(100));
        peak = peak.max(server.peak_rss());
    }
    // Now drain: every request is answered, once.
    let mut seen = BTreeSet::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while seen.len() < READS {
        let left = deadline.saturating_duration_since(Instant::now());
        let Some(line) = server.answer(left) else {
            panic!("only {} of {READS} answers within the deadline", seen.len());
        };
        let answer: Value = serde_json::from_str(&line).unwrap();
        assert!(
            answer.get("result").is_some(),
            "{}",
            &line[..line.len().min(300)]
        );
        assert!(seen.insert(answer["id"].as_u64().unwrap()));
        peak = peak.max(server.peak_rss());
    }
    eprintln!(
        "peak RSS: {} MB before the pipeline, {} MB after {READS} reads",
        before >> 20,
        peak >> 20
    );
    assert!(
        peak < LIMIT,
        "the server's peak RSS reached {} MB with {READS} pipelined reads of a 1.9 MB file",
        peak >> 20
    );
}

#[test]
fn arguments_nested_too_deep_get_an_error_with_their_id() {
    let dir = tempfile::tempdir().unwrap();
    write_skill(dir.path(), "demo", "A demo skill. Use it in tests.");
    let mut server = Server::start(dir.path());
    let depth = 200;
    let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    server.send_raw(&format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"load_skill","arguments":{{"skill":{deep}}}}}}}"#
    ));
    server.send_raw(&format!(
        r#"{{"jsonrpc":"2.0","id":"eight","method":"tools/call","params":{{"name":"load_skill","arguments":{{"skill":"demo","x":{deep}}}}}}}"#
    ));
    // A notification nested too deep has no id to answer: it is dropped, and the server goes on.
    server.send_raw(&format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"x":{deep}}}}}"#
    ));
    server.send(&json!({"jsonrpc": "2.0", "id": 9, "method": "ping"}));
    let mut answers = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Some(line) = server.answer(left) else {
            panic!("no answer to the ping within the deadline; got {answers:?}");
        };
        let answer: Value = serde_json::from_str(&line).unwrap();
        if answer["id"] == json!(9) {
            break;
        }
        answers.push(answer);
    }
    for id in [json!(7), json!("eight")] {
        let answer = answers
            .iter()
            .find(|a| a["id"] == id)
            .unwrap_or_else(|| panic!("no answer with id {id}; answers: {answers:?}"));
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("nested"), "{answer}");
        assert!(message.len() < 1000, "{answer}");
    }
}

// ---------------------------------------------------------------------------------------------
// The in-flight count never leaks: cancelled requests and reused ids give their places back.

#[tokio::test(flavor = "current_thread")]
async fn cancellations_and_reused_ids_do_not_use_up_the_limit() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let server = McpServer::new(demo_set(), skills_embed::tools::Settings::default()).with_options(
        skills_embed::mcp::Options {
            max_in_flight: 2,
            ..skills_embed::mcp::Options::default()
        },
    );
    tokio::spawn(server.serve(server_end));
    let (read, mut write) = tokio::io::split(client_end);
    let mut lines = tokio::io::BufReader::new(read).lines();
    let mut script = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "hostile", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    // Ten times the limit: each request cancelled at once, and every id used twice.
    for n in 0..20 {
        let id = 1 + n / 2;
        script.push(
            json!({"jsonrpc": "2.0", "id": id, "method": "resources/read",
                           "params": {"uri": "skill://demo/references/notes.md"}}),
        );
        script.push(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                           "params": {"requestId": id, "reason": "changed my mind"}}),
        );
    }
    script.push(json!({"jsonrpc": "2.0", "id": "last", "method": "ping"}));
    let mut text = String::new();
    for message in &script {
        text.push_str(&message.to_string());
        text.push('\n');
    }
    let writer = tokio::spawn(async move {
        write.write_all(text.as_bytes()).await.unwrap();
        write
    });
    let mut answered = Vec::new();
    let outcome = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            let answer: Value = serde_json::from_str(&line).unwrap();
            if answer["id"] == json!("last") {
                return;
            }
            answered.push(answer["id"].clone());
        }
    })
    .await;
    assert!(
        outcome.is_ok(),
        "the server stopped answering after {} answers",
        answered.len()
    );
    // initialize, then every read (each id twice, one after the other), then the ping.
    let mut expected = vec![json!(0)];
    for n in 0..20 {
        expected.push(json!(1 + n / 2));
    }
    assert_eq!(answered, expected);
    drop(writer.await.unwrap());
}

// ---------------------------------------------------------------------------------------------
// One content digest: an edit of a field the signature used to leave out is told.

#[tokio::test(flavor = "current_thread")]
async fn a_licence_or_metadata_edit_is_told_to_the_client() {
    static NONE: SkillSet = SkillSet::empty();
    let dir = tempfile::tempdir().unwrap();
    let write = |license: &str, version: &str| {
        let skill = dir.path().join("notes");
        std::fs::create_dir_all(&skill).unwrap();
        std::fs::write(
            skill.join("SKILL.md"),
            format!(
                "---\nname: notes\ndescription: Notes. Use for notes.\nlicense: {license}\nmetadata:\n  version: \"{version}\"\n---\nWrite notes.\n"
            ),
        )
        .unwrap();
    };
    write("MIT", "1");
    let discovery = Discovery::only(dir.path());
    let overlay = Arc::new(Overlay::new(&NONE, discovery));
    let counter = Counter::default();
    let client = connect(
        McpServer::new(
            Arc::clone(&overlay),
            skills_embed::tools::Settings::default(),
        ),
        counter.clone(),
    )
    .await;
    client.list_all_tools().await.unwrap();

    write("Apache-2.0", "1");
    assert_eq!(overlay.reload().changed, ["notes"]);
    client.list_all_tools().await.unwrap();
    assert_eq!(
        counts_after(&counter, (1, 1), Duration::from_secs(5)).await,
        (1, 1),
        "a licence edit sent no list_changed"
    );

    write("Apache-2.0", "2");
    assert_eq!(overlay.reload().changed, ["notes"]);
    client.list_all_tools().await.unwrap();
    assert_eq!(
        counts_after(&counter, (2, 2), Duration::from_secs(5)).await,
        (2, 2),
        "a metadata edit sent no list_changed"
    );
    client.cancel().await.unwrap();
}
