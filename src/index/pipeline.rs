//! The first phase of an index run, its stages connected by bounded channels:
//!
//! ```text
//! work ──► parse (rayon, all cores) ──► group ──► write (1 tx per group)
//! ```
//!
//! Each stage holds at most a few groups of files, so memory is bounded whatever the
//! repository size; parsing and writing overlap. Chunks are written without vectors (a chunk
//! whose text already has one in the index reuses it in the store), so every file is
//! searchable by keyword and in the code graph as soon as its group commits; the second phase
//! ([`super::vectors`]) fills in the rest. A fatal error or Ctrl-C stops the feeders; what was
//! already written stays consistent (one transaction per group of whole files).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use crossbeam_channel::{RecvTimeoutError, bounded};
use rayon::prelude::*;

use super::embed_text::{embed_hash, embed_text};
use super::{IndexError, Progress};
use crate::chunk::{self, Language, ParseStatus};
use crate::discover::{Candidate, ProjectFiles, SkipReason, read_source};
use crate::store::{
    ChunkBody, ChunkRecord, ErrorPosition, FileRecord, FileState, IndexWriter, KeptFile, StoreError, StoredVersion,
    SymbolRecord,
};

/// A file that may need indexing: new, or its size or mtime changed.
pub(crate) struct Work {
    pub candidate: Candidate,
    pub previous: Option<FileState>,
}

/// Everything the stages share.
pub(crate) struct Context<'a> {
    /// The index's writer: every read and write of the run.
    pub writer: &'a dyn IndexWriter,
    /// The project's files, read only through this.
    pub files: &'a ProjectFiles,
    pub model: &'a str,
    pub max_file_size: u64,
    pub chunking: &'a super::Chunking,
    pub progress: &'a Progress,
    pub cancel: &'a AtomicBool,
    pub work: Vec<Work>,
    /// Resolves imports against the run's file list.
    pub resolver: &'a super::resolve::Resolver,
    /// The versions of the work's paths the index stores (in any snapshot): a file whose
    /// content one of them has is taken as stored, not parsed again.
    pub stored: &'a HashMap<String, Vec<StoredVersion>>,
}

/// What the stages did.
#[derive(Default)]
pub(crate) struct Outcome {
    pub added: u64,
    pub modified: u64,
    pub rechunked: u64,
    pub unchanged: u64,
    pub reused: u64,
    pub removed: u64,
    pub chunks: u64,
    pub by_status: BTreeMap<ParseStatus, u64>,
    pub skipped: Vec<SkipReason>,
}

/// Why a file is written.
#[derive(Clone, Copy)]
enum Change {
    /// Not in the index before.
    Added,
    /// Its content changed.
    Modified,
    /// Same content, cut with other parameters before.
    Rechunked,
}

/// One file after the parse stage.
enum Parsed {
    /// Chunked.
    File { record: FileRecord, change: Change },
    /// Stored already: the same content as in this snapshot (only size and mtime need
    /// updating), or as another snapshot stored it (taken into this one as it is).
    Kept { file: KeptFile, how: Kept },
    /// Cannot be indexed (binary, unreadable, ...): recorded without chunks.
    Skipped { record: FileRecord, reason: SkipReason },
}

/// Why a file is kept as stored.
#[derive(Clone, Copy)]
enum Kept {
    /// This snapshot holds the same content.
    Unchanged,
    /// Another snapshot stored this content at this path.
    Reused,
}

/// Files per write transaction, at most.
const GROUP_FILES: usize = 1024;
/// Chunks per write transaction, at most. Each commit rewrites the pages of the shared B-trees it touched
/// (term statistics, symbol and reference indexes) and flushes a full-text segment that later
/// merges cost again, so fewer, larger transactions write less: 8,000 instead of 2,000 chunks
/// (with a 64 MB WAL checkpoint, see `store::sqlite::conn`) took 0.2-0.8 s less CPU on the
/// standard library (78k chunks), for 40-55 MB more peak memory. A killed run loses at most
/// one group's work, never consistency.
const GROUP_CHUNKS: usize = 8000;
/// How long the group stage waits for more parsed files before sending a partial group (when
/// the writer has no group queued).
const GROUP_WAIT: Duration = Duration::from_millis(30);

/// The first fatal error of any stage; setting it stops the others.
struct Failure {
    error: Mutex<Option<IndexError>>,
    raised: AtomicBool,
}

impl Failure {
    fn raise(&self, e: IndexError) {
        let mut slot = self.error.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(e);
        }
        self.raised.store(true, Ordering::SeqCst);
    }

    fn raised(&self) -> bool {
        self.raised.load(Ordering::SeqCst)
    }
}

/// Runs the parse → group → write stages over `ctx.work`.
pub(crate) fn process(ctx: &Context<'_>) -> Result<Outcome, IndexError> {
    let failure_slot = Failure { error: Mutex::new(None), raised: AtomicBool::new(false) };
    let failure = &failure_slot;
    let stop = &|| failure.raised() || ctx.cancel.load(Ordering::Relaxed);
    let (parsed_tx, parsed_rx) = bounded::<Parsed>(64);
    let (group_tx, group_rx) = bounded::<Vec<Parsed>>(2);
    let mut outcome = Outcome::default();

    std::thread::scope(|scope| {
        // Stage 1: parse and chunk on all cores.
        scope.spawn(|| {
            let parse_one = |tx: &mut crossbeam_channel::Sender<Parsed>, work: &Work| {
                if stop() {
                    return;
                }
                let item = parse(ctx, work);
                if let Parsed::File { record, .. } = &item {
                    Progress::add(&ctx.progress.parsed, 1);
                    Progress::add(&ctx.progress.chunks, record.chunks.len() as u64);
                }
                let _ = tx.send(item);
            };
            let parse_all = move || ctx.work.par_iter().for_each_with(parsed_tx, parse_one);
            match parse_pool() {
                Some(pool) => pool.install(parse_all),
                None => parse_all(),
            }
        });

        // Stage 2: group files into transactions.
        scope.spawn(move || {
            let mut sizer = GroupSizer::new(ctx.work.len());
            while let Ok(first) = parsed_rx.recv() {
                let mut chunks = sizer.received(&first);
                let mut group = vec![first];
                while group.len() < GROUP_FILES && chunks < sizer.target() {
                    match parsed_rx.recv_timeout(GROUP_WAIT) {
                        Ok(item) => {
                            chunks += sizer.received(&item);
                            group.push(item);
                        }
                        // A partial group helps only a writer with nothing queued; one that is
                        // behind gets fuller groups, each costing a commit less.
                        Err(RecvTimeoutError::Timeout) if !group_tx.is_empty() => {}
                        Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
                    }
                }
                sizer.sent();
                if stop() || group_tx.send(group).is_err() {
                    break;
                }
            }
            drop(group_tx);
            // Drain so the parsers never block on a full channel after a failure.
            while parsed_rx.recv().is_ok() {}
        });

        // Stage 3: write, one transaction per group.
        while let Ok(group) = group_rx.recv() {
            if failure.raised() {
                continue;
            }
            if let Err(e) = write_group(ctx, group, &mut outcome) {
                failure.raise(e.into());
            }
        }
    });

    if let Some(e) = failure_slot.error.into_inner().unwrap_or_else(PoisonError::into_inner) {
        return Err(e);
    }
    Ok(outcome)
}

/// The scheduling priority of the parse threads on Linux (nice; 0 is the default, 19 the
/// lowest).
#[cfg(target_os = "linux")]
const PARSE_NICE: libc::c_int = 10;

/// The parse stage's threads, one per core, started for this run. On Linux they run at a lower
/// priority than the rest of the process: the one writer thread is the run's critical path
/// (without an embedder the parsers produce chunks twice as fast as one transaction stream can
/// store them), and at equal priority the two parsers took turns with it on two cores, so it
/// was off its core half of the time while they filled the channels ahead of it. Backpressure
/// keeps the parsers within a few groups of the writer either way. `None` when threads cannot
/// be started: the parse stage then uses rayon's global pool.
fn parse_pool() -> Option<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("cocosearch-parse-{i}"))
        .start_handler(|_| lower_priority())
        .build()
        .ok()
}

/// Lowers the calling thread's scheduling priority to [`PARSE_NICE`] (best effort).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    set_thread_nice(PARSE_NICE);
}

/// Sets the calling thread's nice value (Linux keeps one per thread; threads it starts later
/// inherit it). Best effort: a failure leaves the priority as it was.
#[cfg(target_os = "linux")]
pub(crate) fn set_thread_nice(nice: libc::c_int) {
    // SAFETY: setpriority with the calling thread's id changes only that thread's priority.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, nice);
    }
}

/// How many chunks the group being filled should hold. The writer is the run's critical path
/// without an embedder, so the first groups are small and it starts early instead of waiting
/// for a full group (the size doubles from [`SMALL_GROUP`] up to [`GROUP_CHUNKS`]); near the
/// end a group holds at most half of what the run still expects, so that the last transaction,
/// which the writer stores alone once the parsers are done, is small too.
struct GroupSizer {
    /// Files the run will parse.
    total: usize,
    /// Files received so far, and their chunks.
    files: usize,
    chunks: usize,
    /// The size the ramp has reached.
    ramp: usize,
}

/// The first group's size, and the smallest the tail rule makes.
const SMALL_GROUP: usize = 1000;

impl GroupSizer {
    fn new(total: usize) -> GroupSizer {
        GroupSizer { total, files: 0, chunks: 0, ramp: SMALL_GROUP }
    }

    /// Counts `item` in; returns its chunks.
    fn received(&mut self, item: &Parsed) -> usize {
        let chunks = group_chunk_count(std::slice::from_ref(item));
        self.files += 1;
        self.chunks += chunks;
        chunks
    }

    fn sent(&mut self) {
        self.ramp = (self.ramp * 2).min(GROUP_CHUNKS);
    }

    fn target(&self) -> usize {
        let remaining_files = self.total.saturating_sub(self.files);
        let per_file = self.chunks as f64 / self.files.max(1) as f64;
        let tail = ((remaining_files as f64 * per_file) as usize / 2).max(SMALL_GROUP);
        self.ramp.min(tail)
    }
}

fn group_chunk_count(group: &[Parsed]) -> usize {
    group.iter().map(|p| if let Parsed::File { record, .. } = p { record.chunks.len() } else { 0 }).sum()
}

/// Reads, checks and chunks one file.
fn parse(ctx: &Context<'_>, work: &Work) -> Parsed {
    let c = &work.candidate;
    let source = match read_source(ctx.files, &c.within, ctx.max_file_size) {
        Ok(source) => source,
        Err(reason) => {
            let record = FileRecord {
                path: c.relative.clone(),
                language: String::new(),
                size: c.size,
                mtime_ns: c.mtime_ns,
                hash: [0; 32],
                lines: 0,
                parse_status: None,
                parse_errors: Vec::new(),
                skip_reason: Some(reason),
                chunking: None,
                chunks: Vec::new(),
                imports: Vec::new(),
                refs: Vec::new(),
            };
            return Parsed::Skipped { record, reason };
        }
    };
    let chunking = &ctx.chunking.key;
    let kept = |how| Parsed::Kept {
        file: KeptFile { path: c.relative.clone(), hash: source.hash, size: source.size, mtime_ns: c.mtime_ns },
        how,
    };
    let change = match &work.previous {
        None => Change::Added,
        Some(p) if p.hash != source.hash => Change::Modified,
        Some(p) if p.chunking.as_ref() == Some(chunking) => return kept(Kept::Unchanged),
        Some(_) => Change::Rechunked,
    };
    let stored = ctx.stored.get(&c.relative).into_iter().flatten();
    if matches!(change, Change::Added | Change::Modified)
        && stored.into_iter().any(|v| v.hash == source.hash && v.chunking.as_ref() == Some(chunking))
    {
        return kept(Kept::Reused);
    }
    // The whole text: a `.h` header is told C or C++ by its code, which a licence comment
    // can push far down.
    let language = Language::detect(&c.path, &source.text);
    let chunked = chunk::chunk_source(language, &source.text, &ctx.chunking.options);
    let language_name = language.map_or("text", Language::name);
    // The index's limit, embedder or not: the embedded text, and so its hash, is the same
    // whether this run can embed.
    let max_input = ctx.chunking.max_input;
    let chunks = chunked
        .chunks
        .iter()
        .map(|ch| {
            let content = source.text.get(ch.byte_start..ch.byte_end).unwrap_or_default().to_string();
            let context = ch.context.join("\n");
            let text = embed_text(&c.relative, &context, &content, max_input);
            let primary = ch.symbols.first();
            let keywords = chunk::keywords::document_text(&c.relative, &content);
            let body = ChunkBody {
                byte_start: u32::try_from(ch.byte_start).unwrap_or(u32::MAX),
                byte_end: u32::try_from(ch.byte_end).unwrap_or(u32::MAX),
                line_start: ch.line_start,
                line_end: ch.line_end,
                symbol_type: primary.map(|s| s.kind),
                symbol_name: primary.map(|s| s.name.clone()),
                qualified_name: primary.map(|s| s.qualified_name.clone()),
                signature: primary.map(|s| s.signature.clone()),
                symbols: ch
                    .symbols
                    .iter()
                    .map(|s| SymbolRecord {
                        kind: s.kind,
                        name: s.name.clone(),
                        qualified_name: s.qualified_name.clone(),
                        signature: s.signature.clone(),
                        parent: s.parent.clone(),
                        start_line: Some(s.line_start),
                        end_line: Some(s.line_end),
                        params: s.params.clone(),
                        bases: s.bases.clone(),
                    })
                    .collect(),
                parse_status: ch.parse_status,
                enclosing: ch.enclosing.clone(),
                context,
                content,
            };
            ChunkRecord {
                parent: primary.and_then(|s| s.parent.clone()),
                embed_hash: embed_hash(ctx.model, &text),
                embedding: None,
                keywords,
                body,
            }
        })
        .collect();
    let record = FileRecord {
        path: c.relative.clone(),
        language: language_name.to_string(),
        size: source.size,
        mtime_ns: c.mtime_ns,
        hash: source.hash,
        lines: source.lines,
        parse_status: Some(chunked.parse_status),
        parse_errors: chunked
            .errors
            .iter()
            .map(|e| ErrorPosition { line: e.line, column: e.column, kind: e.kind.to_string() })
            .collect(),
        skip_reason: None,
        chunking: Some(chunking.clone()),
        chunks,
        imports: super::link::import_records(ctx.resolver, &c.relative, language, &chunked.graph),
        refs: chunked.graph.refs,
    };
    Parsed::File { record, change }
}

/// Writes one group: whole files in one transaction, then the cheap updates.
fn write_group(ctx: &Context<'_>, group: Vec<Parsed>, outcome: &mut Outcome) -> Result<(), StoreError> {
    let mut records = Vec::new();
    let mut touched = Vec::new();
    for item in group {
        match item {
            Parsed::File { record, change, .. } => {
                match change {
                    Change::Added => outcome.added += 1,
                    Change::Modified => outcome.modified += 1,
                    Change::Rechunked => outcome.rechunked += 1,
                }
                outcome.chunks += record.chunks.len() as u64;
                for c in &record.chunks {
                    *outcome.by_status.entry(c.body.parse_status).or_default() += 1;
                }
                records.push(record);
            }
            Parsed::Kept { file, how } => {
                match how {
                    Kept::Unchanged => outcome.unchanged += 1,
                    Kept::Reused => outcome.reused += 1,
                }
                touched.push(file);
            }
            Parsed::Skipped { record, reason } => {
                outcome.skipped.push(reason);
                records.push(record);
            }
        }
    }
    ctx.writer.replace_files(&records)?;
    Progress::add(&ctx.progress.written, records.len() as u64);
    ctx.writer.touch_files(&touched)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_start_small_grow_to_full_and_shrink_near_the_end() {
        let mut sizer = GroupSizer::new(1000);
        // 10 files of 35 chunks received: 34,650 chunks still expected.
        (sizer.files, sizer.chunks) = (10, 350);
        assert_eq!(sizer.target(), SMALL_GROUP);
        sizer.sent();
        assert_eq!(sizer.target(), 2 * SMALL_GROUP, "the ramp doubles");
        for _ in 0..5 {
            sizer.sent();
        }
        // 100 files of 35 chunks received: 31,500 chunks still expected.
        (sizer.files, sizer.chunks) = (100, 3500);
        assert_eq!(sizer.target(), GROUP_CHUNKS);
        // 100 files left: at most half of their 3,500 chunks.
        (sizer.files, sizer.chunks) = (900, 31_500);
        assert_eq!(sizer.target(), 1750);
        (sizer.files, sizer.chunks) = (990, 34_650);
        assert_eq!(sizer.target(), SMALL_GROUP, "never below the smallest group");
    }
}
