//! The second phase of an index run: vectors for the chunks the first phase wrote without one.
//!
//! By the time this runs every file is searchable by keyword and in the code graph; search is
//! hybrid over the chunks that have vectors. The chunks still waiting are read from the store
//! page by page in id order (so a run stopped here, even by kill -9, resumes where it was: each
//! page's vectors are one transaction), identical texts within a page are embedded once, and
//! the embedder is called in batches with bounded concurrency. [`fill_vectors`] is the same
//! work for a background caller (the watcher): one page at a time, holding the index's write
//! lock only to store the vectors.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use super::embed_text::{embed_hash, embed_text};
use super::{IndexError, Progress};
use crate::config::Settings;
use crate::embed::{EmbedError, Embedder};
use crate::store::{IndexWriter, Patience, PendingChunk, Store, StoreError};

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

/// What [`fill_pending`] did.
#[derive(Debug, Default)]
pub struct Filled {
    /// Vectors computed.
    pub embedded: u64,
    /// Requests to the embedder.
    pub requests: u64,
    /// Wall time spent waiting for the embedder.
    pub elapsed: std::time::Duration,
    /// The vectors' length, once one was computed.
    pub dimension: Option<usize>,
    /// The embedder stopped answering; the rest waits for the next run.
    pub embedder_down: bool,
    /// Chunks still waiting when the call returned.
    pub remaining: u64,
}

/// A phase that will take longer than this is announced at its start, with its length and
/// the setting that trades quality for speed.
const LONG_PHASE: std::time::Duration = std::time::Duration::from_secs(60);

/// Computes vectors for every chunk of the index still waiting for one, holding the write
/// lock (an index run's second phase).
pub(crate) fn fill_pending(
    writer: &dyn IndexWriter,
    model: &str,
    plan: &EmbedPlan<'_>,
    progress: &Progress,
    cancel: &AtomicBool,
) -> Result<Filled, IndexError> {
    let mut embedding = Embedding::new(plan, writer.index(), model, progress);
    let waiting = writer.reader().count_pending()?;
    progress.start_embedding(waiting);
    let mut after = 0;
    // Several waves per read: fewer queries, one transaction per page.
    let page = (plan.batch_size * plan.concurrency * 4).max(64);
    let mut announced = false;
    while !cancel.load(Ordering::Relaxed) && !embedding.down {
        let pending = writer.reader().pending_chunks(after, page)?;
        let Some(last) = pending.last() else { break };
        after = last.id;
        let done = embed_page(&mut embedding, &pending, cancel)?;
        embedding.record_model(writer)?;
        writer.set_embeddings(&done)?;
        if !announced && let Some(eta) = progress.eta() {
            announced = true;
            if eta > LONG_PHASE {
                progress.notice(long_phase_notice(model, waiting, eta));
            }
        }
    }
    Ok(embedding.filled(writer.reader().count_pending()?))
}

/// What a background filler asks for: one page of the waiting chunks of an index.
pub struct VectorRequest<'a> {
    /// The index.
    pub name: &'a str,
    /// The resolved settings (batch size, concurrency, chunking).
    pub settings: &'a Settings,
    /// The embedder; it must be the index's model.
    pub embedder: &'a dyn Embedder,
    /// Counters (the vector rate, for an ETA).
    pub progress: &'a Progress,
    /// Set to stop between batches.
    pub cancel: &'a AtomicBool,
}

/// Computes the vectors of one page of waiting chunks without holding the index's write lock
/// while the embedder works, then takes the lock (waiting for it) only to store them — so a
/// watcher's next batch, or a `cocosearch index`, never waits for a slow embedder. Chunks
/// rewritten meanwhile are skipped by the store. Returns what is left.
pub fn fill_vectors(store: &dyn Store, req: &VectorRequest<'_>) -> Result<Filled, IndexError> {
    let Some(meta) = store.get_index(req.name)? else { return Ok(Filled::default()) };
    let model = req.embedder.info().model;
    if meta.model.as_deref().is_some_and(|m| m != model) {
        return Err(StoreError::ModelMismatch {
            index: req.name.to_string(),
            existing: meta.model.clone().unwrap_or_default(),
            requested: model,
        }
        .into());
    }
    let chunking = super::Chunking::new(req.settings, meta.context_tokens);
    let plan = EmbedPlan {
        embedder: req.embedder,
        known_dimension: meta.dimension.map(|d| d as usize),
        index_has_model: meta.dimension.is_some(),
        max_input_bytes: chunking.max_input,
        batch_size: req.settings.embedding.batch_size,
        concurrency: req.settings.embedding.concurrency,
    };
    let reader = store.reader(req.name)?;
    let page = (plan.batch_size * plan.concurrency).max(16);
    let pending = reader.pending_chunks(0, page)?;
    let mut embedding = Embedding::new(&plan, req.name, &model, req.progress);
    if pending.is_empty() {
        return Ok(embedding.filled(0));
    }
    let done = embed_page(&mut embedding, &pending, req.cancel)?;
    // A stopped filler stores nothing (its index may be gone, or be written by someone else).
    if !done.is_empty() && !req.cancel.load(Ordering::Relaxed) {
        let writer = crate::store::writer_when_free(store, req.name, Patience::UntilCancelled(req.cancel), &mut || {})?;
        embedding.record_model(writer.as_ref())?;
        writer.set_embeddings(&done)?;
    }
    Ok(embedding.filled(reader.count_pending()?))
}

/// The vectors of one page of waiting chunks, by chunk id; identical texts in a page (licence
/// headers, generated code) are embedded once.
fn embed_page(
    embedding: &mut Embedding<'_>,
    pending: &[PendingChunk],
    cancel: &AtomicBool,
) -> Result<Vec<(i64, Vec<f32>)>, IndexError> {
    let mut slots: HashMap<[u8; 16], usize> = HashMap::new();
    let mut texts = Vec::new();
    let mut which = Vec::with_capacity(pending.len());
    for p in pending {
        let text = embed_text(&p.path, &p.context, &p.content, embedding.plan.max_input_bytes);
        let slot = *slots.entry(embed_hash(embedding.model, &text)).or_insert_with(|| {
            texts.push(text);
            texts.len() - 1
        });
        which.push(slot);
    }
    let duplicates = (pending.len() - texts.len()) as u64;
    let vectors = embedding.embed_all(texts, cancel)?;
    if !embedding.down && !cancel.load(Ordering::Relaxed) {
        embedding.progress.embedded(duplicates);
    }
    Ok(pending.iter().zip(&which).filter_map(|(p, &slot)| vectors[slot].clone().map(|v| (p.id, v))).collect())
}

/// What a long vector phase says at its start: how long, that keyword search already works,
/// and the one setting that trades quality for speed.
fn long_phase_notice(model: &str, chunks: u64, eta: std::time::Duration) -> String {
    let faster = crate::embed::builtin::FAST_MODEL;
    let trade = if model == faster {
        "`embedding.concurrency` and `embedding.batchSize` set how hard the embedder is driven".to_string()
    } else {
        format!(
            "for speed over quality, the built-in static model is many times faster: `cocosearch index --fresh --set embedding.model={faster}`"
        )
    };
    format!(
        "computing vectors for {chunks} chunks with {model} will take about {} on this machine — keyword search already covers every file, and search uses each vector as soon as it is stored; {trade}",
        super::progress::human_duration(eta)
    )
}

/// Calls the embedder in batches with bounded concurrency; tracks the dimension and whether
/// the embedder went down.
struct Embedding<'a> {
    plan: &'a EmbedPlan<'a>,
    /// The index, for messages.
    index: &'a str,
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
    fn new(plan: &'a EmbedPlan<'a>, index: &'a str, model: &'a str, progress: &'a Progress) -> Self {
        Embedding {
            plan,
            index,
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
                        self.progress.embedded(vectors.len() as u64);
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
                    self.index
                )
            } else {
                "the embedding server reports that length for the model — check the model it serves".to_string()
            };
            return Err(EmbedError::WrongDimension { model: self.model.to_string(), got: len, expected, why }.into());
        }
        self.expected = Some(len);
        self.dimension = Some(len);
        Ok(())
    }

    /// What was done, with `remaining` chunks still waiting.
    fn filled(&self, remaining: u64) -> Filled {
        Filled {
            embedded: self.embedded,
            requests: self.requests,
            elapsed: self.elapsed,
            dimension: self.dimension,
            embedder_down: self.down,
            remaining,
        }
    }

    /// Records the model and dimension in an index that has none yet, before its first
    /// vectors are written.
    fn record_model(&mut self, writer: &dyn IndexWriter) -> Result<(), IndexError> {
        if let (false, Some(len)) = (self.recorded, self.dimension) {
            writer.set_model(self.model, u32::try_from(len).unwrap_or(u32::MAX))?;
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
