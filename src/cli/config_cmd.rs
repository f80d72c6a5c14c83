//! `cocosearch config check | show | path | init`.

use std::fmt::Write as _;

use anyhow::Context as _;
use serde_json::json;

use super::args::ConfigCommand;
use super::output::Ui;
use super::output::{errln, pad, print, print_json, visible, visible_lines};
use super::{Context, Exit, in_force};
use std::path::Path;

use crate::config::{Entry, Env, Provider, Trusted};
use crate::embed::choose::Whereabouts;
use crate::embed::{self, EmbedError};
use crate::store::{self, VectorSupport};

/// Runs one `config` subcommand.
pub fn run(ctx: &Context, cmd: &ConfigCommand) -> anyhow::Result<Exit> {
    match cmd {
        ConfigCommand::Show(a) => show(ctx, a.json),
        ConfigCommand::Path(a) => path(ctx, a.json),
        ConfigCommand::Check(a) => check(ctx, a.json),
        ConfigCommand::Init(a) => init(ctx, a.force),
        // Runs before the configuration is resolved (`cli::run`).
        ConfigCommand::Trust(a) => trust(&ctx.ui, &ctx.env, None, &ctx.cwd, a.json),
    }
}

/// `config trust`: records the project's own cocosearch.yaml as trusted, as it is now.
pub fn trust(ui: &Ui, env: &Env, config_file: Option<&Path>, cwd: &Path, json: bool) -> anyhow::Result<Exit> {
    let trusted = crate::config::trust_project(config_file, env, cwd)?;
    let (status, file, record, text) = match &trusted {
        Trusted::Recorded { file, record } => (
            "trusted",
            Some(file),
            Some(record),
            format!(
                "trusted {} as it is now (recorded in {}); after the file changes, run `cocosearch config trust` again",
                file.display(),
                record.display()
            ),
        ),
        Trusted::Named(file) => (
            "named",
            Some(file),
            None,
            format!("{} is named by you (--config or COCOSEARCH_CONFIG), so it is trusted already", file.display()),
        ),
        Trusted::NoFile => {
            ("no_file", None, None, "no cocosearch.yaml was found in this project: nothing to trust".to_string())
        }
    };
    if json {
        print_json(&json!({ "status": status, "file": file, "record": record }))?;
    } else if !ui.quiet || matches!(trusted, Trusted::NoFile) {
        print(&format!("{text}\n"))?;
    }
    Ok(if matches!(trusted, Trusted::NoFile) { Exit::Failure } else { Exit::Success })
}

fn entry_json(e: &Entry) -> serde_json::Value {
    json!({
        "key": e.key,
        "value": e.value,
        "source": e.source.to_string(),
        "source_kind": e.source.kind(),
        "env": e.env,
    })
}

fn value_text(value: &Option<serde_json::Value>) -> String {
    match value {
        None => "(unset)".to_string(),
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(serde_json::Value::Array(items)) => {
            let items: Vec<String> =
                items.iter().map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string)).collect();
            format!("[{}]", items.join(", "))
        }
        Some(serde_json::Value::Object(groups)) => groups
            .iter()
            .map(|(name, members)| format!("{name}={}", value_text(&Some(members.clone()))))
            .collect::<Vec<_>>()
            .join("; "),
        Some(other) => other.to_string(),
    }
}

fn file_json(ctx: &Context) -> serde_json::Value {
    match &ctx.config.file {
        Some((path, origin)) => json!({
            "path": path,
            "origin": origin.to_string(),
            "untrusted_keys_left_out": ctx.config.untrusted_keys,
        }),
        None => serde_json::Value::Null,
    }
}

/// The project's file as `config show` names it: where it is, how it was found, and what of
/// it is not applied because it is not trusted yet.
fn file_text(ctx: &Context) -> String {
    let Some((path, origin)) = &ctx.config.file else {
        return match ctx.config.user_file {
            Some(_) => "none (the user config, the environment and defaults apply)".to_string(),
            None => "none (the environment and defaults apply)".to_string(),
        };
    };
    let mut text = format!("{} ({origin})", path.display());
    if !ctx.config.untrusted_keys.is_empty() {
        let _ = write!(
            text,
            "\n              not trusted, so not applied: {} — read the file, then `cocosearch config trust`",
            ctx.config.untrusted_keys.join(", ")
        );
    }
    text
}

fn table(ctx: &Context, entries: &[Entry]) -> String {
    let key_width = entries.iter().map(|e| e.key.len()).max().unwrap_or(0) + 2;
    let value_width = entries.iter().map(|e| value_text(&e.value).chars().count()).max().unwrap_or(0).clamp(5, 60);
    let mut out = String::new();
    for e in entries {
        let value = visible(&value_text(&e.value)).into_owned();
        let value = if e.value.is_none() { ctx.ui.dim().apply_to(value).to_string() } else { value };
        let _ = writeln!(
            out,
            // Two blanks after the value even when it is wider than the column.
            "  {}{}  {}",
            pad(e.key, key_width),
            pad(&value, value_width),
            ctx.ui.dim().apply_to(e.source.to_string())
        );
    }
    out
}

fn show(ctx: &Context, as_json: bool) -> anyhow::Result<Exit> {
    let (embedder, reason) = in_force::embedder(ctx);
    let entries = in_force::entries(ctx, &embedder);
    let embedder_text = in_force::embedder_line(&embedder, reason, Whereabouts::Shown);
    // Which store the settings lead to: this probes the default PostgreSQL URL under `auto`,
    // as any command that opens the store would, but creates nothing.
    let backend = match store::open::choose(&ctx.config.settings.database) {
        Ok(choice) => choice.to_string(),
        Err(e) => format!("none ({e})"),
    };
    if as_json {
        print_json(&json!({
            "config_file": file_json(ctx),
            "user_config_file": ctx.config.user_file,
            "project_root": ctx.config.project_root,
            "backend": backend,
            "embedder": embedder_json(&embedder, reason),
            "settings": entries.iter().map(entry_json).collect::<Vec<_>>(),
        }))?;
        return Ok(Exit::Success);
    }
    let mut out = String::new();
    let root = ctx.config.project_root.display().to_string();
    let user = ctx.config.user_file.as_ref().map_or_else(
        || "none (config.yaml in your configuration directory, e.g. ~/.config/cocosearch)".to_string(),
        |path| path.display().to_string(),
    );
    // In order of precedence, as they apply.
    let _ = writeln!(out, "{} {}", ctx.ui.bold().apply_to("User config: "), visible(&user));
    let _ = writeln!(out, "{} {}", ctx.ui.bold().apply_to("Project file:"), visible_lines(&file_text(ctx)));
    let _ = writeln!(out, "{} {}", ctx.ui.bold().apply_to("Project root:"), visible(&root));
    let _ = writeln!(out, "{} {}", ctx.ui.bold().apply_to("Store:       "), visible(&backend));
    let _ = writeln!(out, "{} {}\n", ctx.ui.bold().apply_to("Embedder:    "), visible(&embedder_text));
    out.push_str(&table(ctx, &entries));
    print(&out)?;
    Ok(Exit::Success)
}

fn embedder_json(embedder: &crate::config::EmbeddingSettings, reason: embed::choose::Reason) -> serde_json::Value {
    json!({
        "provider": embedder.provider.as_str(),
        "model": embed::choose::model_identity(embedder).unwrap_or_else(|_| embedder.model.clone()),
        "description": embed::choose::describe(embedder, Whereabouts::Shown),
        "reason": reason.as_text(),
    })
}

/// `config path`: the configuration files read, one per line, the one that wins first (the
/// user's own, then the project's); `none` when neither exists.
fn path(ctx: &Context, as_json: bool) -> anyhow::Result<Exit> {
    if as_json {
        let mut value = file_json(ctx);
        if value.is_null() {
            value = json!({ "path": null, "origin": null });
        }
        value["user_config_file"] = json!(ctx.config.user_file);
        print_json(&value)?;
        return Ok(Exit::Success);
    }
    let files: Vec<&std::path::Path> = ctx
        .config
        .user_file
        .iter()
        .map(|p| p.as_path())
        .chain(ctx.config.file.iter().map(|(p, _)| p.as_path()))
        .collect();
    let text: String = match files.is_empty() {
        true => "none\n".to_string(),
        false => files.iter().map(|p| format!("{}\n", p.display())).collect(),
    };
    print(&text)?;
    Ok(Exit::Success)
}

/// One line of `config check`.
struct Check {
    name: &'static str,
    ok: bool,
    message: String,
    fix: Option<String>,
}

impl Check {
    fn pass(name: &'static str, message: String) -> Check {
        Check { name, ok: true, message, fix: None }
    }

    /// A failure from an error whose text reads "what is wrong — how to fix it".
    fn fail(name: &'static str, text: &str) -> Check {
        let (message, fix) = match text.split_once(" — ") {
            Some((message, fix)) => (message.to_string(), Some(fix.to_string())),
            None => (text.to_string(), None),
        };
        Check { name, ok: false, message, fix }
    }
}

fn check(ctx: &Context, as_json: bool) -> anyhow::Result<Exit> {
    let settings = &ctx.config.settings;
    let (embedder, reason) = in_force::embedder(ctx);
    let shown: Vec<Entry> = in_force::entries(ctx, &embedder)
        .into_iter()
        .filter(|e| {
            matches!(
                e.key,
                "database.backend"
                    | "database.url"
                    | "database.path"
                    | "shared.url"
                    | "shared.index"
                    | "embedding.provider"
                    | "embedding.model"
                    | "embedding.baseUrl"
                    | "embedding.modelPath"
            )
        })
        .collect();

    // The two services are independent: check them at the same time so a dead host costs one
    // timeout, not two.
    let (db_checks, embed_checks) = std::thread::scope(|scope| {
        let db = scope.spawn(|| {
            let mut checks = database_checks(&settings.database);
            checks.extend(shared_check(settings, &ctx.config.index_name()));
            checks
        });
        let embedder = scope.spawn(|| embedder_checks(&embedder, reason, ctx.ui.download_progress()));
        (
            db.join().unwrap_or_else(|_| vec![Check::fail("store", "the store check crashed")]),
            embedder.join().unwrap_or_else(|_| vec![Check::fail("embedder", "the embedder check crashed")]),
        )
    });
    let checks: Vec<Check> = db_checks.into_iter().chain(embed_checks).collect();
    let all_ok = checks.iter().all(|c| c.ok);

    if as_json {
        print_json(&json!({
            "config_file": file_json(ctx),
            "settings": shown.iter().map(entry_json).collect::<Vec<_>>(),
            "checks": checks.iter().map(|c| json!({"name": c.name, "ok": c.ok, "message": c.message, "fix": c.fix})).collect::<Vec<_>>(),
            "ok": all_ok,
        }))?;
    } else {
        let mut out = String::new();
        let _ = writeln!(out, "{}", ctx.ui.bold().apply_to("Connection settings"));
        out.push_str(&table(ctx, &shown));
        let _ = writeln!(out, "\n{}", ctx.ui.bold().apply_to("Checks"));
        for c in &checks {
            let mark = if c.ok { ctx.ui.ok() } else { ctx.ui.fail() };
            let _ = write!(out, "  {mark} {}", c.message);
            if let Some(fix) = &c.fix {
                let _ = write!(out, " — {}", console::style(fix).yellow());
            }
            out.push('\n');
        }
        print(&out)?;
    }
    Ok(if all_ok { Exit::Success } else { Exit::Failure })
}

/// The team's shared index `shared.url` names, if it does: reachable, of this cocosearch's
/// schema, holding the index. Read only, as every use of it.
fn shared_check(settings: &crate::config::Settings, own_index: &str) -> Option<Check> {
    let url = settings.shared.url.as_deref().filter(|u| !u.trim().is_empty())?;
    let index = settings.shared.index.clone().unwrap_or_else(|| own_index.to_string());
    let base = crate::config::DatabaseSettings { url: url.to_string(), ..settings.database.clone() };
    let found = store::overlay::open_base(&base).and_then(|store| Ok((store.get_index(&index)?, store.location())));
    Some(match found {
        Ok((Some(meta), location)) => {
            let model = meta.model.as_deref().unwrap_or("keyword search only");
            Check::pass("shared", format!("shared index {index} at {location} ({model}), read-only"))
        }
        Ok((None, location)) => Check::fail(
            "shared",
            &format!(
                "{location} holds no index named {index} — set shared.index (COCOSEARCH_SHARED_INDEX), or let CI index it first"
            ),
        ),
        Err(e) => Check::fail("shared", &format!("shared index {index}: {e}")),
    })
}

fn database_checks(settings: &crate::config::DatabaseSettings) -> Vec<Check> {
    let choice = match store::open::choose(settings) {
        Ok(choice) => choice,
        Err(e) => return vec![Check::fail("store", &e.to_string())],
    };
    let backend = Check::pass("backend", format!("backend {choice}"));
    // The embedded store is created by the first index, not by a check.
    match store::open::not_yet_created(settings, &choice) {
        Ok(Some((dir, vectors))) => {
            return vec![
                backend,
                Check::pass(
                    "store",
                    format!("the embedded store will be created at {} by the first index", dir.display()),
                ),
                vectors_check(vectors),
            ];
        }
        Ok(None) => {}
        Err(e) => {
            return vec![
                backend,
                Check::fail("store", &e.to_string()),
                Check::fail("vectors", "vector search not checked: the store cannot be created"),
            ];
        }
    }
    let health = match store::open(settings).and_then(|opened| Ok((opened.store.health()?, opened.store.location()))) {
        Ok(health) => health,
        Err(e) => {
            return vec![
                backend,
                Check::fail("store", &e.to_string()),
                Check::fail("vectors", "vector search not checked: the store is not reachable"),
            ];
        }
    };
    let (health, location) = health;
    let store = Check::pass("store", format!("{} reachable at {location}", health.engine));
    vec![backend, store, vectors_check(health.vectors)]
}

fn vectors_check(vectors: VectorSupport) -> Check {
    match vectors {
        VectorSupport::Ready(how) => Check::pass("vectors", format!("vector search: {how}")),
        VectorSupport::OnFirstIndex(how) => {
            Check::pass("vectors", format!("vector search: {how} (set up by the first index)"))
        }
        VectorSupport::Unavailable { problem, fix } => Check::fail("vectors", &format!("{problem} — {fix}")),
    }
}

fn embedder_checks(
    settings: &crate::config::EmbeddingSettings,
    reason: embed::choose::Reason,
    progress: embed::Progress,
) -> Vec<Check> {
    let Some(embedder) = embed::from_settings(settings, progress) else {
        return vec![Check::pass(
            "embedder",
            format!("embeddings off (embedding.provider: {}): keyword search only", Provider::None.as_str()),
        )];
    };
    let info = embedder.info();
    let described =
        format!("embedder {} ({})", embed::choose::describe(settings, Whereabouts::Shown), reason.as_text());
    let in_process = settings.provider == Provider::Builtin;
    match embedder.probe() {
        Ok(model) => {
            let context = model.context_tokens.map(|t| format!(", context {t} tokens")).unwrap_or_default();
            let reached = if in_process { described } else { format!("{described}: reachable") };
            vec![
                Check::pass("embedder", reached),
                Check::pass(
                    "model",
                    format!("model {} available ({} dimensions{context})", model.model, model.dimension),
                ),
            ]
        }
        // The built-in model runs here: what fails is getting its files, not a server.
        Err(e) if in_process => vec![
            Check::pass("embedder", described),
            Check::fail("model", &format!("model {} not available: {e}", info.model)),
        ],
        Err(e @ EmbedError::Unreachable { .. }) => vec![
            Check::fail("embedder", &e.to_string()),
            Check::fail("model", &format!("model {} not checked: the server is not reachable", info.model)),
        ],
        Err(e) => {
            vec![Check::pass("embedder", format!("{described}: reachable")), Check::fail("model", &e.to_string())]
        }
    }
}

fn init(ctx: &Context, force: bool) -> anyhow::Result<Exit> {
    let path = ctx.config.project_root.join("cocosearch.yaml");
    if path.exists() && !force {
        anyhow::bail!("{} already exists — edit it, or pass --force to overwrite it", path.display());
    }
    std::fs::write(&path, starter_yaml(ctx)).with_context(|| format!("cannot write {}", path.display()))?;
    if !ctx.ui.quiet {
        errln!("wrote {}", path.display());
    }
    Ok(Exit::Success)
}

/// The starter `cocosearch.yaml`: what `config init` writes, and `cocosearch init` when the
/// project has none — the index name set, every other key commented out at its value in force.
pub(super) fn starter_yaml(ctx: &Context) -> String {
    let (embedder, reason) = in_force::embedder(ctx);
    // The file is meant to be committed: the embedder is named without where it is on this
    // machine (a model directory, a server's address).
    let line = in_force::embedder_line(&embedder, reason, Whereabouts::Left);
    crate::config::starter_yaml(&in_force::entries(ctx, &embedder), &line)
}
