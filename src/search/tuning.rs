//! Retrieval knobs ([`Tuning`]), compared side by side by `cocosearch-eval --variants`; the
//! defaults are the ones it chose.

use super::{keywords, learned};

/// Query terms kept for keyword search, rarest first.
pub(super) const MAX_TERMS: usize = 32;
/// Chunks that single keywords may select for scoring (see [`keywords`]): it bounds the
/// keyword stage's work whatever the size of the index.
pub(super) const KEYWORD_BUDGET: u64 = 3000;

/// Weights of the file-level evidence in the fusion, beside the chunk lists'.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FileWeights {
    /// The files ranked by keyword evidence over their chunks together
    /// ([`keywords::rank_files`]); 0 leaves them out.
    pub keyword: f64,
    /// The files ranked by their best fused chunks (see [`fuse::fuse`](super::fuse::fuse)); 0
    /// leaves them out.
    pub evidence: f64,
    /// The files the query names by path or module ([`mentions`](super::mentions)); 0 ignores
    /// them.
    pub mentioned: f64,
}

/// Retrieval knobs, compared by `cocosearch-eval`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tuning {
    /// A query of more words than this is a description (a pasted issue, a paragraph):
    /// weighted as plain language whatever identifiers it mentions. 0 turns the rule off.
    pub long_query_words: usize,
    /// A description of a change ([`changes`](super::changes): `fix: …`, "Add …") of at least
    /// this many words is read as a long query whatever its length; 0 reads it by its length.
    pub long_change_words: usize,
    /// Whether exact symbol definitions named in a long query are put first.
    pub long_query_symbols: bool,
    /// Fusion weights (vector, keyword) of a long query in [`Mode::Auto`](super::Mode::Auto).
    pub long_query_weights: (f64, f64),
    /// The share of the vector weight a weak (static) model keeps for a long query
    /// ([`VectorTrust`](crate::embed::VectorTrust)).
    pub long_query_weak_vectors: f64,
    /// When symbols of a long query are not put first: the weight of their exact definitions
    /// as one more ranked list in the fusion (0: not searched).
    pub long_query_symbol_weight: f64,
    /// Keywords kept for a long query (rarest first); short queries keep [`MAX_TERMS`].
    pub long_query_terms: usize,
    /// For a long query: how many more times each term of its first line counts, as if the
    /// line were repeated ([`query::emphasize_summary`](super::query::emphasize_summary)); 0 reads it as any
    /// other line.
    pub long_query_summary: u32,
    /// Weights of the file-level evidence of a short query.
    pub files: FileWeights,
    /// Weights of the file-level evidence of a long query (a pasted issue, a change's
    /// description): its answer is a file many of its words point to.
    pub long_query_files: FileWeights,
    /// Weight of the files whose names answer a short query ([`path_names`](super::path_names));
    /// 0 leaves them out.
    pub path_names: f64,
    /// How much each word of a file's name the query did not ask for weakens that file's
    /// evidence in [`path_names`](super::path_names) (score / (1 + this × such words)).
    pub unasked_name_word: f64,
    /// For a long query (a pasted issue): the share of the score taken from chunks of prose
    /// files (release notes, user guides; [`fuse::is_prose`](super::fuse::is_prose)); 0 ranks them like code.
    pub long_query_prose_penalty: f64,
    /// For a short "where/how" question that does not ask for documentation: the share of the
    /// score taken from chunks of prose files.
    pub where_question_prose_penalty: f64,
    /// The share of the score taken from chunks of auxiliary files (tests, examples,
    /// fixtures, vendored code) when the query does not ask for them; 0 ranks them like code.
    pub auxiliary_penalty: f64,
    /// For a long query: the weight of the definitions and raise sites it names as code
    /// (frames, names, messages; `retrieve::named`); 0 leaves them out.
    pub named_chunks: f64,
    /// For a long query: the weight of the files of those and of its traceback frames.
    pub named_files: f64,
    /// For a long query: the weight of the files one step from those in the code graph
    /// (callers, imports) in the fusion; 0 leaves them to the learned ranking alone.
    pub named_neighbours: f64,
    /// For a long query: the share of a dotted name's weight its container gets when the
    /// name itself is defined nowhere (`Settings.PreferTypeHandlersForEnums`, a member a
    /// change adds, → class `Settings`); 0 leaves such names out.
    pub named_container: f64,
    /// For a long query (which asks for tests only by naming them): the share of the score
    /// taken from chunks of auxiliary files; 0 ranks them like code.
    pub long_query_auxiliary_penalty: f64,
    /// The share of the score taken from chunks of configuration files (YAML, TOML, INI,
    /// JSON, XML) when the query does not ask for them by a format or a tool; 0 ranks them
    /// like code.
    pub config_penalty: f64,
    /// Share of a release notes chunk's score it loses (`CHANGES.rst`, towncrier fragments),
    /// unless a short query asks for them.
    pub release_notes_penalty: f64,
    /// Share of the fused score taken from chunks outside the area a change's scope names
    /// (`feat(openapi): …` → `packages/openapi/`, `axum: …` → `axum/`, not `axum-core/`),
    /// when some candidate lies in a directory called so; 0 leaves them as they are.
    pub outside_scope_penalty: f64,
    /// For a long query: the share of each chunk's score given to its file's likelihood under
    /// [`Tuning::file_model`] ([`learned::blend`](super::learned::blend)); 0 leaves it out.
    pub learned_files: f64,
    /// The linear model that ranks a long query's candidate files by their evidence.
    pub file_model: learned::Model,
    /// Chunks that single keywords may select for scoring (see [`keywords::Limits`]).
    pub keyword_budget: u64,
    /// A keyword in at most this share of the chunks is rare enough to select candidates.
    pub rare_share: f64,
    /// BM25's parameters for keyword ranking.
    pub bm25: keywords::Bm25,
    /// BM25's parameters for ranking files by their chunks together
    /// ([`keywords::rank_files`]): `b` is how much a big module's length counts against it.
    pub file_bm25: keywords::Bm25,
    /// Files, best first, whose functions and methods are ranked as definitions.
    pub definition_files: usize,
    /// A definition's prior for its file's rank r (0-based): this / (r + 1), beside its BM25
    /// evidence normalised to at most 1.
    pub definition_file_prior: f64,
    /// What a definition the question names (a frame's function, a name used as code) adds to
    /// its score among the definitions ranked (as much as the best keyword evidence at 1).
    pub definition_named: f64,
    /// Classes and other types among the definitions ranked, their score times this (0 leaves
    /// them out): their own text is their lines outside their methods.
    pub definition_types: f64,
    /// Functions defined inside functions (closures, local helpers) among the definitions
    /// ranked, their score times this (0 leaves them to the function around them).
    pub definition_nested: f64,
    /// For a short sentence naming a symbol (`hash code builder for consistent hashCode`):
    /// the weight of the symbol's exact definitions as evidence in the fusion; 0 puts them
    /// first as for a bare identifier.
    pub sentence_symbol_weight: f64,
    /// Fusion weights (vector, keyword) of a short plain-language query in
    /// [`Mode::Auto`](super::Mode::Auto).
    pub natural_weights: (f64, f64),
    /// RRF's damping k for a short query: small puts the weight on the first few of each
    /// list, where a short question's answer is. A long query keeps [`fuse::K`](super::fuse::K):
    /// a pasted issue's keywords are many and each weak, and its evidence is spread.
    pub short_query_damping: f64,
    /// For a short query: the share of each chunk list's weight given by its hits' scores
    /// rather than their ranks ([`fuse::Inputs::by_score`](super::fuse::Inputs::by_score)), so
    /// hits that score alike gain alike. A long query fuses by rank alone.
    pub short_query_by_score: f64,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            long_query_words: 20,
            // 0 -> 1: the 168 commit messages' file Acc@5 75.6 -> 76.8 (with the long
            // question's file weights below 78.0; 4 or 6 words the same), 144 of them describe a
            // change; the pasted issues are long anyway (2026-11-30, keyword).
            long_change_words: 1,
            long_query_symbols: false,
            long_query_weights: (1.0, 1.0),
            // Measured with the static model on the 62 pasted issues: 1 -> hybrid file Acc@5
            // 66.1 (keyword-only 69.4); 0.5 -> 69.4 but Acc@1 41.9 (keyword 43.5); 0.25 -> Acc@1,
            // @5 and @10 and function Acc@5 all equal keyword-only's (2026-11-26). Since a long
            // question's structure is read (2026-11-29), 0.25 costs a task: hybrid 71.0 / 38.3 ->
            // 36.7 against keyword-only 72.6 / 38.3 (requests 76.9 against 84.6); 0 is keyword-only's.
            long_query_weak_vectors: 0.0,
            // 1.0 rather than 1.5: hybrid file Acc@1 43.5 -> 46.8 (better on requests and
            // pylint, equal on pytest), Acc@5 the same on each repository (2026-11-24).
            long_query_symbol_weight: 1.0,
            long_query_terms: MAX_TERMS,
            long_query_summary: 2,
            // Measured with `cocosearch-eval --variants` on the 62 public tasks (keyword-only
            // file Acc@5 59.7 -> 69.4, held-out rotation 67.7; see docs/evaluation.md).
            files: FileWeights { keyword: 0.5, evidence: 0.5, mentioned: 0.0 },
            // 0.5 / 0.5 / 0 -> 1 / 1 / 0.5: the 62 pasted issues' file Acc@1 46.8 -> 51.6 (Acc@3
            // 64.5 -> 67.7, Acc@5 75.8, function Acc@5 48.3 the same); the commit messages read
            // long 76.8 -> 78.0 (Acc@1 49.4 -> 50.0). On short questions the same weights cost
            // 0.01 (hybrid 0.875 -> 0.865), so they keep theirs (2026-11-30, keyword).
            long_query_files: FileWeights { keyword: 1.0, evidence: 1.0, mentioned: 0.5 },
            // Measured on the short-question benchmark's development split (file NDCG@10, static
            // model, hybrid): 0 -> 0.807, 0.5 -> 0.830, 1 -> 0.818, 2 -> 0.800; held-out
            // rotation 0.830 (2026-11-26).
            path_names: 1.0,
            // Measured on the short-question benchmark's development split (file NDCG@10, static
            // model; hybrid / keyword): 0 -> 0.869/0.848, 0.1 -> 0.870/0.847, 0.3 -> 0.871/0.848,
            // 0.5 -> 0.872/0.848, 0.75 -> 0.872/0.848, 1 -> 0.873/0.849: a slow rise, 0.5 in its
            // middle; the held-out rotation over 0–0.5 chose 0.5 for every repository (2026-11-26).
            unasked_name_word: 0.5,
            long_query_prose_penalty: 0.5,
            where_question_prose_penalty: 0.5,
            auxiliary_penalty: 0.5,
            named_chunks: 1.0,
            named_files: 1.0,
            named_neighbours: 0.0,
            // 0 -> 0.25 / 0.5 / 1: the 168 commit messages' file Acc@5 79.2 -> 79.8 each (Dapper's
            // `Add Settings.PreferTypeHandlersForEnums` gets `SqlMapper.Settings.cs` 3rd, was
            // 10th; no task moves down); the pasted issues identical at each (2026-12-01, keyword).
            named_container: 0.5,
            long_query_auxiliary_penalty: 0.5,
            config_penalty: 0.5,
            // 0 -> 0.25 / 0.5 / 0.8: the 168 commit messages' file Acc@5 75.0 -> 75.6 each, Acc@3
            // 65.5 -> 65.5 / 67.3 / 67.9, MRR 65.9 -> 67.4 / 67.8 / 67.9 (22 tasks of 9
            // repositories move up, none down); the pasted issues and short questions are the
            // same at each (2026-11-30, keyword; short questions static hybrid too).
            release_notes_penalty: 0.8,
            // 0 -> 0.25 / 0.5 / 0.8: the 168 commit messages' file Acc@5 78.0 -> 79.2 each, MRR
            // 71.9 -> 72.5 (axum and tRPC gain a task each; 7 tasks of 4 repositories move up,
            // none down); only a change's scope (`feat(openapi): …`) names one (2026-12-01, keyword).
            outside_scope_penalty: 0.5,
            learned_files: 0.0,
            file_model: learned::FITTED,
            keyword_budget: KEYWORD_BUDGET,
            rare_share: keywords::RARE_SHARE,
            bm25: keywords::Bm25::default(),
            file_bm25: keywords::Bm25::default(),
            // Measured on the 60 public tasks with gold functions (function Acc@5: 5 files and
            // 0.25 beside 4–10 files and 0.2–0.3, a plateau; see docs/evaluation.md).
            definition_files: 5,
            definition_file_prior: 0.25,
            definition_named: 0.5,
            definition_types: 0.8,
            // 0 -> 1: function Acc@5 43.3 -> 46.7 (requests 46.2 -> 53.8, pytest 42.4 -> 45.5,
            // pylint equal; 0.5 -> 45.0, 0.8 -> 46.7), files unchanged (2026-11-29, keyword).
            definition_nested: 1.0,
            // Measured on the short-question benchmark's development split (file NDCG@10,
            // static model; with sentence symbols and path names 1.0): k 60 -> hybrid 0.853,
            // keyword 0.828; 10 -> 0.857/0.832; 5 -> 0.859/0.840; 2 -> 0.858/0.833. On the 62
            // pasted issues k 5 costs keyword file Acc@5 69.4 -> 67.7 and MiniLM hybrid
            // 77.4 -> 72.6, so long queries keep 60 (2026-11-26).
            short_query_damping: 5.0,
            // Measured on the short-question benchmark's development split (file NDCG@10, static
            // model; hybrid / keyword): 0 -> 0.863/0.846, 0.25 -> 0.865/0.848, 0.5 ->
            // 0.869/0.848, 0.75 -> 0.869/0.848, 1 -> 0.864/0.845; held-out rotation 0.867/0.845.
            // On the 62 pasted issues by-score fusion cost hybrid file Acc@1 (48.4 -> 43.5 at
            // 0.5, Acc@5 equal), so long queries keep rank fusion (2026-11-26).
            short_query_by_score: 0.5,
            sentence_symbol_weight: 1.0,
            natural_weights: (1.0, 0.6),
        }
    }
}
