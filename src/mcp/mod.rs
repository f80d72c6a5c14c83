//! The MCP server: cocosearch's search engine served to AI agents over the Model Context
//! Protocol, on stdio ([`serve_stdio`]) or streamable HTTP ([`routes`]), with `rmcp`.
//!
//! Tools (names and parameters compatible with CocoSearch and mcp-codebase-index):
//! `search_code`, `index_codebase`, `index_status`, `index_stats`, `list_indexes`,
//! `clear_index`, and the code graph's `find_symbol`, `get_dependents`, `get_dependencies`,
//! `get_change_impact`, `get_call_chain`, `get_file_dependencies`, `get_file_dependents`
//! (`get_file_impact`), `get_file_structure`, `get_function_source`, `get_class_source`. Each call works out which
//! project it is about ([`crate::workspace::project`], from what the transport says), runs on
//! a blocking thread, and answers JSON in the shapes
//! of the CLI's `--json` ([`crate::wire`]) plus the project used and how it was chosen.
//!
//! Over HTTP, [`routes`] are mounted on the workspace's server ([`crate::workspace::HttpServer`]),
//! which may host the dashboard beside them; both share its process state — stores,
//! embedders, caches and index jobs — so a job started from a browser is the one
//! `index_status` reports. Nothing here knows the dashboard.
//!
//! Architecture invariant: in stdio mode stdout carries only protocol messages; logs go to
//! stderr and nothing here prints.
//! Architecture invariant: the store and the embedders are called only on blocking threads.

mod graph;
mod http;
mod manage;
mod progress;
mod project;
mod schema;
mod search;
mod server;
mod sessions;
mod tools;

use std::sync::Arc;

use rmcp::ServiceExt;

pub use http::routes;
use server::CocoServer;

use crate::workspace::{Error as ToolError, Options, ServeError, Workspace, shutdown_signal, warm_up};

/// Serves one client on stdin/stdout until it disconnects or the process is interrupted.
pub async fn serve_stdio(options: Options) -> Result<(), ServeError> {
    let shared = Arc::new(Workspace::new(options));
    warm_up(&shared);
    let service = CocoServer::new(Arc::clone(&shared))
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| ServeError::Stdio(e.to_string()))?;
    tokio::select! {
        quit = service.waiting() => {
            if let Err(e) = quit {
                tracing::warn!(error = %e, "the stdio session ended abnormally");
            }
        }
        _ = shutdown_signal() => {}
    }
    shared.jobs.stop_all().await;
    Ok(())
}
