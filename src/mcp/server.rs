//! The MCP handler: server info, `tools/list`, `tools/call` dispatch, and the client's roots.
//!
//! One [`CocoServer`] serves one client connection (the stdio peer, or one HTTP session);
//! what all of them share lives in [`Workspace`]. A call first gathers its [`Hints`] — the
//! client's roots and the HTTP `?project=` — in the async task, then does its work on a
//! blocking thread.
//!
//! Roots come two ways, by protocol version (rmcp gotcha G7): up to 2025-11-25 the server
//! asks the client with a `roots/list` request and keeps the answer for the session until
//! `notifications/roots/list_changed`; from 2026-07-28 the server may not send requests, so a
//! call returns an `InputRequiredResult` asking for the roots and the client retries with them.

// Roots are deprecated by SEP-2577 in favour of per-request context, but they are how every
// current client (Claude Code, Cursor, VS Code) names its workspace.
#![allow(deprecated, reason = "roots (SEP-2577) are how every current client names its workspace; see above")]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, InputRequest, InputRequests,
    InputRequiredResult, InputResponses, ListRootsRequest, ListRootsResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::sessions::Sessions;
use super::tools::{self, MAX_WAIT_SECONDS};
use super::{ToolError, graph, grep, listing, manage, progress, project, search, tasks};
use crate::workspace::Workspace;
use crate::workspace::graph::SourceKind;
use crate::workspace::jobs::Job;
use crate::workspace::project::{Hints, confine_roots};

/// The key of the roots request in an `InputRequiredResult` (and of the client's answer).
const ROOTS_KEY: &str = "roots";
/// How long a `roots/list` request may take before the call goes on without roots.
const ROOTS_TIMEOUT: Duration = Duration::from_secs(5);

/// The handler of one client connection.
pub(crate) struct CocoServer {
    shared: Arc<Workspace>,
    /// The client's roots as answered to `roots/list` (protocols up to 2025-11-25), kept for
    /// the session until the client says they changed.
    roots: tokio::sync::Mutex<Option<(Vec<std::path::PathBuf>, Vec<String>)>>,
    /// How it learns that its client has left: rmcp lets calls in flight run on then, so long
    /// ones watch this to stop early.
    departure: Departure,
}

/// How a handler learns that its client has left.
pub(crate) enum Departure {
    /// stdio: cancelled at the end of stdin.
    Connection(CancellationToken),
    /// HTTP: the call's session closes (`DELETE /mcp`, idle expiry) or the server stops.
    Session { sessions: Arc<Sessions>, stopping: CancellationToken },
}

impl Departure {
    /// The tokens cancelled when the client of the call in `ctx` leaves.
    fn tokens(&self, ctx: &RequestContext<RoleServer>) -> (CancellationToken, Option<CancellationToken>) {
        match self {
            Departure::Connection(left) => (left.clone(), None),
            Departure::Session { sessions, stopping } => {
                let parts = ctx.extensions.get::<axum::http::request::Parts>();
                let id = parts.and_then(|p| p.headers.get("mcp-session-id")).and_then(|v| v.to_str().ok());
                (stopping.clone(), id.and_then(|id| sessions.departure(id)))
            }
        }
    }
}

impl CocoServer {
    /// A handler for one connection.
    pub fn new(shared: Arc<Workspace>, departure: Departure) -> CocoServer {
        CocoServer { shared, roots: tokio::sync::Mutex::new(None), departure }
    }

    /// The tool groups listed besides the everyday tools (`mcp.tools`).
    fn tool_groups(&self) -> &[crate::config::ToolGroup] {
        &self.shared.options.config.settings.mcp.tools
    }

    /// The client's roots that pass the project rule and the HTTP `?project=`, or the request
    /// to send the roots first.
    async fn hints(
        &self,
        ctx: &RequestContext<RoleServer>,
        responses: Option<&InputResponses>,
        want_roots: bool,
    ) -> Result<Hints, InputRequiredResult> {
        let mut hints = self.raw_hints(ctx, responses, want_roots).await?;
        confine_roots(&self.shared, &mut hints);
        Ok(hints)
    }

    /// What the transport and the client said, unchecked.
    async fn raw_hints(
        &self,
        ctx: &RequestContext<RoleServer>,
        responses: Option<&InputResponses>,
        want_roots: bool,
    ) -> Result<Hints, InputRequiredResult> {
        let query = ctx.extensions.get::<axum::http::request::Parts>().and_then(|parts| parts.uri.query());
        let mut hints = Hints { query_project: project::query_project(query), ..Hints::default() };
        if !want_roots {
            return Ok(hints);
        }
        let client_has_roots = ctx.client_capabilities().and_then(|c| c.roots).is_some();
        let stateless = ctx.protocol_version().is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
        if stateless {
            if let Some(answer) = responses.and_then(|r| r.get(ROOTS_KEY)) {
                let uris = serde_json::from_value::<ListRootsResult>(answer.clone())
                    .map(|r| r.roots.into_iter().map(|root| root.uri).collect::<Vec<_>>())
                    .unwrap_or_default();
                (hints.roots, hints.ignored_roots) = project::parse_roots(uris.iter().map(String::as_str));
            } else if client_has_roots {
                let mut requests = InputRequests::new();
                requests.insert(ROOTS_KEY.into(), InputRequest::ListRoots(ListRootsRequest::default()));
                return Err(InputRequiredResult::new(Some(requests), Some(ROOTS_KEY.into())));
            }
            return Ok(hints);
        }
        if !client_has_roots {
            return Ok(hints);
        }
        let mut cached = self.roots.lock().await;
        if cached.is_none() {
            let answer = tokio::time::timeout(ROOTS_TIMEOUT, ctx.peer.list_roots()).await;
            *cached = Some(match answer {
                Ok(Ok(result)) => project::parse_roots(result.roots.iter().map(|r| r.uri.as_str())),
                Ok(Err(e)) => (Vec::new(), vec![format!("roots/list failed: {e}")]),
                Err(_) => (Vec::new(), vec!["roots/list got no answer".to_string()]),
            });
        }
        if let Some((roots, ignored)) = cached.as_ref() {
            hints.roots = roots.clone();
            hints.ignored_roots = ignored.clone();
        }
        Ok(hints)
    }

    /// Runs the tool a call names.
    async fn dispatch(&self, request: CallToolRequestParams, ctx: RequestContext<RoleServer>) -> Outcome {
        let name = request.name.to_string();
        let call =
            Call { ctx: &ctx, responses: request.input_responses.as_ref(), arguments: request.arguments.clone() };
        let outcome = match name.as_str() {
            "search_code" | "analyze_query" => self.search_code(call, &name).await,
            "grep_code" | "search_codebase" => self.grep_code(call, &name).await,
            "index_codebase" => self.index_codebase(call, &name).await,
            "index_status" => self.index_status(call, &name).await,
            "index_stats" | "list_indexes" | "clear_index" => self.manage(call, &name).await,
            "find_symbol" | "get_dependents" | "get_dependencies" => self.symbol_tool(call, &name).await,
            "get_change_impact" | "get_call_chain" => self.path_tool(call, &name).await,
            "get_file_dependencies" | "get_file_dependents" | "get_file_impact" | "get_file_structure" => {
                self.file_tool(call, &name).await
            }
            "get_function_source" | "get_class_source" => self.source_tool(call, &name).await,
            "create_task" | "get_task" | "list_tasks" | "update_task" | "search_tasks" => {
                self.task_tool(call, &name).await
            }
            _ => return Outcome::UnknownTool(name),
        };
        outcome.unwrap_or_else(|early| *early)
    }

    /// `search_code`, and `analyze_query` (the same arguments).
    async fn search_code(&self, call: Call<'_>, name: &str) -> Result<Outcome, Early> {
        let args: tools::SearchCodeArgs = call.args(name)?;
        let hints =
            self.call_hints(&call, args.index.name().is_none() && args.options.indexes.index_names.is_empty()).await?;
        let shared = Arc::clone(&self.shared);
        if name == "analyze_query" {
            return Ok(Outcome::Done(
                blocking(&self.shared, move || search::analyze_query(&shared, &hints, args)).await,
            ));
        }
        Ok(Outcome::Read(blocking(&self.shared, move || search::search_code(&shared, &hints, args)).await))
    }

    /// `grep_code`, and its alias `search_codebase`.
    async fn grep_code(&self, call: Call<'_>, name: &str) -> Result<Outcome, Early> {
        let args: tools::GrepCodeArgs = call.args(name)?;
        let hints = self.call_hints(&call, true).await?;
        let shared = Arc::clone(&self.shared);
        Ok(Outcome::Done(blocking(&self.shared, move || grep::grep_code(&shared, &hints, args)).await))
    }

    /// `index_codebase`: starts the job, and follows it with progress notifications when the
    /// call carries a progress token.
    async fn index_codebase(&self, call: Call<'_>, name: &str) -> Result<Outcome, Early> {
        let args: tools::IndexCodebaseArgs = call.args(name)?;
        let hints = self.call_hints(&call, true).await?;
        let shared = Arc::clone(&self.shared);
        let started = blocking(&self.shared, move || manage::index_codebase(&shared, &hints, &args)).await;
        if let (Ok((job, _)), Some(token)) = (&started, call.ctx.meta.get_progress_token()) {
            // The first notification goes out before the answer; the rest follow the job.
            let peer = call.ctx.peer.clone();
            let percent = job.percent();
            let note = rmcp::model::ProgressNotificationParam::new(token.clone(), percent)
                .with_total(100.0)
                .with_message(job.message());
            if peer.notify_progress(note).await.is_ok() {
                tokio::spawn(progress::notify(Arc::clone(job), peer, token, Some(percent), None));
            }
        }
        Ok(Outcome::Done(started.map(|(_, value)| value)))
    }

    /// `index_status`: finds the job, waits for it up to `wait_seconds`, answers.
    async fn index_status(&self, call: Call<'_>, name: &str) -> Result<Outcome, Early> {
        let args: tools::IndexStatusArgs = call.args(name)?;
        let hints = self.call_hints(&call, args.index.name().is_none() && args.job_id.is_none()).await?;
        let wait = Duration::from_secs(args.wait_seconds.unwrap_or(0).min(MAX_WAIT_SECONDS).into());
        let shared = Arc::clone(&self.shared);
        let target = blocking(&self.shared, move || manage::status_target(&shared, &hints, &args)).await;
        let target = match target {
            Ok(target) => target,
            Err(e) => return Ok(Outcome::Done(Err(e))),
        };
        if let Some(job) = target.job.clone().filter(|j| j.is_running() && !wait.is_zero()) {
            self.wait_for(call.ctx, job, wait).await;
        }
        Ok(Outcome::Done(blocking(&self.shared, move || manage::status(&target)).await))
    }

    /// `index_stats`, `list_indexes` and `clear_index`.
    async fn manage(&self, call: Call<'_>, name: &str) -> Result<Outcome, Early> {
        let shared = Arc::clone(&self.shared);
        let result = match name {
            "index_stats" => {
                let args: tools::IndexStatsArgs = call.args(name)?;
                let hints = self.call_hints(&call, args.index.name().is_none()).await?;
                blocking(&self.shared, move || manage::index_stats(&shared, &hints, &args)).await
            }
            "list_indexes" => {
                let _: tools::ListIndexesArgs = call.args(name)?;
                blocking(&self.shared, move || manage::list_indexes(&shared)).await
            }
            _ => {
                let args: tools::ClearIndexArgs = call.args(name)?;
                blocking(&self.shared, move || manage::clear_index(&shared, &args)).await
            }
        };
        Ok(Outcome::Done(result))
    }

    /// `find_symbol`, `get_dependents` and `get_dependencies`.
    async fn symbol_tool(&self, call: Call<'_>, name: &str) -> Result<Outcome, Early> {
        let args: tools::SymbolToolArgs = call.args(name)?;
        let hints = self.call_hints(&call, args.index.name().is_none()).await?;
        let (shared, tool) = (Arc::clone(&self.shared), name.to_string());
        Ok(Outcome::Done(
            blocking(&self.shared, move || match tool.as_str() {
                "find_symbol" => graph::find_symbol(&shared, &hints, args),
                "get_dependents" => graph::get_dependents(&shared, &hints, args),
                _ => graph::get_dependencies(&shared, &hints, args),
            })
            .await,
        ))
    }

    /// `get_change_impact` and `get_call_chain`.
    async fn path_tool(&self, call: Call<'_>, name: &str) -> Result<Outcome, Early> {
        let shared = Arc::clone(&self.shared);
        let result = if name == "get_change_impact" {
            let args: tools::ChangeImpactArgs = call.args(name)?;
            let hints = self.call_hints(&call, args.index.name().is_none()).await?;
            blocking(&self.shared, move || graph::get_change_impact(&shared, &hints, args)).await
        } else {
            let args: tools::CallChainArgs = call.args(name)?;
            let hints = self.call_hints(&call, args.index.name().is_none()).await?;
            // The search stops early when nobody waits for it: the client cancels the call or
            // its session ends (the call's token), the client leaves the connection, or this
            // future is dropped (shutdown).
            let gone = Arc::new(AtomicBool::new(false));
            let _on_drop = SetOnDrop(Arc::clone(&gone));
            let (token, watched) = (call.ctx.ct.clone(), Arc::clone(&gone));
            let (left, session_left) = self.departure.tokens(call.ctx);
            let watcher = tokio::spawn(async move {
                let session_closed = async {
                    match session_left {
                        Some(closed) => closed.cancelled().await,
                        None => std::future::pending().await,
                    }
                };
                tokio::select! {
                    _ = token.cancelled() => {}
                    _ = left.cancelled() => {}
                    _ = session_closed => {}
                }
                watched.store(true, Ordering::Relaxed);
            });
            let flag = Arc::clone(&gone);
            let result = blocking(&self.shared, move || graph::get_call_chain(&shared, &hints, args, &flag)).await;
            watcher.abort();
            result
        };
        Ok(Outcome::Done(result))
    }

    /// `get_file_dependencies`, `get_file_dependents` (`get_file_impact`) and
    /// `get_file_structure`.
    async fn file_tool(&self, call: Call<'_>, name: &str) -> Result<Outcome, Early> {
        let args: tools::FileToolArgs = call.args(name)?;
        let hints = self.call_hints(&call, args.index.name().is_none()).await?;
        let (shared, tool) = (Arc::clone(&self.shared), name.to_string());
        Ok(Outcome::Done(
            blocking(&self.shared, move || match tool.as_str() {
                "get_file_dependencies" => graph::get_file_dependencies(&shared, &hints, args),
                "get_file_structure" => graph::get_file_structure(&shared, &hints, args),
                _ => graph::get_file_dependents(&shared, &hints, args),
            })
            .await,
        ))
    }

    /// `get_function_source` and `get_class_source`.
    async fn source_tool(&self, call: Call<'_>, name: &str) -> Result<Outcome, Early> {
        let args: tools::SourceArgs = call.args(name)?;
        let hints = self.call_hints(&call, args.index.name().is_none()).await?;
        let kind = if name == "get_class_source" { SourceKind::Class } else { SourceKind::Function };
        let shared = Arc::clone(&self.shared);
        Ok(Outcome::Done(blocking(&self.shared, move || graph::get_source(&shared, &hints, args, kind)).await))
    }

    /// `create_task`, `get_task`, `list_tasks`, `update_task` and `search_tasks`.
    async fn task_tool(&self, call: Call<'_>, name: &str) -> Result<Outcome, Early> {
        let shared = Arc::clone(&self.shared);
        let result = match name {
            "create_task" => {
                let args: tools::CreateTaskArgs = call.args(name)?;
                let hints = self.call_hints(&call, args.index.name().is_none()).await?;
                blocking(&self.shared, move || tasks::create_task(&shared, &hints, args)).await
            }
            "get_task" => {
                let args: tools::GetTaskArgs = call.args(name)?;
                let hints = self.call_hints(&call, args.index.name().is_none()).await?;
                blocking(&self.shared, move || tasks::get_task(&shared, &hints, args)).await
            }
            "list_tasks" => {
                let args: tools::ListTasksArgs = call.args(name)?;
                let hints = self.call_hints(&call, args.index.name().is_none()).await?;
                blocking(&self.shared, move || tasks::list_tasks(&shared, &hints, args)).await
            }
            "update_task" => {
                let args: tools::UpdateTaskArgs = call.args(name)?;
                let hints = self.call_hints(&call, args.index.name().is_none()).await?;
                blocking(&self.shared, move || tasks::update_task(&shared, &hints, args)).await
            }
            _ => {
                let args: tools::SearchTasksArgs = call.args(name)?;
                let hints = self.call_hints(&call, args.index.name().is_none()).await?;
                blocking(&self.shared, move || tasks::search_tasks(&shared, &hints, args)).await
            }
        };
        Ok(Outcome::Done(result))
    }

    /// [`Self::hints`] for a call; asking the client for its roots ends the call early.
    async fn call_hints(&self, call: &Call<'_>, want_roots: bool) -> Result<Hints, Early> {
        self.hints(call.ctx, call.responses, want_roots).await.map_err(|input| Box::new(Outcome::InputRequired(input)))
    }

    /// Waits up to `wait` for `job` to end, sending progress if the call has a token.
    async fn wait_for(&self, ctx: &RequestContext<RoleServer>, job: Arc<Job>, wait: Duration) {
        let deadline = tokio::time::Instant::now() + wait;
        let waiting = async {
            if let Some(token) = ctx.meta.get_progress_token() {
                progress::notify(Arc::clone(&job), ctx.peer.clone(), token, None, Some(wait)).await;
            }
            let _ = tokio::time::timeout_at(deadline, job.wait()).await;
        };
        tokio::select! {
            _ = waiting => {}
            _ = ctx.ct.cancelled() => {}
        }
    }
}

/// One tool call's request, as the tools read it.
struct Call<'a> {
    ctx: &'a RequestContext<RoleServer>,
    responses: Option<&'a InputResponses>,
    arguments: Option<rmcp::model::JsonObject>,
}

impl Call<'_> {
    /// The call's arguments parsed for tool `name`; a mismatch ends the call with the error.
    fn args<T: serde::de::DeserializeOwned>(&self, name: &str) -> Result<T, Early> {
        tools::parse(name, self.arguments.clone()).map_err(|e| Box::new(Outcome::Done(Err(e))))
    }
}

/// Sets its flag when dropped: a call's future dropped before its work ended (the server
/// shutting down) tells the work that nobody waits for it.
struct SetOnDrop(Arc<AtomicBool>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A call that ended before its tool ran: bad arguments, or the roots asked for first.
type Early = Box<Outcome>;

/// What a tool call came to.
enum Outcome {
    Done(Result<Value, ToolError>),
    /// An answer whose text is written for reading, with its JSON as the structured result.
    Read(Result<search::Readable, ToolError>),
    InputRequired(InputRequiredResult),
    UnknownTool(String),
}

/// Runs blocking work (store, embedder, file system) off the async workers.
async fn blocking<T: Send + 'static>(
    workspace: &Workspace,
    work: impl FnOnce() -> Result<T, ToolError> + Send + 'static,
) -> Result<T, ToolError> {
    workspace.blocking(work).await.unwrap_or_else(|e| Err(e))
}

/// Every tool, with its whole schema, built once: what a call may name.
fn every_tool() -> &'static [Tool] {
    static TOOLS: OnceLock<Vec<Tool>> = OnceLock::new();
    TOOLS.get_or_init(|| tools::tools().into_iter().map(|(tool, _)| tool).collect())
}

impl ServerHandler for CocoServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("cocosearch", env!("CARGO_PKG_VERSION")))
            .with_instructions(listing::instructions(self.tool_groups()))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(listing::listed(self.tool_groups())))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        every_tool().iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let tool = request.name.to_string();
        let started = std::time::Instant::now();
        let outcome = self.dispatch(request, ctx).await;
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        match outcome {
            Outcome::Done(Ok(value)) => {
                tracing::debug!(tool, ms, "tool call done");
                Ok(CallToolResult::structured(value).into())
            }
            Outcome::Read(Ok(answer)) => {
                tracing::debug!(tool, ms, "tool call done");
                let mut result = CallToolResult::success(vec![ContentBlock::text(answer.text)]);
                result.structured_content = Some(answer.value);
                Ok(result.into())
            }
            Outcome::Done(Err(e)) | Outcome::Read(Err(e)) => {
                tracing::info!(tool, ms, error = %e.message, "tool call failed");
                Ok(CallToolResult::error(vec![ContentBlock::text(e.message)]).into())
            }
            Outcome::InputRequired(input) => Ok(input.into()),
            Outcome::UnknownTool(name) => Err(ErrorData::invalid_params(
                format!(
                    "unknown tool {name:?} — the tools are {}",
                    every_tool().iter().map(|t| t.name.as_ref()).collect::<Vec<_>>().join(", ")
                ),
                None,
            )),
        }
    }

    async fn on_roots_list_changed(&self, _ctx: NotificationContext<RoleServer>) {
        *self.roots.lock().await = None;
    }
}
