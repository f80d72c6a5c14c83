//! The stages of an index run, connected by bounded channels:
//!
//! ```text
//! work ──► parse (rayon, all cores) ──► embed (groups, N requests in flight) ──► write (1 tx per group)
//! ```
//!
//! Each stage holds at most a few dozen files, so memory is bounded whatever the repository
//! size; parsing, embedding and writing overlap. A fatal error or Ctrl-C stops the feeders; what
//! was already written stays consistent (one transaction per group of whole files).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use crossbeam_channel::{RecvTimeoutError, bounded};
use rayon::prelude::*;

use super::embed_text::{embed_hash, embed_text};
use super::{IndexError, Progress};
use crate::chunk::{self, Language, ParseStatus};
use crate::discover::{Candidate, ProjectFiles, SkipReason, read_source};
use crate::embed::{EmbedError, Embedder};
use crate::store::{ChunkBody, ChunkRecord, ErrorPosition, FileRecord, FileState, Store, StoreError, SymbolRecord};

/// A file that may need indexing: new, or its size or mtime changed.
pub(crate) struct Work {
    pub candidate: Candidate,
    pub previous: Option<FileState>,
}

/// How to embed in this run.
pub(crate) struct EmbedPlan<'a> {
    pub embedder: &'a dyn Embedder,
    /// The dimension recorded in the index or reported by the server.
    pub known_dimension: Option<usize>,
    /// Whether the index already records its model and dimension.
    pub index_has_model: bool,
    pub max_input_bytes: usize,
    pub batch_size: usize,
    pub concurrency: usize,
}

/// Everything the stages share.
pub(crate) struct Context<'a> {
    pub store: &'a dyn Store,
    pub name: &'a str,
    /// The project's files, read only through this.
    pub files: &'a ProjectFiles,
    pub model: &'a str,
    pub max_file_size: u64,
    pub chunking: &'a super::Chunking,
    pub embedding: Option<&'a EmbedPlan<'a>>,
    pub progress: &'a Progress,
    pub cancel: &'a AtomicBool,
    pub work: Vec<Work>,
    /// Resolves imports against the run's file list.
    pub resolver: &'a super::resolve::Resolver,
}

/// What the stages did.
#[derive(Default)]
pub(crate) struct Outcome {
    pub added: u64,
    pub modified: u64,
    pub rechunked: u64,
    pub unchanged: u64,
    pub removed: u64,
    pub chunks: u64,
    pub by_status: BTreeMap<ParseStatus, u64>,
    pub embedded: u64,
    pub requests: u64,
    pub embed_time: std::time::Duration,
    pub dimension: Option<usize>,
    pub embedder_down: bool,
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
    /// Chunked, with the text to embed for each chunk.
    File { record: FileRecord, texts: Vec<String>, change: Change },
    /// Same content as stored: only size/mtime need updating.
    Unchanged { path: String, size: u64, mtime_ns: i64 },
    /// Cannot be indexed (binary, unreadable, ...): recorded without chunks.
    Skipped { record: FileRecord, reason: SkipReason },
}

/// Files per write transaction, at most.
const GROUP_FILES: usize = 1024;
/// Chunks per write transaction, at most (without an embedder; with one, a group is what the
/// embedder takes in one wave). Each commit rewrites the pages of the shared B-trees it touched
/// (term statistics, symbol and reference indexes) and flushes a full-text segment that later
/// merges cost again, so fewer, larger transactions write less: 8,000 instead of 2,000 chunks
/// (with a 64 MB WAL checkpoint, see `store::sqlite::conn`) took 0.2-0.8 s less CPU on the
/// standard library (78k chunks), for 40-55 MB more peak memory. A killed run loses at most
/// one group's work, never consistency.
const GROUP_CHUNKS: usize = 8000;
/// How long the embed stage waits for more parsed files before sending a partial group.
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

/// Runs the parse → embed → write stages over `ctx.work`.
pub(crate) fn process(ctx: &Context<'_>) -> Result<Outcome, IndexError> {
    let failure_slot = Failure { error: Mutex::new(None), raised: AtomicBool::new(false) };
    let failure = &failure_slot;
    let stop = &|| failure.raised() || ctx.cancel.load(Ordering::Relaxed);
    let (parsed_tx, parsed_rx) = bounded::<Parsed>(64);
    let (group_tx, group_rx) = bounded::<Vec<Parsed>>(2);
    let mut outcome = Outcome::default();
    let embedding = ctx.embedding.map(|plan| Embedding::new(plan, ctx.store, ctx.name, ctx.model, ctx.progress));

    let embedding = std::thread::scope(|scope| {
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

        // Stage 2: group files, embed what is new, pass groups on.
        let embed_stage = scope.spawn(move || {
            let mut embedding = embedding;
            let mut known: Option<HashSet<[u8; 16]>> = None;
            while let Ok(first) = parsed_rx.recv() {
                let mut group = vec![first];
                let mut chunks = group_chunk_count(&group);
                let target = ctx.embedding.map_or(GROUP_CHUNKS, |p| (p.batch_size * p.concurrency).max(1));
                loop {
                    if group.len() >= GROUP_FILES || chunks >= target.min(GROUP_CHUNKS) {
                        break;
                    }
                    match parsed_rx.recv_timeout(GROUP_WAIT) {
                        Ok(item) => {
                            group.push(item);
                            chunks = group_chunk_count(&group);
                        }
                        Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
                    }
                }
                if let Some(embedding) = embedding.as_mut()
                    && !stop()
                    && let Err(e) = embed_group(ctx, embedding, &mut known, &mut group)
                {
                    failure.raise(e);
                    break;
                }
                if failure.raised() || group_tx.send(group).is_err() {
                    break;
                }
            }
            drop(group_tx);
            // Drain so the parsers never block on a full channel after a failure.
            while parsed_rx.recv().is_ok() {}
            embedding
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
        embed_stage.join().unwrap_or(None)
    });

    if let Some(e) = failure_slot.error.into_inner().unwrap_or_else(PoisonError::into_inner) {
        return Err(e);
    }
    if let Some(embedding) = embedding {
        outcome.embedded = embedding.embedded;
        outcome.requests = embedding.requests;
        outcome.embed_time = embedding.elapsed;
        outcome.dimension = embedding.dimension;
        outcome.embedder_down = embedding.down;
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
    {
        // SAFETY: setpriority with the calling thread's id changes only that thread's
        // priority (Linux keeps a nice value per thread); a failure leaves it unchanged.
        unsafe {
            libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, PARSE_NICE);
        }
    }
}

fn group_chunk_count(group: &[Parsed]) -> usize {
    group.iter().map(|p| if let Parsed::File { record, .. } = p { record.chunks.len() } else { 0 }).sum()
}

/// Reads, checks and chunks one file.
fn parse(ctx: &Context<'_>, work: &Work) -> Parsed {
    let c = &work.candidate;
    let source = match read_source(ctx.files, &c.relative, ctx.max_file_size) {
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
    let change = match &work.previous {
        None => Change::Added,
        Some(p) if p.hash != source.hash => Change::Modified,
        Some(p) if p.chunking.as_ref() == Some(chunking) => {
            return Parsed::Unchanged { path: c.relative.clone(), size: source.size, mtime_ns: c.mtime_ns };
        }
        Some(_) => Change::Rechunked,
    };
    // The whole text: a `.h` header is told C or C++ by its code, which a licence comment
    // can push far down.
    let language = Language::detect(&c.path, &source.text);
    let chunked = chunk::chunk_source(language, &source.text, &ctx.chunking.options);
    let language_name = language.map_or("text", Language::name);
    // The index's limit, embedder or not: the embedded text, and so its hash, is the same
    // whether this run can embed.
    let max_input = ctx.chunking.max_input;
    let mut texts = Vec::with_capacity(chunked.chunks.len());
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
            let record = ChunkRecord {
                parent: primary.and_then(|s| s.parent.clone()),
                embed_hash: embed_hash(ctx.model, &text),
                embedding: None,
                keywords,
                body,
            };
            texts.push(text);
            record
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
    Parsed::File { record, texts, change }
}

/// Embeds the chunks of a group whose text has no stored vector yet.
fn embed_group(
    ctx: &Context<'_>,
    embedding: &mut Embedding<'_>,
    known: &mut Option<HashSet<[u8; 16]>>,
    group: &mut [Parsed],
) -> Result<(), IndexError> {
    if embedding.down {
        return Ok(());
    }
    let known = match known {
        Some(known) => known,
        None => known.insert(ctx.store.embedded_hashes(ctx.name)?),
    };
    // Identical texts (within the group, or already stored) are embedded once.
    let mut wanted: HashMap<[u8; 16], Vec<(usize, usize)>> = HashMap::new();
    let mut texts = Vec::new();
    let mut hashes = Vec::new();
    for (gi, item) in group.iter().enumerate() {
        let Parsed::File { record, texts: chunk_texts, .. } = item else { continue };
        for (ci, chunk) in record.chunks.iter().enumerate() {
            if known.contains(&chunk.embed_hash) {
                continue;
            }
            let slots = wanted.entry(chunk.embed_hash).or_default();
            if slots.is_empty() {
                texts.push(chunk_texts[ci].clone());
                hashes.push(chunk.embed_hash);
            }
            slots.push((gi, ci));
        }
    }
    if texts.is_empty() {
        return Ok(());
    }
    let vectors = embedding.embed_all(texts, ctx.cancel)?;
    for (hash, vector) in hashes.iter().zip(vectors) {
        let Some(vector) = vector else { continue };
        known.insert(*hash);
        for &(gi, ci) in wanted.get(hash).map(Vec::as_slice).unwrap_or_default() {
            if let Parsed::File { record, .. } = &mut group[gi] {
                record.chunks[ci].embedding = Some(vector.clone());
            }
        }
    }
    Ok(())
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
            Parsed::Unchanged { path, size, mtime_ns } => {
                outcome.unchanged += 1;
                touched.push((path, size, mtime_ns));
            }
            Parsed::Skipped { record, reason } => {
                outcome.skipped.push(reason);
                records.push(record);
            }
        }
    }
    ctx.store.replace_files(ctx.name, &records)?;
    Progress::add(&ctx.progress.written, records.len() as u64);
    ctx.store.touch_files(ctx.name, &touched)?;
    Ok(())
}

/// What [`fill_pending`] did.
pub(crate) struct Filled {
    pub embedded: u64,
    pub requests: u64,
    pub elapsed: std::time::Duration,
    pub dimension: Option<usize>,
}

/// Computes vectors for every chunk of the index still waiting for one.
pub(crate) fn fill_pending(
    store: &dyn Store,
    name: &str,
    model: &str,
    plan: &EmbedPlan<'_>,
    progress: &Progress,
    cancel: &AtomicBool,
) -> Result<Filled, IndexError> {
    let mut embedding = Embedding::new(plan, store, name, model, progress);
    let mut after = 0;
    let page = (plan.batch_size * plan.concurrency * 4).max(64);
    while !cancel.load(Ordering::Relaxed) && !embedding.down {
        let pending = store.pending_chunks(name, after, page)?;
        let Some(last) = pending.last() else { break };
        after = last.id;
        let texts: Vec<String> =
            pending.iter().map(|p| embed_text(&p.path, &p.context, &p.content, plan.max_input_bytes)).collect();
        let vectors = embedding.embed_all(texts, cancel)?;
        let done: Vec<(i64, Vec<f32>)> =
            pending.iter().zip(vectors).filter_map(|(p, v)| v.map(|v| (p.id, v))).collect();
        store.set_embeddings(name, &done)?;
    }
    Ok(Filled {
        embedded: embedding.embedded,
        requests: embedding.requests,
        elapsed: embedding.elapsed,
        dimension: embedding.dimension,
    })
}

/// Calls the embedder in batches with bounded concurrency; tracks the dimension and whether
/// the embedder went down.
struct Embedding<'a> {
    plan: &'a EmbedPlan<'a>,
    store: &'a dyn Store,
    name: &'a str,
    model: &'a str,
    progress: &'a Progress,
    /// The length every vector must have: the index's, or the one the server reports for the
    /// model, until the first vector of an index without vectors fixes it.
    expected: Option<usize>,
    /// The length of the vectors checked in this run.
    dimension: Option<usize>,
    /// Whether the index records its model and dimension.
    recorded: bool,
    down: bool,
    embedded: u64,
    requests: u64,
    /// Wall time spent waiting for the embedder.
    elapsed: std::time::Duration,
}

impl<'a> Embedding<'a> {
    fn new(
        plan: &'a EmbedPlan<'a>,
        store: &'a dyn Store,
        name: &'a str,
        model: &'a str,
        progress: &'a Progress,
    ) -> Self {
        Embedding {
            plan,
            store,
            name,
            model,
            progress,
            expected: plan.known_dimension,
            dimension: None,
            recorded: plan.index_has_model,
            down: false,
            embedded: 0,
            requests: 0,
            elapsed: std::time::Duration::ZERO,
        }
    }

    /// Vectors for `texts`, in order; `None` for texts left awaiting (embedder down).
    fn embed_all(&mut self, texts: Vec<String>, cancel: &AtomicBool) -> Result<Vec<Option<Vec<f32>>>, IndexError> {
        Progress::add(&self.progress.to_embed, texts.len() as u64);
        let mut out: Vec<Option<Vec<f32>>> = vec![None; texts.len()];
        let batch = self.plan.batch_size.max(1);
        let batches: Vec<(usize, &[String])> = texts.chunks(batch).enumerate().map(|(i, b)| (i * batch, b)).collect();
        for wave in batches.chunks(self.plan.concurrency.max(1)) {
            if self.down || cancel.load(Ordering::Relaxed) {
                break;
            }
            let embedder = self.plan.embedder;
            let wave_started = std::time::Instant::now();
            let results: Vec<BatchResult> = std::thread::scope(|s| {
                let handles: Vec<_> = wave
                    .iter()
                    .map(|&(start, texts)| (start, texts.len(), s.spawn(move || embed_batch(embedder, texts))))
                    .collect();
                handles
                    .into_iter()
                    .map(|(start, len, h)| {
                        let result =
                            h.join().unwrap_or_else(|_| Err(EmbedError::Server("embedding thread panicked".into())));
                        (start, len, result)
                    })
                    .collect()
            });
            self.elapsed += wave_started.elapsed();
            for (start, len, result) in results {
                self.requests += 1;
                match result {
                    Ok(vectors) => {
                        for v in &vectors {
                            self.check_dimension(v.len())?;
                        }
                        self.embedded += vectors.len() as u64;
                        Progress::add(&self.progress.embedded, vectors.len() as u64);
                        for (i, v) in vectors.into_iter().enumerate() {
                            out[start + i] = Some(v);
                        }
                    }
                    Err(
                        e @ (EmbedError::ModelNotFound { .. }
                        | EmbedError::Auth { .. }
                        | EmbedError::WrongDimension { .. }),
                    ) => return Err(e.into()),
                    Err(e) => {
                        if !self.down {
                            self.progress.warn(format!(
                                "embedding failed ({e}); continuing without embeddings — {len}+ chunks will await vectors until the next `cocosearch index`"
                            ));
                        }
                        self.down = true;
                    }
                }
            }
        }
        Ok(out)
    }

    /// Refuses a vector of another length than expected; the first vector of an index
    /// without vectors fixes the length, recorded in the index.
    fn check_dimension(&mut self, len: usize) -> Result<(), IndexError> {
        if let Some(expected) = self.expected
            && expected != len
        {
            // Say where the expectation comes from: an index that holds vectors, or only what
            // the server reported about the model (a new index was never built with anything).
            let why = if self.recorded {
                format!(
                    "index {} holds vectors of that length — check the model the embedding server serves, or rebuild the index with `cocosearch index --fresh`",
                    self.name
                )
            } else {
                "the embedding server reports that length for the model — check the model it serves".to_string()
            };
            return Err(EmbedError::WrongDimension { model: self.model.to_string(), got: len, expected, why }.into());
        }
        self.expected = Some(len);
        self.dimension = Some(len);
        if !self.recorded {
            self.store.set_index_model(self.name, self.model, u32::try_from(len).unwrap_or(u32::MAX))?;
            self.recorded = true;
        }
        Ok(())
    }
}

/// A batch's start offset, length and outcome.
type BatchResult = (usize, usize, Result<Vec<Vec<f32>>, EmbedError>);

/// One batch; a "too long" refusal is retried text by text, halving each text up to three
/// times, so one oversized chunk cannot sink its batch.
fn embed_batch(embedder: &dyn Embedder, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
    match embedder.embed(texts) {
        Err(EmbedError::TooLong(_)) => texts
            .iter()
            .map(|text| {
                let mut text = text.clone();
                let mut halvings = 0;
                loop {
                    match embedder.embed(std::slice::from_ref(&text)) {
                        Err(EmbedError::TooLong(reason)) if halvings < 3 => {
                            let half = text.len() / 2;
                            super::embed_text::truncate(&mut text, half);
                            halvings += 1;
                            tracing::debug!(%reason, bytes = text.len(), "input too long, halving");
                        }
                        other => return other.map(|mut v| v.pop().unwrap_or_default()),
                    }
                }
            })
            .collect(),
        other => other,
    }
}
