//! `cocosearch mcp`: builds the server's options from the command line and runs the MCP
//! server ([`Presenters`]) on stdio or streamable HTTP; over HTTP the workspace's server also
//! serves the web dashboard at `/dashboard`.
//!
//! In stdio mode stdout belongs to the protocol: nothing here prints to it, and messages for
//! people go to stderr.

use super::args::McpArgs;
use super::output::errln;
use super::{Context, Exit, Presenters};
use crate::config::{Override, Transport};
use crate::workspace::{HttpServer, Options};

/// `cocosearch mcp`.
pub fn mcp(
    ctx: &Context,
    args: &McpArgs,
    presenters: &Presenters,
    config_file: Option<&std::path::Path>,
    overrides: Vec<Override>,
) -> anyhow::Result<Exit> {
    let options = Options {
        project_from_cwd: args.project_from_cwd,
        ..super::serve::options(ctx, config_file, overrides, crate::workspace::Front::Mcp)
    };
    let runtime = super::serve::runtime("cocosearch-mcp")?;
    match ctx.config.settings.mcp.transport {
        Transport::Stdio => runtime.block_on((presenters.mcp_stdio)(options))?,
        Transport::Http => runtime.block_on(async {
            let mut server = HttpServer::bind(options).await?;
            let mcp = (presenters.mcp_routes)(&server);
            let web = (presenters.web_routes)(&server);
            server.mount(mcp);
            server.mount(web);
            if let Some(addr) = server.local_addr()
                && !ctx.ui.quiet
            {
                errln!(
                    "cocosearch: MCP server on http://{addr}/mcp (health: http://{addr}/health, dashboard: {})",
                    super::serve::dashboard_url(addr)
                );
            }
            server.run().await
        })?,
    }
    // The embedders' runtime and pooled connections go with the process.
    Ok(Exit::Success)
}
