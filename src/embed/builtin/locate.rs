//! Which model a built-in embedder runs, named by its files, and where on this machine it is.
//!
//! An index records its model's name, and vectors are comparable only with vectors of the same
//! weights, so a name must always mean the same files. A local directory is named by what
//! cocosearch can vouch for (the manifest of a cached download, a pinned hash: [`identify`]),
//! else by the name the configuration gives it (a built-in name only when the files are of
//! that model's kind), else by the directory's own name — never by a name its files
//! contradict. A directory is used only for the model it holds: `embedding.modelPath` is the
//! model of new indexes, not every index's; an index of another model finds it among
//! `embedding.modelDirs`, the directories this machine used for it before ([`local`]), and the
//! download cache (keyed by name and revision), in that order.
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
    if let Some(dir) = cache.and_then(|c| local::remembered(c, &wanted.name)) {
        return Ok(ModelSource::Local(dir));
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
