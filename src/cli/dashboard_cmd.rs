//! `cocosearch dashboard`: serves the web dashboard ([`crate::web`]) on its own port and opens
//! it in the browser.
//!
//! The token (`mcp.token`) is a secret and is never printed: the browser is opened with
//! `?token=` in the address, which the server turns into a cookie, and the printed address
//! says to add it.

use std::net::SocketAddr;
use std::process::{Command, Stdio};

use anyhow::Context as _;

use super::args::DashboardArgs;
use super::{Context, Exit};
use crate::config::Override;
use crate::mcp::{HttpServer, Listen, McpEndpoint, Options};

/// `cocosearch dashboard`.
pub fn dashboard(
    ctx: &Context,
    args: &DashboardArgs,
    config_file: Option<&std::path::Path>,
    overrides: Vec<Override>,
) -> anyhow::Result<Exit> {
    let options = Options {
        config: ctx.config.clone(),
        env: ctx.env.clone(),
        config_file: config_file.map(std::path::Path::to_path_buf),
        overrides,
        project_from_cwd: false,
    };
    // Two workers are plenty: the work happens on blocking threads.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("cocosearch-web")
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let listen = Listen { host: args.host.clone(), port: args.port, mcp: McpEndpoint::Omitted };
        let mut server = HttpServer::bind_to(options, listen).await?;
        crate::web::mount(&mut server);
        if let Some(addr) = server.local_addr() {
            let url = dashboard_url(addr);
            if !ctx.ui.quiet {
                let token_note = if server.token().is_some() {
                    " (mcp.token is set: add ?token=<mcp.token> to the address once per browser)"
                } else {
                    ""
                };
                eprintln!("cocosearch: dashboard on {url}{token_note} — Ctrl-C stops it");
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
                    eprintln!("cocosearch: could not open a browser ({e}); open {url} yourself");
                }
            }
        }
        server.run().await
    })?;
    Ok(Exit::Success)
}

/// The address a browser on this machine uses: an unspecified bind address (`0.0.0.0`, `::`)
/// is reached through loopback.
pub(crate) fn dashboard_url(addr: SocketAddr) -> String {
    let host = match addr.ip() {
        ip if ip.is_unspecified() && ip.is_ipv4() => "127.0.0.1".to_string(),
        ip if ip.is_unspecified() => "[::1]".to_string(),
        std::net::IpAddr::V6(ip) => format!("[{ip}]"),
        ip => ip.to_string(),
    };
    format!("http://{host}:{}/dashboard", addr.port())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_a_browser_here_uses() {
        let url = |s: &str| dashboard_url(s.parse().expect("address"));
        assert_eq!(url("127.0.0.1:3001"), "http://127.0.0.1:3001/dashboard");
        assert_eq!(url("0.0.0.0:3001"), "http://127.0.0.1:3001/dashboard");
        assert_eq!(url("[::]:80"), "http://[::1]:80/dashboard");
        assert_eq!(url("[::1]:3001"), "http://[::1]:3001/dashboard");
        assert_eq!(url("192.168.1.5:3001"), "http://192.168.1.5:3001/dashboard");
    }
}
