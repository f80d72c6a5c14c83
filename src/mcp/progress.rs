//! MCP progress notifications (`notifications/progress`) for an index job, sent while it runs
//! when the call carried a progress token.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::{Peer, RoleServer};

use crate::workspace::jobs::Job;

/// How often progress notifications are sent while a job runs.
const NOTIFY_EVERY: Duration = Duration::from_millis(500);

/// Sends `notifications/progress` for `token` whenever `job`'s percentage grew past `sent`,
/// until the job is over (a last one at 100%), `until` has passed, or the client went away.
pub(crate) async fn notify(
    job: Arc<Job>,
    peer: Peer<RoleServer>,
    token: ProgressToken,
    sent: Option<f64>,
    until: Option<Duration>,
) {
    let deadline = until.map(|d| tokio::time::Instant::now() + d);
    let mut last_sent = sent.unwrap_or(-1.0);
    loop {
        let percent = job.percent();
        if percent > last_sent {
            let note =
                ProgressNotificationParam::new(token.clone(), percent).with_total(100.0).with_message(job.message());
            if peer.notify_progress(note).await.is_err() {
                return;
            }
            last_sent = percent;
        }
        if !job.is_running() || deadline.is_some_and(|d| tokio::time::Instant::now() >= d) {
            return;
        }
        let tick = tokio::time::sleep(NOTIFY_EVERY);
        tokio::select! {
            _ = tick => {}
            _ = job.wait() => {}
        }
    }
}
