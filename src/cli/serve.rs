//! What `cocosearch mcp` and `cocosearch dashboard` share: the server's options from the
//! command line, its async runtime, and the address a browser uses for the dashboard.

use std::net::SocketAddr;

use anyhow::Context as _;

use super::Context;
use crate::config::Override;
use crate::workspace::{Front, Notices, Options};

/// The server's options from the resolved configuration and the command line, the project
/// not taken from the working directory (`cocosearch mcp --project-from-cwd` sets that).
pub(super) fn options(
    ctx: &Context,
    config_file: Option<&std::path::Path>,
    overrides: Vec<Override>,
    front: Front,
) -> Options {
    Options {
        config: ctx.config.clone(),
        env: ctx.env.clone(),
        config_file: config_file.map(std::path::Path::to_path_buf),
        overrides,
        project_from_cwd: false,
        front,
        // Nobody watches a server's stderr for a progress bar; its notices are logged.
        progress: crate::workspace::DownloadProgress::Hidden,
        notices: Notices::Log,
    }
}

/// The server's async runtime. Two workers are plenty: the work happens on blocking threads.
pub(super) fn runtime(thread_name: &str) -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name(thread_name)
        .enable_all()
        .build()
        .context("starting the async runtime")
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
