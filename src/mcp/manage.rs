//! The index-management tools: `index_codebase` (start a job), `index_status`, `index_stats`,
//! `list_indexes` and `clear_index`, over the workspace's jobs, deletion and statistics.
//!
//! Every function here blocks (store, file system) and runs on a blocking thread.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};

use super::ToolError;
use super::project::project_json;
use super::tools::{ClearIndexArgs, IndexCodebaseArgs, IndexStatsArgs, IndexStatusArgs};
use crate::config::validate_index_name;
use crate::wire;
use crate::workspace::indexes::{Fresh, JobSpec, delete_index, start_job};
use crate::workspace::jobs::Job;
use crate::workspace::project::{self, Hints, Project};
use crate::workspace::{Caller, IndexRef, Need, Scan, Source, Target, Workspace};

/// Failing files listed by `index_stats(include_failures=true)`.
const FAILING_FILES: usize = 100;

/// `index_codebase`: checks the request and starts (or finds) the job.
pub(crate) fn index_codebase(
    shared: &Arc<Workspace>,
    hints: &Hints,
    args: &IndexCodebaseArgs,
) -> Result<(Arc<Job>, Value), ToolError> {
    if let Some(name) = &args.index_name {
        validate_index_name(name).map_err(|m| ToolError::new(format!("index_name {name:?}: {m}")))?;
    }
    let project = match (&args.path, &args.index_name) {
        (Some(path), _) => {
            let detected = project::detect(shared, hints).ok();
            let path = project::canonical(path, detected.as_ref().map(|p| p.root.as_path()))?;
            if let Err(reason) = shared.dir_rule.check(&path) {
                return Err(project::refused(&path, Source::Path, &reason));
            }
            let allowed = allowed_roots(shared, hints, detected.as_ref())?;
            if !project::inside(&path, &allowed) {
                return Err(ToolError::new(format!(
                    "refusing to index {}: it is outside the workspace roots and the indexed directories ({}) — \
                     index a directory inside one of them, or add it to the client's roots",
                    path.display(),
                    allowed.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
                )));
            }
            project::resolve(shared, &path, Source::Path)?
        }
        (None, Some(name)) if shared.default_store()?.get_index(name)?.is_some() => shared.index_project(name)?,
        (None, _) => project::detect(shared, hints)?,
    };
    let name = args.index_name.clone().unwrap_or_else(|| project.config.index_name());
    let (job, started) = start_job(
        shared,
        &project,
        JobSpec { index: name, fresh: if args.fresh.unwrap_or(false) { Fresh::Rebuild } else { Fresh::Keep } },
    )?;
    let note = if started {
        format!(
            "indexing {} in the background as {}; call index_status with job_id {:?} (wait_seconds up to 60 waits for the end) to follow it",
            job.root.display(),
            job.id,
            job.id
        )
    } else {
        format!(
            "{} is already being indexed by {}; call index_status with job_id {:?} to follow it",
            job.index, job.id, job.id
        )
    };
    let value = json!({ "project": project_json(&project), "started": started, "job": wire::job_json(&job.report()), "note": note });
    Ok((job, value))
}

/// Where `index_codebase(path)` may read, computed for this call: its client's roots and its
/// project (both already passed the project rule), the server's default project and the
/// indexed roots that pass the rule. Another session's `?project=` or roots never count.
fn allowed_roots(shared: &Workspace, hints: &Hints, detected: Option<&Project>) -> Result<Vec<PathBuf>, ToolError> {
    let mut allowed: Vec<PathBuf> = hints.roots.clone();
    allowed.extend(detected.map(|p| p.root.clone()));
    allowed.extend(shared.default_project.as_ref().map(|(root, _)| root.clone()));
    allowed.extend(shared.default_store()?.list_indexes()?.into_iter().map(|m| m.root));
    allowed.retain(|root| shared.dir_rule.check(root).is_ok());
    allowed.sort();
    allowed.dedup();
    Ok(allowed)
}

/// The job and index `index_status` is asked about, before any waiting.
pub(crate) struct StatusTarget {
    /// What the call reads, when it names an index rather than a job.
    pub target: Option<Target>,
    /// The index.
    pub index: String,
    /// Its latest job in this process.
    pub job: Option<Arc<Job>>,
    /// The project, when it was detected (not for a job id).
    pub project: Option<Project>,
}

/// `index_status`, first half: which job.
pub(crate) fn status_target(
    shared: &Arc<Workspace>,
    hints: &Hints,
    args: &IndexStatusArgs,
) -> Result<StatusTarget, ToolError> {
    if let Some(id) = &args.job_id {
        let job = shared.jobs.by_id(id.trim()).ok_or_else(|| {
            let known: Vec<String> = shared.jobs.all().iter().map(|j| format!("{} ({})", j.id, j.index)).collect();
            ToolError::new(format!(
                "no job {id:?} in this server — known jobs: {}",
                if known.is_empty() { "none".to_string() } else { known.join(", ") }
            ))
        })?;
        return Ok(StatusTarget { index: job.index.clone(), job: Some(job), project: None, target: None });
    }
    let target = shared.open(Caller::Client(hints), &IndexRef::from(args.index.clone()), Need::Project)?;
    let project = args.index.name().is_none().then(|| target.project.clone());
    Ok(StatusTarget {
        job: shared.jobs.latest(&target.index),
        index: target.index.clone(),
        project,
        target: Some(target),
    })
}

/// `index_status`, second half: the answer.
pub(crate) fn status(target: &StatusTarget) -> Result<Value, ToolError> {
    let mut value = json!({
        "index": target.index,
        "project": target.project.as_ref().map(project_json),
        "job": target.job.as_ref().map(|j| wire::job_json(&j.report())),
    });
    if let (None, Some(opened)) = (&target.job, &target.target) {
        let meta = opened.meta.as_ref();
        let runs = if meta.is_some() { opened.runs(1)? } else { Vec::new() };
        let last_run = runs.into_iter().next().map(|r| {
            json!({
                "kind": r.kind,
                "status": r.status,
                "started_at": humantime::format_rfc3339_seconds(r.started_at).to_string(),
                "finished_at": r.finished_at.map(|t| humantime::format_rfc3339_seconds(t).to_string()),
                "summary": r.summary,
            })
        });
        value["exists"] = json!(meta.is_some());
        value["last_run"] = last_run.unwrap_or(Value::Null);
        value["note"] = json!(match meta {
            Some(_) => "no index job started by this server for this index; last_run is the last recorded run",
            None => "this index does not exist yet — call index_codebase to create it",
        });
    }
    Ok(value)
}

/// `index_stats`.
pub(crate) fn index_stats(shared: &Arc<Workspace>, hints: &Hints, args: &IndexStatsArgs) -> Result<Value, ToolError> {
    let target = shared.open(Caller::Client(hints), &IndexRef::from(args.index.clone()), Need::Index)?;
    let failing = if args.include_failures.unwrap_or(false) { FAILING_FILES } else { 0 };
    let stats = target.stats(7, failing, Scan::Tree)?;
    let mut value = wire::stats_json(&stats);
    value["project"] = project_json(&target.project);
    if let Some(job) = shared.jobs.latest(&target.index).filter(|j| j.is_running()) {
        value["running_job"] = wire::job_json(&job.report());
    }
    Ok(value)
}

/// `list_indexes`.
pub(crate) fn list_indexes(shared: &Workspace) -> Result<Value, ToolError> {
    let indexes = shared.default_store()?.list_indexes()?;
    Ok(json!({ "indexes": indexes.iter().map(wire::index_json).collect::<Vec<_>>() }))
}

/// `clear_index`.
pub(crate) fn clear_index(shared: &Workspace, args: &ClearIndexArgs) -> Result<Value, ToolError> {
    let name = args.index_name.trim();
    validate_index_name(name).map_err(|m| ToolError::new(format!("index_name {name:?}: {m}")))?;
    delete_index(shared, name)?;
    Ok(json!({ "deleted": [name] }))
}
