//! The JSON of a background index job (`index_codebase`, `index_status`, the dashboard's
//! `/api/jobs` and its events): what the workspace reports of a job (`workspace::jobs::JobReport`), shaped
//! once for the MCP tools and the dashboard.

use serde_json::{Value, json};

use super::summary_json;
use crate::index::Progress;
use crate::workspace::jobs::{JobOutcome, JobReport};

/// A job.
pub fn job_json(job: &JobReport<'_>) -> Value {
    let p = job.progress;
    let get = Progress::get;
    let mut value = json!({
        "job_id": job.id,
        "index": job.index,
        "root": job.root,
        "fresh": job.fresh,
        "state": job.state,
        "phase": job.phase.as_str(),
        "percent": (job.percent * 10.0).round() / 10.0,
        "message": job.message,
        "started_at": humantime::format_rfc3339_seconds(job.started_at).to_string(),
        "elapsed_ms": job.elapsed.as_millis() as u64,
        "progress": {
            "files_found": get(&p.discovered),
            "files_to_index": get(&p.to_index),
            "files_parsed": get(&p.parsed),
            "files_written": get(&p.written),
            "chunks": get(&p.chunks),
            "chunks_to_embed": get(&p.to_embed),
            "chunks_embedded": get(&p.embedded),
            "vectors_per_second": p.rate().map(|r| (r * 10.0).round() / 10.0),
            "eta_seconds": p.eta().map(|d| d.as_secs()),
        },
        "warnings": p.warnings(),
    });
    match &job.outcome {
        Some(JobOutcome::Finished(summary)) => value["summary"] = summary_json(summary),
        Some(JobOutcome::Failed(error)) => value["error"] = json!(error),
        None => {}
    }
    value
}
