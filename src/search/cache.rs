//! The query-embedding cache: an in-process LRU (for the long-lived MCP server) in front of a
//! persistent table keyed by model and query (so a repeated CLI search skips the embedder).
//!
//! Only vectors that fit are kept: the embedder checks every answer (`embed::check_vectors`),
//! and a vector whose length differs from the searched index's is neither cached nor served
//! from the cache — a cached entry that does not fit (from another server answering to the
//! same model name, or from before answers were checked) is computed again and replaced.

use std::num::NonZeroUsize;
use std::sync::Mutex;

use lru::LruCache;

use crate::embed::{EmbedError, Embedder, check_vectors};
use crate::store::Store;

/// How a search uses the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheUse {
    /// A cached vector answers; a computed one is cached.
    ReadWrite,
    /// The vector is computed again and replaces the cached one (`--no-cache`): the way to
    /// repair an entry.
    Refresh,
}

/// Query vectors by (model, query text).
pub struct QueryCache {
    memory: Mutex<LruCache<(String, String), Vec<f32>>>,
}

impl QueryCache {
    /// A cache holding up to `capacity` vectors in memory.
    pub fn new(capacity: usize) -> QueryCache {
        let capacity = NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN);
        QueryCache { memory: Mutex::new(LruCache::new(capacity)) }
    }

    /// The query's vector and whether it came from a cache. `expected` is the dimension of
    /// the vectors it will be compared with, when known: a vector of another length is not
    /// taken from the cache, and not put in it (it is still returned, for the caller to say
    /// what does not fit).
    pub fn vector(
        &self,
        store: &dyn Store,
        embedder: &dyn Embedder,
        query: &str,
        use_: CacheUse,
        expected: Option<usize>,
    ) -> Result<(Vec<f32>, bool), EmbedError> {
        let model = embedder.info().model;
        let key = (model.clone(), query.to_string());
        let fits = |v: &Vec<f32>| check_vectors(std::slice::from_ref(v), expected).is_ok();
        if use_ == CacheUse::ReadWrite {
            let remembered = self.memory.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(&key).cloned();
            if let Some(v) = remembered.filter(fits) {
                return Ok((v, true));
            }
            // A cache read failure is not worth failing the search for.
            if let Ok(Some(v)) = store.cached_query_vector(&model, query)
                && fits(&v)
            {
                self.remember(key, &v);
                return Ok((v, true));
            }
        }
        let vector = embedder.embed_query(query)?;
        if fits(&vector) {
            if let Err(e) = store.cache_query_vector(&model, query, &vector) {
                tracing::debug!(error = %e, "could not cache the query vector");
            }
            self.remember(key, &vector);
        }
        Ok((vector, false))
    }

    fn remember(&self, key: (String, String), vector: &[f32]) {
        self.memory.lock().unwrap_or_else(std::sync::PoisonError::into_inner).put(key, vector.to_vec());
    }
}
