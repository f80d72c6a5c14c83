//! `cocosearch-eval`: retrieval quality, measured on three benchmarks, and what an agent reads.
//!
//! * `--tasks FILE.jsonl` — SWE-bench localization: long pasted issues, file and function
//!   Acc@k ([`swebench`]).
//! * `--tasks FILE.jsonl --commits` — commit messages in 19 languages → the files the commit
//!   modified: file Acc@5 and Recall@10 overall, by language and by whether the message names
//!   a gold file (the same runner).
//! * `--agent-cost` (with either of those) — the tokens a scripted agent reads with
//!   `search_code` and without it ([`agent`]).
//! * `--semble DIR` — the multi-language benchmark of short everyday questions (semble's
//!   format: `repos.json` and `annotations/`), file NDCG@10 by category and language, with a
//!   held-out rotation when variants are scored ([`semble`]).
//!
//! Both materialize repositories from local git mirrors ([`repos`]), index them on the
//! configured store with the configured embedder, and run every query in each mode.

mod agent;
mod repos;
mod semble;
mod swebench;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use anyhow::bail;
use clap::Parser;
use cocosearch::config::{Config, EmbeddingSettings, Env, IndexingSettings, Request};
use cocosearch::embed;
use cocosearch::index::{self, IndexRequest, Progress};
use cocosearch::search::{
    Bm25, ContextOptions, FileWeights, FilterSpec, Fixed, Mode, QueryCache, SearchRequest, Tuning,
};
use cocosearch::store::Store;

#[derive(Parser)]
#[command(about = "Retrieval-quality evaluation of cocosearch")]
struct Args {
    /// SWE-bench tasks files (JSONL); repeatable.
    #[arg(long = "tasks", required_unless_present = "semble")]
    tasks: Vec<PathBuf>,
    /// A benchmark of short questions in semble's format (`repos.json`, `annotations/`).
    #[arg(long, conflicts_with = "tasks")]
    semble: Option<PathBuf>,
    /// The tasks are commit messages (`../shared/eval/commits`): repositories indexed whole,
    /// file metrics by language and by `message_names_gold_file`.
    #[arg(long, requires = "tasks")]
    commits: bool,
    /// Also run the scripted agent on each task (search limit 10, else grep and read) and
    /// report the tokens it reads (`<out>-agent-<mode>.jsonl`).
    #[arg(long, requires = "tasks")]
    agent_cost: bool,
    /// With --agent-cost: also run the agent on search_code's compact answer within each of
    /// these token budgets (max_tokens), following `more` to the next page.
    #[arg(long, value_delimiter = ',', requires = "agent_cost")]
    budgets: Vec<usize>,
    /// With --budgets: the hits each budgeted search asks for (its limit).
    #[arg(long, default_value_t = agent::LIMIT, requires = "budgets")]
    budget_limit: usize,
    /// Also write each long question's candidate files with the evidence the learned ranking
    /// weighs (`<out>-features-<mode>.jsonl`, for `scripts/ranker/fit.py`).
    #[arg(long, requires = "tasks")]
    features: bool,
    /// Directory of git mirrors laid out as `owner+name/repo` (what `fetch` produces), or
    /// `owner+name.git`.
    #[arg(long, default_value = "/work/.mirror")]
    mirrors: PathBuf,
    /// Where repositories are materialized.
    #[arg(long, default_value = ".work/eval")]
    work_dir: PathBuf,
    /// Modes to run: keyword, vector, hybrid (the default auto mode), or all.
    #[arg(long, default_value = "all")]
    mode: String,
    /// Write predictions to `<out>-<mode>.jsonl`.
    #[arg(long, default_value = ".work/eval/predictions")]
    out: String,
    /// Hits fetched per query (files and functions are ranked from them).
    #[arg(long, default_value_t = 60)]
    hits: usize,
    /// Also score alternative tunings (`search::Tuning`) side by side.
    #[arg(long)]
    variants: bool,
    /// With `--variants`: only the variants whose name starts with one of these (comma list).
    #[arg(long, value_delimiter = ',')]
    variant: Vec<String>,
    /// Only tasks whose instance_id (or repositories whose name) contains this.
    #[arg(long)]
    only: Option<String>,
}

/// A way of searching scored side by side: its name, the mode and the tuning.
type EvalMode = (&'static str, Mode, Tuning);

/// What every evaluation shares: the store, the embedder and where repositories go.
struct Setup {
    env: Env,
    /// Where the command was started (outputs are relative to it).
    cwd: PathBuf,
    /// Where repositories are materialized, canonical.
    work_dir: PathBuf,
    store: Arc<dyn Store>,
    /// The embedding settings every index is built with.
    embedding: EmbeddingSettings,
    embedder: Option<Arc<dyn embed::Embedder>>,
    embedders: Fixed,
    cache: QueryCache,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let modes = modes(&args)?;
    let setup = setup(&args)?;
    match &args.semble {
        Some(dir) => semble::run(&setup, &args, dir, &modes),
        None => swebench::run(&setup, &args, &modes),
    }
}

/// A search of `query` on `index` in `mode`, as both benchmarks run it: `hits` hits, no
/// context, `definitions` ranked definitions.
fn request(query: &str, index: &str, hits: usize, mode: Mode, definitions: usize) -> SearchRequest {
    SearchRequest {
        query: query.to_string(),
        indexes: vec![index.to_string()],
        limit: hits,
        min_score: 0.0,
        mode,
        filter: FilterSpec::default(),
        context: ContextOptions { smart: false, before: 0, after: 0, max_lines: 50 },
        use_cache: true,
        definitions,
        at: cocosearch::store::At::Current,
    }
}

impl Setup {
    /// The project's configuration as found at `root`, with the evaluation's embedder and
    /// `adjust` applied to the indexing settings.
    fn config(&self, root: &Path, adjust: impl FnOnce(&mut IndexingSettings)) -> anyhow::Result<Config> {
        let mut config = Config::resolve(&Request { config_file: None, cwd: root, overrides: &[], env: &self.env })?;
        adjust(&mut config.settings.indexing);
        config.settings.embedding = self.embedding.clone();
        Ok(config)
    }

    /// Indexes `root` as `name`, incrementally, with the project's configuration as found there,
    /// the evaluation's embedder, and `adjust` applied to the indexing settings.
    fn index(
        &self,
        name: &str,
        root: &Path,
        adjust: impl FnOnce(&mut IndexingSettings),
    ) -> anyhow::Result<index::Summary> {
        let config = self.config(root, adjust)?;
        self.index_with(name, root, &config)
    }

    /// Indexes `root` as `name`, incrementally, with `config` (from [`Setup::config`]).
    fn index_with(&self, name: &str, root: &Path, config: &Config) -> anyhow::Result<index::Summary> {
        let request = IndexRequest {
            name: name.to_string(),
            root: root.to_path_buf(),
            settings: &config.settings,
            fresh: false,
            embedder: self.embedder.as_deref(),
            progress: Arc::new(Progress::default()),
            cancel: Arc::new(AtomicBool::new(false)),
            scope: index::Scope::FullWalk,
            vectors: index::VectorPhase::InRun,
            snapshot: None,
            shared: None,
        };
        Ok(index::run(self.store.as_ref(), &request)?)
    }
}

/// Opens the store and the embedder the configuration names.
fn setup(args: &Args) -> anyhow::Result<Setup> {
    let env = Env::from_process();
    let cwd = cocosearch::config::working_directory()?;
    std::fs::create_dir_all(&args.work_dir)?;
    let work_dir = args.work_dir.canonicalize()?;
    let base = Config::resolve(&Request { config_file: None, cwd: &work_dir, overrides: &[], env: &env })?;
    let opened = cocosearch::store::open(&base.settings.database)?;
    eprintln!("store: {}", opened.choice);
    let store = opened.store;
    store.migrate()?;
    // One embedder for the whole evaluation: the one the configuration names for a new index
    // (COCOSEARCH_EMBEDDING_PROVIDER and the model settings; auto means the built-in default).
    let embedding = embed::choose::for_new_index(&base.settings.embedding);
    let model = embed::choose::model_identity(&embedding)?;
    eprintln!("embedder: {} {model}", embedding.provider.as_str());
    let embedder: Option<Arc<dyn embed::Embedder>> =
        embed::from_settings(&embedding, embed::Progress::Stderr).map(Arc::from);
    let embedders = Fixed(embedder.clone());
    let cache = QueryCache::new(256);

    Ok(Setup { env, cwd, work_dir, store, embedding, embedder, embedders, cache })
}

/// The modes of `--mode`, and with `--variants` the alternative tunings.
fn modes(args: &Args) -> anyhow::Result<Vec<EvalMode>> {
    let default = Tuning::default();
    let mut modes: Vec<EvalMode> = match args.mode.as_str() {
        "all" => vec![
            ("keyword", Mode::Keyword, default),
            ("vector", Mode::Vector, default),
            ("hybrid", Mode::Auto, default),
        ],
        "keyword" => vec![("keyword", Mode::Keyword, default)],
        "vector" => vec![("vector", Mode::Vector, default)],
        "hybrid" => vec![("hybrid", Mode::Auto, default)],
        other => bail!("unknown mode {other}: keyword, vector, hybrid or all"),
    };
    if args.semble.is_some() && matches!(args.mode.as_str(), "all" | "vector") {
        // The embedding model alone, as benchmarks publish it: the nearest chunks, no ranking.
        modes.push((semble::RAW_VECTORS, Mode::Vector, default));
    }
    if args.variants {
        // Alternatives to the defaults, scored side by side on the same indexes: each tuning in
        // hybrid (auto) mode and in keyword-only mode (`keyword-NAME`), as the run's modes ask.
        let hybrid = matches!(args.mode.as_str(), "all" | "hybrid");
        let keyword = matches!(args.mode.as_str(), "all" | "keyword");
        let tunings = if args.semble.is_some() { question_tunings(&default) } else { issue_tunings(&default) };
        let chosen = |name: &str| args.variant.is_empty() || args.variant.iter().any(|v| name.starts_with(v.as_str()));
        for (name, tuning) in tunings.into_iter().filter(|(name, _)| chosen(name)) {
            let name: &'static str = Box::leak(name.into_boxed_str());
            if hybrid {
                modes.push((name, Mode::Auto, tuning));
            }
            if keyword {
                let keyword_name: &'static str = Box::leak(format!("keyword-{name}").into_boxed_str());
                modes.push((keyword_name, Mode::Keyword, tuning));
            }
        }
        if hybrid && args.semble.is_none() {
            // How vectors and keywords weigh for a pasted issue, and its named symbols.
            modes.push(("hybrid-equal", Mode::Hybrid, default));
            modes.push(("sym-first", Mode::Auto, Tuning { long_query_symbols: true, ..default }));
            for weight in [0.0, 0.5, 1.5] {
                let name: &'static str = Box::leak(format!("sym{weight}").into_boxed_str());
                modes.push((name, Mode::Auto, Tuning { long_query_symbol_weight: weight, ..default }));
            }
            for (wv, wk) in [(0.5, 1.0), (1.0, 0.5), (1.0, 1.5), (1.0, 2.0)] {
                let name: &'static str = Box::leak(format!("weights{wv}-{wk}").into_boxed_str());
                modes.push((name, Mode::Auto, Tuning { long_query_weights: (wv, wk), ..default }));
            }
        }
    }

    Ok(modes)
}

/// Alternatives for short questions: what a path says, and file-level evidence.
fn question_tunings(default: &Tuning) -> Vec<(String, Tuning)> {
    let default = *default;
    let mut tunings: Vec<(String, Tuning)> = Vec::new();
    // How flat the fusion is over ranks.
    for k in [2.0, 10.0, 60.0] {
        tunings.push((format!("k{k}"), Tuning { short_query_damping: k, ..default }));
    }
    // Chunk lists fused by score as well as rank.
    for share in [0.0, 0.25, 0.75, 1.0] {
        tunings.push((format!("bs{share}"), Tuning { short_query_by_score: share, ..default }));
    }
    // What a path says.
    for names in [0.5, 0.75, 1.5] {
        tunings.push((format!("names{names}"), Tuning { path_names: names, ..default }));
    }
    // How much a file name's unasked words weaken it.
    for weight in [0.0, 0.25, 1.0] {
        tunings.push((format!("unasked{weight}"), Tuning { unasked_name_word: weight, ..default }));
    }
    // A symbol named inside a sentence: first (0), or evidence of this weight.
    for weight in [0.0, 0.5, 2.0] {
        tunings.push((format!("ss{weight}"), Tuning { sentence_symbol_weight: weight, ..default }));
    }
    // File-level evidence.
    for (keyword, evidence) in [(0.0, 0.5), (0.5, 0.0), (0.5, 1.0), (1.0, 1.0)] {
        let files = FileWeights { keyword, evidence, ..default.files };
        tunings.push((format!("fk{keyword}-fe{evidence}"), Tuning { files, ..default }));
    }
    // Vectors against keywords for plain language.
    for (wv, wk) in [(1.0, 1.0), (1.0, 0.4)] {
        tunings.push((format!("nat{wv}-{wk}"), Tuning { natural_weights: (wv, wk), ..default }));
    }
    for aux in [0.0, 0.7] {
        tunings.push((format!("aux{aux}"), Tuning { auxiliary_penalty: aux, ..default }));
    }
    for notes in [0.25, 0.5, 0.8] {
        tunings.push((format!("notes{notes}"), Tuning { release_notes_penalty: notes, ..default }));
    }
    tunings
}

/// Alternatives for pasted issues: file-level evidence, BM25, prose, keywords, definitions.
fn issue_tunings(default: &Tuning) -> Vec<(String, Tuning)> {
    let default = *default;
    let mut tunings: Vec<(String, Tuning)> = Vec::new();
    // The learned file ranking's share of the scores, and the graph neighbours' own weight.
    for weight in [0.25, 0.5, 0.75, 1.0] {
        tunings.push((format!("learned{weight}"), Tuning { learned_files: weight, ..default }));
    }
    for weight in [0.25, 0.5, 1.0] {
        tunings.push((format!("neighbours{weight}"), Tuning { named_neighbours: weight, ..default }));
    }
    // File-level evidence: keyword evidence over a file's chunks together (fk), files
    // ranked by their best fused chunks (fe), files the query names (mf).
    for fk in [0.0, 0.5, 1.0, 2.0] {
        for fe in [0.0, 0.5, 1.0] {
            for mf in [0.0, 0.5, 1.0, 2.0] {
                let long_query_files = FileWeights { keyword: fk, evidence: fe, mentioned: mf };
                let tuning = Tuning { long_query_files, ..default };
                if tuning != default {
                    tunings.push((format!("fk{fk}-fe{fe}-mf{mf}"), tuning));
                }
            }
        }
    }
    // Functions inside functions among the definitions ranked.
    for weight in [0.0, 0.5, 0.8] {
        tunings.push((format!("defnested{weight}"), Tuning { definition_nested: weight, ..default }));
    }
    // How much more a long question's first line (its title, a commit's subject) counts.
    for extra in [0, 1, 3, 4] {
        tunings.push((format!("summary{extra}"), Tuning { long_query_summary: extra, ..default }));
    }
    // What a long question names as code: its definitions and raise sites (nc), their files
    // and its frames' (nf).
    for nc in [0.0, 0.5, 1.0, 2.0] {
        for nf in [0.0, 0.5, 1.0, 2.0] {
            let tuning = Tuning { named_chunks: nc, named_files: nf, ..default };
            if tuning != default {
                tunings.push((format!("named{nc}-{nf}"), tuning));
            }
        }
    }
    // Definitions the question names, among the definitions ranked.
    for dn in [0.0, 0.25, 0.5, 1.0, 2.0] {
        let tuning = Tuning { definition_named: dn, ..default };
        if tuning != default {
            tunings.push((format!("defnamed{dn}"), tuning));
        }
    }
    // Types among the definitions ranked (their own lines), their scores scaled.
    for dt in [0.0, 0.5, 0.8, 1.0] {
        let tuning = Tuning { definition_types: dt, ..default };
        if tuning != default {
            tunings.push((format!("deftypes{dt}"), tuning));
        }
    }
    // Release notes against a pasted issue or a change's description.
    for notes in [0.25, 0.5, 0.8] {
        tunings.push((format!("notes{notes}"), Tuning { release_notes_penalty: notes, ..default }));
    }
    // A change's description read as a long question from this many words (0: by its length).
    for words in [0, 4, 6] {
        tunings.push((format!("lcw{words}"), Tuning { long_change_words: words, ..default }));
    }
    // How many words make a description (read as a long question).
    for words in [6, 10, 14] {
        tunings.push((format!("lqw{words}"), Tuning { long_query_words: words, ..default }));
    }
    // Code before the rest: auxiliary files (la) and configuration (cp) against a pasted issue.
    for la in [0.0, 0.5, 0.8] {
        for cp in [0.0, 0.5, 0.8] {
            let tuning = Tuning { long_query_auxiliary_penalty: la, config_penalty: cp, ..default };
            if tuning != default {
                tunings.push((format!("roles-la{la}-cp{cp}"), tuning));
            }
        }
    }
    // Big modules: how much a file's length counts against it at file level.
    for (k1, b) in [(1.2, 0.5), (1.2, 0.9), (1.2, 1.0), (2.0, 0.75), (2.0, 1.0), (0.8, 0.9)] {
        let file_bm25 = Bm25 { k1, b };
        if file_bm25 != default.file_bm25 {
            tunings.push((format!("filebm25-{k1}-{b}"), Tuning { file_bm25, ..default }));
        }
    }
    // Chunk-level BM25.
    for (k1, b) in [(1.2, 0.5), (1.2, 0.9), (2.0, 0.75)] {
        let bm25 = Bm25 { k1, b };
        if bm25 != default.bm25 {
            tunings.push((format!("bm25-{k1}-{b}"), Tuning { bm25, ..default }));
        }
    }
    // Prose (release notes, guides) against a pasted issue, alone and with file evidence.
    for penalty in [0.0, 0.3, 0.8] {
        tunings.push((format!("prose{penalty}"), Tuning { long_query_prose_penalty: penalty, ..default }));
        for (fk, fe) in [(0.5, 0.0), (1.0, 0.0), (0.5, 0.5), (0.0, 0.5)] {
            tunings.push((
                format!("prose{penalty}-fk{fk}-fe{fe}"),
                Tuning {
                    long_query_prose_penalty: penalty,
                    long_query_files: FileWeights { keyword: fk, evidence: fe, ..default.long_query_files },
                    ..default
                },
            ));
        }
    }
    // How much a static model's vectors weigh against a pasted issue.
    for weak in [0.0, 0.25, 0.5] {
        tunings.push((format!("weak{weak}"), Tuning { long_query_weak_vectors: weak, ..default }));
    }
    // Keywords kept of a long query, and which are rare enough to select candidates.
    for terms in [16, 48] {
        tunings.push((format!("terms{terms}"), Tuning { long_query_terms: terms, ..default }));
    }
    for share in [0.02, 0.1] {
        tunings.push((format!("rare{share}"), Tuning { rare_share: share, ..default }));
    }
    // Definitions: how many top files, and how much their rank counts beside evidence.
    for (files, prior) in [(3, 0.25), (8, 0.25), (5, 0.1), (5, 0.5)] {
        tunings.push((
            format!("defs{files}-{prior}"),
            Tuning { definition_files: files, definition_file_prior: prior, ..default },
        ));
    }
    // A dotted name defined nowhere: its container's definition.
    for share in [0.25, 0.5, 1.0] {
        tunings.push((format!("container{share}"), Tuning { named_container: share, ..default }));
    }
    // Chunks outside the area a change's scope names.
    for penalty in [0.25, 0.5, 0.8] {
        tunings.push((format!("scope{penalty}"), Tuning { outside_scope_penalty: penalty, ..default }));
    }
    tunings
}
