//! Which embedder an index uses: the rule of `embedding.provider: auto`, once.
//!
//! An index's vectors are only comparable with vectors of the model that made them, so the
//! model is part of the index (recorded with it). The rule, for an index run:
//! 1. a configuration that names another embedder than the index records wins — a configured
//!    `embedding.model`, or a provider other than `auto` and the index's;
//! 2. else an existing index keeps the provider and model it was built with: a model directory
//!    (`embedding.modelPath`) is where the model of new indexes is, not every index's model,
//!    and a provider named without a model keeps the index's model of that provider;
//! 3. else a new index (or one that records no model) gets [`for_new_index`]: the model in
//!    `embedding.modelPath`, else the built-in default model, unless the configuration only
//!    makes sense for a server (a model name that is not a built-in model, or
//!    `embedding.baseUrl`), which means Ollama, the default before `auto` existed.
//!
//! A search embeds its query with each index's own model ([`for_query`]), whatever the
//! configuration names, because a query vector of another model scores nonsense; the
//! configuration still supplies how to reach it (server URL, key, local model directory) when
//! it names the same provider and model.

use crate::config::registry::DEFAULT_BUILTIN_MODEL;
use crate::config::{EmbeddingSettings, Origin, Provider};

use super::builtin::{self, ModelError};

/// What an index records about the embedder that built it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recorded<'a> {
    /// The provider's name (`ollama`, `openai`, `builtin`, `none`).
    pub provider: &'a str,
    /// The model's name, when embeddings are on.
    pub model: Option<&'a str>,
}

/// The embedder of a run on an index that records `recorded` (`None`: a new index, or one
/// `--fresh` rebuilds). The result never has provider `auto`.
pub fn for_run(settings: &EmbeddingSettings, recorded: Option<Recorded<'_>>) -> EmbeddingSettings {
    match recorded {
        Some(recorded) if !overrides(settings, recorded) => adopt(settings, recorded),
        _ => for_new_index(settings),
    }
}

/// Whether the configuration names another embedder than the one an index records: a model
/// named, a provider other than the index's, or, for an index that records no model, a model
/// directory.
fn overrides(settings: &EmbeddingSettings, recorded: Recorded<'_>) -> bool {
    settings.model_origin == Origin::Configured
        || (settings.provider != Provider::Auto && Provider::parse(recorded.provider) != Some(settings.provider))
        || (recorded.model.is_none() && settings.model_path.is_some())
}

/// Whether the configuration names an embedder for a new index.
fn names_embedder(settings: &EmbeddingSettings) -> bool {
    settings.provider != Provider::Auto || settings.model_origin == Origin::Configured || settings.model_path.is_some()
}

/// The embedder for a new index. The result never has provider `auto`.
pub fn for_new_index(settings: &EmbeddingSettings) -> EmbeddingSettings {
    if settings.provider != Provider::Auto {
        return settings.clone();
    }
    let configured_model = settings.model_origin == Origin::Configured;
    let provider = if settings.model_path.is_some() {
        Provider::Builtin
    } else if configured_model {
        if builtin::models::find(&settings.model).is_some() { Provider::Builtin } else { Provider::Ollama }
    } else if settings.base_url.is_some() {
        Provider::Ollama
    } else {
        Provider::Builtin
    };
    let mut chosen = settings.clone();
    chosen.provider = provider;
    if provider == Provider::Builtin && !configured_model && settings.model_path.is_none() {
        chosen.model = DEFAULT_BUILTIN_MODEL.to_string();
    }
    chosen
}

/// The embedder for a query against an index that records `recorded`: that index's own
/// provider and model. `provider: none` in the configuration turns query embeddings off.
pub fn for_query(settings: &EmbeddingSettings, recorded: Recorded<'_>) -> EmbeddingSettings {
    if settings.provider == Provider::None {
        return settings.clone();
    }
    let configured = for_new_index(settings);
    let same_provider = Provider::parse(recorded.provider) == Some(configured.provider);
    if same_provider && recorded.model.is_none_or(|m| model_identity(&configured).is_ok_and(|id| id == m)) {
        return configured;
    }
    adopt(settings, recorded)
}

/// The settings that reach the embedder `recorded` names: its provider and model, with the
/// configuration's server URL and local model directory only where they are for that
/// provider and model (the other model directories stay: the embedder looks there for it).
fn adopt(settings: &EmbeddingSettings, recorded: Recorded<'_>) -> EmbeddingSettings {
    let Some(provider) = Provider::parse(recorded.provider).filter(|p| *p != Provider::Auto) else {
        // Not a provider this version knows (a newer one wrote it): the configuration decides.
        return for_new_index(settings);
    };
    let configured = for_new_index(settings);
    let mut chosen = settings.clone();
    chosen.provider = provider;
    if let Some(model) = recorded.model {
        chosen.model = model.to_string();
        chosen.model_origin = Origin::Configured;
    }
    if configured.provider != provider {
        chosen.base_url = None;
    }
    // The directory serves the index only if it holds the index's model, by the name the
    // configuration gives it (never by the name the index asks for, which would make any
    // unnamed directory "hold" it).
    let holds_it = |dir: &std::path::Path| {
        recorded.model.is_none_or(|m| builtin::directory_name(dir, builtin::asked(settings)).is_ok_and(|n| n == m))
    };
    if provider != Provider::Builtin {
        chosen.model_path = None;
    } else if !settings.model_path.as_deref().is_some_and(holds_it) {
        // Still a place to look: a directory remembered for the index's model may have moved
        // there, and its weights, not its name, say so.
        chosen.model_dirs.extend(chosen.model_path.take());
    }
    chosen
}

/// Why the embedder in force is the one it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The configuration names it (a provider, a model or a local model directory).
    Configured,
    /// The project's index was built with it.
    IndexRecord,
    /// `embedding.provider: auto` gives a new index this one.
    NewIndex,
}

impl Reason {
    /// The reason in words, for `config show` and `config check`.
    pub fn as_text(self) -> &'static str {
        match self {
            Reason::Configured => "named by the configuration",
            Reason::IndexRecord => "the project's index was built with it",
            Reason::NewIndex => "embedding.provider auto: what a new index gets",
        }
    }
}

/// The embedder a run on an index recording `recorded` uses ([`for_run`]), with the reason.
pub fn in_force(settings: &EmbeddingSettings, recorded: Option<Recorded<'_>>) -> (EmbeddingSettings, Reason) {
    let reason = match recorded {
        Some(recorded) if !overrides(settings, recorded) => Reason::IndexRecord,
        _ if names_embedder(settings) => Reason::Configured,
        _ => Reason::NewIndex,
    };
    (for_run(settings, recorded), reason)
}

/// Whether a description names where the embedder is: a server's URL (redacted) and a local
/// model's directory are this machine's, not for a file meant to be shared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whereabouts {
    /// Named (`config show`, `config check`).
    Shown,
    /// Left out (the starter `cocosearch.yaml`, committed with the project).
    Left,
}

/// The embedder `chosen` names (a result of [`for_run`]) in words: provider, model and, when
/// `whereabouts` says so, where it runs, its URL redacted — what every description of the
/// embedder prints, so none can drift from the one used.
pub fn describe(chosen: &EmbeddingSettings, whereabouts: Whereabouts) -> String {
    let shown = whereabouts == Whereabouts::Shown;
    match chosen.provider {
        Provider::Builtin => match builtin::Wanted::of(chosen) {
            Ok(wanted) => match wanted.dir {
                Some(dir) if shown => format!("builtin {}, in-process (files at {})", wanted.name, dir.display()),
                _ => format!("builtin {}, in-process", wanted.name),
            },
            Err(e) => format!("builtin, not usable: {e}"),
        },
        Provider::Ollama | Provider::Openai | Provider::Openrouter if shown => {
            // A server's URL may carry credentials: never printed.
            let url = crate::config::redact_url(chosen.effective_base_url());
            format!("{} {} at {url}", chosen.provider.as_str(), chosen.model)
        }
        Provider::Ollama | Provider::Openai | Provider::Openrouter => {
            format!("{} {}", chosen.provider.as_str(), chosen.model)
        }
        Provider::None => "none: keyword search only".to_string(),
        Provider::Auto => describe(&for_new_index(chosen), whereabouts),
    }
}

/// The model name an index built with `settings` records. Fails when a configured model
/// directory cannot be read as a model.
pub fn model_identity(settings: &EmbeddingSettings) -> Result<String, ModelError> {
    match settings.provider {
        Provider::Builtin => builtin::model_name(settings),
        _ => Ok(settings.model.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::registry::DEFAULT_HUB_URL;

    fn settings(provider: Provider) -> EmbeddingSettings {
        EmbeddingSettings {
            provider,
            model: "nomic-embed-text".into(),
            output_dimension: None,
            base_url: None,
            api_key: None,
            model_path: None,
            model_dirs: Vec::new(),
            hub_url: DEFAULT_HUB_URL.into(),
            model_origin: Origin::Default,
            batch_size: 32,
            concurrency: 2,
            timeout: 120,
            query_timeout: 30,
        }
    }

    fn chosen(s: &EmbeddingSettings) -> (Provider, &str) {
        (s.provider, s.model.as_str())
    }

    const OLLAMA_INDEX: Recorded<'static> = Recorded { provider: "ollama", model: Some("all-minilm") };

    #[test]
    fn auto_uses_the_builtin_default_for_a_new_index() {
        let auto = settings(Provider::Auto);
        assert_eq!(chosen(&for_run(&auto, None)), (Provider::Builtin, DEFAULT_BUILTIN_MODEL));
    }

    #[test]
    fn auto_keeps_the_model_an_index_was_built_with() {
        let auto = settings(Provider::Auto);
        let run = for_run(&auto, Some(OLLAMA_INDEX));
        assert_eq!(chosen(&run), (Provider::Ollama, "all-minilm"));
        assert_eq!(run.base_url, None, "the provider's default address");
        let mut with_url = auto.clone();
        with_url.base_url = Some("http://gpu:11434".into());
        assert_eq!(for_run(&with_url, Some(OLLAMA_INDEX)).base_url.as_deref(), Some("http://gpu:11434"));
        let none = Recorded { provider: "none", model: None };
        assert_eq!(for_run(&auto, Some(none)).provider, Provider::None);
    }

    #[test]
    fn a_configured_embedder_wins_over_the_index() {
        let ollama = settings(Provider::Ollama);
        assert_eq!(
            chosen(&for_run(&ollama, Some(Recorded { provider: "builtin", model: Some("x") }))).0,
            Provider::Ollama
        );
        let mut model = settings(Provider::Auto);
        model.model = "all-minilm-l6-v2".into();
        model.model_origin = Origin::Configured;
        assert_eq!(chosen(&for_run(&model, Some(OLLAMA_INDEX))), (Provider::Builtin, "all-minilm-l6-v2"));
        // A server's model name under auto means Ollama, as before auto existed.
        model.model = "nomic-embed-text".into();
        assert_eq!(chosen(&for_run(&model, None)), (Provider::Ollama, "nomic-embed-text"));
        let mut url = settings(Provider::Auto);
        url.base_url = Some("http://localhost:11434".into());
        assert_eq!(chosen(&for_run(&url, None)), (Provider::Ollama, "nomic-embed-text"));
    }

    #[test]
    fn a_model_directory_names_the_model_of_new_indexes_only() {
        let mut dir = settings(Provider::Auto);
        dir.model_path = Some("/nonexistent/models/minilm".into());
        assert_eq!(for_run(&dir, None).provider, Provider::Builtin);
        // An index of another model keeps it; the directory is not for it.
        let static_index = Recorded { provider: "builtin", model: Some("minilm-static") };
        let run = for_run(&dir, Some(static_index));
        assert_eq!(chosen(&run), (Provider::Builtin, "minilm-static"));
        assert_eq!(run.model_path, None, "the directory holds another model");
        assert_eq!(run.model_dirs, dir.model_path.iter().cloned().collect::<Vec<_>>(), "still a place to look");
        assert_eq!(in_force(&dir, Some(static_index)).1, Reason::IndexRecord);
        // An index that records no model gets the directory's.
        let none = Recorded { provider: "none", model: None };
        assert_eq!(for_run(&dir, Some(none)).provider, Provider::Builtin);
        // A provider named without a model keeps the index's model of that provider.
        let mut builtin = dir.clone();
        builtin.provider = Provider::Builtin;
        assert_eq!(chosen(&for_run(&builtin, Some(static_index))), (Provider::Builtin, "minilm-static"));
        assert_eq!(for_run(&builtin, Some(OLLAMA_INDEX)).provider, Provider::Builtin, "another provider wins");
    }

    #[test]
    fn a_query_uses_the_index_own_model() {
        let mut builtin = settings(Provider::Builtin);
        builtin.model = DEFAULT_BUILTIN_MODEL.into();
        builtin.base_url = Some("http://gpu:11434".into());
        let query = for_query(&builtin, OLLAMA_INDEX);
        assert_eq!(chosen(&query), (Provider::Ollama, "all-minilm"));
        assert_eq!(query.base_url, None, "the URL configured was not for this provider");
        let same = for_query(&builtin, Recorded { provider: "builtin", model: Some(DEFAULT_BUILTIN_MODEL) });
        assert_eq!(chosen(&same), (Provider::Builtin, DEFAULT_BUILTIN_MODEL));
        assert_eq!(for_query(&settings(Provider::None), OLLAMA_INDEX).provider, Provider::None);
    }
}
