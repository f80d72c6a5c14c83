//! The first stage of a search: the request analysed into what every later stage reads —
//! the query's kind, terms and symbol names, whether it is a long description, the fusion
//! weights, the canonical filter and how deep each retriever looks.

use super::filter::normalize_filter;
use super::query::{self, Query, QueryKind};
use super::structure::{self, Structure};
use super::tuning::{FileWeights, MAX_TERMS, Tuning};
use super::{Mode, SearchError, SearchRequest};
use crate::store::SearchFilter;

/// How many candidates each retriever returns per requested result, past
/// [`STABLE_HITS`](super::STABLE_HITS).
const DEPTH_FACTOR: usize = 5;
/// How many candidates each retriever returns up to [`STABLE_HITS`](super::STABLE_HITS) hits.
const STABLE_DEPTH: usize = 50;

/// A search request as analysed: everything the retrievers, the fusion and the assembly read.
pub(super) struct Analysed<'a> {
    /// The query text as typed.
    pub text: &'a str,
    /// The analysed query. Its `symbol_names` are empty when exact definitions are not put
    /// first (a long query), so nothing downstream favours them.
    pub query: Query,
    /// The symbol names the query may name, kept for the exact-definition retriever.
    pub symbol_names: Vec<String>,
    /// What a long query names as code (frames, messages, names); empty for a short one.
    pub structure: Structure,
    /// Whether the query is a description (a pasted issue) or a short query.
    pub length: Length,
    /// Where exact symbol definitions go: first, or into the fusion as evidence.
    pub symbols: SymbolPlacement,
    /// Keywords kept, rarest first.
    pub max_terms: usize,
    /// Candidates each retriever returns.
    pub depth: usize,
    /// The filter, in its canonical form.
    pub filter: SearchFilter,
    /// The fusion weights of the two chunk retrievers; a weight of 0 means the retriever
    /// does not run.
    pub weights: Weights,
    /// Whether a cached query vector may answer.
    pub cache_use: super::CacheUse,
    /// The knobs.
    pub tuning: &'a Tuning,
    /// Whether a long question's files are weighed by the learned ranking: when it counts
    /// (`Tuning::learned_files`) or a trace shows it.
    pub weighs_files: bool,
}

/// Whether a query is a description: more words than `Tuning::long_query_words`, or a change
/// described in any number of them (`Tuning::long_change_words`, [`changes`](super::changes)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Length {
    /// An identifier, a phrase, a question.
    Short,
    /// A pasted issue, a paragraph, a change's description: equal weights, definitions as
    /// evidence, prose, tests and configuration demoted.
    Long,
}

/// What happens to the exact definitions of the symbols a query names.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum SymbolPlacement {
    /// They rank first, above everything fused.
    First,
    /// They join the fusion as one more ranked list with this weight (0: not searched).
    Evidence(f64),
}

/// What the definition retrievers do with definitions in auxiliary files (tests, examples,
/// benchmarks: [`paths::is_auxiliary`](super::paths::is_auxiliary)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AuxiliaryDefinitions {
    /// Ranked like the others: the question asks for tests or examples.
    Kept,
    /// Ranked after the others: a short question names a definition wherever it is.
    Last,
    /// Left out: a long question's code is the reporter's own (`class Foo`, `def test_x`), and
    /// the names it shares with a test or an example name nothing the project must change.
    Dropped,
}

/// Fusion weights of the vector and keyword chunk lists.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Weights {
    /// The vector list's.
    pub vector: f64,
    /// The keyword list's.
    pub keyword: f64,
}

/// Candidates each retriever returns for `limit` hits: as many for one hit as for
/// [`STABLE_HITS`](super::STABLE_HITS), so the candidates, and each hit's lines and label, do not
/// depend on how many hits were asked for; more only past it. Not deeper: 250 candidates
/// instead of 50 cost the scripted agent's search (limit 10) 3 of 62 tasks found (66.1 % ->
/// 61.3 %, 2026-11-29).
fn depth(limit: usize) -> usize {
    if limit <= super::STABLE_HITS { STABLE_DEPTH } else { limit * DEPTH_FACTOR }
}

/// Analyses `req` under `tuning`; refuses an empty query and filters the store cannot apply.
pub(super) fn analyse<'a>(req: &'a SearchRequest, tuning: &'a Tuning) -> Result<Analysed<'a>, SearchError> {
    if req.query.trim().is_empty() {
        return Err(SearchError::EmptyQuery);
    }
    if req.query.len() > super::MAX_QUERY_BYTES {
        return Err(SearchError::QueryTooLong(req.query.len()));
    }
    let filter = normalize_filter(&req.filter)?;
    let mut query = query::analyze(&req.query);
    let long = tuning.long_query_words > 0 && query.words > tuning.long_query_words;
    let long_change = tuning.long_change_words > 0
        && query.words >= tuning.long_change_words
        && super::changes::describes_a_change(&req.query)
        && !super::paths::asks_for_auxiliary(&req.query);
    let length = if long || long_change { Length::Long } else { Length::Short };
    // A long question is read as it renders: without the comments of its template, and
    // without the memory addresses of the output it pastes.
    let visible = match length {
        Length::Long => query::as_read(&req.query),
        Length::Short => std::borrow::Cow::Borrowed(req.query.as_str()),
    };
    if length == Length::Long {
        if let std::borrow::Cow::Owned(text) = &visible {
            query = query::analyze(text);
        }
        query::emphasize_summary(&mut query, tuning.long_query_summary);
    }
    let symbols = match (length, query.kind) {
        (Length::Long, _) if !tuning.long_query_symbols => SymbolPlacement::Evidence(tuning.long_query_symbol_weight),
        (Length::Short, QueryKind::Mixed | QueryKind::Natural)
            if query.words > query::MAX_SPELLED_WORDS && tuning.sentence_symbol_weight > 0.0 =>
        {
            SymbolPlacement::Evidence(tuning.sentence_symbol_weight)
        }
        _ => SymbolPlacement::First,
    };
    let symbol_names = query.symbol_names.clone();
    if symbols != SymbolPlacement::First {
        query.symbol_names.clear();
    }
    let max_terms = match length {
        Length::Long => tuning.long_query_terms,
        Length::Short => MAX_TERMS,
    };
    let (vector, keyword) = match req.mode {
        Mode::Auto if length == Length::Long => tuning.long_query_weights,
        Mode::Auto if query.kind == QueryKind::Natural => tuning.natural_weights,
        Mode::Auto => query::weights(query.kind),
        Mode::Hybrid => (1.0, 1.0),
        Mode::Vector => (1.0, 0.0),
        Mode::Keyword => (0.0, 1.0),
    };
    let structure = match length {
        Length::Long => structure::read(&visible),
        Length::Short => Structure::default(),
    };
    Ok(Analysed {
        text: &req.query,
        query,
        symbol_names,
        structure,
        length,
        symbols,
        max_terms,
        depth: depth(req.limit),
        filter,
        weights: Weights { vector, keyword },
        cache_use: if req.use_cache { super::CacheUse::ReadWrite } else { super::CacheUse::Refresh },
        tuning,
        weighs_files: length == Length::Long && tuning.learned_files > 0.0,
    })
}

impl Analysed<'_> {
    /// The share of a prose chunk's score it loses: a long query's, and a short "where/how"
    /// question's that does not ask for documentation (the code doing it comes first).
    pub fn prose_penalty(&self) -> f64 {
        match self.length {
            Length::Long => self.tuning.long_query_prose_penalty,
            Length::Short if super::paths::asks_where_code_is(self.text) => self.tuning.where_question_prose_penalty,
            Length::Short => 0.0,
        }
    }

    /// The weights of the file-level evidence for this query's length.
    pub fn files(&self) -> FileWeights {
        match self.length {
            Length::Short => self.tuning.files,
            Length::Long => self.tuning.long_query_files,
        }
    }

    /// The vector list's weight for an index whose model earns `trust`: a static model's
    /// neighbours weigh `Tuning::long_query_weak_vectors` of it against a long description's
    /// keywords.
    pub fn vector_weight(&self, trust: crate::embed::VectorTrust) -> f64 {
        match (trust, self.length) {
            // Against keywords only: a vector-only search keeps what it asked for.
            (crate::embed::VectorTrust::Weak, Length::Long) if self.weights.keyword > 0.0 => {
                self.weights.vector * self.tuning.long_query_weak_vectors
            }
            _ => self.weights.vector,
        }
    }

    /// RRF's damping for this query's fusion.
    pub fn damping(&self) -> f64 {
        match self.length {
            Length::Short => self.tuning.short_query_damping,
            Length::Long => super::fuse::K,
        }
    }

    /// The share of the chunk lists' weight this query's fusion gives by score rather than
    /// rank ([`fuse::Inputs::by_score`](super::fuse::Inputs::by_score)): a short question's.
    pub fn by_score(&self) -> f64 {
        match self.length {
            Length::Short => self.tuning.short_query_by_score,
            Length::Long => 0.0,
        }
    }

    /// Whether the question asks for tests, examples and the like. Only a short one can: a
    /// pasted issue says "test" as it tells what it ran, not to ask for tests.
    pub fn asks_for_auxiliary(&self) -> bool {
        self.length == Length::Short && super::paths::asks_for_auxiliary(self.text)
    }

    /// What the definition retrievers do with definitions in auxiliary files.
    pub fn auxiliary_definitions(&self) -> AuxiliaryDefinitions {
        match (self.asks_for_auxiliary(), self.length) {
            (true, _) => AuxiliaryDefinitions::Kept,
            (false, Length::Short) => AuxiliaryDefinitions::Last,
            (false, Length::Long) => AuxiliaryDefinitions::Dropped,
        }
    }

    /// The kinds of auxiliary file the question asks for ([`Analysed::asks_for_auxiliary`]).
    pub fn asked_auxiliary(&self) -> super::paths::AuxiliaryKinds {
        match self.length {
            Length::Short => super::paths::asked_auxiliary(self.text),
            Length::Long => super::paths::AuxiliaryKinds::default(),
        }
    }

    /// The share of an auxiliary file's chunk score it loses, unless the query asks for its
    /// kind ([`Analysed::asked_auxiliary`]).
    pub fn auxiliary_penalty(&self) -> f64 {
        match self.length {
            Length::Long => self.tuning.long_query_auxiliary_penalty,
            Length::Short => self.tuning.auxiliary_penalty,
        }
    }

    /// The share of a release notes chunk's score it loses (none when a short query asks for
    /// them; a pasted issue says "version" as it tells what it ran).
    pub fn release_notes_penalty(&self) -> f64 {
        let asked = self.length == Length::Short && super::paths::asks_for_release_notes(self.text);
        if asked { 0.0 } else { self.tuning.release_notes_penalty }
    }

    /// A change's scope (`fix(plugin): …`) with the share of the score a chunk outside its
    /// area loses ([`fuse::Inputs::scope`](super::fuse::Inputs::scope)); none for a query that
    /// names no scope.
    pub fn scope(&self) -> Option<(&str, f64)> {
        let penalty = self.tuning.outside_scope_penalty;
        if penalty > 0.0 { super::changes::scope(self.text).map(|scope| (scope, penalty)) } else { None }
    }

    /// The share of a configuration file's chunk score it loses (none when the query asks for
    /// configuration by a format or a tool).
    pub fn config_penalty(&self) -> f64 {
        // A pasted issue names its tox.ini and CI as it tells how it ran things.
        let asked = self.length == Length::Short && super::paths::asks_for_config(self.text);
        if asked { 0.0 } else { self.tuning.config_penalty }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::VectorTrust;
    use crate::search::{ContextOptions, FilterSpec};

    fn request(query: &str) -> SearchRequest {
        SearchRequest {
            query: query.to_string(),
            indexes: vec!["i".into()],
            limit: 10,
            min_score: 0.0,
            mode: Mode::Auto,
            filter: FilterSpec::default(),
            context: ContextOptions { smart: false, before: 0, after: 0, max_lines: 50 },
            use_cache: true,
            definitions: 0,
            at: crate::store::At::Current,
        }
    }

    // Issue 26: with the static model, hybrid ranked pasted issues below keyword-only (file
    // Acc@5 66.1 against 69.4): its vectors now weigh a quarter against a long description.
    #[test]
    fn a_weak_model_weighs_less_against_a_long_description() {
        let tuning = Tuning::default();
        let long = request(&"the session drops the timeout when a proxy is set ".repeat(4));
        let analysed = analyse(&long, &tuning).expect("analysed");
        assert_eq!(analysed.vector_weight(VectorTrust::Full), analysed.weights.vector);
        assert_eq!(analysed.vector_weight(VectorTrust::Weak), analysed.weights.vector * tuning.long_query_weak_vectors);
        assert!(tuning.long_query_weak_vectors < 1.0);
        let short = request("retry failed uploads");
        let analysed = analyse(&short, &tuning).expect("analysed");
        assert_eq!(analysed.vector_weight(VectorTrust::Weak), analysed.weights.vector, "short questions keep it");
    }
}
