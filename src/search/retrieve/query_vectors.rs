//! The query embedded once per model among the indexes searched (each index's own model, see
//! `search::embedders`), and the retrievers that need the vector run on each index it fits.
//!
//! An index whose vectors have another length than its query vector, or whose embedder
//! failed, answers from the other retrievers, and the search says why.

use std::sync::Arc;

use super::super::readers::Readers;
use super::{Found, Index, Retrieved, Retriever, run_legs};
use crate::embed::{EmbedError, Embedder};
use crate::search::Searcher;
use crate::search::analyse::Analysed;
use crate::store::{IndexMeta, StoreError};

/// What the stage found: per index the vector retrievers' evidence (`None` where they did not
/// run), whether a vector came from a cache, the indexes a vector did not fit, the embedders
/// that failed (with the indexes that needed them), and how many embedders there were.
pub(super) struct Stage {
    found: Result<Vec<Option<Found>>, StoreError>,
    cached: bool,
    misfits: Vec<Misfit>,
    failures: Vec<(Vec<String>, EmbedError)>,
    embedders: usize,
}

/// An index whose vectors have another length than its query vector.
struct Misfit {
    index: String,
    dimension: usize,
    got: usize,
    model: String,
}

/// Embeds the query for the indexes of `metas` that record a model, and runs `legs` on each.
pub(super) fn run(
    searcher: &Searcher<'_>,
    readers: &Readers,
    search: &Analysed<'_>,
    metas: &[IndexMeta],
    legs: &[(usize, &'static dyn Retriever)],
) -> Stage {
    let groups = by_embedder(searcher, metas);
    let mut stage = Stage {
        found: Ok(Vec::new()),
        cached: false,
        misfits: Vec::new(),
        failures: Vec::new(),
        embedders: groups.len(),
    };
    let mut found: Vec<Option<Found>> = vec![None; metas.len()];
    for (embedder, members) in groups {
        let expected = expected_dimension(metas, &members);
        let (vector, cached) =
            match searcher.cache.vector(searcher.store, embedder.as_ref(), search.text, search.cache_use, expected) {
                Ok(found) => found,
                Err(e) => {
                    stage.failures.push((members.iter().map(|&i| metas[i].name.clone()).collect(), e));
                    continue;
                }
            };
        stage.cached |= cached;
        for i in members {
            let meta = &metas[i];
            match meta.dimension {
                Some(d) if d as usize != vector.len() => stage.misfits.push(Misfit {
                    index: meta.name.clone(),
                    dimension: d as usize,
                    got: vector.len(),
                    model: embedder.info().model,
                }),
                _ => {
                    let found_here = readers.get(&meta.name).and_then(|reader| {
                        run_legs(
                            legs,
                            search,
                            &Index { meta, reader, query_vector: Some(&vector), trust: embedder.trust(), pooled: None },
                        )
                    });
                    match found_here {
                        Ok(evidence) => found[i] = Some(evidence),
                        Err(e) => {
                            stage.found = Err(e);
                            return stage;
                        }
                    }
                }
            }
        }
    }
    stage.found = Ok(found);
    stage
}

/// Indexes (positions in `metas`) grouped by the embedder of their queries, one per model.
fn by_embedder(searcher: &Searcher<'_>, metas: &[IndexMeta]) -> Vec<(Arc<dyn Embedder>, Vec<usize>)> {
    let mut groups: Vec<(Arc<dyn Embedder>, Vec<usize>)> = Vec::new();
    for (i, meta) in metas.iter().enumerate() {
        if meta.model.is_none() {
            continue;
        }
        let Some(embedder) = searcher.embedders.for_index(meta) else { continue };
        match groups.iter_mut().find(|(e, _)| Arc::ptr_eq(e, &embedder)) {
            Some((_, members)) => members.push(i),
            None => groups.push((embedder, vec![i])),
        }
    }
    groups
}

/// The length the query vector must have: that of the indexes' vectors, when they agree.
fn expected_dimension(metas: &[IndexMeta], members: &[usize]) -> Option<usize> {
    let mut dimensions: Vec<usize> = members.iter().filter_map(|&i| metas[i].dimension).map(|d| d as usize).collect();
    dimensions.sort_unstable();
    dimensions.dedup();
    match dimensions.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// The stage's evidence per index (`None` where no vector retriever ran), with its warnings,
/// degradation and cache use recorded in `retrieved`.
pub(super) fn account(
    stage: Stage,
    retrieved: &mut Retrieved,
    indexes: usize,
) -> Result<Vec<Option<Found>>, StoreError> {
    if stage.embedders == 0 {
        retrieved.degraded = Some("keyword-only");
        retrieved.warnings.push("embeddings are off (embedding.provider: none): keyword results only".to_string());
        return Ok(vec![None; indexes]);
    }
    let Stage { found, cached, misfits, failures, .. } = stage;
    retrieved.cached_embedding = cached;
    let found = found?;
    let none_searched = found.iter().all(Option::is_none);
    if none_searched {
        retrieved.degraded = Some("keyword-only");
    }
    let consequence = |indexes: &[String]| {
        if none_searched {
            "showing keyword results only".to_string()
        } else {
            format!("{} answered from keywords only", indexes.join(", "))
        }
    };
    for (indexes, e) in failures {
        retrieved.warnings.push(format!("{} — {}", query_embed_error(&e), consequence(&indexes)));
    }
    for Misfit { index, dimension, got, model } in misfits {
        retrieved.warnings.push(format!(
            "the embedder returned a {got}-dimensional query vector for {model}, but index {index} holds {dimension}-dimensional vectors — check embedding.model and the model the server serves (or rebuild the index with `cocosearch index --fresh`); {}",
            consequence(std::slice::from_ref(&index))
        ));
    }
    Ok(found)
}

fn query_embed_error(e: &EmbedError) -> String {
    match e {
        // A built-in model that is neither cached nor downloadable: the fix is ours to name
        // (a server's is the operator's business, and its hint would only repeat itself).
        EmbedError::Unreachable { provider, url, reason, hint } if *provider == crate::embed::builtin::HUB => {
            format!("the built-in model is not here and {provider} is not reachable at {url} ({reason}) — {hint}")
        }
        EmbedError::Unreachable { provider, url, reason, .. } => {
            format!("{provider} not reachable at {url} ({reason})")
        }
        other => other.to_string(),
    }
}
