//! `cocosearch mcp`: builds the server's options from the command line and runs
//! [`crate::mcp`] on stdio or streamable HTTP; over HTTP it also serves the web dashboard
//! ([`crate::web`]) at `/dashboard`.
//!
//! In stdio mode stdout belongs to the protocol: nothing here prints to it, and messages for
//! people go to stderr.

use anyhow::Context as _;

use super::args::McpArgs;
use super::{Context, Exit};
use crate::config::{Override, Transport};
use crate::mcp::{self, HttpServer, Options};

/// `cocosearch mcp`.
pub fn mcp(
    ctx: &Context,
    args: &McpArgs,
    config_file: Option<&std::path::Path>,
    overrides: Vec<Override>,
) -> anyhow::Result<Exit> {
    let options = Options {
        config: ctx.config.clone(),
        env: ctx.env.clone(),
        config_file: config_file.map(std::path::Path::to_path_buf),
        overrides,
        project_from_cwd: args.project_from_cwd,
    };
    // Two workers are plenty: the work happens on blocking threads.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("cocosearch-mcp")
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    match ctx.config.settings.mcp.transport {
        Transport::Stdio => runtime.block_on(mcp::serve_stdio(options))?,
        Transport::Http => runtime.block_on(async {
            let mut server = HttpServer::bind(options).await?;
            crate::web::mount(&mut server);
            if let Some(addr) = server.local_addr()
                && !ctx.ui.quiet
            {
                eprintln!(
                    "cocosearch: MCP server on http://{addr}/mcp (health: http://{addr}/health, dashboard: {})",
                    super::dashboard_cmd::dashboard_url(addr)
                );
            }
            server.run().await
        })?,
    }
    // The embedders' runtime and pooled connections go with the process.
    Ok(Exit::Success)
}
