//! Which model a built-in embedder runs, named by its files, and where on this machine it is.
//!
//! An index records its model's name, and vectors are comparable only with vectors of the same
//! weights, so a name must always mean the same files. A local directory is named by what
//! cocosearch can vouch for (the manifest of a cached download, a pinned hash: [`identify`]),
//! else by the name the configuration gives it (a built-in name only when the files are of
//! that model's kind, and of its dimension once loaded), else by the directory's own name —
//! never by a name its files contradict. A directory is used only for the model it holds:
//! `embedding.modelPath` is the model of new indexes, not every index's; an index of another
//! model finds it among `embedding.modelDirs`, the directories this machine used for it before
//! ([`local`]; one moved is known by its weights), and the download cache (keyed by name and
//! revision), in that order.
//!
//! [`identify`]: super::identify
//! [`local`]: super::local

use std::path::{Path, PathBuf};

use super::cache::ModelCache;
use super::{ModelError, ModelKind, ModelSource, identify, local, models};
use crate::config::{EmbeddingSettings, Origin};

/// The model a configuration asks a built-in embedder for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    /// Its name, as an index records it.
    pub name: String,
    /// `embedding.modelPath`, when that directory holds it.
    pub dir: Option<PathBuf>,
    /// `embedding.modelDirs`: where else to look.
    dirs: Vec<PathBuf>,
    /// `embedding.modelPath` and what it holds, when the model asked for is another one. Then
    /// nothing is downloaded (a configured model directory is the offline route): a copy of the
    /// model asked for is found on this machine, or this is the error, naming both.
    instead_of: Option<(PathBuf, String)>,
}

impl Wanted {
    /// The model `settings` ask for. Fails when `embedding.modelPath` cannot be read as a
    /// model.
    pub fn of(settings: &EmbeddingSettings) -> Result<Wanted, ModelError> {
        let asked = asked(settings);
        let dirs = settings.model_dirs.clone();
        let Some(dir) = &settings.model_path else {
            let name = canonical(&settings.model);
            return Ok(Wanted { name, dir: None, dirs, instead_of: None });
        };
        let holds = directory_name(dir, asked)?;
        Ok(match asked {
            Some(asked) if !same_model(&holds, asked) => Wanted {
                name: canonical(asked),
                dir: None,
                dirs,
                instead_of: Some((dir.clone(), describe_holding(dir, &holds))),
            },
            _ => Wanted { name: holds, dir: Some(dir.clone()), dirs, instead_of: None },
        })
    }
}

/// The model name `settings` configure, if one is configured.
pub fn asked(settings: &EmbeddingSettings) -> Option<&str> {
    (settings.model_origin == Origin::Configured).then_some(settings.model.as_str())
}

/// The name the model in `dir` goes by when the configuration calls it `asked`: what its files
/// say (a cached download's manifest, a built-in model's pinned hash), else `asked` (a built-in
/// name only when the files are of that model's kind), else the directory's own name.
pub fn directory_name(dir: &Path, asked: Option<&str>) -> Result<String, ModelError> {
    if let Some(name) = identify::vouched_name(dir) {
        return Ok(name);
    }
    match asked.map(|a| (a, models::find(a))) {
        Some((_, Some(known))) if ModelKind::detect(dir)? == known.kind => Ok(known.name.to_string()),
        Some((asked, None)) => Ok(asked.to_string()),
        Some((_, Some(_))) | None => Ok(own_name(dir)),
    }
}

/// Where the model `wanted` names is on this machine (`cache`: the download cache, which also
/// remembers the local directories used before).
pub fn locate(wanted: &Wanted, cache: Option<&ModelCache>) -> Result<ModelSource, ModelError> {
    if let Some(dir) = &wanted.dir {
        return Ok(ModelSource::Local(dir.clone()));
    }
    let listed = wanted.dirs.iter().find(|dir| directory_name(dir, None).is_ok_and(|name| name == wanted.name));
    if let Some(dir) = listed {
        return Ok(ModelSource::Local(dir.clone()));
    }
    if let Some(remembered) = cache.and_then(|c| local::entry(c, &wanted.name)) {
        if remembered.holds(&remembered.path) {
            return Ok(ModelSource::Local(remembered.path));
        }
        // The directory moved, or took another name: a configured one with the same weights
        // is the same model.
        if let Some(dir) = wanted.dirs.iter().find(|dir| remembered.holds(dir)) {
            return Ok(ModelSource::Local(dir.clone()));
        }
    }
    match (models::find(&wanted.name), &wanted.instead_of) {
        (Some(known), None) => Ok(ModelSource::Known(known)),
        (Some(known), Some(_)) if cache.is_some_and(|c| c.find(known).is_some()) => Ok(ModelSource::Known(known)),
        (_, Some((dir, holds))) => Err(ModelError::NotThisModel {
            asked: wanted.name.clone(),
            dir: dir.clone(),
            holds: holds.clone(),
            downloadable: models::find(&wanted.name).is_some(),
        }),
        (None, None) => Err(ModelError::Unknown { name: wanted.name.clone(), known: models::names() }),
    }
}

/// A built-in model's own name for `name` (its Hugging Face id, another case), else `name`.
fn canonical(name: &str) -> String {
    models::find(name).map_or_else(|| name.to_string(), |known| known.name.to_string())
}

/// Whether the name `asked` is the model called `name`.
fn same_model(name: &str, asked: &str) -> bool {
    models::find(asked).map_or(asked == name, |known| known.name == name)
}

/// The name of the directory itself, the last resort of a model nothing else names.
fn own_name(dir: &Path) -> String {
    dir.file_name().map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// What a directory holds, for a message: its name and, when readable, its kind.
fn describe_holding(dir: &Path, name: &str) -> String {
    match ModelKind::detect(dir) {
        Ok(kind) => format!("{name} (a {} model)", kind.as_str()),
        Err(_) => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model directory of the static kind whose weights are `weights`.
    fn model_dir(parent: &Path, name: &str, weights: &[u8]) -> PathBuf {
        let dir = parent.join(name);
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("config.json"), r#"{"model_type": "model2vec"}"#).expect("config");
        std::fs::write(dir.join("model.safetensors"), weights).expect("weights");
        dir
    }

    fn wanted(name: &str, dirs: &[&Path]) -> Wanted {
        Wanted { name: name.into(), dir: None, dirs: dirs.iter().map(|d| d.to_path_buf()).collect(), instead_of: None }
    }

    #[test]
    fn a_model_is_found_by_its_name_or_its_weights_never_by_a_name_asked_for_other_files() {
        let root = tempfile::tempdir().expect("tempdir");
        let cache = ModelCache { root: root.path().join("cache") };
        let mine = model_dir(root.path(), "mine", b"weights of mine");
        let other = model_dir(root.path(), "other", b"other weights");
        // Listed directories are matched by their own name.
        let found = locate(&wanted("mine", &[&other, &mine]), Some(&cache)).ok();
        assert_eq!(found, Some(ModelSource::Local(mine.clone())));
        // An unknown name found nowhere is an error naming the fix.
        let missing = locate(&wanted("absent", &[&other]), Some(&cache));
        assert!(matches!(missing, Err(ModelError::Unknown { .. })), "{missing:?}");
        // A directory used before is found without being listed; moved, it is found among the
        // listed directories by its weights.
        local::remember(&cache, "mine", &mine);
        let canonical = mine.canonicalize().expect("canonical");
        assert_eq!(locate(&wanted("mine", &[]), Some(&cache)).ok(), Some(ModelSource::Local(canonical)));
        let moved = root.path().join("renamed");
        std::fs::rename(&mine, &moved).expect("rename");
        assert_eq!(locate(&wanted("mine", &[&other, &moved]), Some(&cache)).ok(), Some(ModelSource::Local(moved)));
        // A name asked for other files is that model, not these files.
        let settings = |model: &str| EmbeddingSettings {
            provider: crate::config::Provider::Builtin,
            model: model.into(),
            output_dimension: None,
            base_url: None,
            api_key: None,
            batch_size: 32,
            concurrency: 2,
            timeout: 60,
            model_path: Some(other.clone()),
            model_dirs: Vec::new(),
            hub_url: crate::config::registry::DEFAULT_HUB_URL.into(),
            model_origin: Origin::Configured,
            query_timeout: 30,
        };
        let asked = Wanted::of(&settings("all-minilm-l6-v2")).expect("readable");
        assert_eq!(asked.name, "all-minilm-l6-v2");
        assert_eq!(asked.dir, None, "a static directory is no transformer");
        let named = Wanted::of(&settings("my-static")).expect("readable");
        assert_eq!((named.name.as_str(), named.dir.as_deref()), ("my-static", Some(other.as_path())));
    }
}
