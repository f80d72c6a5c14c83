//! The query-embedding cache: an in-process LRU (for the long-lived MCP server) in front of a
//! persistent table keyed by model and query (so a repeated CLI search skips the embedder).

use std::num::NonZeroUsize;
use std::sync::Mutex;

use lru::LruCache;

use crate::embed::{EmbedError, Embedder};
use crate::store::Store;

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

    /// The query's vector and whether it came from a cache. `persistent` enables the
    /// database table (`--no-cache` turns it off; the in-memory cache then is bypassed too).
    pub fn vector(
        &self,
        store: &dyn Store,
        embedder: &dyn Embedder,
        query: &str,
        persistent: bool,
    ) -> Result<(Vec<f32>, bool), EmbedError> {
        let model = embedder.info().model;
        let key = (model.clone(), query.to_string());
        if persistent {
            if let Some(v) = self.memory.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(&key) {
                return Ok((v.clone(), true));
            }
            // A cache read failure is not worth failing the search for.
            if let Ok(Some(v)) = store.cached_query_vector(&model, query) {
                self.remember(key, &v);
                return Ok((v, true));
            }
        }
        let vector = embedder.embed_query(query)?;
        if persistent {
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
