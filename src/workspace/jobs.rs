//! Background index jobs: a job runs [`crate::index::run_locked`] on a thread of its own and
//! its starter returns at once (MCP clients time out on long calls; a browser follows the
//! progress); anyone may read the job's live [`Progress`] counters and, once it is over, its
//! [`Summary`] or error.
//!
//! One job per index at a time: asking again while one runs returns the running job; the
//! finished jobs kept are bounded ([`KEPT_FINISHED`]). The MCP tools and the dashboard start
//! and follow the same jobs; how progress reaches a client is theirs.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use tokio::sync::watch;

use super::Error;
use crate::index::{IndexRequest, Phase, Progress, Summary};
use crate::store::StoreError;

/// How long shutdown waits for running jobs to stop cleanly.
const STOP_GRACE: Duration = Duration::from_secs(15);
/// Finished jobs remembered, newest kept: a long-lived server re-indexing on every request
/// must not grow without end.
pub const KEPT_FINISHED: usize = 64;

/// What a job reports at one moment.
pub struct JobReport<'a> {
    /// `job-N`.
    pub id: &'a str,
    /// The index.
    pub index: &'a str,
    /// The directory indexed.
    pub root: &'a Path,
    /// Whether the index is rebuilt from nothing.
    pub fresh: bool,
    /// `running`, `completed`, `interrupted` or `failed`.
    pub state: &'static str,
    /// The run's phase.
    pub phase: Phase,
    /// Progress in percent.
    pub percent: f64,
    /// One line for people.
    pub message: String,
    /// When it started.
    pub started_at: SystemTime,
    /// How long it has run.
    pub elapsed: Duration,
    /// The live counters.
    pub progress: &'a Progress,
    /// How it ended, once it has.
    pub outcome: Option<JobOutcome>,
}

/// How a job ended.
#[derive(Debug, Clone)]
pub enum JobOutcome {
    /// The run finished (completed or interrupted).
    Finished(Box<Summary>),
    /// The run failed; why.
    Failed(String),
}

/// How a job ended.
#[derive(Debug, Clone)]
enum Outcome {
    Finished(Box<Summary>),
    Failed(String),
}

/// One index run started by this server.
pub struct Job {
    /// `job-N`, unique within the process.
    pub id: String,
    /// The index.
    pub index: String,
    /// The directory indexed.
    pub root: PathBuf,
    /// Whether the index was rebuilt from nothing.
    pub fresh: bool,
    started_at: SystemTime,
    started: Instant,
    progress: Arc<Progress>,
    cancel: Arc<AtomicBool>,
    outcome: Mutex<Option<Outcome>>,
    done: watch::Sender<bool>,
}

/// Everything a job needs to run; moved to its thread.
pub struct Work {
    /// The index.
    pub index: String,
    /// The project root.
    pub root: PathBuf,
    /// The project's settings.
    pub settings: crate::config::Settings,
    /// Delete the index first.
    pub fresh: bool,
    /// The store.
    pub store: Arc<dyn crate::store::Store>,
    /// The embedder, if embeddings are on.
    pub embedder: Option<Arc<dyn crate::embed::Embedder>>,
    /// The team's shared index the run leaves unchanged files to, if one is configured.
    pub shared: Option<crate::index::shared::SharedBase>,
}

/// How long starting a job waits for the index's write lock: longer than a watcher's step,
/// shorter than a tool call should take.
const WRITER_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The jobs of this process, oldest first.
#[derive(Default)]
pub struct Jobs {
    next: AtomicU64,
    jobs: Mutex<Vec<Arc<Job>>>,
}

impl Jobs {
    /// Starts indexing on its own thread, unless a job for the same index is running: then
    /// that job is returned with `false`. `finished` runs on the job's thread at the end.
    ///
    /// The index's write lock is taken here, before the job exists, so an index that another
    /// run is writing (or deleting) is refused in the tool call itself (a watcher's short steps
    /// are waited for, up to [`WRITER_WAIT`]); the job holds the lock until it ends. This blocks on the store: call it from a blocking thread.
    pub fn start(&self, work: Work, finished: impl FnOnce(&str) + Send + 'static) -> Result<(Arc<Job>, bool), Error> {
        if let Some(running) = self.running(&work.index) {
            return Ok((running, false));
        }
        // A watcher of this or another process lets go of the lock between its short steps.
        let patience = crate::store::Patience::Within(WRITER_WAIT);
        let writer = match crate::store::writer_when_free(work.store.as_ref(), &work.index, patience, &mut || {}) {
            Ok(writer) => writer,
            // A job of this server that started since the check above holds it.
            Err(e @ StoreError::Busy(_)) => return self.running(&work.index).map(|j| (j, false)).ok_or(e.into()),
            Err(e) => return Err(e.into()),
        };
        let mut jobs = self.jobs.lock().unwrap_or_else(PoisonError::into_inner);
        let n = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let (done, _) = watch::channel(false);
        let job = Arc::new(Job {
            id: format!("job-{n}"),
            index: work.index.clone(),
            root: work.root.clone(),
            fresh: work.fresh,
            started_at: SystemTime::now(),
            started: Instant::now(),
            progress: Arc::new(Progress::default()),
            cancel: Arc::new(AtomicBool::new(false)),
            outcome: Mutex::new(None),
            done,
        });
        let thread_job = Arc::clone(&job);
        let spawned = std::thread::Builder::new().name(format!("cocosearch-{}", job.id)).spawn(move || {
            let result = crate::index::run_locked(
                work.store.as_ref(),
                &IndexRequest {
                    name: work.index.clone(),
                    root: work.root.clone(),
                    settings: &work.settings,
                    fresh: work.fresh,
                    embedder: work.embedder.as_deref(),
                    progress: Arc::clone(&thread_job.progress),
                    cancel: Arc::clone(&thread_job.cancel),
                    scope: crate::index::Scope::FullWalk,
                    vectors: crate::index::VectorPhase::InRun,
                    snapshot: None,
                    shared: work.shared.clone(),
                },
                writer.as_ref(),
            );
            drop(writer);
            let outcome = match result {
                Ok(summary) => Outcome::Finished(Box::new(summary)),
                Err(e) => Outcome::Failed(e.to_string()),
            };
            match &outcome {
                Outcome::Finished(s) => {
                    tracing::info!(job = %thread_job.id, index = %s.index, status = %s.status, "index job ended")
                }
                Outcome::Failed(e) => tracing::warn!(job = %thread_job.id, error = %e, "index job failed"),
            }
            *thread_job.outcome.lock().unwrap_or_else(PoisonError::into_inner) = Some(outcome);
            finished(&work.index);
            // Before the job says it is done, so a finished job has given its memory back.
            release_freed_memory();
            thread_job.done.send_replace(true);
        });
        spawned.map_err(|e| Error::new(format!("cannot start the index job: {e}")))?;
        jobs.push(Arc::clone(&job));
        let finished = jobs.iter().filter(|j| !j.is_running()).count();
        let mut forget = finished.saturating_sub(KEPT_FINISHED);
        jobs.retain(|j| {
            let drop = forget > 0 && !j.is_running();
            forget -= usize::from(drop);
            !drop
        });
        Ok((job, true))
    }

    /// The running job of `index`, if any.
    fn running(&self, index: &str) -> Option<Arc<Job>> {
        self.jobs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .rev()
            .find(|j| j.index == index && j.is_running())
            .cloned()
    }

    /// The most recent job of `index`.
    pub fn latest(&self, index: &str) -> Option<Arc<Job>> {
        self.jobs.lock().unwrap_or_else(PoisonError::into_inner).iter().rev().find(|j| j.index == index).cloned()
    }

    /// The job with this id.
    pub fn by_id(&self, id: &str) -> Option<Arc<Job>> {
        self.jobs.lock().unwrap_or_else(PoisonError::into_inner).iter().find(|j| j.id == id).cloned()
    }

    /// Every job, oldest first.
    pub fn all(&self) -> Vec<Arc<Job>> {
        self.jobs.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Asks every running job to stop after its current batch and waits a little for them,
    /// so their runs are recorded as interrupted rather than left running.
    pub async fn stop_all(&self) {
        let running: Vec<Arc<Job>> = self.all().into_iter().filter(|j| j.is_running()).collect();
        for job in &running {
            job.cancel.store(true, Ordering::SeqCst);
        }
        for job in running {
            let _ = tokio::time::timeout(STOP_GRACE, job.wait()).await;
        }
    }
}

impl Job {
    /// Whether the run is still going.
    pub fn is_running(&self) -> bool {
        !*self.done.borrow()
    }

    /// Resolves when the job is over.
    pub async fn wait(&self) {
        let mut rx = self.done.subscribe();
        let _ = rx.wait_for(|done| *done).await;
    }

    /// Progress in percent: a monotone estimate across the phases.
    pub fn percent(&self) -> f64 {
        let p = &self.progress;
        let get = Progress::get;
        let ratio = |done: u64, total: u64| if total == 0 { 0.0 } else { (done as f64 / total as f64).min(1.0) };
        let percent = match p.phase() {
            Phase::Starting => 0.0,
            Phase::Discovering => 1.0,
            // The first phase is fast; with an embedder the vectors take most of the time.
            Phase::Indexing => 2.0 + 18.0 * ratio(get(&p.written), get(&p.to_index)),
            Phase::Embedding => 20.0 + 79.0 * ratio(get(&p.embedded), get(&p.to_embed)),
            Phase::Optimizing => 99.0,
            Phase::Finished => 100.0,
        };
        if self.is_running() { percent.min(99.0) } else { 100.0 }
    }

    /// One line for people: phase and counters.
    pub fn message(&self) -> String {
        let p = &self.progress;
        let get = Progress::get;
        match (self.is_running(), p.phase()) {
            (false, _) => format!("{}: {}", self.index, self.state()),
            (true, Phase::Starting) => format!("{}: starting", self.index),
            (true, Phase::Discovering) => {
                format!("{}: walking the tree, {} files found", self.index, get(&p.discovered))
            }
            (true, Phase::Indexing | Phase::Finished) => format!(
                "{}: {}/{} files written, {} chunks",
                self.index,
                get(&p.written),
                get(&p.to_index),
                get(&p.chunks),
            ),
            (true, Phase::Embedding) => {
                let eta =
                    p.eta().map_or_else(String::new, |d| format!(", about {} left", crate::index::human_duration(d)));
                format!(
                    "{}: every file is searchable by keyword; computing vectors, {}/{}{eta}",
                    self.index,
                    get(&p.embedded),
                    get(&p.to_embed)
                )
            }
            (true, Phase::Optimizing) => format!("{}: organising vectors for search", self.index),
        }
    }

    /// `running`, `completed`, `interrupted` or `failed`.
    pub fn state(&self) -> &'static str {
        match &*self.outcome.lock().unwrap_or_else(PoisonError::into_inner) {
            None => "running",
            Some(Outcome::Finished(s)) => s.status.as_str(),
            Some(Outcome::Failed(_)) => "failed",
        }
    }

    /// What the job reports now; its JSON is `wire::job_json`.
    pub fn report(&self) -> JobReport<'_> {
        let outcome = self.outcome.lock().unwrap_or_else(PoisonError::into_inner).clone();
        JobReport {
            id: &self.id,
            index: &self.index,
            root: &self.root,
            fresh: self.fresh,
            state: self.state(),
            phase: self.progress.phase(),
            percent: self.percent(),
            message: self.message(),
            started_at: self.started_at,
            elapsed: self.started.elapsed(),
            progress: &self.progress,
            outcome: outcome.map(|o| match o {
                Outcome::Finished(summary) => JobOutcome::Finished(summary),
                Outcome::Failed(error) => JobOutcome::Failed(error),
            }),
        }
    }
}

/// Gives the memory an index run has freed back to the operating system. glibc keeps freed
/// heap in its arenas for reuse, and an index run is by far the largest burst of allocation a
/// server makes: after indexing the Python standard library in the server, it idled at about
/// 100 MB, of which about 50 MB was such freed memory (`scripts/mcp_idle_memory.py --index
/// fresh`). Limiting the number of arenas (`MALLOC_ARENA_MAX`) kept most of it (78–94 MB).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn release_freed_memory() {
    // SAFETY: `malloc_trim` takes no pointers; it only walks glibc's own arenas, under their
    // locks, and may be called from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Other allocators return memory on their own terms: nothing to do.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn release_freed_memory() {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{BackendSetting, Config, Env, Provider, Request};

    #[test]
    fn finished_jobs_are_forgotten_past_the_bound() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("project");
        std::fs::create_dir_all(root.join(".git")).expect("mkdir");
        std::fs::write(root.join("a.py"), "def a():\n    return 1\n").expect("write");
        let env = Env::default();
        let mut settings = Config::resolve(&Request { config_file: None, cwd: &root, overrides: &[], env: &env })
            .expect("config")
            .settings;
        settings.database.backend = BackendSetting::Sqlite;
        settings.database.path = Some(dir.path().join("store"));
        settings.embedding.provider = Provider::None;
        let store = crate::store::open(&settings.database).expect("open").store;
        store.migrate().expect("migrate");
        let jobs = Jobs::default();
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        for _ in 0..KEPT_FINISHED + 6 {
            let work = Work {
                index: "bounded".into(),
                root: root.clone(),
                settings: settings.clone(),
                fresh: false,
                store: Arc::clone(&store),
                embedder: None,
                shared: None,
            };
            let (job, started) = jobs.start(work, |_| {}).expect("start");
            assert!(started);
            runtime.block_on(job.wait());
            assert_eq!(job.state(), "completed", "{}", crate::wire::job_json(&job.report()));
        }
        // The bound is applied when a job starts: the newest finished ones are kept, ids stay unique.
        let all = jobs.all();
        assert_eq!(all.len(), KEPT_FINISHED + 1);
        assert_eq!(all.last().map(|j| j.id.as_str()), Some(format!("job-{}", KEPT_FINISHED + 6).as_str()));
        assert!(jobs.by_id("job-1").is_none());
    }
}
