//! `skills pack` (archives, one set archive, the well-known folder, strict checking first) and
//! the well-known route of `McpServer::serve_http` (`Options::well_known`): the index of what
//! an anonymous client may see, its files and archives, a reload, a hidden skill that does not
//! leak.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};
use skills_embed::mcp::{McpServer, Options};
use skills_embed::package::Archive;
use skills_embed::policy::Permissions;
use skills_embed::tools::{Settings, Source};
use skills_embed::{Fields, File, Skill, SkillSet, listing::ListingFormat};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::mcp_http::start;

mod basic {
    skills_embed::skills!("../fixtures/basic");
}

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn skills(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .args(args)
        .output()
        .expect("the skills binary runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

fn sha256(bytes: &[u8]) -> String {
    format!("sha256:{}", hex(&Sha256::digest(bytes)))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn pack_writes_an_archive_per_skill_and_prints_path_size_and_digest() {
    let out = tempfile::tempdir().unwrap();
    let dist = out.path().join("dist");
    let basic = fixture("fixtures/basic");
    let (code, stdout, stderr) = skills(&[
        "pack",
        basic.to_str().unwrap(),
        "--out",
        dist.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let expected = Archive::new(&basic::SKILLS).bytes().unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), expected.len(), "{stdout}");
    for (line, (name, bytes)) in lines.iter().zip(&expected) {
        let path = dist.join(name);
        assert_eq!(
            *line,
            format!("{}\t{}\t{}", path.display(), bytes.len(), sha256(bytes))
        );
        // The binary's archive of the folder is the library's of the same skills embedded.
        assert_eq!(&std::fs::read(&path).unwrap(), bytes);
    }

    // One archive for the set.
    let (code, stdout, _) = skills(&[
        "pack",
        basic.to_str().unwrap(),
        "--out",
        dist.to_str().unwrap(),
        "--set",
        "team",
    ]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with(&format!("{}\t", dist.join("team.zip").display())),
        "{stdout}"
    );

    // The well-known folder: the index first.
    let site = out.path().join("site");
    let (code, stdout, stderr) = skills(&[
        "pack",
        basic.to_str().unwrap(),
        "--out",
        site.to_str().unwrap(),
        "--index",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let index = site.join(".well-known/agent-skills/index.json");
    assert!(
        stdout.starts_with(&format!("{}\t", index.display())),
        "{stdout}"
    );
    assert!(stdout.contains(&format!(
        "{}\t",
        site.join(".well-known/agent-skills/pdf.zip").display()
    )));
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(index).unwrap()).unwrap();
    assert_eq!(
        json["$schema"],
        "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
    );
    assert_eq!(json["skills"][1]["type"], "archive");
}

#[test]
fn pack_checks_strictly_first_and_writes_nothing_for_an_invalid_skill() {
    let root = tempfile::tempdir().unwrap();
    let skill = root.path().join("skills/bad");
    std::fs::create_dir_all(&skill).unwrap();
    // A name that does not match its folder: a warning when read leniently, an error here.
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: other\ndescription: Bad.\n---\nBody.\n",
    )
    .unwrap();
    let out = root.path().join("dist");
    let (code, stdout, stderr) = skills(&[
        "pack",
        root.path().join("skills").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stderr.contains("before packing"), "{stderr}");
    assert!(!out.exists());
    let (code, _, stderr) = skills(&["pack", root.path().join("missing").to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
}

/// One raw HTTP/1.1 GET on a connection of its own: the status, the headers (names lowercase)
/// and the body.
async fn get(
    addr: SocketAddr,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let split = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&answer[..split]).into_owned();
    let body = answer[split + 4..].to_vec();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    (status, headers, body)
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

fn skill(name: &str, body: &str) -> Skill {
    Skill::owned(
        Fields {
            name: name.into(),
            description: format!("The {name} skill."),
            ..Default::default()
        },
        body.into(),
        vec![File::owned(
            "scripts/run.sh".into(),
            b"#!/bin/sh\necho hi\n".to_vec(),
            true,
        )],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_well_known_index_serves_what_an_anonymous_client_may_see() {
    let current = Arc::new(Mutex::new(Arc::new(SkillSet::from_skills(
        vec![skill("notes", "# Notes\n"), skill("secret", "# Secret\n")],
        &ListingFormat::Markdown,
    ))));
    let source = {
        let current = Arc::clone(&current);
        Source::live(move || Arc::clone(&current.lock().unwrap()))
    };
    let settings = Settings {
        permissions: Permissions::new().deny("secret"),
        ..Settings::default()
    };
    let server = McpServer::new(source, settings).with_options(Options {
        well_known: true,
        ..Options::default()
    });
    let (addr, stop, running) = start(server).await;
    let base = "/.well-known/agent-skills";

    let (status, headers, body) = get(addr, &format!("{base}/index.json"), &[]).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-type"), Some("application/json"));
    let text = String::from_utf8(body.clone()).unwrap();
    assert!(
        !text.contains("secret"),
        "a hidden skill is not listed: {text}"
    );
    let index: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        index["$schema"],
        "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
    );
    let entry = &index["skills"][0];
    assert_eq!(entry["name"], "notes");
    assert_eq!(index["skills"].as_array().unwrap().len(), 1);
    let etag = header(&headers, "etag").unwrap().to_owned();
    assert_eq!(etag, format!("\"{}\"", sha256(&body)));

    // Its files stay readable one by one; SKILL.md is markdown, served whole.
    for path in ["SKILL.md", "scripts/run.sh"] {
        let (status, headers, bytes) = get(addr, &format!("{base}/notes/{path}"), &[]).await;
        assert_eq!(status, 200, "{path}");
        if path == "SKILL.md" {
            assert_eq!(
                header(&headers, "content-type"),
                Some("text/markdown; charset=utf-8")
            );
            assert!(
                String::from_utf8(bytes)
                    .unwrap()
                    .starts_with("---\nname: \"notes\"")
            );
        }
    }
    // The one artifact: an archive (a script beside SKILL.md), its digest, SKILL.md at its
    // root, and unchanged on a second ask.
    assert_eq!(entry["type"], "archive");
    assert_eq!(entry["url"], "notes.zip");
    let (status, headers, zip) = get(addr, &format!("{base}/notes.zip"), &[]).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-type"), Some("application/zip"));
    assert_eq!(entry["digest"], sha256(&zip).as_str());
    let archive = zip::ZipArchive::new(std::io::Cursor::new(zip.clone())).unwrap();
    assert_eq!(archive.name_for_index(0), Some("SKILL.md"));
    let tag = header(&headers, "etag").unwrap().to_owned();
    let (status, _, body) = get(
        addr,
        &format!("{base}/notes.zip"),
        &[("If-None-Match", &tag)],
    )
    .await;
    assert_eq!((status, body.len()), (304, 0));

    // A hidden skill answers as an unknown one: the same bare 404, naming nothing.
    let mut misses = Vec::new();
    for path in [
        "secret/SKILL.md",
        "secret.zip",
        "nothing/SKILL.md",
        "nothing.zip",
        "notes/../secret/SKILL.md",
        "notes/missing.md",
    ] {
        let (status, _, body) = get(addr, &format!("{base}/{path}"), &[]).await;
        assert_eq!(status, 404, "{path}");
        misses.push(body);
    }
    assert!(misses.windows(2).all(|w| w[0] == w[1]));
    assert_eq!(misses[0], b"Not found.");

    // Another Host is refused, as on /mcp.
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(
            format!(
                "GET {base}/index.json HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    assert!(
        answer.starts_with(b"HTTP/1.1 403"),
        "{}",
        String::from_utf8_lossy(&answer)
    );

    // A reload shows up at the next request.
    *current.lock().unwrap() = Arc::new(SkillSet::from_skills(
        vec![
            skill("notes", "# Notes, edited\n"),
            skill("todo", "# Todo\n"),
        ],
        &ListingFormat::Markdown,
    ));
    let (_, headers, body) = get(addr, &format!("{base}/index.json"), &[]).await;
    assert_ne!(header(&headers, "etag").unwrap(), etag);
    let index: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let names: Vec<&str> = index["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["notes", "todo"]);
    let (status, _, body) = get(addr, &format!("{base}/notes/SKILL.md"), &[]).await;
    assert_eq!(status, 200);
    assert!(
        String::from_utf8(body)
            .unwrap()
            .ends_with("# Notes, edited\n")
    );

    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_route_is_off_by_default_and_with_tokens() {
    let set = Arc::new(SkillSet::from_skills(
        vec![skill("notes", "# Notes\n")],
        &ListingFormat::Markdown,
    ));
    let path = "/.well-known/agent-skills/index.json";
    let server = McpServer::new(
        Source::live({
            let set = Arc::clone(&set);
            move || Arc::clone(&set)
        }),
        Settings::default(),
    );
    let (addr, stop, running) = start(server).await;
    assert_eq!(get(addr, path, &[]).await.0, 404);
    let _ = stop.send(());
    running.await.unwrap().unwrap();

    let server = McpServer::new(Source::live(move || Arc::clone(&set)), Settings::default())
        .with_options(Options {
            well_known: true,
            ..Options::default()
        })
        .with_token("team-token", None);
    let (addr, stop, running) = start(server).await;
    assert_eq!(get(addr, path, &[]).await.0, 404);
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}
