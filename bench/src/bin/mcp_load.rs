//! A hostile MCP client for `skills serve`: pipelines N `resources/read` requests for one
//! ~1.9 MB file over stdio, reads nothing for a while and then reads the answers slowly, and
//! reports the server's peak resident memory (`VmHWM` from `/proc/PID/status`).
//!
//! ```text
//! mcp_load SERVER N [STALL_MS] [TIMEOUT_S]
//! ```
//!
//! `SERVER` is a `skills` binary (run as `SERVER serve DIR`); `STALL_MS` (default 2000) is how
//! long the client reads nothing after sending; every answer is then read 1 ms apart. The run
//! stops after `TIMEOUT_S` seconds (default 300) whatever happened, killing the server. Prints
//! one line: `N answered seconds peak_rss_mb rss_before_mb bytes_sent`. Linux only (it reads `/proc`).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(server), Some(count)) = (
        args.first(),
        args.get(1).and_then(|n| n.parse::<usize>().ok()),
    ) else {
        eprintln!("usage: mcp_load SERVER N [STALL_MS] [TIMEOUT_S]");
        return ExitCode::from(2);
    };
    let stall = Duration::from_millis(args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2000));
    let timeout = Duration::from_secs(args.get(3).and_then(|s| s.parse().ok()).unwrap_or(300));
    let dir = match big_skill_folder() {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("mcp_load: cannot write the skill folder: {e}");
            return ExitCode::from(2);
        }
    };
    let outcome = run(Path::new(server), &dir, count, stall, timeout);
    let _ = std::fs::remove_dir_all(&dir);
    match outcome {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("mcp_load: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A folder holding one skill, `big`, with `references/big.md` of about 1.9 MB.
fn big_skill_folder() -> std::io::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("mcp_load_{}", std::process::id()));
    let skill = dir.join("big");
    std::fs::create_dir_all(skill.join("references"))?;
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: big\ndescription: A big skill. Use it for load tests.\n---\nRead references/big.md.\n",
    )?;
    let line = "All work and no play makes a long file longer, line after line.\n";
    std::fs::write(
        skill.join("references/big.md"),
        line.repeat(1_900_000 / line.len()),
    )?;
    Ok(dir)
}

fn peak_rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse::<u64>()
        .ok()?;
    Some(kb * 1024)
}

fn run(
    server: &Path,
    dir: &Path,
    count: usize,
    stall: Duration,
    timeout: Duration,
) -> Result<String, String> {
    let mut child = Command::new(server)
        .arg("serve")
        .arg(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", server.display()))?;
    let pid = child.id();
    let mut input = child.stdin.take().ok_or("no stdin")?;
    let output = child.stdout.take().ok_or("no stdout")?;
    let (lines, answers) = mpsc::sync_channel::<String>(0);
    let reader = std::thread::spawn(move || {
        let mut reader = BufReader::new(output);
        loop {
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {
                    // A rendezvous channel: the reader thread holds one answer at most, so the
                    // client really does read only when the main thread asks.
                    if lines.send(line).is_err() {
                        return;
                    }
                }
            }
        }
    });
    let start = Instant::now();
    let deadline = start + timeout;
    let left = || deadline.saturating_duration_since(Instant::now());
    let result = (|| {
        writeln!(
            input,
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{}},"clientInfo":{{"name":"mcp_load","version":"0"}}}}}}"#
        )
        .map_err(|e| e.to_string())?;
        input.flush().map_err(|e| e.to_string())?;
        answers
            .recv_timeout(left())
            .map_err(|_| "no answer to initialize")?;
        writeln!(
            input,
            r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
        )
        .map_err(|e| e.to_string())?;
        input.flush().map_err(|e| e.to_string())?;
        std::thread::sleep(Duration::from_millis(200));
        let before = peak_rss(pid).unwrap_or_default();

        // Samples the peak every 20 ms (VmHWM is already a peak; this keeps the last value
        // seen if the process ends first).
        let peak = Arc::new(AtomicU64::new(before));
        let done = Arc::new(AtomicBool::new(false));
        let sampler = {
            let (peak, done) = (Arc::clone(&peak), Arc::clone(&done));
            std::thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    if let Some(rss) = peak_rss(pid) {
                        peak.fetch_max(rss, Ordering::Relaxed);
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            })
        };
        // The writer pipelines every request at once, on its own thread: a server that
        // stops reading blocks it, not the client's reads.
        let writer = std::thread::spawn(move || {
            let mut pipeline = String::new();
            for id in 1..=count {
                pipeline.push_str(&format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"method":"resources/read","params":{{"uri":"skill://big/references/big.md"}}}}"#
                ));
                pipeline.push('\n');
            }
            let sent = pipeline.len();
            let _ = input.write_all(pipeline.as_bytes());
            let _ = input.flush();
            (input, sent)
        });
        std::thread::sleep(stall.min(left()));
        let mut answered = 0;
        while answered < count {
            let Ok(line) = answers.recv_timeout(left()) else {
                break;
            };
            if line.contains(r#""result""#) {
                answered += 1;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let seconds = start.elapsed().as_secs_f64();
        done.store(true, Ordering::Relaxed);
        let _ = sampler.join();
        if let Some(rss) = peak_rss(pid) {
            peak.fetch_max(rss, Ordering::Relaxed);
        }
        let _ = child.kill();
        let (_input, sent) = writer.join().map_err(|_| "the writer thread failed")?;
        let mb = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
        Ok(format!(
            "{count} {answered} {seconds:.1} {:.1} {:.1} {sent}",
            mb(peak.load(Ordering::Relaxed)),
            mb(before)
        ))
    })();
    let _ = child.kill();
    let _ = child.wait();
    drop(answers);
    let _ = reader.join();
    result
}
