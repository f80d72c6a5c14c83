//! `cocosearch dashboard`: serves the web dashboard ([`Presenters`]) on its own port and opens
//! it in the browser.
//!
//! The token (`mcp.token`) is a secret and is never printed: the browser is opened with
//! `?token=` in the address, which the server turns into a cookie, and the printed address
//! says to add it.

use std::process::{Command, Stdio};

use super::args::DashboardArgs;
use super::output::errln;
use super::{Context, Exit, Presenters};
use crate::config::Override;
use crate::workspace::{HttpServer, Listen, McpEndpoint};

/// `cocosearch dashboard`.
pub fn dashboard(
    ctx: &Context,
    args: &DashboardArgs,
    presenters: &Presenters,
    config_file: Option<&std::path::Path>,
    overrides: Vec<Override>,
) -> anyhow::Result<Exit> {
    let options = super::serve::options(ctx, config_file, overrides, crate::workspace::Front::Dashboard);
    let runtime = super::serve::runtime("cocosearch-web")?;
    runtime.block_on(async {
        let listen = Listen { host: args.host.clone(), port: args.port, mcp: McpEndpoint::Omitted };
        let mut server = HttpServer::bind_to(options, listen).await?;
        // The page, its API, `/health` and `/api/stats`, without `/mcp`.
        server.mount((presenters.web_routes)(&server));
        if let Some(addr) = server.local_addr() {
            let url = super::serve::dashboard_url(addr);
            if !ctx.ui.quiet {
                let token_note = if server.token().is_some() {
                    " (mcp.token is set: add ?token=<mcp.token> to the address once per browser)"
                } else {
                    ""
                };
                errln!("cocosearch: dashboard on {url}{token_note} — Ctrl-C stops it");
            }
            if !args.no_open {
                let with_token = match server.token() {
                    Some(token) => {
                        format!(
                            "{url}?token={}",
                            url::form_urlencoded::byte_serialize(token.as_bytes()).collect::<String>()
                        )
                    }
                    None => url.clone(),
                };
                if let Err(e) = open_browser(&with_token) {
                    errln!("cocosearch: could not open a browser ({e}); open {url} yourself");
                }
            }
        }
        server.run().await
    })?;
    Ok(Exit::Success)
}

/// Opens `url` in the default browser with the platform's own opener, detached; a small
/// function rather than a crate, since it is one command per platform.
fn open_browser(url: &str) -> std::io::Result<()> {
    let mut command = if cfg!(target_os = "macos") {
        Command::new("open")
    } else if cfg!(windows) {
        let mut c = Command::new("rundll32");
        c.arg("url.dll,FileProtocolHandler");
        c
    } else {
        Command::new("xdg-open")
    };
    let mut child = command.arg(url).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).spawn()?;
    // The opener returns at once (or when the browser does): wait on a thread, never leave a zombie.
    let _ = std::thread::Builder::new().name("cocosearch-open".into()).spawn(move || child.wait());
    Ok(())
}
