//! `cocosearch model download` and `cocosearch model list`: the built-in embedding models.
//!
//! Downloading ahead of time is how a machine without network gets a model: download where
//! there is network, copy the printed directory, and point `embedding.modelPath` at it.

use std::fmt::Write as _;

use anyhow::Context as _;
use serde_json::json;

use super::args::{JsonArgs, ModelCommand, ModelDownloadArgs};
use super::output::{bytes, pad, print, print_json};
use super::{Context, Exit};
use crate::embed::builtin::{self, Fetched, KnownModel, ModelCache, ModelError, ModelKind, models};

/// Runs one `model` subcommand.
pub fn run(ctx: &Context, cmd: &ModelCommand) -> anyhow::Result<Exit> {
    match cmd {
        ModelCommand::Download(args) => download(ctx, args),
        ModelCommand::List(args) => list(ctx, args),
    }
}

fn cache() -> Result<ModelCache, ModelError> {
    ModelCache::user().ok_or(ModelError::NoCache)
}

/// The model `download` fetches without a name: the configured one when it is built in.
fn default_model(ctx: &Context) -> &'static KnownModel {
    models::find(&ctx.config.settings.embedding.model).unwrap_or_else(models::default_model)
}

fn download(ctx: &Context, args: &ModelDownloadArgs) -> anyhow::Result<Exit> {
    let model = match &args.name {
        Some(name) => {
            models::find(name).ok_or_else(|| ModelError::Unknown { name: name.clone(), known: models::names() })?
        }
        None => default_model(ctx),
    };
    let cache = cache()?;
    let hub = &ctx.config.settings.embedding.hub_url;
    let progress = if args.json { crate::embed::Progress::Hidden } else { ctx.ui.download_progress() };
    let fetched = builtin::ensure(model, &cache, hub, progress)
        .with_context(|| format!("model {} was not downloaded", model.name))?;
    let cached = fetched.cached();
    let downloaded = matches!(fetched, Fetched::Downloaded(_));
    if args.json {
        print_json(&json!({
            "name": model.name,
            "repo": model.repo,
            "revision": model.revision,
            "path": cached.dir,
            "bytes": cached.manifest.bytes(),
            "downloaded": downloaded,
        }))?;
        return Ok(Exit::Success);
    }
    let size = bytes(cached.manifest.bytes());
    let text = if downloaded {
        format!("downloaded {} ({size}, verified) to {}\n", model.name, cached.dir.display())
    } else {
        format!("{} is already cached ({size}) at {}\n", model.name, cached.dir.display())
    };
    print(&text)?;
    Ok(Exit::Success)
}

fn list(ctx: &Context, args: &JsonArgs) -> anyhow::Result<Exit> {
    let cache = ModelCache::user();
    let rows: Vec<(&KnownModel, Option<builtin::Cached>)> =
        models::MODELS.iter().map(|m| (m, cache.as_ref().and_then(|c| c.find(m)))).collect();
    let settings = &ctx.config.settings.embedding;
    let local = settings.model_path.as_ref().map(|dir| (dir, ModelKind::detect(dir)));
    // The local directories this machine used, which indexes of their models find them by.
    let remembered = cache.as_ref().map(builtin::remembered).unwrap_or_default();
    if args.json {
        let items: Vec<_> = rows
            .iter()
            .map(|(m, cached)| {
                json!({
                    "name": m.name,
                    "repo": m.repo,
                    "revision": m.revision,
                    "kind": m.kind.as_str(),
                    "dimension": m.dimension,
                    "context_tokens": m.context_tokens,
                    "license": m.license,
                    "default": m.name == models::default_model().name,
                    "cached": cached.is_some(),
                    "bytes": cached.as_ref().map_or(m.approx_bytes, |c| c.manifest.bytes()),
                    "path": cached.as_ref().map(|c| &c.dir),
                })
            })
            .collect();
        print_json(&json!({
            "cache": cache.as_ref().map(|c| &c.root),
            "model_path": local.as_ref().map(|(dir, kind)| json!({
                "path": dir,
                "kind": kind.as_ref().ok().map(|k| k.as_str()),
                "error": kind.as_ref().err().map(ToString::to_string),
            })),
            "models": items,
            "model_dirs": settings.model_dirs,
            "remembered": remembered.iter().map(|r| json!({"name": r.name, "path": r.path})).collect::<Vec<_>>(),
        }))?;
        return Ok(Exit::Success);
    }
    let mut out = format!(
        "{}{}{}{}{}{}\n",
        pad("MODEL", 19),
        pad("KIND", 13),
        pad("DIM", 6),
        pad("SIZE", 11),
        pad("LICENSE", 12),
        "CACHED"
    );
    for (m, cached) in &rows {
        let name = if m.name == models::default_model().name { format!("{} *", m.name) } else { m.name.to_string() };
        let (size, place) = match cached {
            Some(c) => (bytes(c.manifest.bytes()), c.dir.display().to_string()),
            None => (format!("~{}", bytes(m.approx_bytes)), ctx.ui.dim().apply_to("no").to_string()),
        };
        let _ = writeln!(
            out,
            "{}{}{}{}{}{place}",
            pad(&name, 19),
            pad(m.kind.as_str(), 13),
            pad(&m.dimension.to_string(), 6),
            pad(&size, 11),
            pad(m.license, 12),
        );
    }
    let _ = writeln!(out, "\n* the default of embedding.provider: builtin");
    match &cache {
        Some(c) => {
            let _ = writeln!(out, "cache: {}", c.root.display());
        }
        None => {
            let _ = writeln!(out, "cache: none on this platform (set embedding.modelPath)");
        }
    }
    if let Some((dir, kind)) = &local {
        let what = match kind {
            Ok(kind) => format!("a {} model", kind.as_str()),
            Err(e) => format!("not usable: {e}"),
        };
        let _ = writeln!(out, "embedding.modelPath: {} ({what})", dir.display());
    }
    for dir in &settings.model_dirs {
        let _ = writeln!(out, "embedding.modelDirs: {}", dir.display());
    }
    for r in &remembered {
        let _ = writeln!(out, "used before: {} at {}", r.name, r.path.display());
    }
    print(&out)?;
    Ok(Exit::Success)
}
