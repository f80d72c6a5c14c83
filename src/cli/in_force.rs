//! What the configuration leads to, as `config show`, `config check` and `config init` describe
//! it: the settings table with the embedder the project actually uses, not the registry's
//! defaults (`embedding.model: nomic-embed-text` is Ollama's default, not what an index under
//! `auto` gets).

use crate::config::{EmbeddingSettings, Entry, Provider, Source};
use crate::embed::choose::{self, Reason, Recorded, Whereabouts};
use crate::store::{self, IndexMeta};

use super::Context;

/// The embedder this project's next run uses, and why: the resolution `index` makes
/// (`index::embedding_settings`), reading the index's record when the store exists. Nothing
/// is created to find out.
pub fn embedder(ctx: &Context) -> (EmbeddingSettings, Reason) {
    let record = index_record(ctx);
    let recorded = record.as_ref().map(|m| Recorded { provider: &m.provider, model: m.model.as_deref() });
    choose::in_force(&ctx.config.settings.embedding, recorded)
}

/// The project's index record, when its store exists and holds it.
fn index_record(ctx: &Context) -> Option<IndexMeta> {
    let opened = store::open::open_existing(&ctx.config.settings.database).ok()??;
    opened.store.get_index(&ctx.config.index_name()).ok()?
}

/// The configuration's entries with the embedder's as they are in force under `chosen`: the
/// model it uses, and the server address marked unused when nothing is sent to a server.
pub fn entries(ctx: &Context, chosen: &EmbeddingSettings) -> Vec<Entry> {
    let mut entries = ctx.config.entries();
    for entry in &mut entries {
        if entry.source != Source::Default {
            continue;
        }
        match entry.key {
            "embedding.model" => {
                let model = choose::model_identity(chosen).unwrap_or_else(|_| chosen.model.clone());
                entry.value = Some(serde_json::Value::String(model));
            }
            "embedding.baseUrl" if matches!(chosen.provider, Provider::Builtin | Provider::None) => {
                entry.value = Some(serde_json::Value::String(format!(
                    "(not used: {})",
                    match chosen.provider {
                        Provider::None => "embeddings are off",
                        _ => "the built-in model runs in-process",
                    }
                )));
            }
            _ => {}
        }
    }
    entries
}

/// One line naming the embedder and why it is the one, and where it is when `whereabouts`
/// says so.
pub fn embedder_line(chosen: &EmbeddingSettings, reason: Reason, whereabouts: Whereabouts) -> String {
    format!("{} ({})", choose::describe(chosen, whereabouts), reason.as_text())
}
