//! Built-in embeddings: models that run inside the process, with no embedding server.
//!
//! Two kinds behind one [`Embedder`]: **static** models (model2vec: one vector per token,
//! mean-pooled; `static_model.rs`) and **transformer** models (BERT-family safetensors run
//! by the `cocosearch-bert` crate, 8-bit where the CPU allows; `transformer.rs`). A model comes either from the registry of built-in names
//! (`models.rs`), downloaded once from the Hugging Face hub at a pinned revision into the
//! user cache (`download.rs`, `cache.rs`, `verify.rs`), or from a local directory
//! (`embedding.modelPath`, `embedding.modelDirs`, or one this machine used before:
//! `local.rs`), in which case nothing is downloaded. A model is named by its files and found
//! by that name (`locate.rs`), so every index finds its own model whatever the configuration's
//! default is.
//!
//! Architecture invariants: weights are verified before they enter the cache and a partial
//! download never stays there; a model is loaded lazily, once per process, and shared by
//! every embedder that names the same directory; nothing here draws on stdout, and the
//! progress bar is drawn on stderr only when the caller allows it ([`Progress`]).

mod cache;
mod download;
mod identify;
mod local;
mod locate;
pub mod models;
mod static_model;
mod transformer;
mod verify;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

pub use cache::{Cached, MANIFEST, Manifest, ManifestFile, ModelCache};
pub use download::{Fetched, ensure, file_url};
pub use local::{Remembered, all as remembered};
pub use locate::{Wanted, asked, directory_name};
pub use models::{FileCheck, KnownModel, MODELS};

/// The built-in model that trades quality for speed (a static model: a table lookup per token
/// instead of a transformer), named where a slow vector phase says how to go faster.
pub const FAST_MODEL: &str = "potion-code-16m";
pub use cocosearch_bert::Precision;
pub use static_model::StaticEmbedder;
pub use transformer::TransformerEmbedder;
pub use verify::{git_blob_sha1, sha256};

use super::{EmbedError, Embedder, EmbedderInfo, ModelInfo, ModelLimits, Progress};
use crate::config::EmbeddingSettings;

/// The two kinds of in-process model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelKind {
    /// A model2vec model: token vectors, pooled. Fast, weaker.
    Static,
    /// A BERT-family transformer. Slower, stronger.
    Transformer,
}

impl ModelKind {
    /// The name shown to people.
    pub fn as_str(self) -> &'static str {
        match self {
            ModelKind::Static => "static",
            ModelKind::Transformer => "transformer",
        }
    }

    /// The kind of the model in `dir`, from its `config.json`: model2vec writes
    /// `model_type: model2vec` (older exports only `architectures: [StaticModel]`); a
    /// transformer's config names its architecture (`model_type: bert`).
    pub fn detect(dir: &Path) -> Result<ModelKind, ModelError> {
        let path = dir.join("config.json");
        let text = std::fs::read_to_string(&path).map_err(|e| ModelError::Load {
            path: path.clone(),
            reason: format!("{e}; a model directory holds config.json, tokenizer.json and model.safetensors"),
        })?;
        let config: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| ModelError::Load { path: path.clone(), reason: e.to_string() })?;
        let model_type = config.get("model_type").and_then(|v| v.as_str()).unwrap_or_default();
        let static_arch = config
            .get("architectures")
            .and_then(|v| v.as_array())
            .is_some_and(|a| a.iter().any(|v| v.as_str() == Some("StaticModel")));
        match model_type {
            "model2vec" => Ok(ModelKind::Static),
            "bert" => Ok(ModelKind::Transformer),
            _ if static_arch => Ok(ModelKind::Static),
            other => Err(ModelError::Load {
                path,
                reason: format!(
                    "model_type `{other}` is not supported; built-in embeddings run model2vec (static) and BERT (transformer) models"
                ),
            }),
        }
    }
}

/// A failure to find, download, verify or load a model, with the fix.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ModelError {
    /// The name is not a built-in model, nor one a local directory this machine knows holds.
    #[error(
        "unknown built-in model `{name}` — known models: {known}; or a model directory: embedding.modelPath (embedding.modelDirs for several)"
    )]
    Unknown {
        /// The name asked for.
        name: String,
        /// The known names.
        known: String,
    },
    /// `embedding.model` names another model than the files at `embedding.modelPath`, and no
    /// copy of it is on this machine.
    #[error(
        "embedding.model asks for {asked}, but embedding.modelPath ({}) holds {holds}, and no copy of {asked} is on this machine — {}", dir.display(), not_this_model_fix(asked, holds, *downloadable)
    )]
    NotThisModel {
        /// The model asked for.
        asked: String,
        /// The configured directory.
        dir: PathBuf,
        /// What it holds.
        holds: String,
        /// Whether the model asked for is a built-in one, which `cocosearch model download`
        /// fetches.
        downloadable: bool,
    },
    /// The hub cannot be reached.
    #[error(
        "cannot download model {model} from {url} ({reason}) — run `cocosearch model download {model}` on a machine with network and copy the directory it prints, or set embedding.modelPath to a local copy"
    )]
    Unreachable {
        /// The model.
        model: String,
        /// The hub.
        url: String,
        /// Why.
        reason: String,
    },
    /// The hub answered, but not with the file.
    #[error("downloading {url} failed: {reason}")]
    Http {
        /// The URL.
        url: String,
        /// The status or transport error.
        reason: String,
    },
    /// A downloaded file did not match its check; nothing was cached.
    #[error(
        "downloaded {file} of model {model} failed verification ({check}: expected {expected}, got {actual}); nothing was cached — download it again, and if it fails again the hub or a proxy is serving altered files"
    )]
    Corrupt {
        /// The model.
        model: String,
        /// The file.
        file: String,
        /// Which check failed.
        check: &'static str,
        /// What was expected.
        expected: String,
        /// What was found.
        actual: String,
    },
    /// The hub declared no hash for a file that has no pinned one.
    #[error(
        "the hub declared no hash for {file} of model {model}, so it cannot be verified; nothing was cached — check embedding.hubUrl (a mirror must send X-Linked-Etag or ETag like the Hugging Face hub)"
    )]
    Undeclared {
        /// The model.
        model: String,
        /// The file.
        file: String,
    },
    /// A file could not be written or read.
    #[error("cannot use {path}: {reason}")]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// There is no cache directory on this platform.
    #[error("no user cache directory to keep models in — set embedding.modelPath to a model directory")]
    NoCache,
    /// A model directory could not be loaded.
    #[error("cannot load the model at {path}: {reason}")]
    Load {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The model failed while embedding.
    #[error("the built-in model failed: {0}")]
    Inference(String),
}

/// How to resolve [`ModelError::NotThisModel`].
fn not_this_model_fix(asked: &str, holds: &str, downloadable: bool) -> String {
    let get = if downloadable {
        format!("`cocosearch model download {asked}`, or its directory in embedding.modelDirs")
    } else {
        "its directory in embedding.modelDirs".to_string()
    };
    format!("a model is named by its files: unset embedding.model to use {holds}, or make {asked} available ({get})")
}

impl From<ModelError> for EmbedError {
    fn from(e: ModelError) -> EmbedError {
        match e {
            ModelError::Unknown { name, known } => EmbedError::ModelNotFound {
                model: name,
                hint: format!(
                    "built-in models are {known}; a model directory of your own: set embedding.modelPath to it, or list it in embedding.modelDirs beside others"
                ),
            },
            ModelError::NotThisModel { asked, dir, holds, downloadable } => EmbedError::ModelNotFound {
                hint: format!(
                    "embedding.modelPath ({}) holds {holds}, not {asked}; {}",
                    dir.display(),
                    not_this_model_fix(&asked, &holds, downloadable)
                ),
                model: asked,
            },
            ModelError::Load { path, reason } => EmbedError::ModelNotFound {
                model: path.display().to_string(),
                hint: format!("{reason}; fix embedding.modelPath, or remove it to use a downloaded model"),
            },
            ModelError::Unreachable { model, url, reason } => EmbedError::Unreachable {
                provider: HUB,
                url,
                reason,
                hint: format!(
                    "run `cocosearch model download {model}` on a machine with network and copy the directory it prints, or set embedding.modelPath to a local copy"
                ),
            },
            other => EmbedError::Model(other.to_string()),
        }
    }
}

/// The provider name of an unreachable hub in [`EmbedError::Unreachable`].
pub const HUB: &str = "Hugging Face hub";

/// Where a built-in embedder's model comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelSource {
    /// A built-in model, downloaded into the cache on first use.
    Known(&'static KnownModel),
    /// A local directory (`embedding.modelPath`, `embedding.modelDirs`, or one remembered).
    Local(PathBuf),
}

/// A loaded model of either kind (boxed: the transformer's tokenizer is large, and a
/// loaded model lives once per process anyway).
enum Loaded {
    Static(Box<StaticEmbedder>),
    Transformer(Box<TransformerEmbedder>),
}

impl Loaded {
    fn load(dir: &Path, kind: ModelKind) -> Result<Loaded, ModelError> {
        Ok(match kind {
            ModelKind::Static => Loaded::Static(Box::new(StaticEmbedder::load(dir)?)),
            ModelKind::Transformer => Loaded::Transformer(Box::new(TransformerEmbedder::load(dir)?)),
        })
    }

    fn limits(&self) -> ModelLimits {
        match self {
            Loaded::Static(m) => {
                ModelLimits { dimension: Some(m.dimension()), context_tokens: Some(static_model::MAX_TOKENS) }
            }
            Loaded::Transformer(m) => {
                ModelLimits { dimension: Some(m.dimension()), context_tokens: Some(m.max_tokens()) }
            }
        }
    }

    /// Embeds on the embedding pool, never on rayon's global one: the index pipeline parses
    /// on the global pool, and its workers block on a full channel until the embedding stage
    /// catches up, so an embedder that needed them would wait for itself.
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ModelError> {
        embedding_pool().install(|| match self {
            Loaded::Static(m) => Ok(m.embed(texts)),
            Loaded::Transformer(m) => m.embed(texts),
        })
    }
}

/// The threads built-in models compute on, one per core, shared by every model of the
/// process. Work started inside it (model2vec-rs's and tokenizers' parallel iterators,
/// candle's matrix products) stays inside it.
fn embedding_pool() -> &'static rayon::ThreadPool {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("cocosearch-model-{i}"))
            .build()
            .unwrap_or_else(|e| panic!("cannot start the embedding threads: {e}"))
    })
}

/// Models loaded by this process, by directory: every embedder naming one directory shares
/// one copy of its weights.
fn loaded_models() -> &'static Mutex<HashMap<PathBuf, Arc<Loaded>>> {
    static LOADED: std::sync::OnceLock<Mutex<HashMap<PathBuf, Arc<Loaded>>>> = std::sync::OnceLock::new();
    LOADED.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The name an index records for the model `settings` name: a built-in model's own name; for
/// a local directory the model its files are (`locate::directory_name`: a download's manifest,
/// a pinned hash, else the configured `embedding.model`, else the directory's name), so indexes
/// built from the cache and from any copy of it are interchangeable. Fails when
/// `embedding.modelPath` cannot be read as a model.
pub fn model_name(settings: &EmbeddingSettings) -> Result<String, ModelError> {
    Wanted::of(settings).map(|w| w.name)
}

/// Embeds in-process with a built-in or local model.
pub struct BuiltinEmbedder {
    /// The model the settings ask for, or why they name no usable model (reported by every
    /// call, so a typo stops an index run at its model check like an unknown Ollama model
    /// does).
    wanted: Result<Wanted, ModelError>,
    name: String,
    hub: String,
    cache: Option<ModelCache>,
    progress: Progress,
    /// Where the model is, found on first use (after [`Self::with_cache`]) and kept once found;
    /// a model not found is looked for again next time (it may have been downloaded since, for
    /// a server that runs for days).
    source: OnceLock<ModelSource>,
    model: Mutex<Option<Arc<Loaded>>>,
    /// The model's kind, read once (a local model's `config.json`): every search asks for it.
    kind: OnceLock<Option<ModelKind>>,
}

impl BuiltinEmbedder {
    /// An embedder for `settings`; finds and loads nothing until first used.
    pub fn new(settings: &EmbeddingSettings, progress: Progress) -> BuiltinEmbedder {
        let wanted = Wanted::of(settings);
        let name = wanted.as_ref().map_or_else(|_| settings.model.clone(), |w| w.name.clone());
        BuiltinEmbedder {
            wanted,
            name,
            hub: settings.hub_url.clone(),
            cache: ModelCache::user(),
            progress,
            source: OnceLock::new(),
            model: Mutex::new(None),
            kind: OnceLock::new(),
        }
    }

    /// The same embedder with its cache somewhere else (tests, and `cocosearch model` runs
    /// that name one).
    pub fn with_cache(mut self, cache: ModelCache) -> BuiltinEmbedder {
        self.cache = Some(cache);
        self
    }

    /// Where the model comes from, or why the settings name no usable model.
    pub fn source(&self) -> Result<&ModelSource, ModelError> {
        if let Some(found) = self.source.get() {
            return Ok(found);
        }
        let wanted = self.wanted.as_ref().map_err(Clone::clone)?;
        let found = locate::locate(wanted, self.cache.as_ref())?;
        Ok(self.source.get_or_init(|| found))
    }

    /// The model, loaded (and downloaded) on first use.
    fn model(&self) -> Result<Arc<Loaded>, ModelError> {
        let mut slot = self.model.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(model) = slot.as_ref() {
            return Ok(Arc::clone(model));
        }
        let (dir, kind) = match self.source()? {
            ModelSource::Local(dir) => (dir.clone(), ModelKind::detect(dir)?),
            ModelSource::Known(known) => {
                let cache = self.cache.as_ref().ok_or(ModelError::NoCache)?;
                let fetched = download::ensure(known, cache, &self.hub, self.progress)?;
                if let Fetched::Downloaded(c) = &fetched {
                    tracing::info!(model = known.name, path = %c.dir.display(), bytes = c.manifest.bytes(), "model downloaded");
                }
                (fetched.cached().dir.clone(), known.kind)
            }
        };
        // One load per directory per process, even when several embedders ask at once.
        let mut loaded = loaded_models().lock().unwrap_or_else(PoisonError::into_inner);
        let model = match loaded.get(&dir) {
            Some(model) => Arc::clone(model),
            None => {
                let started = std::time::Instant::now();
                let model = Arc::new(Loaded::load(&dir, kind)?);
                tracing::info!(path = %dir.display(), kind = kind.as_str(), elapsed = ?started.elapsed(), "model loaded");
                loaded.insert(dir.clone(), Arc::clone(&model));
                model
            }
        };
        if let Ok(ModelSource::Local(local)) = self.source() {
            self.check_local(local, &model)?;
            if let Some(cache) = &self.cache {
                local::remember(cache, &self.name, local);
            }
        }
        *slot = Some(Arc::clone(&model));
        Ok(model)
    }

    /// A local directory that carries a built-in model's name without files cocosearch can
    /// vouch for (a copy without a manifest of a model pinned by the hub's hashes) is that
    /// model only if its vectors have its dimension.
    fn check_local(&self, dir: &Path, model: &Loaded) -> Result<(), ModelError> {
        let Some(known) = models::find(&self.name) else { return Ok(()) };
        match model.limits().dimension {
            Some(dimension) if dimension != known.dimension => Err(ModelError::Load {
                path: dir.to_path_buf(),
                reason: format!(
                    "its vectors have {dimension} dimensions, {} has {}: these files are not {}",
                    known.name, known.dimension, known.name
                ),
            }),
            _ => Ok(()),
        }
    }
}

impl Embedder for BuiltinEmbedder {
    fn trust(&self) -> crate::embed::VectorTrust {
        // Read once the model is found; until then a model that is not there is trusted in
        // full, which costs nothing (its search has no vectors).
        let kind = match self.kind.get() {
            Some(kind) => *kind,
            None => match self.source() {
                Ok(ModelSource::Known(known)) => *self.kind.get_or_init(|| Some(known.kind)),
                Ok(ModelSource::Local(dir)) => *self.kind.get_or_init(|| ModelKind::detect(dir).ok()),
                Err(_) => None,
            },
        };
        match kind {
            Some(ModelKind::Static) => crate::embed::VectorTrust::Weak,
            _ => crate::embed::VectorTrust::Full,
        }
    }

    fn info(&self) -> EmbedderInfo {
        let url = match self.source() {
            Ok(ModelSource::Local(dir)) => dir.display().to_string(),
            Ok(ModelSource::Known(known)) => self
                .cache
                .as_ref()
                .map_or_else(|| "(no cache directory)".into(), |c| c.dir(known).display().to_string()),
            Err(_) => String::new(),
        };
        EmbedderInfo { provider: "builtin", model: self.name.clone(), url }
    }

    fn probe(&self) -> Result<ModelInfo, EmbedError> {
        let model = self.model()?;
        let limits = model.limits();
        let vectors = model.embed(&["cocosearch dimension probe".to_string()])?;
        let dimension = vectors.first().map_or(0, Vec::len);
        Ok(ModelInfo { model: self.name.clone(), dimension, context_tokens: limits.context_tokens })
    }

    fn limits(&self) -> Result<ModelLimits, EmbedError> {
        Ok(self.model()?.limits())
    }

    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let vectors = self.model()?.embed(texts)?;
        super::check_vectors(&vectors, None)
            .map_err(|fault| fault.into_error(&self.name, || "the model changed under the index".into()))?;
        Ok(vectors)
    }

    fn embed_query(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        let mut vectors = self.model()?.embed(&[text.to_string()])?;
        vectors.pop().filter(|v| !v.is_empty()).ok_or_else(|| EmbedError::Model("empty query vector".into()))
    }
}
