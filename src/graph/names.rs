//! Finding definitions by what people type: a name (`send`), a qualified name
//! (`Request.send`, `Lexer::new`, `impl Foo::bar`), the tail of one (`Inner.method` for
//! `Outer.Inner.method`), a module-qualified one (`sessions.Session.request`), or a part of
//! one (fuzzy). The text is never a pattern: `%`, `_`, `*`, `.` and quotes mean themselves.
//! When nothing matches, the closest names of the index are offered.

use super::{Definition, Graph, GraphError, Scope, last_part};
use crate::chunk::SymbolKind;
use crate::store::{DefQuery, StoredDef, qualified_key};

/// How a definition matched the query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SymbolMatch {
    /// Its name or qualified name is the query.
    Exact,
    /// Its qualified name ends with the query, or its module and qualified name are it.
    Qualified,
    /// Its qualified name contains the query.
    Fuzzy,
}

impl SymbolMatch {
    /// The lowercase name used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            SymbolMatch::Exact => "exact",
            SymbolMatch::Qualified => "qualified",
            SymbolMatch::Fuzzy => "fuzzy",
        }
    }
}

/// The definitions a query names.
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolAnswer {
    /// The query as given.
    pub query: String,
    /// Matching definitions, best first.
    pub definitions: Vec<(Definition, SymbolMatch)>,
    /// More matched than the limit.
    pub truncated: bool,
    /// When nothing matched: the index's names closest to the query.
    pub closest: Vec<String>,
}

/// Whether a name resolved: to exactly one definition, to several, or to none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    /// One definition is named exactly so (or, with none exact, one ends with the name).
    Resolved,
    /// Several are, equally: the candidates are the answer, best first.
    Ambiguous,
    /// None is; the answer holds only partial matches, or the closest names.
    NotFound,
}

impl Resolution {
    /// The lowercase name used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Resolution::Resolved => "resolved",
            Resolution::Ambiguous => "ambiguous",
            Resolution::NotFound => "not_found",
        }
    }
}

impl SymbolAnswer {
    /// Whether the query named one definition: exact matches decide, then qualified ones;
    /// fuzzy matches never resolve a name.
    pub fn resolution(&self) -> Resolution {
        let count = |kind: SymbolMatch| self.definitions.iter().filter(|(_, m)| *m == kind).count();
        match (count(SymbolMatch::Exact), count(SymbolMatch::Qualified)) {
            (1, _) | (0, 1) => Resolution::Resolved,
            (0, 0) => Resolution::NotFound,
            _ => Resolution::Ambiguous,
        }
    }
}

/// Definitions read per store query when the answer is filtered in Rust.
const WIDE: usize = 2000;

/// A query as written, taken apart.
pub(crate) struct Parsed {
    /// The lookup key (lowercase, `::` as `.`).
    pub(crate) key: String,
    /// `impl Foo` or `impl Foo::bar`: only impl blocks and the methods in them.
    pub(crate) impl_only: bool,
}

pub(crate) fn parse(query: &str) -> Parsed {
    let q = query.trim();
    let (q, impl_only) = match q.strip_prefix("impl ") {
        Some(rest) => (rest.trim(), true),
        None => (q, false),
    };
    // Ruby's `Foo#bar` and PHP's `Foo->bar` name instance methods.
    let q = q.replace('#', ".").replace("->", ".");
    Parsed { key: qualified_key(&q), impl_only }
}

impl Graph {
    /// Definitions named by `query`, best first, at most `limit`.
    pub fn find_symbol(
        &self,
        query: &str,
        kinds: &[SymbolKind],
        scope: &Scope,
        limit: usize,
    ) -> Result<SymbolAnswer, GraphError> {
        let found = self.lookup(query, kinds, scope)?;
        let (definitions, truncated) = super::cap(found, limit);
        let closest = if definitions.is_empty() { self.closest(query)? } else { Vec::new() };
        let definitions = definitions.into_iter().map(|(d, m)| (self.definition(d), m)).collect();
        Ok(SymbolAnswer { query: query.to_string(), definitions, truncated, closest })
    }

    /// The definitions `query` names, best first: exact matches, else qualified ones, else
    /// fuzzy ones.
    pub(crate) fn lookup(
        &self,
        query: &str,
        kinds: &[SymbolKind],
        scope: &Scope,
    ) -> Result<Vec<(StoredDef, SymbolMatch)>, GraphError> {
        let parsed = parse(query);
        if parsed.key.is_empty() {
            return Ok(Vec::new());
        }
        let kinds: Vec<SymbolKind> = if parsed.impl_only && kinds.is_empty() {
            vec![SymbolKind::Impl, SymbolKind::Method, SymbolKind::Function]
        } else {
            kinds.to_vec()
        };
        let base = DefQuery {
            kinds: kinds.clone(),
            languages: scope.languages.clone(),
            path_glob: scope.path_glob.clone(),
            limit: WIDE,
            ..DefQuery::default()
        };
        let key = &parsed.key;
        let mut exact = self.reader().definitions(&DefQuery { names: vec![key.clone()], ..base.clone() })?;
        if parsed.impl_only {
            // `impl Foo` is the impl block; `impl Foo::bar` a method of one.
            exact.retain(|d| {
                let segments = key.split('.').count();
                (segments == 1 && d.symbol.kind == SymbolKind::Impl)
                    || (segments > 1 && d.symbol.kind != SymbolKind::Impl)
            });
        }
        if !exact.is_empty() {
            rank(&mut exact, query);
            return Ok(exact.into_iter().map(|d| (d, SymbolMatch::Exact)).collect());
        }
        if key.contains('.') {
            let mut qualified = Vec::new();
            let tail = format!(".{key}");
            for d in self.reader().definitions(&DefQuery { contains: Some(key.clone()), ..base.clone() })? {
                if qualified_key(&d.symbol.qualified_name).ends_with(&tail) {
                    qualified.push(d);
                }
            }
            // `module.Qualified.name`: the first parts name the file.
            let parts: Vec<&str> = key.split('.').collect();
            for split in 1..parts.len() {
                let (module, rest) = (parts[..split].join("/"), parts[split..].join("."));
                for d in self.reader().definitions(&DefQuery { names: vec![rest], ..base.clone() })? {
                    let stem = d.path.rsplit_once('.').map_or(d.path.as_str(), |(s, _)| s).to_lowercase();
                    let stem = stem.strip_suffix("/__init__").unwrap_or(&stem);
                    if (stem == module || stem.ends_with(&format!("/{module}"))) && !qualified.contains(&d) {
                        qualified.push(d);
                    }
                }
            }
            if !qualified.is_empty() {
                rank(&mut qualified, query);
                return Ok(qualified.into_iter().map(|d| (d, SymbolMatch::Qualified)).collect());
            }
        }
        let needle = last_part(key).to_string();
        let mut fuzzy = self.reader().definitions(&DefQuery { contains: Some(needle.clone()), ..base })?;
        // Closest names first: by similarity of the own name to the query's last part, and of
        // the qualified name to a qualified query.
        let qualified = key.contains('.');
        let score = |d: &StoredDef| {
            let own = strsim::jaro_winkler(&d.symbol.name.to_lowercase(), &needle);
            if qualified {
                own * 0.5 + strsim::jaro_winkler(&qualified_key(&d.symbol.qualified_name), key) * 0.5
            } else {
                own
            }
        };
        fuzzy.sort_by(|a, b| {
            score(b)
                .total_cmp(&score(a))
                .then_with(|| a.symbol.qualified_name.len().cmp(&b.symbol.qualified_name.len()))
                .then_with(|| a.path.cmp(&b.path))
                .then_with(|| a.symbol.start_line.cmp(&b.symbol.start_line))
        });
        Ok(fuzzy.into_iter().map(|d| (d, SymbolMatch::Fuzzy)).collect())
    }

    /// Up to five names of the index closest to `query`.
    pub(crate) fn closest(&self, query: &str) -> Result<Vec<String>, GraphError> {
        let parsed = parse(query);
        let wanted = parsed.key;
        // Similarity costs time in the product of the lengths: a name past any real one's
        // length has no close names, and must not cost seconds per indexed name.
        if wanted.is_empty() || wanted.len() > super::MAX_SUGGESTED_LEN {
            return Ok(Vec::new());
        }
        let wanted_last = last_part(&wanted).to_string();
        let mut scored: Vec<(f64, String)> = self
            .reader()
            .definition_names()?
            .into_iter()
            .map(|name| {
                let key = qualified_key(&name);
                let whole = strsim::jaro_winkler(&key, &wanted);
                let own = strsim::jaro_winkler(last_part(&key), &wanted_last);
                (whole.max(own * 0.98), name)
            })
            .filter(|(score, _)| *score >= 0.75)
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.len().cmp(&b.1.len())).then_with(|| a.1.cmp(&b.1)));
        scored.dedup_by(|a, b| a.1 == b.1);
        Ok(scored.into_iter().take(5).map(|(_, n)| n).collect())
    }
}

/// Orders matches: the exact spelling first, then definitions that are not mere values, then
/// by path and line.
fn rank(defs: &mut [StoredDef], query: &str) {
    let q = query.trim();
    let spelled = |d: &StoredDef| d.symbol.qualified_name == q || d.symbol.name == q;
    let weight = |d: &StoredDef| match d.symbol.kind {
        SymbolKind::Variable | SymbolKind::Constant | SymbolKind::Instruction => 1,
        _ => 0,
    };
    defs.sort_by(|a, b| {
        spelled(b)
            .cmp(&spelled(a))
            .then_with(|| weight(a).cmp(&weight(b)))
            .then_with(|| a.path.cmp(&b.path))
            .then_with(|| a.symbol.start_line.cmp(&b.symbol.start_line))
    });
}
