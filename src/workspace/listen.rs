//! Accepting HTTP connections: hyper's HTTP/1 server on each TCP connection, with a header read
//! timeout and a graceful shutdown.
//!
//! `axum::serve` would do the same but gives hyper no timer, so a client that opens a connection
//! and trickles its request line (slowloris) would hold it, and a task, forever. Here a client
//! that has not sent a request's headers within `mcp.headerTimeout` is disconnected; that
//! includes a kept-alive connection that sits idle that long between requests, which clients
//! simply reopen. Each request carries the peer's address (`ConnectInfo<SocketAddr>`), for
//! routes that serve loopback clients only.

use std::future::Future;
use std::io;
use std::pin::pin;
use std::time::Duration;

use std::net::SocketAddr;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tower::ServiceExt as _;

/// How long open connections get to finish after a shutdown signal.
const GRACE: Duration = Duration::from_secs(10);

/// Serves `app` on `listener` until `shutdown` resolves, then lets open connections finish
/// (up to [`GRACE`]).
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    header_timeout: Duration,
    shutdown: impl Future<Output = ()>,
) {
    // Every connection holds a receiver: the sender learns when the last one has closed.
    let (stop, stopped) = tokio::sync::watch::channel(());
    let mut shutdown = pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_failed(e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Answers are small JSON and SSE writes: Nagle's algorithm would hold each second
        // write until the client's delayed ACK.
        let _ = stream.set_nodelay(true);
        let service =
            TowerToHyperService::new(app.clone().map_request(move |mut request: axum::extract::Request<_>| {
                request.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
                request
            }));
        let mut stopping = stopped.clone();
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(header_timeout);
            let mut connection = pin!(builder.serve_connection(TokioIo::new(stream), service));
            tokio::select! {
                result = connection.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!("HTTP connection ended: {e}");
                    }
                }
                _ = stopping.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
            drop(stopping);
        });
    }
    drop(listener);
    drop(stopped);
    let _ = stop.send(());
    if tokio::time::timeout(GRACE, stop.closed()).await.is_err() {
        tracing::warn!("some HTTP connections were still open {} s after the shutdown signal", GRACE.as_secs());
    }
}

/// A failed `accept`: a client that gave up is nothing; anything else (out of file
/// descriptors) is logged and waited out, as hyper and axum do.
async fn accept_failed(e: io::Error) {
    if matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused | io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
    ) {
        return;
    }
    tracing::error!("cannot accept HTTP connections: {e}");
    tokio::time::sleep(Duration::from_secs(1)).await;
}
