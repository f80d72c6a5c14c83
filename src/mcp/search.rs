//! `search_code`: the project's indexes searched with [`Searcher`], shaped like
//! `cocosearch search --json`, plus which project and index were used and whether the index
//! is behind the files.
//!
//! Runs on a blocking thread (store and embedder calls).

use std::sync::Arc;

use serde_json::{Value, json};

use super::ToolError;
use super::project::project_json;
use super::tools::SearchCodeArgs;
use crate::wire::budget::{self, AGENT_MAX_TOKENS, Page};
use crate::wire::{self, HitForm};
use crate::workspace::project::Hints;
use crate::workspace::search::{Hit, SearchAnswer, Verdict, skipped};
use crate::workspace::stats::{Following, SearchFreshness};
use crate::workspace::{Caller, Workspace};

/// Runs `analyze_query`: the search `search_code` would run, with what each stage did
/// (`cocosearch analyze --json`).
pub(crate) fn analyze_query(shared: &Arc<Workspace>, hints: &Hints, args: SearchCodeArgs) -> Result<Value, ToolError> {
    let (project, request, analysis) =
        shared.analyze(Caller::Client(hints), &args.index, &args.query, &args.options)?;
    let mut value = wire::analysis_json(&request, &analysis);
    value["project"] = project_json(&project);
    Ok(value)
}

/// An answer as an agent reads it, and its JSON.
pub(crate) struct Readable {
    pub text: String,
    pub value: Value,
}

/// Runs `search_code`: the compact form (its text written for reading) unless `format` asks
/// for the full one (its text the JSON), within the call's token budget.
pub(crate) fn search_code(shared: &Arc<Workspace>, hints: &Hints, args: SearchCodeArgs) -> Result<Readable, ToolError> {
    let answer = shared.search(Caller::Client(hints), &args.index, &args.query, &args.options)?;
    let form = args.format.unwrap_or_default();
    let mut value = match form {
        HitForm::Compact => wire::compact_search_json(&answer),
        HitForm::Full => wire::search_answer_json(&answer),
    };
    value["project"] = project_json(&answer.project);
    value["notes"] = json!(notes_of(shared, &answer));
    let render = |v: &Value| match form {
        HitForm::Compact => wire::compact_search_text(v),
        HitForm::Full => v.to_string(),
    };
    let fit = wire::search_fit(skipped(&args.options), Some(&render));
    let max_tokens = args.options.page.max_tokens.unwrap_or(AGENT_MAX_TOKENS);
    budget::fit(&mut value, &fit, Page { max_tokens, offset: 0 });
    Ok(Readable { text: render(&value), value })
}

/// What the agent should know about a search's answer.
fn notes_of(shared: &Workspace, answer: &SearchAnswer) -> Vec<String> {
    let (request, response) = (&answer.request, &answer.response);
    let mut notes = notes(shared, &request.indexes, answer.freshness.as_ref(), &response.hits);
    if response.verdict == Verdict::NoGoodMatch && !response.hits.is_empty() {
        notes.push(NO_GOOD_MATCH.to_string());
    }
    notes.extend(answer.rewrite_note.clone());
    notes.extend(answer.grep_hint.clone());
    // A name's resolution says its own did-you-mean.
    if !answer.did_you_mean.is_empty() && answer.resolution.is_none() {
        notes.push(format!(
            "no symbol or word of the index is spelled so — did you mean {}?",
            answer.did_you_mean.join(", ")
        ));
    }
    notes
}

/// What an agent is told when nothing matches: it can stop looking here.
const NO_GOOD_MATCH: &str = "no good match: no indexed code holds these words or defines this name; the results are only the nearest chunks — try other words, or stop looking here";

/// Short sentences for the agent: staleness, running jobs, empty results.
fn notes(shared: &Workspace, indexes: &[String], freshness: Option<&SearchFreshness>, hits: &[Hit]) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(fresh) = freshness
        && fresh.pending_embeddings > 0
    {
        let by = if fresh.watcher.is_some() { "in the background" } else { "by the next index_codebase" };
        notes.push(format!(
            "{} chunks of {} await vectors (computed {by}): they are found by keyword only until then",
            fresh.pending_embeddings, fresh.index
        ));
    }
    if let Some(fresh) = freshness
        && let Some(w) = fresh.watcher.as_ref().filter(|w| w.following == Following::Live)
    {
        notes.push(format!("{} is kept fresh by {}: edits show up within a second", fresh.index, w.process));
    }
    if let Some(fresh) = freshness
        && wire::search_freshness_state(fresh) != "live"
        && fresh.freshness.stale
    {
        let f = &fresh.freshness;
        let mut behind = Vec::new();
        for (count, what) in [(f.added.count, "added"), (f.modified.count, "modified"), (f.removed.count, "removed")] {
            if count > 0 {
                behind.push(format!("{count} files {what}"));
            }
        }
        if f.commit_drift {
            behind.push("HEAD moved to another commit".into());
        }
        if f.branch_drift {
            behind.push("another branch is checked out".into());
        }
        if f.stale_by_age {
            behind.push(format!("last indexed {} days ago", f.age_days.unwrap_or_default()));
        }
        notes.push(format!(
            "index {} is behind the files ({}) — results may miss or misplace recent code; call index_codebase to refresh it",
            indexes[0],
            behind.join(", ")
        ));
    }
    let stale_hits = hits.iter().filter(|h| h.stale).count();
    if stale_hits > 0 {
        notes.push(format!(
            "{stale_hits} result(s) come from files changed since indexing (marked stale; their lines may have moved)"
        ));
    }
    for index in indexes {
        if let Some(job) = shared.jobs.latest(index).filter(|j| j.is_running()) {
            notes.push(format!("{} is being indexed right now ({}, {:.0}%)", index, job.id, job.percent()));
        }
    }
    if hits.is_empty() {
        notes.push(
            "no results — try describing the code in plain words, drop filters, or check index_stats for what is indexed"
                .into(),
        );
    }
    notes
}
