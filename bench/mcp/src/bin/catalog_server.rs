//! The rmcp peer: a minimal server of rmcp's `SkillCatalog` (feature `skills-fs`, SEP-2640),
//! as its documentation writes it: `skills/list`, `skills/get`, `resources/list`,
//! `resources/read` and `resources/directory/read` from a folder read into memory at start.
//! No validation, no tool. Served like `skills serve`: Streamable HTTP with sessions on
//! hyper (one HTTP/1.1 connection per task) on a multi-thread tokio runtime (a worker per core, as `skills serve --http` has), or stdio.
//!
//! ```text
//! catalog_server DIR                 # stdio
//! catalog_server DIR --http ADDR     # http://ADDR/mcp
//! catalog_server DIR --http ADDR --no-nodelay   # leave Nagle's algorithm on
//! ```
//!
//! Accepted connections get `TCP_NODELAY` unless `--no-nodelay`: without it an answer written
//! in more than one piece (SSE headers, then the event, then the end of the chunked body)
//! waits for the client's delayed ACK, about 40 ms on Linux.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;

use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rmcp::handler::server::skill_catalog::SkillCatalog;
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

#[derive(Clone)]
struct Server {
    skills: Arc<SkillCatalog>,
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_resources()
                .enable_skills_with_directory_read()
                .build(),
        )
    }

    async fn list_skills(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        Ok(self.skills.list_skills())
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.skills.get_skill(&request.uri)
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        self.skills.read_resource_directory(&request.uri)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(self.skills.resources()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.skills
            .read_resource(&request.uri)
            .map(Into::into)
            .ok_or_else(|| ErrorData::resource_not_found(request.uri, None))
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let nodelay = !args.iter().any(|a| a == "--no-nodelay");
    let args: Vec<&String> = args.iter().filter(|a| *a != "--no-nodelay").collect();
    let (dir, http) = match args.as_slice() {
        [dir] => ((*dir).clone(), None),
        [dir, flag, addr] if *flag == "--http" => match addr.parse::<SocketAddr>() {
            Ok(addr) => ((*dir).clone(), Some(addr)),
            Err(_) => return usage(),
        },
        _ => return usage(),
    };
    let catalog = match SkillCatalog::from_dir(&dir) {
        Ok(catalog) => Arc::new(catalog),
        Err(e) => {
            eprintln!("catalog_server: {e}");
            return ExitCode::FAILURE;
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let served = runtime.block_on(async move {
        match http {
            None => serve_stdio(catalog).await,
            Some(addr) => serve_http(catalog, addr, nodelay).await,
        }
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("catalog_server: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: catalog_server DIR [--http ADDR [--no-nodelay]]");
    ExitCode::from(2)
}

async fn serve_stdio(skills: Arc<SkillCatalog>) -> std::io::Result<()> {
    let running = Server { skills }
        .serve(rmcp::transport::stdio())
        .await
        .map_err(std::io::Error::other)?;
    running.waiting().await.map_err(std::io::Error::other)?;
    Ok(())
}

async fn serve_http(
    skills: Arc<SkillCatalog>,
    addr: SocketAddr,
    nodelay: bool,
) -> std::io::Result<()> {
    let service = StreamableHttpService::new(
        move || {
            Ok(Server {
                skills: Arc::clone(&skills),
            })
        },
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let builder = hyper::server::conn::http1::Builder::new();
    loop {
        let (stream, _) = listener.accept().await?;
        if nodelay {
            stream.set_nodelay(true)?;
        }
        let connection = builder.serve_connection(
            TokioIo::new(stream),
            TowerToHyperService::new(service.clone()),
        );
        tokio::spawn(async move {
            let _ = connection.await;
        });
    }
}
