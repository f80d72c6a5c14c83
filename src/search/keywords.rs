//! Keyword search policy: which chunks are candidates, and how they rank (Okapi BM25).
//!
//! The store finds candidates and counts the query's terms in them; everything else is
//! decided here, once, so both backends rank identically. A candidate's score is BM25 over
//! chunks: Σ weight × tf·(k1 + 1) / (tf + k1·(1 − b + b·length/avg_length)), where a term's
//! weight is its IDF times the log-damped number of times the query repeats it.
//!
//! Terms are weighted by rarity (BM25's IDF) and repetition. Only rare terms select
//! candidates; common ones add to the score of the chunks rare terms found. That is better
//! for quality (on the evaluation, letting every term select loses 3 tasks in 62: chunks that
//! share only common words with a pasted issue crowd out the ones naming its identifiers) and
//! for speed: scoring a chunk costs PostgreSQL a few microseconds, and on a large index
//! `error` alone matches tens of thousands of chunks. So a term selects when it is rare
//! (in at most [`RARE_SHARE`] of the chunks, or among the [`ALWAYS_RARE`] rarest terms while
//! the rarer ones found fewer candidates than wanted) and the
//! selected terms together stay within a budget of chunks (by document frequency). When they
//! find too few candidates, pairs of the common terms select more: a chunk saying both
//! `parse` and `header` is a far better candidate than one that only says `parse`.

use super::query::{self, Query};
use crate::store::{KeywordCandidate, KeywordQuery, KeywordTerm, MAX_TERM_FREQUENCY, Scored, TermCounts, TermStats};

/// A term in at most this share of the chunks is rare…
pub const RARE_SHARE: f64 = 0.05;
/// …or in at most this many chunks, for small indexes…
const RARE_MIN_DF: f64 = 50.0;
/// …or among this many rarest terms of the query, while rarer ones found too few candidates.
const ALWAYS_RARE: usize = 3;

/// How many of the common terms are paired when rare terms find too few candidates
/// (3 terms give 3 pairs).
const PAIRED_TERMS: usize = 3;

/// Candidates scored at most, in budgets: rare terms stay within one budget, so only pairs
/// and phrases of words found everywhere reach the cap.
const CANDIDATE_CAP_FACTOR: u64 = 4;

/// What the planner may spend.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Query terms kept, best weight first.
    pub max_terms: usize,
    /// Most chunks the single-term groups may select together (sum of their document
    /// frequencies). The rarest term selects even beyond it when it is the only term.
    pub budget: u64,
    /// Candidates wanted: fewer than this from rare terms brings in pairs of common ones.
    pub wanted: u64,
    /// A term in at most this share of the chunks is rare ([`RARE_SHARE`]).
    pub rare_share: f64,
}

/// BM25's term-frequency saturation and length normalisation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bm25 {
    /// How fast repeated occurrences stop adding (1.2 is the textbook value).
    pub k1: f64,
    /// How much longer chunks are penalised (0: not at all, 1: fully).
    pub b: f64,
}

impl Default for Bm25 {
    fn default() -> Bm25 {
        Bm25 { k1: 1.2, b: 0.75 }
    }
}

/// A planned keyword query: what the store is asked, and each term's weight for ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The query for the store.
    pub query: KeywordQuery,
    /// The weight of each of `query.terms`, in order.
    pub weights: Vec<f64>,
    /// The index's average chunk length, in terms.
    pub average_length: f64,
}

/// The words of `query` worth looking up in the index (stop words never help).
pub fn words(query: &Query) -> Vec<String> {
    query.terms.iter().map(|(t, _)| t.clone()).filter(|t| !query::is_stop_word(t)).collect()
}

/// Ranks the store's candidates by BM25, best first (ties by id, so results are stable).
pub fn rank(plan: &Plan, candidates: &[KeywordCandidate], bm25: Bm25) -> Vec<Scored> {
    let average = plan.average_length.max(1.0);
    let mut scored: Vec<Scored> = candidates
        .iter()
        .map(|c| Scored {
            id: c.id,
            path: c.path.clone(),
            score: bm25_score(plan, &c.frequencies, c.length, average, bm25),
        })
        .collect();
    // Ties by path, then by position in the file (ids ascend within a file): chunk ids alone
    // follow the order files were written in, which differs between runs.
    scored.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.path.cmp(&b.path)).then(a.id.cmp(&b.id)));
    scored
}

/// Ranks the candidates' files by BM25 over each file's candidate chunks taken together: a
/// term's frequency is its sum over them, the length theirs, normalised by the average of
/// the ranked files. Best first (ties by path).
///
/// Whole-file BM25 is a strong baseline for "which file does this issue need" (a file whose
/// several chunks share the words beats one lucky chunk), and this approximates it
/// from what chunk retrieval already fetched: chunks without any selecting term are not
/// candidates, so a file's common-word-only chunks do not count.
pub fn rank_files(plan: &Plan, candidates: &[KeywordCandidate], bm25: Bm25) -> Vec<(String, f64)> {
    let mut files: std::collections::HashMap<&str, (Vec<u32>, u32)> = std::collections::HashMap::new();
    for c in candidates {
        let (frequencies, length) = files.entry(&c.path).or_insert_with(|| (vec![0; c.frequencies.len()], 0));
        for (sum, tf) in frequencies.iter_mut().zip(&c.frequencies) {
            *sum = sum.saturating_add(*tf);
        }
        *length = length.saturating_add(c.length);
    }
    if files.is_empty() {
        return Vec::new();
    }
    let average = files.values().map(|(_, length)| f64::from(*length)).sum::<f64>() / files.len() as f64;
    let mut ranked: Vec<(&str, f64)> = files
        .iter()
        .map(|(path, (frequencies, length))| (*path, bm25_score(plan, frequencies, *length, average.max(1.0), bm25)))
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    ranked.into_iter().map(|(path, score)| (path.to_string(), score)).collect()
}

/// BM25 of each of `documents` (analysed terms, with repeats) for `query`, the documents
/// themselves being the collection: a term's IDF comes from how many of them contain it and
/// lengths are normalised by their average. For ranking a handful of texts the index has no
/// statistics for (the definitions of a search's top files), with the same term weights and
/// formula as chunk ranking.
pub fn score_documents<D: AsRef<[String]>>(query: &Query, documents: &[D], max_terms: usize, bm25: Bm25) -> Vec<f64> {
    let counts: Vec<TermCounts<'_>> = documents
        .iter()
        .map(|terms| {
            let mut counts = TermCounts::default();
            for term in terms.as_ref() {
                *counts.entry(term.as_str()).or_default() += 1;
            }
            counts
        })
        .collect();
    let mut stats = TermStats {
        chunks: documents.len() as u64,
        total_length: documents.iter().map(|d| d.as_ref().len() as u64).sum(),
        df: Default::default(),
    };
    for term in words(query).into_iter().chain(query.phrases.iter().flatten().cloned()) {
        let df = counts.iter().filter(|c| c.contains_key(term.as_str())).count() as u64;
        if df > 0 {
            stats.df.insert(term, df);
        }
    }
    // Nothing selects here (every document is scored), so the planner only weighs terms.
    let limits = Limits { max_terms, budget: u64::MAX, wanted: 0, rare_share: 1.0 };
    let plan = plan(query, &stats, limits);
    let average = (stats.total_length as f64 / stats.chunks.max(1) as f64).max(1.0);
    documents
        .iter()
        .zip(&counts)
        .map(|(terms, counts)| {
            let terms = terms.as_ref();
            let frequencies: Vec<u32> = plan
                .query
                .terms
                .iter()
                .map(|term| match term {
                    KeywordTerm::Word(word) => counts.get(word.as_str()).copied().unwrap_or(0),
                    KeywordTerm::Phrase(phrase) => phrase_count(terms, phrase),
                })
                .map(|tf| tf.min(MAX_TERM_FREQUENCY))
                .collect();
            bm25_score(&plan, &frequencies, u32::try_from(terms.len()).unwrap_or(u32::MAX), average, bm25)
        })
        .collect()
}

/// How often `phrase` occurs in `terms` as consecutive terms.
fn phrase_count(terms: &[String], phrase: &[String]) -> u32 {
    if phrase.is_empty() {
        return 0;
    }
    terms.windows(phrase.len()).filter(|w| *w == phrase).count() as u32
}

/// BM25 of one document (a chunk, or a file's chunks together).
fn bm25_score(plan: &Plan, frequencies: &[u32], length: u32, average: f64, bm25: Bm25) -> f64 {
    let norm = bm25.k1 * (1.0 - bm25.b + bm25.b * f64::from(length) / average);
    plan.weights
        .iter()
        .zip(frequencies)
        .filter(|(_, tf)| **tf > 0)
        .map(|(weight, &tf)| {
            let tf = f64::from(tf);
            weight * tf * (bm25.k1 + 1.0) / (tf + norm)
        })
        .sum()
}

/// Plans the keyword query for `query` given the index's term statistics (of [`words`]).
pub fn plan(query: &Query, stats: &TermStats, limits: Limits) -> Plan {
    let n = stats.chunks.max(1) as f64;
    let idf = |df: u64| ((n - df as f64 + 0.5) / (df as f64 + 0.5) + 1.0).ln();
    let mut scored: Vec<((KeywordTerm, f64), u64)> = query
        .terms
        .iter()
        .filter(|(term, _)| !query::is_stop_word(term))
        .filter_map(|(term, count)| {
            let df = *stats.df.get(term)?;
            // Repeated words in long queries matter more, with diminishing returns.
            let weight = idf(df) * (1.0 + (*count as f64).ln());
            Some(((KeywordTerm::Word(term.clone()), weight), df))
        })
        .collect();
    scored.sort_by(|a, b| b.0.1.total_cmp(&a.0.1));
    scored.truncate(limits.max_terms);

    // Single terms, rarest first, while the budget lasts.
    let mut by_rarity: Vec<usize> = (0..scored.len()).collect();
    by_rarity.sort_by_key(|&i| scored[i].1);
    let mut select = Vec::new();
    let mut common = Vec::new();
    let mut spent = 0u64;
    let rare_df = (n * limits.rare_share).max(RARE_MIN_DF);
    for (rank, i) in by_rarity.into_iter().enumerate() {
        let df = scored[i].1;
        let rare = df as f64 <= rare_df || (rank < ALWAYS_RARE && spent < limits.wanted);
        if rare && spent.saturating_add(df) <= limits.budget {
            select.push(vec![i]);
            spent += df;
        } else {
            common.push(i);
        }
    }
    if spent < limits.wanted {
        match common.as_slice() {
            [] => {}
            [only] => select.push(vec![*only]),
            _ => {
                let top = &common[..common.len().min(PAIRED_TERMS)];
                for (k, &a) in top.iter().enumerate() {
                    select.extend(top[k + 1..].iter().map(|&b| vec![a, b]));
                }
            }
        }
    }

    let (mut terms, mut weights): (Vec<KeywordTerm>, Vec<f64>) = scored.into_iter().map(|(t, _)| t).unzip();
    // Quoted phrases always select, and count double.
    for phrase in &query.phrases {
        let weight: f64 = phrase.iter().filter_map(|t| stats.df.get(t).map(|df| idf(*df))).sum();
        if weight > 0.0 {
            select.push(vec![terms.len()]);
            terms.push(KeywordTerm::Phrase(phrase.clone()));
            weights.push(weight * 2.0);
        }
    }
    let average_length = if stats.chunks > 0 { stats.total_length as f64 / stats.chunks as f64 } else { 1.0 };
    Plan {
        query: KeywordQuery { terms, select, max_candidates: Some(limits.budget.saturating_mul(CANDIDATE_CAP_FACTOR)) },
        weights,
        average_length,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(chunks: u64, df: &[(&str, u64)]) -> TermStats {
        TermStats { chunks, total_length: chunks * 100, df: df.iter().map(|(t, d)| (t.to_string(), *d)).collect() }
    }

    fn text(term: &KeywordTerm) -> String {
        match term {
            KeywordTerm::Word(w) => w.clone(),
            KeywordTerm::Phrase(words) => words.join(" "),
        }
    }

    fn selected(plan: &Plan) -> Vec<Vec<String>> {
        let q = &plan.query;
        q.select.iter().map(|g| g.iter().map(|&i| text(&q.terms[i])).collect()).collect()
    }

    const LIMITS: Limits = Limits { max_terms: 32, budget: 3000, wanted: 50, rare_share: RARE_SHARE };

    #[test]
    fn rare_terms_select_within_the_budget_and_common_terms_only_score() {
        let s = stats(200_000, &[("retry", 900), ("upload", 1500), ("failed", 2500), ("error", 40_000)]);
        let plan = plan(&query::analyze("retry failed upload error"), &s, LIMITS);
        assert_eq!(selected(&plan), vec![vec!["retry"], vec!["upload"]]);
        assert_eq!(plan.query.terms.len(), 4, "every term still scores");
        // Rarest first, by weight.
        assert_eq!(plan.query.terms[0], KeywordTerm::Word("retry".into()));
        assert!(plan.weights[0] > plan.weights[3]);
    }

    #[test]
    fn too_few_rare_candidates_bring_in_pairs_of_common_terms() {
        let s = stats(200_000, &[("parse", 8600), ("http", 8300), ("header", 5000), ("dictionary", 20)]);
        let plan = plan(&query::analyze("parse an HTTP header into a dictionary"), &s, LIMITS);
        assert_eq!(
            selected(&plan),
            vec![vec!["dictionary"], vec!["header", "http"], vec!["header", "parse"], vec!["http", "parse"]]
        );
    }

    #[test]
    fn a_lone_common_term_still_selects() {
        let s = stats(200_000, &[("test", 64_000)]);
        let plan = plan(&query::analyze("test"), &s, LIMITS);
        assert_eq!(selected(&plan), vec![vec!["test"]]);
    }

    #[test]
    fn on_small_indexes_rarity_not_the_budget_decides() {
        let s = stats(1000, &[("parse", 80), ("http", 60), ("header", 40), ("value", 30), ("return", 400)]);
        let many = plan(&query::analyze("parse http header value return"), &s, LIMITS);
        // Under 5% of the chunks: `value` and `header`, which find enough candidates, so
        // `http` (6%) does not select although it is the third rarest.
        assert_eq!(selected(&many), vec![vec!["value"], vec!["header"]]);
        let s = stats(1000, &[("parse", 80), ("http", 60), ("header", 10)]);
        let few = plan(&query::analyze("parse http header"), &s, LIMITS);
        // `header` finds too few, so `http` selects too; with it there are enough.
        assert_eq!(selected(&few), vec![vec!["header"], vec!["http"]]);
    }

    #[test]
    fn unknown_and_stop_words_are_dropped_and_phrases_select() {
        let s = stats(10_000, &[("connection", 300), ("reset", 200), ("peer", 30)]);
        let plan = plan(&query::analyze("the \"connection reset by peer\" zzzunknown"), &s, LIMITS);
        let words: Vec<String> = plan.query.terms.iter().map(text).collect();
        assert!(!words.iter().any(|w| w == "the" || w == "zzzunknown"), "{words:?}");
        let phrase =
            plan.query.terms.iter().position(|t| matches!(t, KeywordTerm::Phrase(_))).expect("the phrase is a term");
        assert!(plan.query.select.contains(&vec![phrase]));
    }

    fn candidate(id: i64, length: u32, frequencies: &[u32]) -> KeywordCandidate {
        KeywordCandidate { id, path: format!("f{id}"), length, frequencies: frequencies.to_vec() }
    }

    #[test]
    fn bm25_saturates_repetition_and_normalises_length() {
        let plan = Plan { query: KeywordQuery::default(), weights: vec![2.0, 1.0], average_length: 100.0 };
        let ranked = rank(
            &plan,
            &[
                candidate(1, 100, &[1, 0]),
                candidate(2, 100, &[10, 0]),
                candidate(3, 400, &[10, 0]),
                candidate(4, 100, &[0, 1]),
                candidate(5, 100, &[1, 1]),
            ],
            Bm25::default(),
        );
        let order: Vec<i64> = ranked.iter().map(|s| s.id).collect();
        assert_eq!(order, vec![2, 3, 5, 1, 4]);
        // Ten occurrences are worth less than ten times one (k1 = 1.2 saturates).
        let score = |id| ranked.iter().find(|s| s.id == id).map(|s| s.score).unwrap_or_default();
        assert!(score(2) < 3.0 * score(1), "{ranked:?}");
        // One occurrence in an average chunk scores the weight exactly.
        assert!((score(1) - 2.0).abs() < 1e-9, "{ranked:?}");
    }

    #[test]
    fn ties_go_by_path_then_position_not_by_the_order_files_were_written() {
        let plan = Plan { query: KeywordQuery::default(), weights: vec![1.0], average_length: 100.0 };
        let mut later = candidate(1, 100, &[1]);
        later.path = "b.py".into();
        let mut earlier = candidate(7, 100, &[1]);
        earlier.path = "a.py".into();
        let mut second = candidate(8, 100, &[1]);
        second.path = "a.py".into();
        let ranked = rank(&plan, &[later, second, earlier], Bm25::default());
        let order: Vec<i64> = ranked.iter().map(|s| s.id).collect();
        assert_eq!(order, vec![7, 8, 1]);
    }

    #[test]
    fn files_rank_by_their_candidates_together() {
        let plan = Plan { query: KeywordQuery::default(), weights: vec![2.0, 1.0], average_length: 100.0 };
        let mut one = candidate(1, 100, &[1, 0]);
        one.path = "a.py".into();
        let mut two = candidate(2, 100, &[0, 1]);
        two.path = "a.py".into();
        let mut three = candidate(3, 100, &[1, 0]);
        three.path = "b.py".into();
        // a.py has both terms across two chunks; b.py only the first.
        let ranked: Vec<String> =
            rank_files(&plan, &[one, two, three], Bm25::default()).into_iter().map(|(p, _)| p).collect();
        assert_eq!(ranked, ["a.py", "b.py"]);
        assert!(rank_files(&plan, &[], Bm25::default()).is_empty());
    }
}
