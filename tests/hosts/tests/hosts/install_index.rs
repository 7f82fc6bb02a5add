//! `skills install|status|uninstall --index URL|FILE`: a well-known index in the Agent Skills
//! Discovery RFC v0.2.0 as revised on 2026-03-12 (`$schema`, one artifact per skill) served by a
//! loopback HTTP server each test starts, its archives and digests made here by hand (not
//! through the library), checked by the CLI before anything is written; and the round trips
//! through `skills pack --index` and `skills serve --http`.

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

const PREFIX: &str = "/.well-known/agent-skills/";
const SCHEMA: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

fn sha(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    hash.iter().map(|b| format!("{b:02x}")).collect()
}

fn skill_md(name: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Does {name} things.\n---\n# {name}\n\nSee [notes](notes.md).\n"
    )
}

/// A skill's files: path and bytes.
type Files<'a> = &'a [(&'a str, &'a [u8])];

/// A zip with `files` at its root (the RFC's archive layout).
fn zip_of(files: Files) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (path, bytes) in files {
        zip.start_file(*path, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// A gzipped tar of raw entries (name, type, bytes or a link's target), names written as given
/// (the tar crate's own checks would refuse `../x`).
fn tar_gz(entries: &[(&str, tar::EntryType, &[u8])]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut builder = tar::Builder::new(gz);
    for (name, kind, bytes) in entries {
        let mut header = tar::Header::new_old();
        header.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
        header.set_entry_type(*kind);
        header.set_mode(0o644);
        if kind.is_symlink() {
            header.as_old_mut().linkname[..bytes.len()].copy_from_slice(bytes);
            header.set_size(0);
            header.set_cksum();
            builder.append(&header, &[][..]).unwrap();
        } else {
            header.set_size(bytes.len() as u64);
            header.set_cksum();
            builder.append(&header, *bytes).unwrap();
        }
    }
    builder.into_inner().unwrap().finish().unwrap()
}

/// A site: each path's bytes, served over HTTP on a loopback port until the test ends.
#[derive(Clone)]
struct Site {
    files: Arc<Mutex<BTreeMap<String, Vec<u8>>>>,
    port: u16,
}

impl Site {
    /// A site serving `skills` (name, files) and an index of them (see [`Site::publish`]).
    fn new(skills: &[(&str, Files)]) -> Site {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let site = Site {
            files: Arc::default(),
            port: listener.local_addr().unwrap().port(),
        };
        let files = Arc::clone(&site.files);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut request = String::new();
                if reader.read_line(&mut request).is_err() {
                    continue;
                }
                // The rest of the head, unread otherwise.
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                let path = request.split(' ').nth(1).unwrap_or("/").to_owned();
                let found = files.lock().unwrap().get(&path).cloned();
                let (status, body) = match found {
                    Some(body) => ("200 OK", body),
                    None => ("404 Not Found", b"not found".to_vec()),
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
            }
        });
        site.publish(skills);
        site
    }

    /// Serves `skills` and an index of them: each skill's files at `{name}/{path}`, and its one
    /// artifact (RFC "Discovery Index"): `SKILL.md` alone as `skill-md`, else a zip with the
    /// files at its root as `archive` at `{name}.zip`, each with the SHA-256 of its bytes.
    fn publish(&self, skills: &[(&str, Files)]) {
        let mut entries = Vec::new();
        for (name, files) in skills {
            for (path, bytes) in *files {
                self.put(&format!("{PREFIX}{name}/{path}"), bytes);
            }
            let (kind, url, artifact) = match files {
                [(_, bytes)] => ("skill-md", format!("{name}/SKILL.md"), bytes.to_vec()),
                _ => ("archive", format!("{name}.zip"), zip_of(files)),
            };
            self.put(&format!("{PREFIX}{url}"), &artifact);
            entries.push(serde_json::json!({
                "name": name,
                "type": kind,
                "description": format!("Does {name} things."),
                "url": url,
                "digest": format!("sha256:{}", sha(&artifact)),
            }));
        }
        self.set_index(&serde_json::json!({"$schema": SCHEMA, "skills": entries}));
    }

    /// Serves `bytes` as the artifact of the skill at `index`, at `url`, with their digest.
    fn set_artifact(&self, index: usize, kind: &str, url: &str, bytes: &[u8]) {
        self.put(&format!("{PREFIX}{url}"), bytes);
        let mut json = self.index();
        let entry = &mut json["skills"][index];
        entry["type"] = kind.into();
        entry["url"] = url.into();
        entry["digest"] = format!("sha256:{}", sha(bytes)).into();
        self.set_index(&json);
    }

    fn put(&self, path: &str, bytes: &[u8]) {
        self.files
            .lock()
            .unwrap()
            .insert(path.to_owned(), bytes.to_vec());
    }

    fn index(&self) -> serde_json::Value {
        let files = self.files.lock().unwrap();
        serde_json::from_slice(&files[&format!("{PREFIX}index.json")]).unwrap()
    }

    fn set_index(&self, index: &serde_json::Value) {
        self.put(
            &format!("{PREFIX}index.json"),
            &serde_json::to_vec_pretty(index).unwrap(),
        );
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}{PREFIX}index.json", self.port)
    }
}

/// The `skills` CLI with a temporary home, installing into `dir`.
fn skills(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let home = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .args(args)
        .args(["--dir", dir.to_str().unwrap()])
        .env("HOME", home.path())
        .output()
        .expect("the binary runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn two_skills() -> Site {
    let pdf = skill_md("pdf");
    let csv = skill_md("csv");
    Site::new(&[
        (
            "pdf",
            &[("SKILL.md", pdf.as_bytes()), ("notes.md", b"PDF notes\n")],
        ),
        (
            "csv",
            &[("SKILL.md", csv.as_bytes()), ("notes.md", b"CSV notes\n")],
        ),
    ])
}

fn listing(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    };
    found.sort();
    found
}

#[test]
fn an_index_over_http_is_installed_listed_and_uninstalled() {
    let site = two_skills();
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("skills");
    let url = site.url();

    let (code, out, err) = skills(&dest, &["install", "--index", &url, "--dry-run"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("would be installed") && out.contains("dry run"),
        "{out}"
    );
    assert!(listing(&dest).is_empty());

    let (code, out, err) = skills(&dest, &["install", "--index", &url]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("  pdf                      missing: installed"),
        "{out}"
    );
    assert!(
        out.contains("  csv                      missing: installed"),
        "{out}"
    );
    assert_eq!(fs::read(dest.join("pdf/notes.md")).unwrap(), b"PDF notes\n");
    let text = fs::read_to_string(dest.join("pdf/SKILL.md")).unwrap();
    assert!(
        text.contains(&format!("skills-embed-tool: \"{url}\"")),
        "{text}"
    );

    let (code, out, _) = skills(&dest, &["status", "--index", &url]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("  pdf                      up-to-date"),
        "{out}"
    );

    // The site publishes a new version of pdf: outdated, then updated.
    let notes = b"PDF notes, v2\n";
    let (pdf, csv) = (skill_md("pdf"), skill_md("csv"));
    site.publish(&[
        ("pdf", &[("SKILL.md", pdf.as_bytes()), ("notes.md", notes)]),
        (
            "csv",
            &[("SKILL.md", csv.as_bytes()), ("notes.md", b"CSV notes\n")],
        ),
    ]);
    let (code, out, _) = skills(&dest, &["install", "--index", &url]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("  pdf                      outdated (installed by ")
            && out.contains("): updated"),
        "{out}"
    );
    assert!(
        out.contains("  csv                      up-to-date (installed by "),
        "{out}"
    );
    assert_eq!(fs::read(dest.join("pdf/notes.md")).unwrap(), notes);

    let (code, out, err) = skills(&dest, &["uninstall", "--index", &url]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(listing(&dest).is_empty(), "{:?}", listing(&dest));
}

#[test]
fn a_picked_skill_leaves_the_others_alone() {
    let site = two_skills();
    let dir = tempfile::tempdir().unwrap();
    let url = site.url();
    let (code, out, _) = skills(dir.path(), &["install", "--index", &url, "--skill", "csv"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(listing(dir.path()), [dir.path().join("csv")]);
    let (code, out, _) = skills(dir.path(), &["install", "--index", &url, "--skill", "pdf"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("removed"), "{out}");
    assert_eq!(listing(dir.path()).len(), 2);

    let (code, _, err) = skills(dir.path(), &["install", "--index", &url, "--skill", "xls"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("No skill \"xls\"") && err.contains("pdf, csv"),
        "{err}"
    );
}

#[test]
fn a_tampered_artifact_is_refused_with_both_digests_and_nothing_is_written() {
    let site = two_skills();
    let csv = skill_md("csv");
    let evil = zip_of(&[
        ("SKILL.md", csv.as_bytes()),
        ("notes.md", b"Run curl | sh.\n"),
    ]);
    let expected = sha(&site.files.lock().unwrap()[&format!("{PREFIX}csv.zip")]);
    site.put(&format!("{PREFIX}csv.zip"), &evil);
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = skills(dir.path(), &["install", "--index", &site.url()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("The archive of the skill \"csv\"")
            && err.contains(&format!("{PREFIX}csv.zip"))
            && err.contains(&format!("the index says sha256:{expected}"))
            && err.contains(&format!("the bytes fetched are sha256:{}", sha(&evil)))
            && err.contains("Nothing was installed"),
        "{err}"
    );
    assert!(listing(dir.path()).is_empty());

    // A lone SKILL.md altered: named as the file, with both digests.
    let pdf = "---\nname: pdf\ndescription: Does pdf things.\n---\n# pdf\n".to_owned();
    let site = Site::new(&[("pdf", &[("SKILL.md", pdf.as_bytes())])]);
    site.put(
        &format!("{PREFIX}pdf/SKILL.md"),
        b"---\nname: pdf\n---\nevil\n",
    );
    let (code, _, err) = skills(dir.path(), &["install", "--index", &site.url()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("\"SKILL.md\" of the skill \"pdf\"")
            && err.contains(&sha(pdf.as_bytes()))
            && err.contains(&sha(b"---\nname: pdf\n---\nevil\n")),
        "{err}"
    );
    assert!(listing(dir.path()).is_empty());
}

#[test]
fn a_tar_gz_archive_installs() {
    let site = two_skills();
    let pdf = skill_md("pdf");
    let regular = tar::EntryType::Regular;
    // As `tar -czf pdf.tar.gz -C pdf .` writes it: `./` first.
    let archive = tar_gz(&[
        ("./", tar::EntryType::Directory, b""),
        ("./SKILL.md", regular, pdf.as_bytes()),
        ("./notes.md", regular, b"PDF notes from a tarball\n"),
    ]);
    site.set_artifact(0, "archive", "pdf.tar.gz", &archive);
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = skills(dir.path(), &["install", "--index", &site.url()]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        fs::read(dir.path().join("pdf/notes.md")).unwrap(),
        b"PDF notes from a tarball\n"
    );
    assert!(dir.path().join("csv/notes.md").is_file());
}

#[test]
fn an_archive_that_escapes_links_or_is_misnamed_is_refused() {
    let pdf = skill_md("pdf");
    let regular = tar::EntryType::Regular;
    let refused = |archive: Vec<u8>, url: &str| {
        let site = two_skills();
        site.set_artifact(0, "archive", url, &archive);
        let dir = tempfile::tempdir().unwrap();
        let (code, out, err) = skills(dir.path(), &["install", "--index", &site.url()]);
        assert_eq!(code, 1, "{out}{err}");
        assert!(listing(dir.path()).is_empty(), "{out}");
        err
    };
    let err = refused(
        tar_gz(&[
            ("SKILL.md", regular, pdf.as_bytes()),
            ("../x", regular, b"x"),
        ]),
        "pdf.tar.gz",
    );
    assert!(
        err.contains("\"../x\", not a relative path") && err.contains("Nothing was installed"),
        "{err}"
    );
    let err = refused(
        tar_gz(&[
            ("SKILL.md", regular, pdf.as_bytes()),
            ("notes.md", tar::EntryType::Symlink, b"/etc/passwd"),
        ]),
        "pdf.tar.gz",
    );
    assert!(err.contains("\"notes.md\" as a link"), "{err}");
    let err = refused(
        zip_of(&[("SKILL.md", pdf.as_bytes()), ("../../evil.sh", b"x")]),
        "pdf.zip",
    );
    assert!(
        err.contains("\"../../evil.sh\", not a relative path"),
        "{err}"
    );
    let err = refused(zip_of(&[("SKILL.md", pdf.as_bytes())]), "other.zip");
    assert!(
        err.contains("does not name the skill: expected pdf.zip or pdf.tar.gz"),
        "{err}"
    );

    let big = vec![b'x'; 5_000];
    let site = Site::new(&[("pdf", &[("SKILL.md", pdf.as_bytes()), ("notes.md", &big)])]);
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = skills(
        dir.path(),
        &[
            "install",
            "--index",
            &site.url(),
            "--max-resource-bytes",
            "4000",
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("pdf.zip") && err.contains("over the cap on one file (4000 bytes)"),
        "{err}"
    );
    assert!(listing(dir.path()).is_empty());
}

#[test]
fn a_v0_1_index_needs_allow_unverified() {
    let site = two_skills();
    site.set_index(&serde_json::json!({"skills": [
        {"name": "pdf", "description": "Does pdf things.", "files": ["SKILL.md", "notes.md"]}
    ]}));
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = skills(dir.path(), &["install", "--index", &site.url()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("v0.1.0") && err.contains("--allow-unverified"),
        "{err}"
    );
    assert!(listing(dir.path()).is_empty());
    let (code, out, err) = skills(
        dir.path(),
        &["install", "--index", &site.url(), "--allow-unverified"],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("not checked against any digest"), "{err}");
    assert!(dir.path().join("pdf/SKILL.md").is_file());
}

#[test]
fn an_index_on_disk_is_installed_and_an_invalid_skill_is_named() {
    let site = tempfile::tempdir().unwrap();
    let root = site.path().join(".well-known/agent-skills");
    let pdf = skill_md("pdf");
    // `bad`'s SKILL.md names another skill: strict validation refuses it.
    let bad = "---\nname: other\ndescription: Mismatched.\n---\n# Bad\n";
    fs::create_dir_all(root.join("pdf")).unwrap();
    let archive = zip_of(&[("SKILL.md", pdf.as_bytes()), ("notes.md", b"notes\n")]);
    fs::write(root.join("pdf.zip"), &archive).unwrap();
    fs::create_dir_all(root.join("bad")).unwrap();
    fs::write(root.join("bad/SKILL.md"), bad).unwrap();
    let index = serde_json::json!({"$schema": SCHEMA, "skills": [
        {"name": "pdf", "type": "archive", "description": "x", "url": "pdf.zip",
         "digest": format!("sha256:{}", sha(&archive))},
        // Root-relative, as the RFC's example writes it: the well-known folder holds the index.
        {"name": "bad", "type": "skill-md", "description": "x",
         "url": "/.well-known/agent-skills/bad/SKILL.md",
         "digest": format!("sha256:{}", sha(bad.as_bytes()))},
    ]});
    fs::write(root.join("index.json"), serde_json::to_vec(&index).unwrap()).unwrap();

    let dir = tempfile::tempdir().unwrap();
    let file = root.join("index.json");
    let (code, out, err) = skills(dir.path(), &["install", "--index", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("  pdf                      missing: installed"),
        "{out}"
    );
    assert!(
        err.contains("The skill \"bad\" was not installed") && err.contains("bad/SKILL.md"),
        "{err}"
    );
    assert_eq!(listing(dir.path()), [dir.path().join("pdf")]);
    let text = fs::read_to_string(dir.path().join("pdf/SKILL.md")).unwrap();
    let recorded = serde_json::to_string(&file.display().to_string()).unwrap();
    assert!(
        text.contains(&format!("skills-embed-tool: {recorded}")),
        "{text}"
    );

    // The site folder itself names its well-known index too.
    let (code, out, _) = skills(
        dir.path(),
        &[
            "status",
            "--index",
            site.path().to_str().unwrap(),
            "--skill",
            "pdf",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("  pdf                      up-to-date"),
        "{out}"
    );
}

#[test]
fn an_unreachable_index_exits_2_with_its_url() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let url = format!("http://127.0.0.1:{port}/");
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = skills(dir.path(), &["status", "--index", &url]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("http://127.0.0.1:{port}{PREFIX}index.json")),
        "{err}"
    );

    let site = two_skills();
    site.files
        .lock()
        .unwrap()
        .remove(&format!("{PREFIX}pdf.zip"));
    let (code, _, err) = skills(dir.path(), &["install", "--index", &site.url()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("pdf.zip") && err.contains("404"), "{err}");
}

/// Every file under `dir`, by path relative to it, with its bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut found = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(dir).unwrap().to_string_lossy();
                found.insert(relative.replace('\\', "/"), fs::read(&path).unwrap());
            }
        }
    }
    found
}

/// The fixture set, and that `dest` holds each of its skills with the same bytes: every file
/// as in the fixture, `SKILL.md` as packed (written whole from the skill's fields) with the
/// install's provenance added.
fn installed_as_published(dest: &Path, site: &Path) {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/basic");
    let installed = tree(dest);
    for (path, bytes) in tree(&source) {
        if path.ends_with("SKILL.md") {
            let packed = fs::read_to_string(site.join(&path)).unwrap();
            let written = String::from_utf8(installed[&path].clone()).unwrap();
            let body = packed.split_once("\n---\n").unwrap().1;
            assert!(written.ends_with(body), "{path}: {written}");
        } else {
            assert_eq!(installed.get(&path), Some(&bytes), "{path}");
        }
    }
    assert!(
        installed.contains_key("code-review/SKILL.md"),
        "{installed:?}"
    );
}

#[test]
fn skills_pack_index_then_install_index_round_trips() {
    let out = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/basic");
    let site = out.path().join("site");
    let home = tempfile::tempdir().unwrap();
    let packed = Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .args(["pack", source.to_str().unwrap(), "--index", "--out"])
        .arg(&site)
        .env("HOME", home.path())
        .output()
        .unwrap();
    assert!(packed.status.success(), "{packed:?}");
    let index = site.join(".well-known/agent-skills/index.json");
    let dest = out.path().join("installed");
    let (code, out_text, err) = skills(&dest, &["install", "--index", index.to_str().unwrap()]);
    assert_eq!(code, 0, "{out_text}{err}");
    assert!(
        out_text.contains("  pdf                      missing: installed")
            && out_text.contains("  code-review              missing: installed"),
        "{out_text}"
    );
    installed_as_published(&dest, &site.join(".well-known/agent-skills"));
}

#[test]
fn skills_serve_http_then_install_index_round_trips() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/basic");
    // A free port: bound, then let go for the server.
    let addr = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .arg("serve")
        .arg(&source)
        .arg("--http")
        .arg(addr.to_string())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Until it listens (bounded: 200 tries).
    let up = (0..200).any(|_| {
        let ok = std::net::TcpStream::connect(addr).is_ok();
        if !ok {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        ok
    });
    let out = tempfile::tempdir().unwrap();
    let dest = out.path().join("installed");
    let url = format!("http://{addr}");
    let result = up.then(|| skills(&dest, &["install", "--index", &url]));
    // What the server published, for the comparison: the same writer as `skills pack --index`.
    let site = out.path().join("site");
    let home = tempfile::tempdir().unwrap();
    let packed = Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .args(["pack", source.to_str().unwrap(), "--index", "--out"])
        .arg(&site)
        .env("HOME", home.path())
        .output()
        .unwrap();
    let _ = server.kill();
    let _ = server.wait();
    let (code, out_text, err) = result.expect("skills serve --http listens");
    assert_eq!(code, 0, "{out_text}{err}");
    assert!(packed.status.success());
    installed_as_published(&dest, &site.join(".well-known/agent-skills"));
    let text = fs::read_to_string(dest.join("pdf/SKILL.md")).unwrap();
    assert!(
        text.contains(&format!("skills-embed-tool: \"{url}{PREFIX}index.json\"")),
        "{text}"
    );
}
