//! Skills embedded with `skills!`, served by `skills_embed::mcp` as `skills serve` serves a
//! folder: stdio, or Streamable HTTP with sessions (`run_http`, as `skills serve --http`: one
//! listener feeding a single-threaded runtime per core).
//!
//! ```text
//! embedded_server s1000|s100                         # stdio
//! embedded_server s1000|s100 --http ADDR             # http://ADDR/mcp, `run_http`
//! embedded_server s1000|s100 --http ADDR --nodelay   # the service on one multi-thread runtime
//! embedded_server s1000|s100 --http ADDR --nodelay --stateless   # and no sessions, plain JSON
//! ```
//!
//! `s1000`: the 1,000-skill goal tree (`gen_tree s1000`), for the cold start with nothing read
//! from disk. `s100`: the 100-skill folder of `bench/scripts/mcp_peers.sh`. `--nodelay` serves
//! `McpServer::http_router` on an accept loop of its own on one multi-thread runtime (a worker per
//! core), setting `TCP_NODELAY` on each connection: what `run` was before it took a runtime per
//! core, to compare the two.

use std::net::SocketAddr;
use std::process::ExitCode;

use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use skills_embed::SkillSet;
use skills_embed::mcp::{McpServer, Options};

mod s1000 {
    skills_embed::skills!("../../target/bench-work/trees/s1000");
}
mod s100 {
    skills_embed::skills!("../../target/bench-work/trees/mcp-s100");
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((set, rest)) = args.split_first() else {
        return usage();
    };
    let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
    match set.as_str() {
        "s1000" => serve(&s1000::SKILLS, &rest),
        "s100" => serve(&s100::SKILLS, &rest),
        _ => usage(),
    }
}

fn serve<Id: Send + Sync + 'static>(set: &'static SkillSet<Id>, rest: &[&str]) -> ExitCode {
    let served = match rest {
        [] => McpServer::new(set, skills_embed::tools::Settings::default()).run_stdio(),
        ["--http", addr, flags @ ..] => {
            let Ok(addr) = addr.parse::<SocketAddr>() else {
                return usage();
            };
            let http = McpServer::new(set, skills_embed::tools::Settings::default());
            match flags {
                [] => skills_embed::__private::run_http(http, addr),
                ["--nodelay"] => serve_nodelay(http, addr),
                ["--nodelay", "--stateless"] => serve_nodelay(
                    http.with_options(Options { stateless: true, ..Options::default() }),
                    addr,
                ),
                _ => return usage(),
            }
        }
        _ => return usage(),
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("embedded_server: {e}");
            ExitCode::FAILURE
        }
    }
}

fn serve_nodelay(http: McpServer, addr: SocketAddr) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let service = http.http_router(Default::default());
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let builder = hyper::server::conn::http1::Builder::new();
        loop {
            let (stream, _) = listener.accept().await?;
            stream.set_nodelay(true)?;
            let connection = builder.serve_connection(
                TokioIo::new(stream),
                TowerToHyperService::new(service.clone()),
            );
            tokio::spawn(async move {
                let _ = connection.await;
            });
        }
    })
}

fn usage() -> ExitCode {
    eprintln!("usage: embedded_server s1000|s100 [--http ADDR [--nodelay [--stateless]]]");
    ExitCode::from(2)
}
