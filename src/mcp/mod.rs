//! The MCP server: cocosearch's search engine served to AI agents over the Model Context
//! Protocol, on stdio ([`serve_stdio`]) or streamable HTTP ([`routes`]), with `rmcp`.
//!
//! Tools (names and parameters compatible with CocoSearch and mcp-codebase-index):
//! `search_code`, `index_codebase`, `index_status`, `index_stats`, `list_indexes`,
//! `clear_index`, and the code graph's `find_symbol`, `get_dependents`, `get_dependencies`,
//! `get_change_impact`, `get_call_chain`, `get_file_dependencies`, `get_file_dependents`
//! (`get_file_impact`), `get_file_structure`, `get_function_source`, `get_class_source`, and the tasks' `create_task`, `get_task`, `list_tasks`, `update_task`,
//! `search_tasks`. Each call works out which
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
mod grep;
mod http;
mod listing;
mod manage;
mod progress;
mod project;
mod schema;
mod search;
mod server;
mod sessions;
mod tasks;
mod tools;

use std::sync::Arc;

use std::pin::Pin;
use std::task::{Context, Poll};

use rmcp::ServiceExt;
use tokio::io::{AsyncRead, ReadBuf};
use tokio_util::sync::CancellationToken;

pub use http::routes;
use server::{CocoServer, Departure};

use crate::workspace::{Error as ToolError, Options, ServeError, Workspace, shutdown_signal, warm_up};

/// Serves one client on stdin/stdout until it disconnects or the process is interrupted.
pub async fn serve_stdio(options: Options) -> Result<(), ServeError> {
    let shared = Arc::new(Workspace::new(options));
    warm_up(&shared);
    let left = CancellationToken::new();
    let (stdin, stdout) = rmcp::transport::stdio();
    let stdin = NoticeEnd { inner: stdin, left: left.clone() };
    let service = CocoServer::new(Arc::clone(&shared), Departure::Connection(left))
        .serve((stdin, stdout))
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

/// The client's side of stdio that cancels `left` when it reaches its end: rmcp lets the calls
/// in flight run on after the client has gone, and long ones stop early on this.
struct NoticeEnd<R> {
    inner: R,
    left: CancellationToken,
}

impl<R: AsyncRead + Unpin> AsyncRead for NoticeEnd<R> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let (room, before) = (buf.remaining(), buf.filled().len());
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && room > 0 && buf.filled().len() == before {
            self.left.cancel();
        }
        polled
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::AsyncReadExt;

    use super::*;

    // Issue 25, item 4: a client leaving stdio left a call-chain search running to its time
    // limit, because rmcp lets calls in flight finish. The end of stdin now cancels `left`,
    // which those searches watch; data before it does not.
    #[tokio::test]
    async fn the_end_of_stdin_tells_calls_in_flight_that_the_client_has_left() {
        let left = CancellationToken::new();
        let mut stdin = NoticeEnd { inner: &b"{\"jsonrpc\":\"2.0\"}\n"[..], left: left.clone() };
        let mut first = [0u8; 8];
        stdin.read_exact(&mut first).await.expect("read");
        assert!(!left.is_cancelled(), "cancelled while the client was still writing");
        let mut rest = Vec::new();
        stdin.read_to_end(&mut rest).await.expect("read");
        assert!(left.is_cancelled(), "not cancelled at the end of stdin");
    }
}
