//! Which embedder turns a query into a vector for each index searched.
//!
//! A query vector only means something next to vectors of the same model, so a search embeds
//! its query with each index's own model (`embed::choose::for_query`), also when one search
//! covers several indexes built with different models; indexes of one model share one query
//! embedding. [`QueryEmbedders`] is that choice as the searcher sees it: [`Configured`]
//! applies the rule to the configuration (the CLI, the evaluation), the MCP server answers
//! from its own cache of embedders, and [`Fixed`] hands every index one embedder (benchmarks
//! that compare embedders).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::config::EmbeddingSettings;
use crate::embed::choose::{self, Recorded};
use crate::embed::{self, Embedder, Progress};
use crate::store::IndexMeta;

/// The embedder for queries against an index.
pub trait QueryEmbedders: Sync {
    /// The embedder for queries against `index`, or `None` when embeddings are off.
    fn for_index(&self, index: &IndexMeta) -> Option<Arc<dyn Embedder>>;
}

/// Each index's own model, reached through the configuration; embedders are built once per
/// distinct choice.
pub struct Configured {
    settings: EmbeddingSettings,
    progress: Progress,
    built: Mutex<HashMap<String, Option<Arc<dyn Embedder>>>>,
}

impl Configured {
    /// Embedders for `settings`; `progress` says whether a model download may draw on stderr.
    pub fn new(settings: &EmbeddingSettings, progress: Progress) -> Configured {
        Configured { settings: settings.clone(), progress, built: Mutex::new(HashMap::new()) }
    }
}

/// The embedding settings for queries against `index` (the rule is `embed::choose`'s).
pub fn settings_for(settings: &EmbeddingSettings, index: &IndexMeta) -> EmbeddingSettings {
    choose::for_query(settings, Recorded { provider: &index.provider, model: index.model.as_deref() })
}

impl QueryEmbedders for Configured {
    fn for_index(&self, index: &IndexMeta) -> Option<Arc<dyn Embedder>> {
        let chosen = settings_for(&self.settings, index);
        let key = serde_json::to_string(&chosen).unwrap_or_default();
        let mut built = self.built.lock().unwrap_or_else(PoisonError::into_inner);
        built.entry(key).or_insert_with(|| embed::from_settings(&chosen, self.progress).map(Arc::from)).clone()
    }
}

/// One embedder for every index, whatever built it.
pub struct Fixed(pub Option<Arc<dyn Embedder>>);

impl QueryEmbedders for Fixed {
    fn for_index(&self, _index: &IndexMeta) -> Option<Arc<dyn Embedder>> {
        self.0.clone()
    }
}
