//! Questions about symbols: who uses a definition (references with the calling definition
//! and line), what a definition uses (its dependencies, resolved to definitions), what a
//! change to it reaches (its callers, then theirs, by depth), and how one definition reaches
//! another (the shortest call chain).

use std::collections::{HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

use super::meaning::{Imports, Meaning, meaning};
use super::names::SymbolMatch;
use super::{Certainty, Definition, Graph, GraphError, Scope, dir_of, last_part, separator};
use crate::chunk::{Language, RefKind};
use crate::store::{DefQuery, ImportQuery, RefQuery, StoredDef, StoredRef, qualified_key};

/// References read per question at most; beyond, the answer says it was cut.
const MAX_REFERENCES: usize = 20_000;
/// Definitions a query may name at once.
const MAX_TARGETS: usize = 200;
/// Definitions a heuristic call is followed to, when several share its name.
const FANOUT: usize = 4;
/// At depth two and beyond, a heuristic edge is followed only for names used at most this
/// often: a common method name (`get`) would otherwise reach half the project.
const COMMON_NAME: usize = 50;

/// One use of a definition.
#[derive(Debug, Clone, PartialEq)]
pub struct RefHit {
    /// File, relative to the project root.
    pub path: String,
    /// Language id.
    pub language: String,
    /// 1-based line.
    pub line: u32,
    /// How the name is used.
    pub kind: RefKind,
    /// The name used.
    pub name: String,
    /// What it is reached through (`self`, a module, `<expr>`).
    pub qualifier: Option<String>,
    /// The qualified name of the definition the use lies in (the caller); `None` at module
    /// level.
    pub caller: Option<String>,
    /// The caller's definition, when the index has it.
    pub caller_definition: Option<Definition>,
    /// The definition used, when the use is known to mean one (`path`, qualified name).
    pub target: Option<(String, String)>,
    /// How sure it is that the use means the queried definition.
    pub certainty: Certainty,
    /// The file changed since it was indexed.
    pub stale: bool,
}

/// Who uses what a query names.
#[derive(Debug, Clone, PartialEq)]
pub struct RefsAnswer {
    /// The query as given.
    pub query: String,
    /// The definitions the query named (empty: the name was looked up as written).
    pub definitions: Vec<Definition>,
    /// Uses, exact ones first, then by file and line.
    pub references: Vec<RefHit>,
    /// More uses than the limit.
    pub truncated: bool,
    /// When nothing matched: the index's names closest to the query.
    pub closest: Vec<String>,
}

/// Something a definition uses.
#[derive(Debug, Clone, PartialEq)]
pub struct Dependency {
    /// The name used.
    pub name: String,
    /// How.
    pub kind: RefKind,
    /// What it is reached through.
    pub qualifier: Option<String>,
    /// The first line it is used on.
    pub line: u32,
    /// How many times it is used.
    pub count: usize,
    /// The definition it means, if the index has one.
    pub definition: Option<Definition>,
    /// How sure that is (heuristic when several definitions share the name).
    pub certainty: Certainty,
}

/// What a query's definitions use.
#[derive(Debug, Clone, PartialEq)]
pub struct DependenciesAnswer {
    /// The query as given.
    pub query: String,
    /// The definitions the query named.
    pub definitions: Vec<Definition>,
    /// What they use, in order of first use.
    pub dependencies: Vec<Dependency>,
    /// More than the limit.
    pub truncated: bool,
    /// When nothing matched: the index's names closest to the query.
    pub closest: Vec<String>,
}

/// A definition (or a file, for uses at module level) a change reaches.
#[derive(Debug, Clone, PartialEq)]
pub struct Impacted {
    /// How many steps from the changed definition (1: it uses it directly).
    pub depth: usize,
    /// The file.
    pub path: String,
    /// The definition that uses the one before it; `None` for a use at module level.
    pub definition: Option<Definition>,
    /// The qualified name of what it uses (the definition one step closer).
    pub uses: String,
    /// Where it uses it.
    pub line: u32,
    /// The weakest certainty along the way.
    pub certainty: Certainty,
}

/// What a change to a symbol reaches.
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolImpact {
    /// The query as given.
    pub query: String,
    /// The definitions the query named.
    pub definitions: Vec<Definition>,
    /// Direct users.
    pub direct: Vec<Impacted>,
    /// Users of users, by depth.
    pub transitive: Vec<Impacted>,
    /// More direct users than the limit.
    pub truncated_direct: bool,
    /// More transitive users than the limit (or than the depth allowed).
    pub truncated_transitive: bool,
    /// When nothing matched: the index's names closest to the query.
    pub closest: Vec<String>,
}

/// One call (or use) on a chain.
#[derive(Debug, Clone, PartialEq)]
pub struct CallHop {
    /// The definition making the call.
    pub from: Definition,
    /// The definition called.
    pub to: Definition,
    /// Where in `from`.
    pub line: u32,
    /// How sure the call means `to`.
    pub certainty: Certainty,
}

/// The shortest chain of calls from one symbol to another.
#[derive(Debug, Clone, PartialEq)]
pub struct CallChain {
    /// The start as queried.
    pub from: String,
    /// The end as queried.
    pub to: String,
    /// The calls, in order; empty when there is no chain.
    pub hops: Vec<CallHop>,
    /// Names not found (with their closest names), when one end names nothing.
    pub closest: Vec<String>,
    /// Whether either end named no definition.
    pub unknown: Vec<String>,
    /// Whether the search ran to its end or stopped at its time limit.
    pub search: ChainSearch,
}

/// How far a call-chain search went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainSearch {
    /// Every allowed path up to the depth (or the node cap) was explored.
    Complete,
    /// The search stopped at [`CHAIN_TIME_LIMIT`]: no chain was found in that time.
    TimeLimit,
}

/// How long a call-chain search may run. Between common names (`__init__` to `__repr__`) the
/// graph is dense and a breadth-first search reads thousands of references per level; an
/// answer that says "none found within the limit" is worth more than minutes of a pinned core.
pub const CHAIN_TIME_LIMIT: Duration = Duration::from_millis(1500);

/// When a call-chain search stops: at a time, or earlier when whoever asked has gone (the
/// client of an MCP call disconnected or cancelled it, or the server is shutting down).
#[derive(Clone, Copy)]
pub struct Stop<'a> {
    /// The deadline.
    pub at: Instant,
    /// Set by the caller when nobody waits for the answer any more.
    pub cancel: Option<&'a std::sync::atomic::AtomicBool>,
}

impl Stop<'_> {
    /// A deadline `limit` from now, with no cancel flag.
    pub fn after(limit: Duration) -> Stop<'static> {
        Stop { at: Instant::now() + limit, cancel: None }
    }

    /// Whether the search must stop now.
    fn reached(&self) -> bool {
        Instant::now() >= self.at || self.cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }
}

/// References resolved at a time by a call-chain search, between two looks at its deadline.
const RESOLVE_SLICE: usize = 256;

/// What one breadth-first pass found.
enum Pass {
    Found(Vec<CallHop>),
    NotFound,
    OutOfTime,
}

/// Key of a definition: file and qualified name.
type DefKey = (String, String);

/// A use of some targets: the reference, which target it means (an index into them, when
/// known) and how sure that is.
type Use = (StoredRef, Option<usize>, Certainty);

fn key(d: &StoredDef) -> DefKey {
    (d.path.clone(), d.symbol.qualified_name.clone())
}

impl Graph {
    /// The definitions a query names exactly or by a qualified form (never fuzzily).
    fn targets(&self, query: &str) -> Result<Vec<StoredDef>, GraphError> {
        let mut found: Vec<StoredDef> = self
            .lookup(query, &[], &Scope::default())?
            .into_iter()
            .filter(|(_, m)| *m != SymbolMatch::Fuzzy)
            .map(|(d, _)| d)
            .collect();
        found.truncate(MAX_TARGETS);
        Ok(found)
    }

    /// Every definition whose own name is one of `names` (case-sensitive).
    fn named(&self, names: &[String]) -> Result<Vec<StoredDef>, GraphError> {
        if names.is_empty() {
            return Ok(Vec::new());
        }
        let keys: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
        let mut defs =
            self.reader().definitions(&DefQuery { names: keys, limit: usize::MAX, ..DefQuery::default() })?;
        defs.retain(|d| names.contains(&d.symbol.name));
        Ok(defs)
    }

    /// The references to `targets` among the uses of their names: each with the target it
    /// means and how sure that is. Uses that certainly mean another definition are left out.
    fn uses_of(&self, targets: &[StoredDef], scope: &Scope) -> Result<(Vec<Use>, bool), GraphError> {
        let mut names: Vec<String> = targets.iter().map(|d| d.symbol.name.clone()).collect();
        // The aliases the targets are imported under are used in their stead.
        let mut files: Vec<String> = targets.iter().map(|d| d.path.clone()).collect();
        files.sort();
        files.dedup();
        let aliases = self.reader().imports(&ImportQuery { from: None, targets: Some(files) })?;
        let aliased: Vec<String> = aliases
            .into_iter()
            .filter(|i| i.import.name.as_ref().is_some_and(|n| names.contains(n)))
            .filter_map(|i| i.import.alias)
            .collect();
        names.extend(aliased);
        names.sort();
        names.dedup();
        let refs = self.reader().references(&RefQuery {
            names: names.clone(),
            languages: scope.languages.clone(),
            path_glob: scope.path_glob.clone(),
            limit: MAX_REFERENCES + 1,
            ..RefQuery::default()
        })?;
        let truncated = refs.len() > MAX_REFERENCES;
        let universe = self.named(&names)?;
        let imports = Imports::load(self, refs.iter().map(|r| r.path.as_str()))?;
        let mut by_name: HashMap<&str, Vec<&StoredDef>> = HashMap::new();
        for d in &universe {
            by_name.entry(d.symbol.name.as_str()).or_default().push(d);
        }
        let mut out = Vec::new();
        for r in refs.into_iter().take(MAX_REFERENCES) {
            let candidates = Self::candidates(&by_name, &imports, &r);
            let mut exact_target = None;
            let mut exact_other = false;
            let mut heuristic: Vec<usize> = Vec::new();
            for d in &candidates {
                let ours = targets.iter().position(|t| key(t) == key(d));
                match (meaning(&r, d, &imports), ours) {
                    (Meaning::Exact, Some(i)) => exact_target = exact_target.or(Some(i)),
                    (Meaning::Exact, None) => exact_other = true,
                    (Meaning::Heuristic, Some(i)) => heuristic.push(i),
                    _ => {}
                }
            }
            match (exact_target, exact_other) {
                (Some(i), _) => out.push((r, Some(i), Certainty::Exact)),
                (None, true) => {}
                (None, false) if candidates.is_empty() && targets.is_empty() => {
                    out.push((r, None, Certainty::Heuristic))
                }
                (None, false) if !heuristic.is_empty() => {
                    let only = (heuristic.len() == 1).then(|| heuristic[0]);
                    out.push((r, only, Certainty::Heuristic));
                }
                (None, false) => {}
            }
        }
        // A bare call of a name the calling definition takes as a parameter calls that
        // parameter (`def test(httpbin): httpbin("get")`) where functions are values.
        let callers = self.callers_of(out.iter().map(|u| &u.0))?;
        out.retain(|(r, _, _)| {
            let shadowed = r.reference.kind == RefKind::Call
                && r.reference.qualifier.is_none()
                && functions_are_values(&r.language)
                && Self::caller_def(&callers, r).is_some_and(|d| d.symbol.params.contains(&r.reference.name));
            !shadowed
        });
        Ok((out, truncated))
    }

    /// The definitions a reference may mean: those of its name, and those of the name its
    /// file imported under that alias.
    fn candidates<'d>(
        by_name: &HashMap<&str, Vec<&'d StoredDef>>,
        imports: &Imports,
        r: &StoredRef,
    ) -> Vec<&'d StoredDef> {
        let name = r.reference.name.as_str();
        let mut found: Vec<&StoredDef> = by_name.get(name).cloned().unwrap_or_default();
        if r.reference.qualifier.is_none()
            && let Some(original) = imports.original(&r.path, name)
        {
            found.extend(by_name.get(original).into_iter().flatten());
        }
        found
    }

    /// The definitions that the references were made in, by (file, qualified name).
    fn callers_of<'r>(
        &self,
        refs: impl Iterator<Item = &'r StoredRef>,
    ) -> Result<HashMap<DefKey, Vec<StoredDef>>, GraphError> {
        let mut paths = HashSet::new();
        let mut keys = HashSet::new();
        for r in refs {
            if let Some(c) = &r.reference.caller {
                paths.insert(r.path.clone());
                keys.insert(qualified_key(c));
            }
        }
        if paths.is_empty() {
            return Ok(HashMap::new());
        }
        let defs = self.reader().definitions(&DefQuery {
            names: keys.into_iter().collect(),
            paths: paths.into_iter().collect(),
            limit: usize::MAX,
            ..DefQuery::default()
        })?;
        let mut out: HashMap<DefKey, Vec<StoredDef>> = HashMap::new();
        for d in defs {
            out.entry(key(&d)).or_default().push(d);
        }
        Ok(out)
    }

    /// The caller definition of `r`: the one of its name whose lines hold the reference.
    fn caller_def<'c>(callers: &'c HashMap<DefKey, Vec<StoredDef>>, r: &StoredRef) -> Option<&'c StoredDef> {
        let name = r.reference.caller.as_ref()?;
        let found = callers.get(&(r.path.clone(), name.clone()))?;
        let line = r.reference.line;
        found
            .iter()
            .find(|d| d.symbol.start_line.is_some_and(|s| s <= line) && d.symbol.end_line.is_some_and(|e| e >= line))
            .or_else(|| found.first())
    }

    /// Who uses what `query` names, exact uses first, at most `limit`.
    pub fn references(&self, query: &str, scope: &Scope, limit: usize) -> Result<RefsAnswer, GraphError> {
        let targets = self.targets(query)?;
        let search: Vec<StoredDef>;
        let uses = if targets.is_empty() {
            // A name with no definition in the index (a library function): its uses as written.
            let name = last_part(query.trim()).to_string();
            search = Vec::new();
            let refs = self.reader().references(&RefQuery {
                names: vec![name],
                languages: scope.languages.clone(),
                path_glob: scope.path_glob.clone(),
                limit: MAX_REFERENCES + 1,
                ..RefQuery::default()
            })?;
            // `os.path.join` or `Modle.save` names its qualifier too: only the uses written
            // with that qualifier (or its last part, `path.join`) are uses of it.
            let key = super::names::parse(query).key;
            let refs: Vec<StoredRef> = match key.rsplit_once('.') {
                Some((wanted, _)) => {
                    let wanted_last = last_part(wanted);
                    refs.into_iter()
                        .filter(|r| {
                            r.reference
                                .qualifier
                                .as_deref()
                                .map(qualified_key)
                                .is_some_and(|q| q == wanted || last_part(&q) == wanted_last)
                        })
                        .collect()
                }
                None => refs,
            };
            let truncated = refs.len() > MAX_REFERENCES;
            // A compose `depends_on`, an `extends` or a Dockerfile stage names a service or
            // stage of its own file: no definition needed to be sure.
            let certainty = |r: &StoredRef| match r.reference.kind {
                RefKind::DependsOn | RefKind::Extends | RefKind::Stage => Certainty::Exact,
                _ => Certainty::Heuristic,
            };
            (
                refs.into_iter()
                    .take(MAX_REFERENCES)
                    .map(|r| {
                        let sure = certainty(&r);
                        (r, None, sure)
                    })
                    .collect(),
                truncated,
            )
        } else {
            search = targets;
            self.uses_of(&search, scope)?
        };
        let (mut uses, cut) = uses;
        uses.sort_by(|a, b| {
            a.2.cmp(&b.2)
                .then_with(|| a.0.path.cmp(&b.0.path))
                .then_with(|| a.0.reference.line.cmp(&b.0.reference.line))
        });
        let (uses, truncated) = super::cap(uses, limit);
        let callers = self.callers_of(uses.iter().map(|u| &u.0))?;
        let references = uses
            .into_iter()
            .map(|(r, target, certainty)| {
                let caller_definition = Self::caller_def(&callers, &r).cloned().map(|d| self.definition(d));
                RefHit {
                    stale: self.is_stale(&r.path),
                    path: r.path,
                    language: r.language,
                    line: r.reference.line,
                    kind: r.reference.kind,
                    name: r.reference.name,
                    qualifier: r.reference.qualifier,
                    caller: r.reference.caller,
                    caller_definition,
                    target: target.map(|i| key(&search[i])),
                    certainty,
                }
            })
            .collect::<Vec<_>>();
        let closest = if references.is_empty() && search.is_empty() { self.closest(query)? } else { Vec::new() };
        let definitions = search.into_iter().map(|d| self.definition(d)).collect();
        Ok(RefsAnswer { query: query.to_string(), definitions, references, truncated: truncated || cut, closest })
    }

    /// The definitions nested in `defs` (their methods, inner functions), with them.
    fn with_members(&self, defs: &[StoredDef]) -> Result<Vec<StoredDef>, GraphError> {
        let paths: Vec<String> = defs.iter().map(|d| d.path.clone()).collect();
        let all = self.reader().definitions(&DefQuery { paths, limit: usize::MAX, ..DefQuery::default() })?;
        Ok(all
            .into_iter()
            .filter(|m| {
                defs.iter().any(|d| {
                    let sep = separator(&d.language);
                    d.path == m.path
                        && (m.symbol.qualified_name == d.symbol.qualified_name
                            || m.symbol.qualified_name.starts_with(&format!("{}{sep}", d.symbol.qualified_name)))
                })
            })
            .collect())
    }

    /// What `refs` (made in some definitions) mean: for each, the definitions it may use —
    /// the exact one, else up to `fanout` of those sharing its name, nearest first (same
    /// file, same directory, shortest path) — and how sure that is.
    fn resolve_uses(&self, refs: &[StoredRef], fanout: usize) -> Result<Vec<(Vec<StoredDef>, Certainty)>, GraphError> {
        let imports = Imports::load(self, refs.iter().map(|r| r.path.as_str()))?;
        let mut names: Vec<String> = refs.iter().map(|r| r.reference.name.clone()).collect();
        names.extend(refs.iter().filter_map(|r| imports.original(&r.path, &r.reference.name)).map(str::to_string));
        names.sort();
        names.dedup();
        let universe = self.named(&names)?;
        let mut by_name: HashMap<&str, Vec<&StoredDef>> = HashMap::new();
        for d in &universe {
            by_name.entry(d.symbol.name.as_str()).or_default().push(d);
        }
        Ok(refs
            .iter()
            .map(|r| {
                let candidates = Self::candidates(&by_name, &imports, r);
                let mut exact = None;
                let mut maybe: Vec<&StoredDef> = Vec::new();
                for d in &candidates {
                    match meaning(r, d, &imports) {
                        Meaning::Exact if exact.is_none() => exact = Some(*d),
                        Meaning::Heuristic => maybe.push(d),
                        _ => {}
                    }
                }
                match exact {
                    Some(d) => (vec![d.clone()], Certainty::Exact),
                    None => {
                        maybe.sort_by_key(|d| {
                            (d.path != r.path, dir_of(&d.path) != dir_of(&r.path), d.path.len(), d.path.clone())
                        });
                        (maybe.into_iter().take(fanout).cloned().collect(), Certainty::Heuristic)
                    }
                }
            })
            .collect())
    }

    /// What the definitions `query` names use, at most `limit` distinct things.
    pub fn dependencies(&self, query: &str, limit: usize) -> Result<DependenciesAnswer, GraphError> {
        let targets = self.targets(query)?;
        if targets.is_empty() {
            return Ok(DependenciesAnswer {
                query: query.to_string(),
                definitions: Vec::new(),
                dependencies: Vec::new(),
                truncated: false,
                closest: self.closest(query)?,
            });
        }
        let scopes = self.with_members(&targets)?;
        let callers: Vec<(String, String)> = scopes.iter().map(key).collect();
        let refs = self.reader().references(&RefQuery { callers, limit: MAX_REFERENCES, ..RefQuery::default() })?;
        let meanings: Vec<(Option<StoredDef>, Certainty)> =
            self.resolve_uses(&refs, 1)?.into_iter().map(|(defs, c)| (defs.into_iter().next(), c)).collect();
        let own: HashSet<DefKey> = scopes.iter().map(key).collect();
        let mut deps: Vec<Dependency> = Vec::new();
        let mut index: HashMap<(String, Option<DefKey>), usize> = HashMap::new();
        let mut pairs: Vec<(&StoredRef, &(Option<StoredDef>, Certainty))> = refs.iter().zip(&meanings).collect();
        pairs.sort_by_key(|(r, _)| (r.path.clone(), r.reference.line));
        for (r, (def, certainty)) in pairs {
            // Uses of the symbol's own members are not dependencies on something else.
            if def.as_ref().is_some_and(|d| own.contains(&key(d))) {
                continue;
            }
            let slot = (r.reference.name.clone(), def.as_ref().map(key));
            match index.get(&slot) {
                Some(&i) => deps[i].count += 1,
                None => {
                    index.insert(slot, deps.len());
                    deps.push(Dependency {
                        name: r.reference.name.clone(),
                        kind: r.reference.kind,
                        qualifier: r.reference.qualifier.clone(),
                        line: r.reference.line,
                        count: 1,
                        definition: def.clone().map(|d| self.definition(d)),
                        certainty: *certainty,
                    });
                }
            }
        }
        let (dependencies, truncated) = super::cap(deps, limit);
        let definitions = targets.into_iter().map(|d| self.definition(d)).collect();
        Ok(DependenciesAnswer { query: query.to_string(), definitions, dependencies, truncated, closest: Vec::new() })
    }

    /// What a change to what `query` names reaches: direct users (at most `max_direct`) and
    /// their users, depth by depth up to `depth` (at most `max_transitive`).
    pub fn symbol_impact(
        &self,
        query: &str,
        depth: usize,
        max_direct: usize,
        max_transitive: usize,
    ) -> Result<SymbolImpact, GraphError> {
        let targets = self.targets(query)?;
        let mut answer = SymbolImpact {
            query: query.to_string(),
            definitions: Vec::new(),
            direct: Vec::new(),
            transitive: Vec::new(),
            truncated_direct: false,
            truncated_transitive: false,
            closest: Vec::new(),
        };
        if targets.is_empty() {
            answer.closest = self.closest(query)?;
            return Ok(answer);
        }
        let mut seen: HashSet<DefKey> = targets.iter().map(key).collect();
        let mut seen_files: HashSet<String> = HashSet::new();
        // The frontier: definitions reached at this depth, with the certainty of the way there.
        let mut frontier: Vec<(StoredDef, Certainty)> = targets.iter().map(|d| (d.clone(), Certainty::Exact)).collect();
        let mut found: Vec<(Impacted, Option<StoredDef>)> = Vec::new();
        let budget = max_direct.saturating_add(max_transitive).saturating_add(1);
        'levels: for level in 1..=depth.max(1) {
            if frontier.is_empty() {
                break;
            }
            let defs: Vec<StoredDef> = frontier.iter().map(|(d, _)| d.clone()).collect();
            let (uses, cut) = self.uses_of(&defs, &Scope::default())?;
            if cut {
                if level == 1 {
                    answer.truncated_direct = true;
                } else {
                    answer.truncated_transitive = true;
                }
            }
            let mut per_name: HashMap<&str, usize> = HashMap::new();
            for (r, _, _) in &uses {
                *per_name.entry(r.reference.name.as_str()).or_default() += 1;
            }
            let callers = self.callers_of(uses.iter().map(|u| &u.0))?;
            let mut next = Vec::new();
            for (r, target, certainty) in &uses {
                if level > 1 && *certainty == Certainty::Heuristic && per_name[r.reference.name.as_str()] > COMMON_NAME
                {
                    continue;
                }
                let via = target.map(|i| &frontier[i]).or_else(|| frontier.first());
                let Some((used, way)) = via else { continue };
                let certainty = way.and(*certainty);
                let impacted = |definition: Option<Definition>| Impacted {
                    depth: level,
                    path: r.path.clone(),
                    definition,
                    uses: used.symbol.qualified_name.clone(),
                    line: r.reference.line,
                    certainty,
                };
                match Self::caller_def(&callers, r) {
                    Some(caller) => {
                        if !seen.insert(key(caller)) {
                            continue;
                        }
                        found.push((impacted(None), Some(caller.clone())));
                        next.push((caller.clone(), certainty));
                    }
                    None => {
                        if !seen_files.insert(r.path.clone()) {
                            continue;
                        }
                        found.push((impacted(None), None));
                    }
                }
                if found.len() >= budget {
                    answer.truncated_transitive = true;
                    break 'levels;
                }
            }
            frontier = next;
            if level == depth.max(1) && !frontier.is_empty() {
                answer.truncated_transitive = true;
            }
        }
        for (mut impacted, caller) in found {
            impacted.definition = caller.map(|d| self.definition(d));
            if impacted.depth == 1 {
                answer.direct.push(impacted);
            } else {
                answer.transitive.push(impacted);
            }
        }
        let order = |a: &Impacted, b: &Impacted| {
            a.depth
                .cmp(&b.depth)
                .then_with(|| a.certainty.cmp(&b.certainty))
                .then_with(|| a.path.cmp(&b.path))
                .then_with(|| a.line.cmp(&b.line))
        };
        answer.direct.sort_by(order);
        answer.transitive.sort_by(order);
        let (direct, cut_direct) = super::cap(std::mem::take(&mut answer.direct), max_direct);
        let (transitive, cut_transitive) = super::cap(std::mem::take(&mut answer.transitive), max_transitive);
        answer.direct = direct;
        answer.transitive = transitive;
        answer.truncated_direct |= cut_direct;
        answer.truncated_transitive |= cut_transitive;
        answer.definitions = targets.into_iter().map(|d| self.definition(d)).collect();
        Ok(answer)
    }

    /// The shortest chain of calls from what `from` names to what `to` names, at most
    /// `max_depth` calls long: through exact calls only if such a chain exists, else through
    /// heuristic ones too.
    pub fn call_chain(&self, from: &str, to: &str, max_depth: usize) -> Result<CallChain, GraphError> {
        self.call_chain_until(from, to, max_depth, Stop::after(CHAIN_TIME_LIMIT))
    }

    /// [`Self::call_chain`], giving up when `stop` says so.
    pub fn call_chain_until(
        &self,
        from: &str,
        to: &str,
        max_depth: usize,
        deadline: Stop<'_>,
    ) -> Result<CallChain, GraphError> {
        let starts = self.targets(from)?;
        let ends = self.targets(to)?;
        let mut chain = CallChain {
            from: from.to_string(),
            to: to.to_string(),
            hops: Vec::new(),
            closest: Vec::new(),
            unknown: Vec::new(),
            search: ChainSearch::Complete,
        };
        for (query, found) in [(from, &starts), (to, &ends)] {
            if found.is_empty() {
                chain.unknown.push(query.to_string());
                chain.closest.extend(self.closest(query)?);
            }
        }
        if !chain.unknown.is_empty() {
            return Ok(chain);
        }
        let goal: HashSet<DefKey> = ends.iter().map(key).collect();
        for allowed in [Certainty::Exact, Certainty::Heuristic] {
            match self.search_chain(&starts, &goal, allowed, max_depth, deadline)? {
                Pass::Found(hops) => {
                    chain.hops = hops;
                    break;
                }
                Pass::NotFound => {}
                Pass::OutOfTime => {
                    chain.search = ChainSearch::TimeLimit;
                    break;
                }
            }
        }
        Ok(chain)
    }

    /// Breadth-first search over calls no weaker than `allowed`.
    fn search_chain(
        &self,
        starts: &[StoredDef],
        goal: &HashSet<DefKey>,
        allowed: Certainty,
        max_depth: usize,
        deadline: Stop<'_>,
    ) -> Result<Pass, GraphError> {
        const MAX_NODES: usize = 5000;
        let mut parent: HashMap<DefKey, (DefKey, u32, Certainty)> = HashMap::new();
        let mut defs: HashMap<DefKey, StoredDef> = starts.iter().map(|d| (key(d), d.clone())).collect();
        let mut queue: VecDeque<(DefKey, usize)> = starts.iter().map(|d| (key(d), 0)).collect();
        let mut level: Vec<DefKey> = Vec::new();
        let mut current_depth = 0;
        let mut found = None;
        // Level by level: each level's calls are read in one batch.
        while found.is_none() && !queue.is_empty() && current_depth < max_depth && defs.len() < MAX_NODES {
            if deadline.reached() {
                return Ok(Pass::OutOfTime);
            }
            level.clear();
            while let Some((k, d)) = queue.front().cloned() {
                if d != current_depth {
                    break;
                }
                queue.pop_front();
                level.push(k);
            }
            let scopes: Vec<StoredDef> = level.iter().filter_map(|k| defs.get(k).cloned()).collect();
            let callers: Vec<(String, String)> = scopes.iter().map(key).collect();
            let refs = self.reader().references(&RefQuery { callers, limit: MAX_REFERENCES, ..RefQuery::default() })?;
            let refs: Vec<StoredRef> = refs.into_iter().filter(|r| r.reference.kind == RefKind::Call).collect();
            // Each reference's meaning depends on it alone, so resolving them in slices gives
            // the same answers and lets a dense level stop at the deadline.
            let mut meanings = Vec::with_capacity(refs.len());
            for slice in refs.chunks(RESOLVE_SLICE) {
                if deadline.reached() {
                    return Ok(Pass::OutOfTime);
                }
                meanings.extend(self.resolve_uses(slice, FANOUT)?);
            }
            'refs: for (r, (callees, certainty)) in refs.iter().zip(meanings) {
                if certainty > allowed {
                    continue;
                }
                for callee in callees {
                    let from = (r.path.clone(), r.reference.caller.clone().unwrap_or_default());
                    let to = key(&callee);
                    if defs.contains_key(&to) {
                        continue;
                    }
                    parent.insert(to.clone(), (from, r.reference.line, certainty));
                    defs.insert(to.clone(), callee);
                    if goal.contains(&to) {
                        found = Some(to);
                        break 'refs;
                    }
                    queue.push_back((to, current_depth + 1));
                }
            }
            current_depth += 1;
        }
        let Some(mut at) = found else { return Ok(Pass::NotFound) };
        let mut hops = Vec::new();
        while let Some((from, line, certainty)) = parent.get(&at).cloned() {
            let (Some(f), Some(t)) = (defs.get(&from).cloned(), defs.get(&at).cloned()) else { break };
            hops.push(CallHop { from: self.definition(f), to: self.definition(t), line, certainty });
            at = from;
        }
        hops.reverse();
        Ok(Pass::Found(hops))
    }
}

/// Whether a parameter can hold a function and hide one of the same name (Python, JS/TS,
/// Lua, Go, Rust); Java-like languages keep methods and variables apart.
fn functions_are_values(language: &str) -> bool {
    Language::from_name(language).is_some_and(|l| l.name_rules().functions_are_values)
}
