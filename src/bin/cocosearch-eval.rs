//! `cocosearch-eval`: retrieval quality on real tasks.
//!
//! Reads JSONL tasks `{instance_id, repo, base_commit, query, gold_files, gold_functions}`,
//! materializes each repository at each `base_commit` from a local git mirror (`git archive`),
//! indexes it incrementally from the previous task's commit — exactly what a user's index goes
//! through — runs the query in each mode, ranks files by their best hits and functions as the
//! search ranks definitions ([`cocosearch::search::RankedDefinition`]), writes
//! predictions as JSONL (`{"instance_id", "files", "functions"}`) and prints Acc@k, Recall@k
//! and MRR at file and function level, with the same definitions as `score.py`:
//!
//! * Acc@k: every gold item is in the top k (Agentless / LocAgent / SweRank definition);
//! * Recall@k: the fraction of gold items in the top k;
//! * MRR: 1 / rank of the first gold item (0 when none is ranked).
//!
//! Function level uses gold functions without `<module>` entries and skips tasks with none.
//! Test files are left out of every index the same way for every mode (see `TEST_EXCLUDES`).
//! It also measures the recall of the HNSW index against exact vector search.

use std::collections::{BTreeMap, HashSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use anyhow::{Context as _, bail};
use clap::Parser;
use cocosearch::config::{Config, Env, Request};
use cocosearch::embed;
use cocosearch::index::{self, IndexRequest, Progress};
use cocosearch::search::{Bm25, ContextOptions, FilterSpec, Fixed, Mode, QueryCache, SearchRequest, Searcher, Tuning};
use cocosearch::store::{SearchFilter, VectorAccuracy};

/// Definitions ranked per query (function-level metrics read the first 10).
const FUNCTIONS_RANKED: usize = 20;

/// Globs of test files, left out of every index.
const TEST_EXCLUDES: &[&str] = &["tests", "test", "testing", "test_*.py", "*_test.py", "conftest.py"];

#[derive(Parser)]
#[command(about = "Retrieval-quality evaluation of cocosearch on JSONL tasks")]
struct Args {
    /// Tasks files (JSONL); repeatable.
    #[arg(long = "tasks", required = true)]
    tasks: Vec<PathBuf>,
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
    /// Also score alternative hybrid tunings (`search::Tuning`) side by side.
    #[arg(long)]
    variants: bool,
    /// Only tasks whose instance_id contains this.
    #[arg(long)]
    only: Option<String>,
}

#[derive(serde::Deserialize, Clone)]
struct Task {
    instance_id: String,
    repo: String,
    base_commit: String,
    #[serde(default)]
    base_commit_date: String,
    query: String,
    gold_files: Vec<String>,
    #[serde(default)]
    gold_functions: Vec<String>,
}

#[derive(Default, Clone)]
struct Metrics {
    n: usize,
    mrr: f64,
    acc: [f64; 4],
    recall: [f64; 4],
}

const KS: [usize; 4] = [1, 3, 5, 10];

impl Metrics {
    fn add(&mut self, ranked: &[String], gold: &HashSet<String>) {
        if gold.is_empty() {
            return;
        }
        let mut seen = HashSet::new();
        let ranked: Vec<&String> = ranked.iter().filter(|r| seen.insert(r.as_str())).collect();
        let mut ranks: Vec<usize> =
            gold.iter().map(|g| ranked.iter().position(|r| *r == g).unwrap_or(usize::MAX)).collect();
        ranks.sort_unstable();
        self.n += 1;
        if ranks[0] != usize::MAX {
            self.mrr += 1.0 / (ranks[0] + 1) as f64;
        }
        for (i, k) in KS.iter().enumerate() {
            let hit = ranks.iter().filter(|&&r| r < *k).count();
            if hit == gold.len() {
                self.acc[i] += 1.0;
            }
            self.recall[i] += hit as f64 / gold.len() as f64;
        }
    }

    fn row(&self) -> String {
        let n = self.n.max(1) as f64;
        let pct = |x: f64| format!("{:5.1}", 100.0 * x / n);
        format!(
            "n={:<3} Acc@1 {} @3 {} @5 {} @10 {} | R@1 {} @3 {} @5 {} @10 {} | MRR {}",
            self.n,
            pct(self.acc[0]),
            pct(self.acc[1]),
            pct(self.acc[2]),
            pct(self.acc[3]),
            pct(self.recall[0]),
            pct(self.recall[1]),
            pct(self.recall[2]),
            pct(self.recall[3]),
            pct(self.mrr)
        )
    }
}

fn mirror_for(mirrors: &Path, repo: &str) -> anyhow::Result<PathBuf> {
    let slug = repo.replace('/', "+");
    for candidate in [mirrors.join(&slug).join("repo"), mirrors.join(format!("{slug}.git")), mirrors.join(&slug)] {
        if candidate.join("HEAD").exists() || candidate.join(".git").exists() {
            return Ok(candidate);
        }
    }
    bail!("no git mirror of {repo} under {} (expected {slug}/repo)", mirrors.display())
}

/// Replaces the contents of `dir` with the tree of `commit`.
fn materialize(mirror: &Path, commit: &str, dir: &Path) -> anyhow::Result<()> {
    if dir.exists() {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() { std::fs::remove_dir_all(&path)? } else { std::fs::remove_file(&path)? }
        }
    } else {
        std::fs::create_dir_all(dir)?;
    }
    let archive = Command::new("git")
        .arg("--git-dir")
        .arg(mirror)
        .args(["archive", "--format=tar", commit])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .context("running git archive")?;
    let status = Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(dir)
        .stdin(archive.stdout.context("git archive output")?)
        .status()
        .context("running tar")?;
    if !status.success() {
        bail!("extracting {commit} failed");
    }
    Ok(())
}

fn main() -> anyhow::Result<()> {
    // SAFETY: the first statement of main; no other thread exists yet.
    unsafe { cocosearch::embed::builtin::configure_process(&cocosearch::config::Env::from_process()) };
    let args = Args::parse();
    let mut tasks: Vec<Task> = Vec::new();
    for file in &args.tasks {
        let text = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            tasks.push(serde_json::from_str(line).with_context(|| format!("{}:{}", file.display(), i + 1))?);
        }
    }
    if let Some(only) = &args.only {
        tasks.retain(|t| t.instance_id.contains(only.as_str()));
    }
    // Forward in time per repository: each index run is incremental from the previous commit.
    tasks.sort_by(|a, b| {
        (&a.repo, &a.base_commit_date, &a.instance_id).cmp(&(&b.repo, &b.base_commit_date, &b.instance_id))
    });
    let default = Tuning::default();
    let mut modes: Vec<(&str, Mode, Tuning)> = match args.mode.as_str() {
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
    if args.variants {
        // Alternatives to the defaults, scored side by side on the same indexes: each tuning in
        // hybrid (auto) mode and in keyword-only mode (`keyword-NAME`), as the run's modes ask.
        let hybrid = matches!(args.mode.as_str(), "all" | "hybrid");
        let keyword = matches!(args.mode.as_str(), "all" | "keyword");
        let mut tunings: Vec<(String, Tuning)> = Vec::new();
        // File-level evidence: keyword evidence over a file's chunks together (fk), files
        // ranked by their best fused chunks (fe), files the query names (mf).
        for fk in [0.0, 0.5, 1.0, 2.0] {
            for fe in [0.0, 0.5, 1.0] {
                for mf in [0.0, 0.5, 1.0, 2.0] {
                    let tuning = Tuning { file_keyword: fk, file_evidence: fe, mentioned_files: mf, ..default };
                    if tuning != default {
                        tunings.push((format!("fk{fk}-fe{fe}-mf{mf}"), tuning));
                    }
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
                    Tuning { long_query_prose_penalty: penalty, file_keyword: fk, file_evidence: fe, ..default },
                ));
            }
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
        for (name, tuning) in tunings {
            let name: &'static str = Box::leak(name.into_boxed_str());
            if hybrid {
                modes.push((name, Mode::Auto, tuning));
            }
            if keyword {
                let keyword_name: &'static str = Box::leak(format!("keyword-{name}").into_boxed_str());
                modes.push((keyword_name, Mode::Keyword, tuning));
            }
        }
        if hybrid {
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
    eprintln!("embedder: {} {}", embedding.provider.as_str(), embed::builtin::model_name(&embedding));
    let embedder: Option<Arc<dyn embed::Embedder>> =
        embed::from_settings(&embedding, embed::Progress::Stderr).map(Arc::from);
    let embedders = Fixed(embedder.clone());
    let cache = QueryCache::new(256);

    let mut outputs: BTreeMap<&str, std::fs::File> = BTreeMap::new();
    for (name, _, _) in &modes {
        let path = cwd.join(format!("{}-{name}.jsonl", args.out));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        outputs.insert(name, std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?);
    }
    let mut file_metrics: BTreeMap<(&str, String), Metrics> = BTreeMap::new();
    let mut function_metrics: BTreeMap<(&str, String), Metrics> = BTreeMap::new();
    let mut hit_function_metrics: BTreeMap<(&str, String), Metrics> = BTreeMap::new();
    let mut recall_hits = 0usize;
    let mut recall_total = 0usize;

    let mut skipped_tasks = Vec::new();
    for task in &tasks {
        let slug = task.repo.replace(['/', '-'], "_").to_lowercase();
        let index_name = format!("eval_{slug}");
        let started = std::time::Instant::now();
        // A task that cannot be materialised or indexed (a mirror missing a blob, say) is
        // reported and left out; it never ends the run.
        let prepared = mirror_for(&args.mirrors, &task.repo).and_then(|mirror| {
            let root = work_dir.join(&slug);
            materialize(&mirror, &task.base_commit, &root)?;
            let root = root.canonicalize()?;
            let mut config = Config::resolve(&Request { config_file: None, cwd: &root, overrides: &[], env: &env })?;
            config.settings.indexing.exclude_patterns.extend(TEST_EXCLUDES.iter().map(|s| s.to_string()));
            config.settings.embedding = embedding.clone();
            let summary = index::run(
                store.as_ref(),
                &IndexRequest {
                    name: index_name.clone(),
                    root: root.clone(),
                    settings: &config.settings,
                    fresh: false,
                    embedder: embedder.as_deref(),
                    progress: Arc::new(Progress::default()),
                    cancel: Arc::new(AtomicBool::new(false)),
                    scope: index::Scope::FullWalk,
                },
            )?;
            Ok(summary)
        });
        let summary = match prepared {
            Ok(summary) => summary,
            Err(e) => {
                eprintln!("{} skipped: {e:#}", task.instance_id);
                skipped_tasks.push(task.instance_id.clone());
                continue;
            }
        };
        eprintln!(
            "{} {} indexed in {:.1}s (+{} ~{} -{} files, {} vectors, {} pending)",
            task.instance_id,
            &task.base_commit[..8],
            started.elapsed().as_secs_f64(),
            summary.run.files.added,
            summary.run.files.modified,
            summary.run.files.removed,
            summary.run.embeddings.computed,
            summary.run.embeddings.pending
        );

        for (name, mode, tuning) in &modes {
            let searcher = Searcher { store: store.as_ref(), embedders: &embedders, cache: &cache, tuning: *tuning };
            let request = SearchRequest {
                query: task.query.clone(),
                indexes: vec![index_name.clone()],
                limit: args.hits,
                min_score: 0.0,
                mode: *mode,
                filter: FilterSpec::default(),
                context: ContextOptions { smart: false, before: 0, after: 0, max_lines: 50 },
                use_cache: true,
                definitions: FUNCTIONS_RANKED,
            };
            let response = searcher.search(&request)?;
            let mut files: Vec<String> = Vec::new();
            // For comparison: the definitions in the hits, in hit order.
            let mut hit_functions: Vec<String> = Vec::new();
            for hit in &response.hits {
                if !files.contains(&hit.path) {
                    files.push(hit.path.clone());
                }
                for symbol in hit.symbols.iter().chain(&hit.enclosing) {
                    let f = format!("{}::{symbol}", hit.path);
                    if !hit_functions.contains(&f) {
                        hit_functions.push(f);
                    }
                }
            }
            let functions: Vec<String> =
                response.definitions.iter().map(|d| format!("{}::{}", d.path, d.name)).collect();
            let line = serde_json::json!({
                "instance_id": task.instance_id, "files": files, "functions": functions, "hit_functions": hit_functions
            });
            writeln!(outputs.get_mut(name).context("output")?, "{line}")?;
            let gold_files: HashSet<String> = task.gold_files.iter().cloned().collect();
            let gold_functions: HashSet<String> =
                task.gold_functions.iter().filter(|g| !g.ends_with("::<module>")).cloned().collect();
            for key in [(*name, task.repo.clone()), (*name, "pooled".to_string())] {
                file_metrics.entry(key.clone()).or_default().add(&files, &gold_files);
                function_metrics.entry(key.clone()).or_default().add(&functions, &gold_functions);
                hit_function_metrics.entry(key).or_default().add(&hit_functions, &gold_functions);
            }
        }

        // HNSW recall against exact search, on this task's query.
        if let (Some(e), Some(meta)) = (embedder.as_deref(), store.get_index(&index_name)?)
            && meta.dimension.is_some()
            && let Ok((vector, _)) = cache.vector(
                store.as_ref(),
                e,
                &task.query,
                cocosearch::search::CacheUse::ReadWrite,
                meta.dimension.map(|d| d as usize),
            )
        {
            let k = 10;
            let all = SearchFilter::default();
            let approx = store.vector_search(&index_name, &vector, &all, k, VectorAccuracy::Usual)?;
            let exact = store.vector_search(&index_name, &vector, &all, k, VectorAccuracy::Exact)?;
            let approx: HashSet<i64> = approx.iter().map(|s| s.id).collect();
            recall_hits += exact.iter().filter(|s| approx.contains(&s.id)).count();
            recall_total += exact.len();
        }
    }

    if !skipped_tasks.is_empty() {
        println!("\n{} tasks skipped (not scored): {}", skipped_tasks.len(), skipped_tasks.join(", "));
    }
    println!("\nFile level (test files excluded from every index: {})", TEST_EXCLUDES.join(" "));
    for ((mode, repo), m) in &file_metrics {
        println!("  {mode:<8} {repo:<22} {}", m.row());
    }
    println!("\nFunction level (the search's ranked definitions, search::definitions)");
    for ((mode, repo), m) in &function_metrics {
        println!("  {mode:<8} {repo:<22} {}", m.row());
    }
    println!("\nFunction level, for comparison: the hits' definitions in hit order");
    for ((mode, repo), m) in &hit_function_metrics {
        println!("  {mode:<8} {repo:<22} {}", m.row());
    }
    if recall_total > 0 {
        println!(
            "\nVector recall@10 against exact search: {:.3} over {} queries",
            recall_hits as f64 / recall_total as f64,
            recall_total / 10
        );
    }
    Ok(())
}
