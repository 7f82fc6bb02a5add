//! End to end: `skills serve` as a child process, driven over its stdio by rmcp's client.
//!
//! The server is the real `skills` binary serving `examples/skills` with `brand-guidelines`
//! denied, so the test also shows that a denied skill is absent from every MCP surface. Every
//! JSON-RPC line in both directions is recorded and written to
//! `$CARGO_TARGET_TMPDIR/mcp_e2e_transcript.jsonl` (and printed with `--nocapture`).

use std::io;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use rmcp::ServiceExt;
use rmcp::model::{
    ArgumentInfo, CallToolRequestParams, CallToolResult, CompleteRequestParams,
    GetPromptRequestParams, GetSkillRequestParams, ReadResourceDirectoryRequestParams,
    ReadResourceRequestParams, Reference, ResourceContents, ResourceTemplateReference,
    SkillResources,
};
use rmcp::service::ServiceError;
use serde_json::{Value, json};
use sha2::Digest;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

const DENIED: &str = "brand-guidelines";
const VISIBLE: [&str; 4] = [
    "code-review",
    "pdf-forms",
    "release-notes",
    "sql-migrations",
];

/// Every complete line that went through, in order, tagged with its direction.
type Log = Arc<Mutex<Vec<(&'static str, String)>>>;

/// Records the bytes passing through a pipe, one JSON-RPC message per line.
struct Tee<T> {
    inner: T,
    direction: &'static str,
    partial: Vec<u8>,
    log: Log,
}

impl<T> Tee<T> {
    fn new(inner: T, direction: &'static str, log: &Log) -> Self {
        Tee {
            inner,
            direction,
            partial: Vec::new(),
            log: Arc::clone(log),
        }
    }

    fn record(&mut self, bytes: &[u8]) {
        self.partial.extend_from_slice(bytes);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line).trim_end().to_owned();
            self.log.lock().unwrap().push((self.direction, text));
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Tee<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = poll {
            let fresh = buf.filled()[before..].to_vec();
            self.record(&fresh);
        }
        poll
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Tee<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = poll {
            self.record(&buf[..n]);
        }
        poll
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

fn skills_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skills/examples/skills")
}

fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn args(value: Value) -> serde_json::Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

fn error_message(error: ServiceError) -> String {
    match error {
        ServiceError::McpError(data) => data.message.into_owned(),
        other => panic!("expected an MCP error answer, got {other}"),
    }
}

fn digest(bytes: &[u8]) -> String {
    let hash = sha2::Sha256::digest(bytes);
    format!(
        "sha256:{}",
        hash.iter().map(|b| format!("{b:02x}")).collect::<String>()
    )
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            out.push(if i <= chunk.len() {
                char::from(ALPHABET[(n >> shift) as usize & 63])
            } else {
                '='
            });
        }
    }
    out
}

#[tokio::test(flavor = "current_thread")]
async fn skills_serve_over_stdio_with_rmcp_client() {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .arg("serve")
        .arg(skills_dir())
        .args(["--deny", DENIED])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("the skills binary starts");
    let log: Log = Arc::default();
    let from_server = Tee::new(child.stdout.take().unwrap(), "<-", &log);
    let to_server = Tee::new(child.stdin.take().unwrap(), "->", &log);

    // initialize (and the initialized notification)
    let client = ().serve((from_server, to_server)).await.expect("initialize");
    let info = client.peer_info().expect("the server answered initialize");
    assert_eq!(
        info.server_info.as_ref().map(|i| i.name.as_str()),
        Some("skills")
    );
    assert!(info.capabilities.supports_skills());
    assert!(info.capabilities.supports_directory_read());
    let instructions = info.instructions.clone().unwrap_or_default();
    for name in VISIBLE {
        assert!(
            instructions.contains(&format!("- {name}: ")),
            "{instructions}"
        );
    }
    assert!(!instructions.contains(DENIED));

    // tools/list: one tool whose enum holds the visible skills only
    let tools = client.list_tools(None).await.unwrap().tools;
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].name, "load_skill");
    let schema = Value::Object((*tools[0].input_schema).clone());
    assert_eq!(schema["properties"]["skill"]["enum"], json!(VISIBLE));

    // tools/call, a hit: the body with its load report and its files
    let hit = client
        .call_tool(
            CallToolRequestParams::new("load_skill")
                .with_arguments(args(json!({"skill": "code-review"}))),
        )
        .await
        .unwrap();
    assert_eq!(hit.is_error, Some(false));
    let text = text_of(&hit);
    assert!(
        text.starts_with("[Skill: code-review | source=disk]"),
        "{text}"
    );
    assert!(
        text.contains("references/: checklist.md, security.md"),
        "{text}"
    );

    // a miss: the answer lists what exists and suggests the closest name
    let miss = client
        .call_tool(
            CallToolRequestParams::new("load_skill")
                .with_arguments(args(json!({"skill": "code-reveiw"}))),
        )
        .await
        .unwrap();
    assert_eq!(miss.is_error, Some(true));
    let text = text_of(&miss);
    assert!(
        text.contains(&format!("Available skills: {}.", VISIBLE.join(", "))),
        "{text}"
    );
    assert!(text.contains("Did you mean \"code-review\"?"), "{text}");

    // a denied skill answers exactly like one that does not exist
    let denied = client
        .call_tool(
            CallToolRequestParams::new("load_skill").with_arguments(args(json!({"skill": DENIED}))),
        )
        .await
        .unwrap();
    assert_eq!(denied.is_error, Some(true));
    assert!(text_of(&denied).starts_with(&format!("Skill \"{DENIED}\" not found.")));

    // bad arguments: a number for the name, then a path that is not there
    let bad = client
        .call_tool(
            CallToolRequestParams::new("load_skill").with_arguments(args(json!({"skill": 42}))),
        )
        .await
        .unwrap();
    // arguments that do not fit the tool's schema are a tool error the model reads (2025-11-25
    // on, SEP-1303), not a protocol error
    assert_eq!(bad.is_error, Some(true));
    assert!(
        text_of(&bad).contains("\"skill\" must be a string, not a number."),
        "{}",
        text_of(&bad)
    );
    let wrong_path = client
        .call_tool(
            CallToolRequestParams::new("load_skill")
                .with_arguments(args(json!({"skill": "pdf-forms", "path": "forms.md"}))),
        )
        .await
        .unwrap();
    assert_eq!(wrong_path.is_error, Some(true));
    assert!(text_of(&wrong_path).contains("Did you mean \"references/forms.md\"?"));

    // resources/list: each visible skill's SKILL.md; templates reach the other files
    let resources = client.list_all_resources().await.unwrap();
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    let expected: Vec<String> = VISIBLE
        .iter()
        .map(|n| format!("skill://{n}/SKILL.md"))
        .collect();
    assert_eq!(uris, expected);
    let templates = client.list_all_resource_templates().await.unwrap();
    assert_eq!(templates.len(), VISIBLE.len());
    assert_eq!(templates[1].uri_template, "skill://pdf-forms/{+path}");

    // resources/read: SKILL.md is frontmatter and body; files come byte for byte
    let read = |uri: &str| {
        let uri = uri.to_owned();
        let client = &client;
        async move {
            client
                .read_resource(ReadResourceRequestParams::new(uri))
                .await
        }
    };
    let manifest = read("skill://code-review/SKILL.md").await.unwrap();
    let ResourceContents::TextResourceContents {
        text: manifest_text,
        mime_type,
        ..
    } = &manifest.contents[0]
    else {
        panic!("SKILL.md is text");
    };
    assert_eq!(mime_type.as_deref(), Some("text/markdown"));
    assert!(manifest_text.starts_with("---\nname: \"code-review\"\ndescription: \""));
    let checklist = read("skill://code-review/references/checklist.md")
        .await
        .unwrap();
    let on_disk = std::fs::read(skills_dir().join("code-review/references/checklist.md")).unwrap();
    let ResourceContents::TextResourceContents { text, .. } = &checklist.contents[0] else {
        panic!("a Markdown file is text");
    };
    assert_eq!(text.as_bytes(), on_disk.as_slice());
    let pdf = read("skill://pdf-forms/assets/sample-form.pdf")
        .await
        .unwrap();
    let pdf_on_disk = std::fs::read(skills_dir().join("pdf-forms/assets/sample-form.pdf")).unwrap();
    let ResourceContents::BlobResourceContents {
        blob, mime_type, ..
    } = &pdf.contents[0]
    else {
        panic!("a PDF is a blob");
    };
    assert_eq!(mime_type.as_deref(), Some("application/pdf"));
    assert_eq!(*blob, base64(&pdf_on_disk));

    // misses name what exists; a denied skill's files are not there
    let missing = error_message(read("skill://code-review/checklist.md").await.unwrap_err());
    assert!(
        missing.contains("Did you mean \"references/checklist.md\"?"),
        "{missing}"
    );
    let hidden = error_message(
        read(&format!("skill://{DENIED}/SKILL.md"))
            .await
            .unwrap_err(),
    );
    assert!(
        hidden.starts_with(&format!("Skill \"{DENIED}\" not found.")),
        "{hidden}"
    );
    let foreign = error_message(read("file:///etc/passwd").await.unwrap_err());
    assert!(
        foreign.contains("skill://code-review/SKILL.md"),
        "{foreign}"
    );

    // the skills extension: every file with its sha256 digest and size
    let skills = client.list_all_skills().await.unwrap();
    let names: Vec<&str> = skills.iter().map(|s| s.name()).collect();
    assert_eq!(names, VISIBLE);
    let pdf_forms = &skills[1];
    assert_eq!(pdf_forms.uri, "skill://pdf-forms/SKILL.md");
    let SkillResources::Files(files) = &pdf_forms.resources else {
        panic!("embedded and disk skills have fixed files");
    };
    for file in files {
        let path = file.uri.strip_prefix("skill://pdf-forms/").unwrap();
        let served = read(&file.uri).await.unwrap();
        let bytes = match &served.contents[0] {
            ResourceContents::TextResourceContents { text, .. } => text.clone().into_bytes(),
            ResourceContents::BlobResourceContents { .. } => pdf_on_disk.clone(),
            other => panic!("{path}: unexpected contents {other:?}"),
        };
        file.verify(&bytes)
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        if path != "SKILL.md" {
            let disk = std::fs::read(skills_dir().join("pdf-forms").join(path)).unwrap();
            assert_eq!(file.digest, digest(&disk), "{path}");
        }
    }
    let got = client
        .get_skill(GetSkillRequestParams::new(
            "skill://sql-migrations/SKILL.md",
        ))
        .await
        .unwrap();
    assert_eq!(got.skill.frontmatter.name, "sql-migrations");
    let hidden = error_message(
        client
            .get_skill(GetSkillRequestParams::new(format!(
                "skill://{DENIED}/SKILL.md"
            )))
            .await
            .unwrap_err(),
    );
    assert!(hidden.contains("skill://code-review/SKILL.md"), "{hidden}");
    let folder = client
        .read_resource_directory(ReadResourceDirectoryRequestParams::new(
            "skill://pdf-forms/",
        ))
        .await
        .unwrap();
    let children: Vec<&str> = folder.resources.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(children, ["assets", "references", "scripts", "SKILL.md"]);

    // the listing as a prompt, then each skill the user may invoke (not the denied one)
    let prompts = client.list_all_prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names[0], "skills");
    assert_eq!(names[1..], VISIBLE);
    let prompt = client
        .get_prompt(GetPromptRequestParams::new("skills"))
        .await
        .unwrap();
    let prompt_text = serde_json::to_string(&prompt.messages).unwrap();
    assert!(prompt_text.contains("- pdf-forms: "), "{prompt_text}");
    assert!(!prompt_text.contains(DENIED));

    // completion of a template's path
    let completion = client
        .complete(CompleteRequestParams::new(
            Reference::Resource(ResourceTemplateReference::new("skill://pdf-forms/{+path}")),
            ArgumentInfo::new("path", "references/f"),
        ))
        .await
        .unwrap();
    assert_eq!(
        completion.completion.values,
        ["references/fields.md", "references/forms.md"]
    );

    client.cancel().await.unwrap();
    drop(child);

    let transcript: Vec<String> = log
        .lock()
        .unwrap()
        .iter()
        .map(|(direction, line)| format!("{direction} {line}"))
        .collect();
    assert!(transcript[0].starts_with("-> {") && transcript[0].contains("\"initialize\""));
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp_e2e_transcript.jsonl");
    std::fs::write(&path, transcript.join("\n") + "\n").unwrap();
    println!("{}", transcript.join("\n"));
    println!("transcript written to {}", path.display());
}

#[tokio::test(flavor = "current_thread")]
async fn skills_serve_takes_a_permissions_file() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("permissions");
    std::fs::write(&rules, "deny sql-*\nask release-notes   # runs git\n").unwrap();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .arg("serve")
        .arg(skills_dir())
        .arg("--permissions")
        .arg(&rules)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    let client = ().serve(transport).await.unwrap();
    let tools = client.list_tools(None).await.unwrap().tools;
    let schema = Value::Object((*tools[0].input_schema).clone());
    assert_eq!(
        schema["properties"]["skill"]["enum"],
        json!([
            "brand-guidelines",
            "code-review",
            "pdf-forms",
            "release-notes"
        ])
    );
    let asked = client
        .call_tool(
            CallToolRequestParams::new("load_skill")
                .with_arguments(args(json!({"skill": "release-notes"}))),
        )
        .await
        .unwrap();
    assert_eq!(asked.is_error, Some(true));
    assert!(text_of(&asked).contains("needs the user's approval, and this server has no way"));
    client.cancel().await.unwrap();

    // A rules file with a mistake is a usage error naming the line.
    std::fs::write(&rules, "deny sql-*\nalow pdf-*\n").unwrap();
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .arg("serve")
        .arg(skills_dir())
        .arg("--permissions")
        .arg(&rules)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(
        stderr.contains("permissions line 2: unknown keyword \"alow\""),
        "{stderr}"
    );
}
