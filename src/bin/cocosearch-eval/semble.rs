//! The multi-language benchmark of short everyday questions, in semble's format: `repos.json`
//! (name, language, clone URL, pinned `revision`, `benchmark_root`) and `annotations/<name>.json`
//! (`query`, `category`, `relevant`, `secondary`).
//!
//! Each repository is materialized from its mirror at `revision` (a missing commit falls back to
//! the mirror's default branch, and the output says so), and its `benchmark_root` subtree is
//! indexed with the source files of the repository's language only. Every query runs in each
//! mode and is scored with the benchmark's metric, file NDCG@10: the hits reduced to distinct
//! files in rank order, the first 10 kept; each `relevant` or `secondary` path is a target of
//! gain 1, ranked where the first result file ending with it is; DCG = Σ 1/log2(rank+1) over the
//! targets in the top 10, divided by the ideal DCG of min(10, targets) targets at ranks 1, 2, ….
//!
//! Repositories weigh equally in the overall figure and in each language's; a category's figure
//! averages its queries. With `--variants`, a held-out rotation picks, for each repository, the
//! variant best on the *other* repositories and reports its score on the one held out: a change
//! that wins only where it was chosen is tuning to these questions, not an improvement.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;

use anyhow::{Context as _, bail};
use cocosearch::chunk::Language;
use cocosearch::search::Searcher;
use cocosearch::store::{SearchFilter, VectorAccuracy};

use crate::repos::{has_commit, materialize, mirror_for};
use crate::{Args, EvalMode, Setup, request};

/// Files scored per query.
const TOP_FILES: usize = 10;

#[derive(serde::Deserialize)]
struct Repo {
    name: String,
    language: String,
    url: String,
    revision: String,
    #[serde(default)]
    benchmark_root: Option<String>,
}

#[derive(serde::Deserialize)]
struct Query {
    query: String,
    category: String,
    relevant: Vec<Target>,
    #[serde(default)]
    secondary: Vec<Target>,
}

/// A relevant file: its path, or its path with the lines that matter (scored by file).
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Target {
    Path(String),
    Span { path: String },
}

impl Target {
    fn path(&self) -> &String {
        match self {
            Target::Path(path) | Target::Span { path } => path,
        }
    }
}

/// One query's score in one mode.
struct Scored {
    repo: usize,
    category: String,
    ndcg: f64,
}

/// Runs every repository's queries in every mode and prints the tables.
pub fn run(setup: &Setup, args: &Args, dir: &Path, modes: &[EvalMode]) -> anyhow::Result<()> {
    let listed = dir.join("repos.json");
    let text = std::fs::read_to_string(&listed).with_context(|| format!("reading {}", listed.display()))?;
    let mut repos: Vec<Repo> = serde_json::from_str(&text).with_context(|| format!("parsing {}", listed.display()))?;
    if let Some(only) = &args.only {
        repos.retain(|r| r.name.contains(only.as_str()));
    }
    let mut outputs = BTreeMap::new();
    for (name, _, _) in modes {
        let path = setup.cwd.join(format!("{}-{name}.jsonl", args.out));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        outputs.insert(*name, std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?);
    }
    let mut scores: BTreeMap<&str, Vec<Scored>> = BTreeMap::new();
    for (r, repo) in repos.iter().enumerate() {
        let index_name = prepare(setup, args, repo)?;
        let file = dir.join("annotations").join(format!("{}.json", repo.name));
        let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
        let queries: Vec<Query> = serde_json::from_str(&text).with_context(|| format!("parsing {}", file.display()))?;
        let prefix = repo.benchmark_root.as_deref().map(|root| format!("{}/", root.trim_end_matches('/')));
        for (name, mode, tuning) in modes {
            let searcher = Searcher {
                store: setup.store.as_ref(),
                embedders: &setup.embedders,
                cache: &setup.cache,
                tuning: *tuning,
            };
            for q in &queries {
                let paths = if *name == RAW_VECTORS {
                    nearest_chunks(setup, &index_name, &q.query, args.hits)?
                } else {
                    let request = request(&q.query, &index_name, args.hits, *mode, 0);
                    searcher.search(&request)?.hits.into_iter().map(|hit| hit.path).collect()
                };
                let mut files: Vec<String> = Vec::new();
                for path in paths {
                    let path = format!("{}{}", prefix.as_deref().unwrap_or(""), path);
                    if !files.contains(&path) {
                        files.push(path);
                    }
                }
                files.truncate(TOP_FILES);
                let targets: Vec<&String> = q.relevant.iter().chain(&q.secondary).map(Target::path).collect();
                let ndcg = ndcg(&files, &targets);
                let line = serde_json::json!({
                    "repo": repo.name, "query": q.query, "category": q.category, "files": files, "ndcg": ndcg
                });
                writeln!(outputs.get_mut(name).context("output")?, "{line}")?;
                scores.entry(name).or_default().push(Scored { repo: r, category: q.category.clone(), ndcg });
            }
        }
    }
    report(&repos, modes, &scores);
    Ok(())
}

/// The mode that scores the embedding model alone ([`nearest_chunks`]).
pub const RAW_VECTORS: &str = "vector-raw";

/// The paths of the `limit` chunks nearest to `query`'s vector, every vector compared: what
/// the model finds with no keyword, file or name evidence and no ranking stage.
fn nearest_chunks(setup: &Setup, index: &str, query: &str, limit: usize) -> anyhow::Result<Vec<String>> {
    let embedder = setup.embedder.as_ref().context("vector-raw needs an embedder")?;
    let vector = embedder.embed_query(query)?;
    let reader = setup.store.reader(index)?;
    let hits = reader.vector_search(&vector, &SearchFilter::default(), limit, VectorAccuracy::Exact)?;
    Ok(hits.into_iter().map(|hit| hit.path).collect())
}

/// Materializes and indexes one repository; returns its index's name.
fn prepare(setup: &Setup, args: &Args, repo: &Repo) -> anyhow::Result<String> {
    let started = std::time::Instant::now();
    let owner_name = repo_slug(&repo.url).with_context(|| format!("{}: no owner/name in {}", repo.name, repo.url))?;
    let mirror = mirror_for(&args.mirrors, &owner_name)?;
    let commit = if has_commit(&mirror, &repo.revision) {
        repo.revision.clone()
    } else {
        eprintln!("{}: the mirror lacks {}; using its default branch", repo.name, repo.revision);
        "HEAD".to_string()
    };
    let root = setup.work_dir.join("semble").join(&repo.name);
    // Materialized once per commit: a later run indexes the same files, unchanged.
    let stamp = setup.work_dir.join("semble").join(format!("{}.commit", repo.name));
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(commit.as_str()) {
        let written = materialize(&mirror, &commit, &root)?;
        if !written.missing.is_empty() {
            eprintln!(
                "{}: the mirror lacks {} blobs at {commit}; indexed without them",
                repo.name,
                written.missing.len()
            );
        }
        std::fs::write(&stamp, &commit)?;
    }
    let index_root = match &repo.benchmark_root {
        Some(sub) => root.join(sub),
        None => root,
    }
    .canonicalize()?;
    let globs = source_globs(&repo.language)?;
    let index_name = format!("semble_{}", repo.name.replace(|c: char| !c.is_ascii_alphanumeric(), "_"));
    let summary = setup.index(&index_name, &index_root, |indexing| indexing.include_patterns = globs)?;
    eprintln!(
        "{} ({}) at {}: indexed in {:.1}s ({} files, +{} ~{} -{}, {} vectors)",
        repo.name,
        repo.language,
        &commit[..commit.len().min(8)],
        started.elapsed().as_secs_f64(),
        summary.run.files.discovered,
        summary.run.files.added,
        summary.run.files.modified,
        summary.run.files.removed,
        summary.run.embeddings.computed
    );
    Ok(index_name)
}

/// `owner/name` of a GitHub clone URL.
fn repo_slug(url: &str) -> Option<String> {
    let path = url.trim_end_matches('/').trim_end_matches(".git");
    let mut parts = path.rsplit('/');
    let name = parts.next()?;
    let owner = parts.next()?;
    Some(format!("{owner}/{name}"))
}

/// Globs of the language's source files. C++ projects keep their headers in `.h`, which
/// cocosearch reads as C.
fn source_globs(language: &str) -> anyhow::Result<Vec<String>> {
    let Some(lang) = Language::from_name(language) else { bail!("unknown language {language:?} in repos.json") };
    let mut globs: Vec<String> = lang.extensions().iter().map(|e| format!("*.{e}")).collect();
    globs.extend(lang.file_names().iter().map(|n| n.to_string()));
    if lang.name() == "cpp" {
        globs.push("*.h".to_string());
    }
    Ok(globs)
}

/// File NDCG@10 of `files` (distinct, in rank order) against `targets`.
fn ndcg(files: &[String], targets: &[&String]) -> f64 {
    let mut unique: Vec<&str> = targets.iter().map(|t| t.as_str()).collect();
    unique.sort_unstable();
    unique.dedup();
    if unique.is_empty() {
        return 0.0;
    }
    let gain = |rank: usize| 1.0 / ((rank + 1) as f64).log2();
    let dcg: f64 = unique
        .iter()
        .filter_map(|t| files.iter().take(TOP_FILES).position(|f| f.ends_with(t)))
        .map(|i| gain(i + 1))
        .sum();
    let ideal: f64 = (1..=unique.len().min(TOP_FILES)).map(gain).sum();
    dcg / ideal
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// Each repository's mean NDCG in one mode.
fn by_repo(repos: &[Repo], scored: &[Scored]) -> Vec<f64> {
    (0..repos.len()).map(|r| mean(scored.iter().filter(|s| s.repo == r).map(|s| s.ndcg))).collect()
}

fn report(repos: &[Repo], modes: &[EvalMode], scores: &BTreeMap<&str, Vec<Scored>>) {
    let categories = ["architecture", "semantic", "symbol"];
    let mut languages: Vec<&str> = repos.iter().map(|r| r.language.as_str()).collect();
    languages.sort_unstable();
    languages.dedup();
    let queries = scores.values().next().map_or(0, Vec::len);
    println!("\nFile NDCG@10 over {} repositories, {queries} queries", repos.len());
    println!("  {:<24} {:>8} {:>13} {:>9} {:>7}", "mode", "overall", "architecture", "semantic", "symbol");
    for (name, _, _) in modes {
        let Some(scored) = scores.get(name) else { continue };
        let overall = mean(by_repo(repos, scored).into_iter());
        let by_category: Vec<f64> =
            categories.iter().map(|c| mean(scored.iter().filter(|s| s.category == *c).map(|s| s.ndcg))).collect();
        println!(
            "  {name:<24} {overall:>8.3} {:>13.3} {:>9.3} {:>7.3}",
            by_category[0], by_category[1], by_category[2]
        );
    }
    println!("\nBy language (its repositories weigh equally)");
    print!("  {:<12}", "language");
    for (name, _, _) in modes.iter().take(3) {
        print!(" {name:>10}");
    }
    println!();
    for language in &languages {
        print!("  {language:<12}");
        for (name, _, _) in modes.iter().take(3) {
            let Some(scored) = scores.get(name) else { continue };
            let per_repo = by_repo(repos, scored);
            let value = mean(repos.iter().zip(&per_repo).filter(|(r, _)| r.language == *language).map(|(_, v)| *v));
            print!(" {value:>10.3}");
        }
        println!();
    }
    println!("\nBy repository");
    for (name, _, _) in modes {
        let Some(scored) = scores.get(name) else { continue };
        for (repo, value) in repos.iter().zip(by_repo(repos, scored)) {
            println!("  {name:<24} {:<14} {value:.3}", repo.name);
        }
    }
    if modes.len() > 3 {
        rotation(repos, modes, scores);
    }
}

/// The held-out rotation, for the keyword family (`keyword*`) and the others apart.
fn rotation(repos: &[Repo], modes: &[EvalMode], scores: &BTreeMap<&str, Vec<Scored>>) {
    let per_repo: BTreeMap<&str, Vec<f64>> =
        modes.iter().filter_map(|(name, _, _)| Some((*name, by_repo(repos, scores.get(name)?)))).collect();
    for (family, default) in [("keyword", "keyword"), ("hybrid", "hybrid")] {
        let members: Vec<&str> = per_repo
            .keys()
            .copied()
            .filter(|m| m.starts_with("keyword") == (family == "keyword") && *m != "vector")
            .collect();
        if members.len() < 2 {
            continue;
        }
        let mut held_scores = Vec::new();
        println!("\nHeld-out rotation, {family} family ({} variants)", members.len());
        for (held, repo) in repos.iter().enumerate() {
            let others = |m: &str| mean(per_repo[m].iter().enumerate().filter(|(r, _)| *r != held).map(|(_, v)| *v));
            let Some(best) = members
                .iter()
                .copied()
                .max_by(|a, b| others(a).total_cmp(&others(b)).then((*a == default).cmp(&(*b == default))))
            else {
                continue;
            };
            let value = per_repo[best][held];
            held_scores.push(value);
            println!("  held out {:<14} chosen on the others: {best:<24} -> {value:.3}", repo.name);
        }
        let baseline = per_repo.get(default).map_or(0.0, |v| mean(v.iter().copied()));
        println!("  held-out mean {:.3} (the default, {default}: {baseline:.3})", mean(held_scores.into_iter()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ndcg_follows_the_benchmark_definition() {
        let files: Vec<String> = ["lib/a.py", "lib/b.py", "lib/c.py"].iter().map(|s| s.to_string()).collect();
        let (a, b, z) = ("a.py".to_string(), "lib/b.py".to_string(), "z.py".to_string());
        assert!((ndcg(&files, &[&a]) - 1.0).abs() < 1e-9);
        // b at rank 2 alone: (1/log2 3) / 1.
        assert!((ndcg(&files, &[&b]) - 1.0 / 3f64.log2()).abs() < 1e-9);
        // Two targets, one found at rank 1: 1 / (1 + 1/log2 3).
        assert!((ndcg(&files, &[&a, &z]) - 1.0 / (1.0 + 1.0 / 3f64.log2())).abs() < 1e-9);
        assert_eq!(ndcg(&files, &[&z]), 0.0);
    }

    #[test]
    fn a_clone_url_names_its_mirror() {
        assert_eq!(repo_slug("https://github.com/folke/lazy.nvim.git").as_deref(), Some("folke/lazy.nvim"));
        assert_eq!(repo_slug("https://github.com/curl/curl").as_deref(), Some("curl/curl"));
    }
}
