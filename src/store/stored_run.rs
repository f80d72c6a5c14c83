//! The stored form of a run's summary, versioned, and reading a run row back.
//!
//! A summary is stored as the JSON of [`RunSummary`] with a `version` key beside its fields.
//! Rows written before versioning have no `version` and are version 1 (the same shape).
//! A row this build cannot read — JSON that does not parse, an unknown kind or status, a
//! newer version — is [`StoreError::Unreadable`] naming the index, the run and the fix; it
//! never reads as zeros or as another status.

use serde_json::Value;

use super::unreadable::unreadable;
use super::{RunKind, RunStatus, RunSummary, StoreError};

/// The version of the stored run summary this build writes and the newest it reads.
pub const RUN_SUMMARY_VERSION: u64 = 1;

/// The JSON stored for `summary`.
pub(crate) fn encode_summary(summary: &RunSummary) -> Result<Value, StoreError> {
    let mut value = serde_json::to_value(summary)
        .map_err(|e| StoreError::Query { context: "recording the end of the run".into(), message: e.to_string() })?;
    if let Value::Object(fields) = &mut value {
        fields.insert("version".into(), Value::from(RUN_SUMMARY_VERSION));
    }
    Ok(value)
}

/// A stored run's kind, status and summary, or why this build cannot read them.
pub(crate) fn decode_run(
    index: &str,
    id: i64,
    kind: &str,
    status: &str,
    summary: Value,
) -> Result<(RunKind, RunStatus, RunSummary), StoreError> {
    let unreadable = |problem: String| unreadable(index, format!("run record {id}"), problem);
    let kind = kind.parse::<RunKind>().map_err(|_| unreadable(format!("unknown run kind {kind:?}")))?;
    let status = status.parse::<RunStatus>().map_err(|_| unreadable(format!("unknown run status {status:?}")))?;
    let version = match summary.get("version") {
        None => 1,
        Some(v) => v.as_u64().ok_or_else(|| unreadable(format!("summary version {v} is not a number")))?,
    };
    if version > RUN_SUMMARY_VERSION {
        return Err(unreadable(format!(
            "its summary is version {version}, newer than this cocosearch reads ({RUN_SUMMARY_VERSION}); written by a newer cocosearch?"
        )));
    }
    let summary = serde_json::from_value::<RunSummary>(summary).map_err(|e| unreadable(format!("its summary: {e}")))?;
    Ok((kind, status, summary))
}

/// [`decode_run`] for a summary stored as text (the embedded store).
pub(crate) fn decode_run_text(
    index: &str,
    id: i64,
    kind: &str,
    status: &str,
    summary: &str,
) -> Result<(RunKind, RunStatus, RunSummary), StoreError> {
    let value = serde_json::from_str::<Value>(summary)
        .map_err(|e| unreadable(index, format!("run record {id}"), format!("its summary is not JSON ({e})")))?;
    decode_run(index, id, kind, status, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_before_versioning_are_version_one() {
        let (kind, status, summary) = decode_run("x", 1, "full", "completed", serde_json::json!({})).expect("reads");
        assert_eq!((kind, status, summary), (RunKind::Full, RunStatus::Completed, RunSummary::default()));
    }

    #[test]
    fn what_this_build_writes_reads_back() {
        let summary = RunSummary { elapsed_ms: 7, ..RunSummary::default() };
        let stored = encode_summary(&summary).expect("encodes");
        assert_eq!(stored["version"], 1);
        assert_eq!(decode_run("x", 1, "full", "completed", stored).expect("reads").2, summary);
    }

    #[test]
    fn unreadable_rows_name_the_index_and_the_fix() {
        let newer = decode_run("x", 12, "full", "completed", serde_json::json!({"version": 2})).expect_err("newer");
        let text = newer.to_string();
        assert!(text.contains("index x") && text.contains("run record 12") && text.contains("--fresh"), "{text}");
        assert!(decode_run("x", 1, "full", "paused", serde_json::json!({})).is_err());
        assert!(decode_run_text("x", 1, "full", "completed", "{not json").is_err());
    }
}
