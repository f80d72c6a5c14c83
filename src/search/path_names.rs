//! Files whose names answer the query: `HashCodeBuilder.java` for "hash code builder",
//! `formatting.py` for "help text formatting", `routing/mod.rs` for "routing".
//!
//! A project's file and folder names are its own summary of where things are, and a short
//! question often uses those very words. Chunk-level keyword search sees a path's words too,
//! but as a few words among hundreds of a chunk's; here they are the whole evidence. Each path
//! is split into identifier words (`HashCodeBuilder` → hash, code, builder); a query word found
//! in the file's name counts twice what it counts in a folder's, each weighted by how rare it
//! is among the project's paths; a file name that spells a run of the query's words whole
//! (`hashcodebuilder`) counts most. Words sharing a root or an English stem (`reloading`,
//! `reloader.lua`) count a little less than the word itself. A file name's words the query did
//! not ask for weaken its evidence (`Table.kt` before `TableDepthGraph.kt` for "Table"), as
//! BM25's length normalisation weakens a long document's; of paths that answer equally, the
//! one with fewer unasked words comes first (`queryable.ex` before `adapter/queryable.ex`
//! for "Ecto.Queryable").

use std::collections::{HashMap, HashSet};
use std::sync::{LazyLock, OnceLock};

use rust_stemmers::{Algorithm, Stemmer};

use super::paths::{fold_name, folded_stem};
use super::query::is_stop_word;
use crate::chunk::keywords;

/// Files listed, at most.
pub const LIMIT: usize = 20;

/// What a word sharing only its root with a path's word is worth, beside the word itself.
const ROOT_SHARE: f64 = 0.7;

/// What a whole-name match is worth, in rare-word units.
const WHOLE_NAME: f64 = 3.0;

/// The index's files ranked by how well their paths answer `query`, best first; files that
/// share no word with it are not listed. Each word of a file's name the query did not ask for
/// divides its score by 1 + `unasked_name_word` more.
pub fn rank(query: &str, files: &PathList, unasked_name_word: f64) -> Vec<String> {
    let words = query_words(query);
    if words.is_empty() {
        return Vec::new();
    }
    // Only a path holding the start of a query word can match it (a word whole, the root
    // `same_root` needs, or the start of its stem): the rest are passed over without splitting, which keeps this cheap
    // on a project of tens of thousands of files.
    let query_words: Vec<QueryWord> = words.iter().map(|w| QueryWord::of(w)).collect();
    let needles: Vec<String> = query_words.iter().flat_map(|q| [root_of(&q.word), q.start.clone()]).collect();
    let total = files.paths.len();
    let files: Vec<(&str, &PathWords)> = files
        .paths
        .iter()
        .filter(|listed| needles.iter().any(|n| listed.lower.contains(n.as_str())))
        .map(|listed| (listed.path.as_str(), listed.words.get_or_init(|| PathWords::of(&listed.path))))
        .collect();
    // How many paths hold each query word, for its rarity.
    let mut holding: HashMap<&str, usize> = HashMap::new();
    for (_, path) in &files {
        for word in &words {
            if path.name.contains(word) || path.dirs.contains(word) {
                *holding.entry(word.as_str()).or_default() += 1;
            }
        }
    }
    let total = total.max(1) as f64;
    let rarity = |word: &str| (1.0 + total / (1.0 + holding.get(word).copied().unwrap_or(0) as f64)).ln();
    let runs = word_runs(&words);
    let mut scored: Vec<(f64, usize, &str)> = files
        .iter()
        .filter_map(|(path, words_of)| {
            let mut score = 0.0;
            let mut matched = HashSet::new();
            for query_word in &query_words {
                let word = &query_word.word;
                let shares_root = |w: &&String| query_word.shares_root(w);
                if words_of.name.contains(word) {
                    score += 2.0 * rarity(word);
                    matched.insert(word.clone());
                } else if words_of.dirs.contains(word) {
                    score += rarity(word);
                    matched.insert(word.clone());
                } else if let Some(w) = words_of.name.iter().find(shares_root) {
                    score += ROOT_SHARE * 2.0 * rarity(word);
                    matched.insert(w.clone());
                } else if let Some(w) = words_of.dirs.iter().find(shares_root) {
                    score += ROOT_SHARE * rarity(word);
                    matched.insert(w.clone());
                }
            }
            if runs.contains(&words_of.stem) {
                score += WHOLE_NAME * rarity(&words_of.stem).max(1.0);
            }
            let unasked = words_of.name.union(&words_of.dirs).filter(|w| !matched.contains(*w)).count();
            let unasked_in_name = words_of.name.iter().filter(|w| !matched.contains(*w)).count();
            let score = score / (1.0 + unasked_name_word.max(0.0) * unasked_in_name as f64);
            (score > 0.0).then_some((score, unasked, *path))
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(b.2)));
    scored.into_iter().take(LIMIT).map(|(_, _, path)| path.to_string()).collect()
}

/// An index's file paths, sorted, each lowercased once and split into words the first time a
/// query needs them: a server ranks the same paths for every query, and splitting the
/// thousands of paths a common word reaches was most of the ranking's time.
pub struct PathList {
    paths: Vec<ListedPath>,
}

/// A path of a [`PathList`].
struct ListedPath {
    path: String,
    lower: String,
    words: OnceLock<PathWords>,
}

impl PathList {
    /// The list of `paths`, sorted.
    pub fn new(mut paths: Vec<String>) -> PathList {
        paths.sort_unstable();
        let paths = paths
            .into_iter()
            .map(|path| ListedPath { lower: path.to_lowercase(), path, words: OnceLock::new() })
            .collect();
        PathList { paths }
    }

    /// The paths, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.paths.iter().map(|listed| listed.path.as_str())
    }
}

/// A path's words: of its file name and of its folders, reduced ([`reduce`]), and its folded stem.
struct PathWords {
    name: HashSet<String>,
    dirs: HashSet<String>,
    stem: String,
}

impl PathWords {
    fn of(path: &str) -> PathWords {
        let (dirs, name) = path.rsplit_once('/').unwrap_or(("", path));
        let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
        let words = |text: &str| keywords::terms(text).iter().map(|w| reduce(w)).collect::<HashSet<_>>();
        PathWords { name: words(stem), dirs: words(dirs), stem: folded_stem(path) }
    }
}

/// A query word with its English stem, and the start every word of that stem has.
struct QueryWord {
    word: String,
    stem: String,
    /// What a word of this stem starts with: the stem itself, less a final `i` that was a `y`
    /// (`queri` for `query` and `queries`). Snowball's stems are prefixes of their words but
    /// for that and a few rare suffix rewrites. A path word not starting so is not stemmed:
    /// stemming every word of thousands of paths on each query took the search bench's p95
    /// from 28.7 to 56.2 ms, and a start one letter shorter for every stem to 98 ms.
    start: String,
}

impl QueryWord {
    fn of(word: &str) -> QueryWord {
        let stem = stem(word);
        let start = match stem.strip_suffix('i') {
            Some(rest) if rest.len() >= 3 => rest.to_string(),
            _ => stem.clone(),
        };
        QueryWord { word: word.to_string(), stem, start }
    }

    /// Whether the path word `w` shares this word's root or English stem.
    fn shares_root(&self, w: &str) -> bool {
        same_root(w, &self.word) || (!self.start.is_empty() && w.starts_with(&self.start) && stem(w) == self.stem)
    }
}

/// The query's words that can match a path: lowercase, not stop words, reduced.
fn query_words(query: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for term in keywords::terms(query) {
        if term.len() < 2 || is_stop_word(&term) {
            continue;
        }
        let word = reduce(&term);
        if !words.contains(&word) {
            words.push(word);
        }
    }
    words
}

/// Runs of one to four consecutive query words, folded into one name each (`hash code
/// builder` → `hash`, `hashcode`, `hashcodebuilder`, `code`, …).
fn word_runs(words: &[String]) -> HashSet<String> {
    let mut runs = HashSet::new();
    for start in 0..words.len() {
        let mut run = String::new();
        for word in words.iter().skip(start).take(4) {
            run.push_str(&fold_name(word));
            runs.insert(run.clone());
        }
    }
    runs
}

/// Whether two words share their root: one begins with the other, which has at least four
/// letters and 70% of the longer's (`connect` and `connection`, `transform` and
/// `transformer`; not `config` and `configuration`).
fn same_root(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short.len() >= 4 && long.starts_with(short) && short.len() * 10 >= long.len() * 7
}

/// The start of `word` every path word sharing its root holds ([`same_root`]): the whole of a
/// short word, else 70% of it and at least four letters.
fn root_of(word: &str) -> String {
    let len = word.chars().count();
    let keep = if len <= 4 { len } else { (len * 7).div_ceil(10).max(4) };
    word.chars().take(keep).collect()
}

/// A word's English stem (Snowball): `reloading` and `reloader` are both `reload`.
fn stem(word: &str) -> String {
    static ENGLISH: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));
    ENGLISH.stem(word).into_owned()
}

/// A word with a plural `s` taken off, so `exceptions` meets `exception`.
fn reduce(word: &str) -> String {
    match word.strip_suffix('s') {
        Some(stem) if stem.len() >= 3 && !stem.ends_with('s') => stem.to_string(),
        _ => word.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list<'a>(files: impl IntoIterator<Item = &'a str>) -> PathList {
        PathList::new(files.into_iter().map(str::to_string).collect())
    }

    #[test]
    fn a_file_named_by_the_query_ranks_first() {
        let files = [
            "src/main/java/org/apache/commons/lang3/builder/HashCodeBuilder.java",
            "src/main/java/org/apache/commons/lang3/builder/IDKey.java",
            "src/main/java/org/apache/commons/lang3/builder/EqualsBuilder.java",
            "src/main/java/org/apache/commons/lang3/StringUtils.java",
        ];
        let ranked = rank("hash code builder", &list(files), 0.5);
        assert_eq!(ranked[0], files[0], "{ranked:?}");
        assert!(!ranked.contains(&files[3].to_string()), "{ranked:?}");
    }

    #[test]
    fn file_names_count_more_than_folders_and_plurals_meet() {
        let files = ["src/click/exceptions.py", "src/click/core.py", "src/exception_tools/core.py"];
        let ranked = rank("exception types for user errors", &list(files), 0.5);
        assert_eq!(ranked.first().map(String::as_str), Some("src/click/exceptions.py"), "{ranked:?}");
        assert!(rank("the of and", &list(files), 0.5).is_empty());
        // A path word sharing its root with the query's passes the cheap filter too.
        // A final `y` its stem turns into `i` (`queries`, `query`).
        assert_eq!(rank("parsing queries", &list(["lib/query.ex", "lib/repo.ex"]), 0.5), vec!["lib/query.ex"]);
        let files = ["lib/connect.c", "lib/url.c", "lib/transfer.c"];
        assert_eq!(rank("connection setup for transfers", &list(files), 0.5), vec!["lib/transfer.c", "lib/connect.c"]);
    }

    #[test]
    fn words_of_one_stem_meet_and_a_closer_path_wins_a_tie() {
        let files = ["lua/lazy/manage/reloader.lua", "lua/lazy/manage/runner.lua", "lua/lazy/core/loader.lua"];
        let ranked = rank("reloading changed plugin files", &list(files), 0.5);
        assert_eq!(ranked, vec!["lua/lazy/manage/reloader.lua"], "`reloading` and `reloader` share `reload`");
        // Equal evidence: the path with no word the query did not ask for comes first,
        // whatever the alphabet says.
        let files = ["lib/ecto/adapter/queryable.ex", "lib/ecto/queryable.ex", "lib/ecto/repo/queryable.ex"];
        assert_eq!(rank("Ecto.Queryable protocol", &list(files), 0.5)[0], "lib/ecto/queryable.ex");
        // A file name's words the query did not ask for weaken it.
        let files = ["core/TableDepthGraph.kt", "core/Table.kt"];
        assert_eq!(
            rank("how Table defines columns", &list(files), 0.5),
            vec!["core/Table.kt", "core/TableDepthGraph.kt"]
        );
    }
}
