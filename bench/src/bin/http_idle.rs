//! `skills serve --http` under idle connections (issue 25 item 1): the server runs under a
//! descriptor limit (`ulimit -n NOFILE`), the load holds IDLE connections that send nothing
//! (more than the limit), and a new client sends `initialize`; reports how long that client
//! waited for its answer, per round.
//!
//! ```text
//! http_idle SERVER SKILLS_DIR [IDLE] [NOFILE] [HEADER_READ_S] [ROUNDS]
//! ```
//!
//! Defaults: 1100 idle connections, a limit of 1024, the server's default header-read timeout
//! (10 s; given, it is passed as `--header-read-timeout`), 3 rounds. Bounded: a client waits at
//! most 3 header-read timeouts plus 10 s, then counts as unanswered; the server is killed at
//! the end. Prints one line per round: `round idle nofile header_read_s opened_ms waited_ms answered`
//! (`opened_ms`: how long opening the idle connections took).
//! Loopback only; needs `bash` (for `ulimit`) and more descriptors than IDLE in this process.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(server), Some(skills)) = (args.first(), args.get(1)) else {
        eprintln!("usage: http_idle SERVER SKILLS_DIR [IDLE] [NOFILE] [HEADER_READ_S] [ROUNDS]");
        return ExitCode::from(2);
    };
    let number = |i: usize, default: f64| {
        args.get(i)
            .and_then(|s| s.parse::<f64>().ok())
            .unwrap_or(default)
    };
    let idle = number(2, 1100.0) as usize;
    let nofile = number(3, 1024.0) as u64;
    let header_read = args.get(4).and_then(|s| s.parse::<f64>().ok());
    let rounds = number(5, 3.0) as usize;
    let addr = match TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()) {
        Ok(addr) => addr,
        Err(e) => {
            eprintln!("http_idle: no free port: {e}");
            return ExitCode::from(2);
        }
    };
    let mut child = match spawn(server, skills, addr, nofile, header_read) {
        Ok(child) => child,
        Err(e) => {
            eprintln!("http_idle: cannot start {server}: {e}");
            return ExitCode::from(2);
        }
    };
    let status = run(addr, idle, nofile, header_read, rounds);
    let _ = child.kill();
    let _ = child.wait();
    status
}

fn spawn(
    server: &str,
    skills: &str,
    addr: SocketAddr,
    nofile: u64,
    header_read: Option<f64>,
) -> std::io::Result<Child> {
    let mut command = Command::new("bash");
    command
        .arg("-c")
        .arg(format!("ulimit -n {nofile} && exec \"$0\" \"$@\""))
        .arg(server)
        .args(["serve", skills, "--http", &addr.to_string()]);
    if let Some(seconds) = header_read {
        command.args(["--header-read-timeout", &seconds.to_string()]);
    }
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
}

fn run(
    addr: SocketAddr,
    idle: usize,
    nofile: u64,
    header_read: Option<f64>,
    rounds: usize,
) -> ExitCode {
    let ready = (0..400).any(|_| {
        let up = TcpStream::connect(addr).is_ok();
        if !up {
            std::thread::sleep(Duration::from_millis(25));
        }
        up
    });
    if !ready {
        eprintln!("http_idle: the server does not accept connections on {addr}");
        return ExitCode::FAILURE;
    }
    let timeout = header_read.unwrap_or(10.0);
    let bound = Duration::from_secs_f64(timeout * 3.0 + 10.0);
    for round in 1..=rounds {
        let mut held = Vec::with_capacity(idle);
        let opening = Instant::now();
        for _ in 0..idle {
            match TcpStream::connect(addr) {
                Ok(stream) => held.push(stream),
                Err(e) => {
                    eprintln!("http_idle: idle connection {} failed: {e}", held.len());
                    break;
                }
            }
        }
        let opened = opening.elapsed().as_secs_f64() * 1000.0;
        let start = Instant::now();
        let answered = initialize(addr, bound);
        let waited = start.elapsed().as_secs_f64() * 1000.0;
        println!(
            "{round} {} {nofile} {timeout} {opened:.1} {waited:.1} {answered}",
            held.len()
        );
        drop(held);
        // The server notices the closed connections at its next read.
        std::thread::sleep(Duration::from_millis(200));
    }
    ExitCode::SUCCESS
}

/// Sends `initialize` on a new connection; whether the answer came within `bound`.
fn initialize(addr: SocketAddr, bound: Duration) -> bool {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"http_idle","version":"1"}}}"#;
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let Ok(mut stream) = TcpStream::connect_timeout(&addr, bound) else {
        return false;
    };
    let deadline = Instant::now() + bound;
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while Instant::now() < deadline {
        let left = deadline.saturating_duration_since(Instant::now());
        if stream
            .set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .is_err()
        {
            return false;
        }
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return false,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
        }
        if String::from_utf8_lossy(&answer).contains("\"result\"") {
            return true;
        }
    }
    false
}
