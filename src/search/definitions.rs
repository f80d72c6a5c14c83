//! Definitions ranked from hits: "which function should I change", answered from the same
//! search.
//!
//! A hit is a chunk, and a chunk may hold one definition, many (a class with its methods), or
//! a piece of one (a long function split in several chunks). Ranking definitions by the first
//! hit they appear in lets one chunk of eight small methods fill the top five. Instead each
//! definition collects evidence: every hit it is part of adds a share of that hit's rank
//! weight — all of it when the hit lies inside the definition or is the definition alone, a
//! share when the hit holds several — and a definition whose name the query says (`the
//! register_hook method`) counts more. A function split over several chunks is one candidate
//! that all of its chunks vote for.

use std::collections::HashMap;

use super::Hit;
use super::query::Query;
use crate::chunk::{Language, keywords};

/// RRF-style damping of hit ranks: the first hits matter most, later ones still count.
const RANK_DAMPING: f64 = 10.0;
/// Factor for a definition whose own name the query contains.
const NAME_IN_QUERY: f64 = 3.0;
/// Factor for a method whose class the query names.
const CLASS_IN_QUERY: f64 = 1.5;

/// A definition with its evidence.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedDefinition {
    /// Path of its file, relative to the index root.
    pub path: String,
    /// Qualified name (`Request.register_hook`).
    pub name: String,
    /// Accumulated evidence; only the order means something.
    pub score: f64,
}

/// The definitions of `hits` (best first), ranked by their evidence for `query`.
pub fn rank_definitions(query: &Query, hits: &[Hit]) -> Vec<RankedDefinition> {
    let query_terms: std::collections::HashSet<&str> = query.terms.iter().map(|(t, _)| t.as_str()).collect();
    let says = |name: &str| whole_form(name).is_some_and(|w| query_terms.contains(w.as_str()));
    let mut evidence: HashMap<(&str, &str), (f64, usize)> = HashMap::new();
    let mut order = 0usize;
    // Headings of prose and keys of configuration are sections, not definitions to change.
    let code = |hit: &&Hit| !Language::from_name(&hit.language).is_some_and(is_prose_or_config);
    for (rank, hit) in hits.iter().filter(code).enumerate() {
        let weight = 1.0 / (RANK_DAMPING + rank as f64 + 1.0);
        // A class whose methods are in the hit is their container: the methods are the
        // candidates (a method whose class matches the query gains below).
        let containers: Vec<&str> = hit.symbols.iter().filter_map(|s| s.rsplit_once('.').map(|(o, _)| o)).collect();
        let own: Vec<&str> = hit.symbols.iter().map(String::as_str).filter(|s| !containers.contains(s)).collect();
        let count = own.len().max(1) as f64;
        let parts = own
            .into_iter()
            .map(|s| (s, weight / count.sqrt()))
            .chain(hit.enclosing.iter().map(|s| (s.as_str(), weight)));
        for (name, share) in parts {
            let (last, owner) = match name.rsplit_once('.') {
                Some((owner, last)) => (last, Some(owner)),
                None => (name, None),
            };
            let mut share = share;
            if says(last) {
                share *= NAME_IN_QUERY;
            }
            if owner.is_some_and(|o| says(o.rsplit('.').next().unwrap_or(o))) {
                share *= CLASS_IN_QUERY;
            }
            let entry = evidence.entry((hit.path.as_str(), name)).or_insert_with(|| {
                order += 1;
                (0.0, order)
            });
            entry.0 += share;
        }
    }
    let mut ranked: Vec<_> = evidence.into_iter().collect();
    ranked.sort_by(|a, b| b.1.0.total_cmp(&a.1.0).then(a.1.1.cmp(&b.1.1)));
    ranked
        .into_iter()
        .map(|((path, name), (score, _))| RankedDefinition { path: path.to_string(), name: name.to_string(), score })
        .collect()
}

fn is_prose_or_config(language: Language) -> bool {
    matches!(
        language,
        Language::Markdown
            | Language::Rst
            | Language::Yaml
            | Language::Json
            | Language::Toml
            | Language::Ini
            | Language::Html
            | Language::Css
            | Language::Xml
            | Language::Text
    )
}

/// The whole lowercase form of an identifier as keyword analysis makes it (`register_hook`
/// → `registerhook`).
fn whole_form(name: &str) -> Option<String> {
    keywords::terms(name).into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::query::analyze;

    fn hit(path: &str, symbols: &[&str], enclosing: Option<&str>) -> Hit {
        Hit {
            index: "i".into(),
            root: "/".into(),
            path: path.into(),
            start_line: 1,
            end_line: 2,
            language: "python".into(),
            symbol_type: None,
            symbol_name: None,
            qualified_name: None,
            signature: None,
            symbols: symbols.iter().map(|s| s.to_string()).collect(),
            enclosing: enclosing.map(str::to_string),
            score: 1.0,
            vector_score: None,
            keyword_score: None,
            parse_status: crate::chunk::ParseStatus::Ok,
            content: String::new(),
            before: Vec::new(),
            after: Vec::new(),
            stale: false,
        }
    }

    fn names(ranked: &[RankedDefinition]) -> Vec<&str> {
        ranked.iter().map(|d| d.name.as_str()).collect()
    }

    #[test]
    fn a_chunk_of_many_methods_does_not_fill_the_list_and_split_functions_add_up() {
        let hits = [
            hit("a.py", &["A", "A.one", "A.two", "A.three", "A.four"], None),
            hit("b.py", &[], Some("long_function")),
            hit("b.py", &[], Some("long_function")),
        ];
        let ranked = rank_definitions(&analyze("something about a thing"), &hits);
        assert_eq!(names(&ranked)[0], "long_function", "{ranked:?}");
    }

    #[test]
    fn classes_around_their_methods_and_prose_headings_are_not_candidates() {
        let mut doc = hit("HISTORY.md", &["Release History"], None);
        doc.language = "markdown".into();
        let hits = [doc, hit("a.py", &["A", "A.one"], None)];
        assert_eq!(names(&rank_definitions(&analyze("anything"), &hits)), vec!["A.one"]);
    }

    #[test]
    fn a_definition_the_query_names_comes_first() {
        let hits = [hit("models.py", &["Request", "Request.prepare", "Request.register_hook"], None)];
        let ranked = rank_definitions(&analyze("call .register_hook() several times"), &hits);
        assert_eq!(names(&ranked)[0], "Request.register_hook", "{ranked:?}");
    }
}
