//! SWE-bench localization: retrieval quality on real GitHub issues.
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
//!
//! With `--commits` the tasks are commit messages (`../shared/eval/commits`: the message of a
//! commit → the files it modified, 19 languages): each repository is indexed whole, as a user
//! would index it, and file Acc@5 and Recall@10 are also reported by language (pooled over
//! tasks, and the mean of the languages) and by `message_names_gold_file`. With
//! `--agent-cost`, every task also runs the scripted agent of [`crate::agent`].
//!
//! A task is never dropped silently: one whose repository cannot be materialized or indexed
//! is listed with its reason, and the report says how many ran. A mirror that lacks some
//! blobs of a base commit (Git LFS objects, files too large for it) gives the rest of the tree
//! ([`materialize`]); the report lists the tasks whose tree was partial.

use std::collections::{BTreeMap, HashSet};
use std::io::Write as _;

use anyhow::Context as _;
use cocosearch::search::Searcher;
use cocosearch::store::{SearchFilter, VectorAccuracy};

use crate::agent::{self, AgentCost};
use crate::repos::{self, materialize, mirror_for};
use crate::{Args, EvalMode, Setup, request};

/// Definitions ranked per query (function-level metrics read the first 10).
const FUNCTIONS_RANKED: usize = 20;

/// Globs of test files, left out of every index.
const TEST_EXCLUDES: &[&str] = &["tests", "test", "testing", "test_*.py", "*_test.py", "conftest.py"];

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
    /// Commit tasks: the language of the repository, the commit whose message is the query,
    /// and whether the message spells a gold file's stem.
    #[serde(default)]
    language: Option<String>,
    #[serde(default)]
    commit: Option<String>,
    #[serde(default)]
    message_names_gold_file: Option<bool>,
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

/// Runs every task in every mode and prints the tables.
pub fn run(setup: &Setup, args: &Args, modes: &[EvalMode]) -> anyhow::Result<()> {
    let Setup { cwd, work_dir, store, embedder, embedders, cache, .. } = setup;
    let commits = args.commits;
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

    let mut outputs: BTreeMap<&str, std::fs::File> = BTreeMap::new();
    for (name, _, _) in modes {
        let path = cwd.join(format!("{}-{name}.jsonl", args.out));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        outputs.insert(name, std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?);
    }
    let mut features = if args.features { Some(Features::new(cwd, &args.out, modes)?) } else { None };
    let mut agent = if args.agent_cost {
        Some(AgentCost::new(setup, &args.out, modes, &args.budgets, args.budget_limit)?)
    } else {
        None
    };
    let mut file_metrics: BTreeMap<(&str, String), Metrics> = BTreeMap::new();
    let mut function_metrics: BTreeMap<(&str, String), Metrics> = BTreeMap::new();
    let mut hit_function_metrics: BTreeMap<(&str, String), Metrics> = BTreeMap::new();
    // Commit tasks: by language and by whether the message names a gold file.
    let mut language_metrics: BTreeMap<(&str, String), Metrics> = BTreeMap::new();
    let mut named_metrics: BTreeMap<(&str, bool), Metrics> = BTreeMap::new();
    let mut recall_hits = 0usize;
    let mut recall_total = 0usize;

    let mut skipped_tasks = Vec::new();
    let mut partial_trees = Vec::new();
    let mut ran = 0usize;
    for task in &tasks {
        let slug = repos::slug(&task.repo);
        let index_name = if commits { format!("commits_{slug}") } else { format!("eval_{slug}") };
        let started = std::time::Instant::now();
        // A task that cannot be materialised or indexed is reported and left out; it never
        // ends the run.
        let prepared = mirror_for(&args.mirrors, &task.repo).and_then(|mirror| {
            let root = work_dir.join(&slug);
            let materialized = materialize(&mirror, &task.base_commit, &root)?;
            let root = root.canonicalize()?;
            let config = setup.config(&root, |indexing| {
                if !commits {
                    indexing.exclude_patterns.extend(TEST_EXCLUDES.iter().map(|s| s.to_string()));
                }
            })?;
            let summary = setup.index_with(&index_name, &root, &config)?;
            Ok((mirror, root, config, materialized, summary))
        });
        let (mirror, root, config, materialized, summary) = match prepared {
            Ok(prepared) => prepared,
            Err(e) => {
                eprintln!("{} skipped: {e:#}", task.instance_id);
                skipped_tasks.push(format!("{} ({e:#})", task.instance_id));
                continue;
            }
        };
        if !materialized.missing.is_empty() {
            let gold_missing = task.gold_files.iter().filter(|g| materialized.missing.contains(g)).count();
            eprintln!(
                "{}: the mirror lacks {} blobs of {}: {}",
                task.instance_id,
                materialized.missing.len(),
                &task.base_commit[..8],
                materialized.missing.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
            );
            partial_trees.push(format!(
                "{} ({} files absent{})",
                task.instance_id,
                materialized.missing.len(),
                if gold_missing > 0 { format!(", {gold_missing} of them gold") } else { String::new() }
            ));
        }
        ran += 1;
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

        for (name, mode, tuning) in modes {
            let searcher = Searcher { store: store.as_ref(), embedders, cache, tuning: *tuning };
            let request = request(&task.query, &index_name, args.hits, *mode, FUNCTIONS_RANKED);
            let response = match features.as_mut() {
                Some(features) => {
                    let analysis = searcher.analyze(&request)?;
                    features.write(name, task, &analysis.files)?;
                    analysis.response
                }
                None => searcher.search(&request)?,
            };
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
            if let Some(language) = &task.language {
                language_metrics.entry((*name, language.clone())).or_default().add(&files, &gold_files);
            }
            if let Some(named) = task.message_names_gold_file {
                named_metrics.entry((*name, named)).or_default().add(&files, &gold_files);
            }
        }

        if let Some(agent) = agent.as_mut() {
            let reader = store.reader(&index_name)?;
            let targets = match &task.commit {
                Some(commit) => {
                    let mut changed = BTreeMap::new();
                    for gold in &task.gold_files {
                        changed.insert(gold.clone(), repos::changed_lines(&mirror, &task.base_commit, commit, gold)?);
                    }
                    agent::diff_targets(reader.as_ref(), &changed)?
                }
                None => {
                    let (targets, unresolved) =
                        agent::function_targets(reader.as_ref(), &task.gold_files, &task.gold_functions)?;
                    agent.note_unresolved(&task.instance_id, &targets, unresolved);
                    targets
                }
            };
            let group = task.language.as_deref().unwrap_or(&task.repo);
            agent.task(
                setup,
                &config,
                &index_name,
                &root,
                (&task.instance_id, group, &task.query),
                &task.gold_files,
                &targets,
                modes,
            )?;
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
            let reader = store.reader(&index_name)?;
            let approx = reader.vector_search(&vector, &all, k, VectorAccuracy::Usual)?;
            let exact = reader.vector_search(&vector, &all, k, VectorAccuracy::Exact)?;
            let approx: HashSet<i64> = approx.iter().map(|s| s.id).collect();
            recall_hits += exact.iter().filter(|s| approx.contains(&s.id)).count();
            recall_total += exact.len();
        }
    }

    println!("\n{ran} of {} tasks ran; {} skipped", tasks.len(), skipped_tasks.len());
    if !partial_trees.is_empty() {
        println!(
            "{} tasks ran on a tree without the blobs their mirror lacks: {}",
            partial_trees.len(),
            partial_trees.join(", ")
        );
    }
    if !skipped_tasks.is_empty() {
        println!("\n{} tasks skipped (not scored): {}", skipped_tasks.len(), skipped_tasks.join(", "));
    }
    if commits {
        println!("\nFile level (whole repositories indexed)");
    } else {
        println!("\nFile level (test files excluded from every index: {})", TEST_EXCLUDES.join(" "));
    }
    for ((mode, repo), m) in &file_metrics {
        println!("  {mode:<8} {repo:<22} {}", m.row());
    }
    if function_metrics.values().any(|m| m.n > 0) {
        println!("\nFunction level (the search's ranked definitions, search::definitions)");
        for ((mode, repo), m) in &function_metrics {
            println!("  {mode:<8} {repo:<22} {}", m.row());
        }
        println!("\nFunction level, for comparison: the hits' definitions in hit order");
        for ((mode, repo), m) in &hit_function_metrics {
            println!("  {mode:<8} {repo:<22} {}", m.row());
        }
    }
    if !language_metrics.is_empty() {
        by_language(modes, &language_metrics, &named_metrics, &file_metrics);
    }
    if recall_total > 0 {
        println!(
            "\nVector recall@10 against exact search: {:.3} over {} queries",
            recall_hits as f64 / recall_total as f64,
            recall_total / 10
        );
    }
    if let Some(agent) = &agent {
        agent.report(if commits { "commit tasks" } else { "SWE-bench tasks" });
    }
    Ok(())
}

/// File Acc@5 and Recall@10 by language (each language's tasks pooled), their mean over the
/// languages, all tasks pooled, and the two halves of `message_names_gold_file`.
fn by_language(
    modes: &[EvalMode],
    languages: &BTreeMap<(&str, String), Metrics>,
    named: &BTreeMap<(&str, bool), Metrics>,
    pooled: &BTreeMap<(&str, String), Metrics>,
) {
    let names: Vec<&str> = modes.iter().map(|(name, _, _)| *name).collect();
    let mut langs: Vec<&String> = languages.keys().map(|(_, l)| l).collect();
    langs.sort_unstable();
    langs.dedup();
    let cell = |m: Option<&Metrics>| match m {
        Some(m) if m.n > 0 => format!("{:5.1} {:5.1}", 100.0 * m.acc[2] / m.n as f64, 100.0 * m.recall[3] / m.n as f64),
        _ => format!("{:>5} {:>5}", "-", "-"),
    };
    println!("\nFile level by language: Acc@5 and Recall@10 (%)");
    print!("  {:<26} {:>4}", "language", "n");
    for name in &names {
        print!("  {name:>11}");
    }
    println!();
    for lang in &langs {
        let n = languages.get(&(names[0], (*lang).clone())).map_or(0, |m| m.n);
        print!("  {lang:<26} {n:>4}");
        for name in &names {
            print!("  {}", cell(languages.get(&(*name, (*lang).clone()))));
        }
        println!();
    }
    print!("  {:<26} {:>4}", "mean of the languages", langs.len());
    for name in &names {
        let of: Vec<&Metrics> = langs.iter().filter_map(|l| languages.get(&(*name, (*l).clone()))).collect();
        let mean = |f: &dyn Fn(&Metrics) -> f64| of.iter().map(|m| f(m)).sum::<f64>() / of.len().max(1) as f64;
        print!(
            "  {:5.1} {:5.1}",
            mean(&|m| 100.0 * m.acc[2] / m.n.max(1) as f64),
            mean(&|m| 100.0 * m.recall[3] / m.n.max(1) as f64)
        );
    }
    println!();
    let all = pooled.get(&(names[0], "pooled".to_string())).map_or(0, |m| m.n);
    print!("  {:<26} {all:>4}", "all tasks pooled");
    for name in &names {
        print!("  {}", cell(pooled.get(&(*name, "pooled".to_string()))));
    }
    println!();
    for half in [true, false] {
        let n = named.get(&(names[0], half)).map_or(0, |m| m.n);
        print!("  {:<26} {n:>4}", format!("message_names_gold_file={half}"));
        for name in &names {
            print!("  {}", cell(named.get(&(*name, half))));
        }
        println!();
    }
}

/// The learned ranking's training rows (`--features`): per task and mode, the candidate files
/// of a long question with their evidence and whether each is gold, as JSONL
/// (`<out>-features-<mode>.jsonl`, read by `scripts/ranker/fit.py`).
struct Features {
    outputs: BTreeMap<String, std::fs::File>,
}

impl Features {
    fn new(cwd: &std::path::Path, out: &str, modes: &[EvalMode]) -> anyhow::Result<Features> {
        let mut outputs = BTreeMap::new();
        for (name, _, _) in modes {
            let path = cwd.join(format!("{out}-features-{name}.jsonl"));
            outputs.insert(
                name.to_string(),
                std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?,
            );
        }
        Ok(Features { outputs })
    }

    fn write(&mut self, mode: &str, task: &Task, rows: &[cocosearch::search::learned::FileRow]) -> anyhow::Result<()> {
        let names: Vec<String> = cocosearch::search::learned::FEATURES.iter().map(|f| format!("{f:?}")).collect();
        let line = serde_json::json!({
            "instance_id": task.instance_id,
            "repo": task.repo,
            "language": task.language,
            "gold_files": task.gold_files,
            "features": names,
            "files": rows.iter().map(|r| &r.path).collect::<Vec<_>>(),
            "x": rows.iter().map(|r| r.features.to_vec()).collect::<Vec<_>>(),
        });
        writeln!(self.outputs.get_mut(mode).context("output")?, "{line}")?;
        Ok(())
    }
}
