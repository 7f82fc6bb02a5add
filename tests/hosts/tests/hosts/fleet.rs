//! Three `skills serve --http` replicas behind a real balancer, driven by the official MCP
//! Python SDK (issue 30 item 6): `bench/scripts/fleet.sh` in quick mode with this package's
//! `skills-cli`. Stateless replicas answer every call round-robin at 2025-11-25 and 2026-07-28;
//! session replicas lose 2025-11-25 calls round-robin and none behind the sticky snippet the
//! README quotes; an edit on disk reaches every replica; an `ask` approval started on one
//! replica completes on another. Runs when HAProxy or nginx is
//! installed, or the script can install it (`apt-get install haproxy`, as root), and a Python
//! venv can get `mcp==2.3.0` from PyPI; otherwise prints one line saying why and passes.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where Debian puts the balancers (root's PATH has it, a user's may not).
fn installed(name: &str) -> bool {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .chain(["/usr/sbin".into(), "/sbin".into()])
        .any(|dir| dir.join(name).is_file())
}

/// The README quotes the sticky snippets the script pastes, byte for byte: one text, tested.
#[test]
fn the_readme_shows_the_sticky_snippets_the_fleet_script_tests() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(repo.join("README.md")).expect("README.md");
    for snippet in ["haproxy-sticky.cfg", "nginx-sticky.conf"] {
        let text = std::fs::read_to_string(repo.join("bench/fleet").join(snippet)).expect(snippet);
        assert!(
            readme.contains(&format!("```text\n{text}```")),
            "README.md does not quote bench/fleet/{snippet} as it is:\n{text}"
        );
    }
}

#[test]
fn replicas_behind_a_balancer_serve_every_call_stateless_and_sticky() {
    // The first balancer found, or installed from Debian's packages by the script (root and
    // apt-get); without either the script prints one `fleet: skipped:` line.
    let balancers = ["haproxy", "nginx"]
        .into_iter()
        .find(|b| installed(b))
        .unwrap_or("haproxy nginx");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fleet");
    std::fs::create_dir_all(&work).expect("the work folder");
    // Its own output file: two test runs at once on one checkout must not write into one.
    let log = work.join(format!("fleet-test-{}.out", std::process::id()));
    let mut child = Command::new("bash")
        .arg(repo.join("bench/scripts/fleet.sh"))
        .current_dir(&repo)
        .env("QUICK", "1")
        .env("BALANCERS", balancers)
        .env("FLEET_INSTALL", "1")
        .env("FLEET_WORK", &work)
        .env("SERVER", env!("CARGO_BIN_EXE_skills-cli"))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&log).expect("the output file"))
        .stderr(Stdio::inherit())
        .spawn()
        .expect("bash runs the script");
    // Bounded: the script bounds its own waits; this only keeps a hung run from holding the suite.
    let deadline = Instant::now() + Duration::from_secs(600);
    let status = loop {
        if let Some(status) = child.try_wait().expect("the script's status") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "fleet.sh still running after 600 s; output so far:\n{}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let out = std::fs::read_to_string(&log).expect("the script's output");
    if let Some(line) = out.lines().find(|l| l.starts_with("fleet: skipped:")) {
        assert!(status.success(), "{out}");
        println!("{line}");
        return;
    }
    assert!(status.success(), "fleet.sh failed:\n{out}");
    println!("{out}");

    // The lines under the first header holding every part of `header`.
    let section = |header: &[&str]| -> String {
        let mut lines = out
            .lines()
            .skip_while(|l| !(l.starts_with("== ") && header.iter().all(|part| l.contains(part))));
        let first = lines
            .next()
            .unwrap_or_else(|| panic!("no section {header:?}:\n{out}"));
        let body: Vec<&str> = lines.take_while(|l| !l.starts_with("== ")).collect();
        format!("{first}\n{}", body.join("\n"))
    };
    let calls = "30 calls by 2 client(s) x 3 round(s) x 5";
    for version in ["2025-11-25", "2026-07-28"] {
        let s = section(&["stateless replicas", "round-robin", version]);
        assert!(s.contains(&format!("{calls}: 30 ok, 0 errors")), "{s}");
        let s = section(&["session replicas", "sticky", version]);
        assert!(s.contains(&format!("{calls}: 30 ok, 0 errors")), "{s}");
    }
    // Round-robin loses a session's calls: the other replicas do not know its id.
    let s = section(&["session replicas", "| round-robin |", "2025-11-25"]);
    assert!(
        s.contains("as expected: sessions need sticky routing"),
        "{s}"
    );
    assert!(!s.contains(": 30 ok,"), "{s}");
    // 2026-07-28 has no session to lose.
    let s = section(&["session replicas", "| round-robin |", "2026-07-28"]);
    assert!(s.contains(&format!("{calls}: 30 ok, 0 errors")), "{s}");
    let s = section(&["edit of code-review/SKILL.md"]);
    for target in ["r1", "r2", "r3", "lb"] {
        assert!(s.contains(&format!("  {target}: new body after ")), "{s}");
    }
    assert!(!s.contains("not within"), "{s}");
    // An `ask` approval started on one replica completes on another, through the shared key;
    // "always" answered on one replica holds for the others; each replica's own key refuses.
    let s = section(&["round-robin | ask release-notes, answer once", "2026-07-28"]);
    assert!(
        s.contains("asked 1 time(s)") && s.contains("loaded=True"),
        "{s}"
    );
    assert!(
        s.contains("started on one replica and completed on another"),
        "{s}"
    );
    let s = section(&["after always", "2026-07-28"]);
    assert!(s.contains("asked 0 time(s), loaded=True"), "{s}");
    let s = section(&["no shared key", "2026-07-28"]);
    assert!(
        s.contains("loaded=False") && s.contains("replicas must share"),
        "{s}"
    );
    let s = section(&["session replicas, sticky | ask release-notes", "2025-11-25"]);
    assert!(
        s.contains("asked 1 time(s)") && s.contains("loaded=True"),
        "{s}"
    );
    assert!(out.contains("fleet: every count as expected"), "{out}");
}
