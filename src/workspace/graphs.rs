//! Name questions of the code graph asked of several indexes at once (`symbol`, `refs`,
//! `find_symbol`, `get_dependents` with `--indexes`): each index answers on its own graph, and
//! the answers merge into one, every result keeping the index it came from.
//!
//! Only questions about a name span indexes: a file's outline, its dependencies, an impact or a
//! call chain lie within one project.

use std::sync::Arc;

use super::graph::{Graph, RefsAnswer, SymbolAnswer};
use super::target::{Caller, IndexRef, Need, Target};
use super::{Error, Workspace};

/// The graphs of the indexes a question reads, in the order named, and what the user should
/// know about the ones left out.
///
/// Invariant: there is at least one graph (`open_graphs` fails otherwise).
pub struct Graphs {
    opened: Vec<(Target, Graph)>,
    /// An index named that does not exist, left out: why, and what to do.
    pub warnings: Vec<String>,
}

impl Workspace {
    /// Opens the graph of `index`, or with `names` (`--indexes`) the graphs of the index
    /// named and those (the first at `index`'s snapshot); one that does not exist is left out
    /// with a warning, none existing is the error of the first.
    pub fn open_graphs(
        self: &Arc<Self>,
        caller: Caller<'_>,
        index: &IndexRef,
        names: &[String],
    ) -> Result<Graphs, Error> {
        let open = |index: &IndexRef| -> Result<(Target, Graph), Error> {
            let target = self.open(caller, index, Need::Index)?;
            let graph = target.graph()?;
            Ok((target, graph))
        };
        if names.is_empty() {
            return Ok(Graphs { opened: vec![open(index)?], warnings: Vec::new() });
        }
        let (opened, warnings) = self.open_each(index.name(), names, |position, name| {
            // As in a search of several: the first is read at the snapshot asked for, the
            // others at their working tree.
            let at = if position == 0 { index.at.clone() } else { None };
            open(&IndexRef { at, ..IndexRef::named(name) })
        })?;
        Ok(Graphs { opened, warnings })
    }
}

/// An answer merged from several indexes, with the index of each of its results.
pub struct Merged<A> {
    /// The answer, as one index would give it.
    pub answer: A,
    /// The index of each result, in the answer's order (definitions, for a symbol; uses, for
    /// references).
    pub indexes: Vec<String>,
    /// The index of each definition of a references answer.
    pub definition_indexes: Vec<String>,
}

impl Graphs {
    /// The first target and its graph (the one a question of one index reads).
    pub fn first(&self) -> &(Target, Graph) {
        &self.opened[0]
    }

    /// Whether several indexes are read.
    pub fn several(&self) -> bool {
        self.opened.len() > 1
    }

    /// The indexes read, in order.
    pub fn names(&self) -> Vec<String> {
        self.opened.iter().map(|(target, _)| target.index.clone()).collect()
    }

    /// `ask` of every graph: the definitions of a name, best match first (an exact name in any
    /// index before a qualified one anywhere), at most `limit`.
    pub fn symbols(
        &self,
        limit: usize,
        ask: impl Fn(&Graph) -> Result<SymbolAnswer, crate::graph::GraphError>,
    ) -> Result<Merged<SymbolAnswer>, Error> {
        if let [(target, graph)] = self.opened.as_slice() {
            let answer = ask(graph)?;
            let indexes = vec![target.index.clone(); answer.definitions.len()];
            return Ok(Merged { answer, indexes, definition_indexes: Vec::new() });
        }
        let mut merged: Option<SymbolAnswer> = None;
        let mut found: Vec<(String, usize, (super::graph::Definition, crate::graph::SymbolMatch))> = Vec::new();
        for (order, (target, graph)) in self.opened.iter().enumerate() {
            let mut answer = ask(graph)?;
            found.extend(answer.definitions.drain(..).map(|d| (target.index.clone(), order, d)));
            match &mut merged {
                None => merged = Some(answer),
                Some(all) => {
                    all.truncated |= answer.truncated;
                    add_closest(&mut all.closest, answer.closest);
                }
            }
        }
        let mut answer = merged.ok_or_else(|| Error::new("no index answered"))?;
        found.sort_by_key(|(_, order, (_, how))| (*how, *order));
        answer.truncated |= found.len() > limit;
        found.truncate(limit);
        if !found.is_empty() {
            answer.closest.clear();
        }
        let indexes = found.iter().map(|(index, ..)| index.clone()).collect();
        answer.definitions = found.into_iter().map(|(_, _, d)| d).collect();
        Ok(Merged { answer, indexes, definition_indexes: Vec::new() })
    }

    /// `ask` of every graph: the uses of a name (exact ones first, then by index, file and
    /// line), at most `limit`, and the definitions each index found.
    pub fn references(
        &self,
        limit: usize,
        ask: impl Fn(&Graph) -> Result<RefsAnswer, crate::graph::GraphError>,
    ) -> Result<Merged<RefsAnswer>, Error> {
        if let [(target, graph)] = self.opened.as_slice() {
            let answer = ask(graph)?;
            let indexes = vec![target.index.clone(); answer.references.len()];
            let definition_indexes = vec![target.index.clone(); answer.definitions.len()];
            return Ok(Merged { answer, indexes, definition_indexes });
        }
        let mut merged: Option<RefsAnswer> = None;
        let (mut uses, mut definitions) = (Vec::new(), Vec::new());
        for (order, (target, graph)) in self.opened.iter().enumerate() {
            let mut answer = ask(graph)?;
            uses.extend(answer.references.drain(..).map(|r| (target.index.clone(), order, r)));
            definitions.extend(answer.definitions.drain(..).map(|d| (target.index.clone(), d)));
            match &mut merged {
                None => merged = Some(answer),
                Some(all) => {
                    all.truncated |= answer.truncated;
                    add_closest(&mut all.closest, answer.closest);
                }
            }
        }
        let mut answer = merged.ok_or_else(|| Error::new("no index answered"))?;
        uses.sort_by_key(|(_, order, hit)| (hit.certainty, *order));
        answer.truncated |= uses.len() > limit;
        uses.truncate(limit);
        if !uses.is_empty() || !definitions.is_empty() {
            answer.closest.clear();
        }
        let indexes = uses.iter().map(|(index, ..)| index.clone()).collect();
        answer.references = uses.into_iter().map(|(_, _, r)| r).collect();
        let definition_indexes = definitions.iter().map(|(index, _)| index.clone()).collect();
        answer.definitions = definitions.into_iter().map(|(_, d)| d).collect();
        Ok(Merged { answer, indexes, definition_indexes })
    }
}

/// `more` names added to `closest`, each once, in order.
fn add_closest(closest: &mut Vec<String>, more: Vec<String>) {
    for name in more {
        if !closest.contains(&name) {
            closest.push(name);
        }
    }
}
