//! Questions about files: what a file imports (to a depth, as a tree or a flat list), what
//! imports it (its dependents, transitively, by depth), the shortest import chain between
//! two files, a file's outline, and the neighbours of search hits (`include_deps`).
//!
//! A package import (a Go package, a Java wildcard, a Terraform module) targets a directory;
//! going forward it leads to the files directly in that directory, and going backward every
//! file of the directory has the package's importers as dependents.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use super::{Definition, Graph, GraphError, Scope, dir_of};
use crate::chunk::{ImportKind, Language, join_path};
use crate::store::{DefQuery, ImportQuery, Resolution, StoredImport};

/// An import of one file by another (or of something outside the project).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DepEdge {
    /// The importing file.
    pub from: String,
    /// The file, or package directory (ending in `/`), imported; `None` when unresolved.
    pub to: Option<String>,
    /// How it is imported.
    pub kind: ImportKind,
    /// The module as written.
    pub spec: String,
    /// The name imported, if one.
    pub name: Option<String>,
    /// Where, in `from`.
    pub line: u32,
    /// How `to` was found.
    pub resolution: Resolution,
    /// Steps from the file asked about (1: it imports `to` itself).
    pub depth: usize,
    /// Whether this edge is the first to reach `to` (the tree edge); later edges reach a
    /// file already listed.
    pub first: bool,
}

/// A file reached, with its depth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DepNode {
    /// The file.
    pub path: String,
    /// Steps from the file asked about.
    pub depth: usize,
    /// The file changed since it was indexed.
    pub stale: bool,
}

/// What a file imports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DepsAnswer {
    /// The file (or directory) as asked.
    pub query: String,
    /// The indexed files it stands for.
    pub roots: Vec<String>,
    /// Import edges, breadth first: the roots' own imports (with unresolved ones), then the
    /// imports of the files those reach.
    pub edges: Vec<DepEdge>,
    /// The distinct files reached, by depth.
    pub files: Vec<DepNode>,
    /// More edges than the limit.
    pub truncated: bool,
    /// When nothing matched: the closest indexed paths.
    pub closest: Vec<String>,
}

/// A file that depends on the one asked about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImpactedFile {
    /// The dependent file.
    pub path: String,
    /// Steps from the file asked about (1: it imports it directly).
    pub depth: usize,
    /// What it imports that leads to the file asked about.
    pub via: String,
    /// Where it imports it.
    pub line: u32,
    /// The import as written.
    pub spec: String,
    /// How the import was resolved.
    pub resolution: Resolution,
    /// The file changed since it was indexed.
    pub stale: bool,
}

/// What depends on a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileImpact {
    /// The file (or directory) as asked.
    pub query: String,
    /// The indexed files it stands for.
    pub roots: Vec<String>,
    /// Dependents, by depth then path.
    pub files: Vec<ImpactedFile>,
    /// More than the limit (or the depth allowed).
    pub truncated: bool,
    /// When nothing matched: the closest indexed paths.
    pub closest: Vec<String>,
}

/// The shortest import chain between two files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePath {
    /// The start as asked.
    pub from: String,
    /// The end as asked.
    pub to: String,
    /// The imports, in order; empty when there is no chain.
    pub edges: Vec<DepEdge>,
}

/// An import as an outline shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutlineImport {
    /// 1-based line.
    pub line: u32,
    /// How it is imported.
    pub kind: ImportKind,
    /// The module as written.
    pub spec: String,
    /// The name imported, if one.
    pub name: Option<String>,
    /// The local name, if renamed.
    pub alias: Option<String>,
    /// The project file or package it resolves to.
    pub target: Option<String>,
    /// How.
    pub resolution: Resolution,
}

/// What a file holds.
#[derive(Debug, Clone, PartialEq)]
pub struct OutlineAnswer {
    /// The file.
    pub path: String,
    /// Whether the index has it.
    pub found: bool,
    /// Its language.
    pub language: Option<String>,
    /// It changed since it was indexed.
    pub stale: bool,
    /// Its definitions in line order, each with its nesting depth (0: top level).
    pub definitions: Vec<(Definition, usize)>,
    /// Its imports.
    pub imports: Vec<OutlineImport>,
    /// When the file is not indexed: the closest indexed paths.
    pub closest: Vec<String>,
}

/// What a search hit's file imports and is imported by.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Neighbours {
    /// Project files (and packages) it imports.
    pub imports: Vec<String>,
    /// Project files that import it.
    pub imported_by: Vec<String>,
}

impl Graph {
    /// The indexed files `input` names: a file, or the files of a directory. A bare file
    /// name found in one place only names that file. Returns the files and, when there are
    /// none, the closest indexed paths.
    pub(crate) fn files_named(&self, input: &str) -> Result<(Vec<String>, Vec<String>), GraphError> {
        let states = self.states()?;
        let raw = input.trim();
        let relative = if std::path::Path::new(raw).is_absolute() {
            let absolute = std::path::Path::new(raw);
            let inside = self.project().and_then(|project| {
                absolute.strip_prefix(project.root()).map(std::path::Path::to_path_buf).ok().or_else(|| {
                    let canonical = absolute.canonicalize().ok()?;
                    canonical.strip_prefix(project.root()).map(std::path::Path::to_path_buf).ok()
                })
            });
            match inside {
                Some(rel) => rel.to_string_lossy().into_owned(),
                None => {
                    return Err(GraphError::Usage(format!(
                        "{raw} is outside the project — name a file of the project, relative to its root"
                    )));
                }
            }
        } else {
            raw.to_string()
        };
        let Some(path) = join_path("", &relative.replace('\\', "/")) else {
            return Err(GraphError::Usage(format!("{raw} leads outside the project — name a file of the project")));
        };
        if states.contains_key(&path) {
            return Ok((vec![path], Vec::new()));
        }
        let prefix = if path.is_empty() { String::new() } else { format!("{path}/") };
        let mut inside: Vec<String> = states.keys().filter(|p| p.starts_with(&prefix)).cloned().collect();
        if !inside.is_empty() {
            inside.sort();
            return Ok((inside, Vec::new()));
        }
        let slashed = format!("/{path}");
        let mut tails: Vec<String> = states.keys().filter(|p| p.ends_with(&slashed)).cloned().collect();
        tails.sort();
        if tails.len() == 1 {
            return Ok((tails, Vec::new()));
        }
        if tails.len() > 1 {
            tails.truncate(5);
            return Ok((Vec::new(), tails));
        }
        if path.len() > super::MAX_SUGGESTED_LEN {
            return Ok((Vec::new(), Vec::new()));
        }
        let name = path.rsplit('/').next().unwrap_or(&path);
        let mut scored: Vec<(f64, &String)> = states
            .keys()
            .map(|p| {
                let own = p.rsplit('/').next().unwrap_or(p);
                (strsim::jaro_winkler(own, name).max(strsim::jaro_winkler(p, &path)), p)
            })
            .filter(|(s, _)| *s >= 0.75)
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        Ok((Vec::new(), scored.into_iter().take(5).map(|(_, p)| p.clone()).collect()))
    }

    /// The indexed files directly in each directory.
    fn files_in(&self, dir: &str) -> Result<Vec<String>, GraphError> {
        let mut files: Vec<String> = self.states()?.keys().filter(|p| dir_of(p) == dir).cloned().collect();
        files.sort();
        Ok(files)
    }

    /// The files an import target stands for: itself, or a package directory's files.
    fn expand(&self, target: &str) -> Result<Vec<String>, GraphError> {
        match target.strip_suffix('/') {
            Some(dir) => self.files_in(dir),
            None => Ok(vec![target.to_string()]),
        }
    }

    /// What the file (or directory's files) `input` imports, `depth` steps deep, at most
    /// `limit` edges.
    pub fn file_dependencies(
        &self,
        input: &str,
        depth: usize,
        scope: &Scope,
        limit: usize,
    ) -> Result<DepsAnswer, GraphError> {
        let (roots, closest) = self.files_named(input)?;
        let mut answer = DepsAnswer {
            query: input.to_string(),
            roots: roots.clone(),
            edges: Vec::new(),
            files: Vec::new(),
            truncated: false,
            closest,
        };
        let mut reached: HashMap<String, usize> = roots.iter().map(|r| (r.clone(), 0)).collect();
        let mut frontier = roots.clone();
        for level in 1..=depth.max(1) {
            if frontier.is_empty() {
                break;
            }
            let imports = self.reader().imports(&ImportQuery { from: Some(frontier.clone()), targets: None })?;
            let mut next = Vec::new();
            for StoredImport { path, import, .. } in imports {
                let in_scope = |p: &str| {
                    let language = Language::detect(std::path::Path::new(p), "").map_or("text", Language::name);
                    scope.admits(p, language)
                };
                let first = match &import.target {
                    Some(t) => {
                        let mut first = false;
                        for file in self.expand(t)? {
                            if !reached.contains_key(&file) {
                                reached.insert(file.clone(), level);
                                next.push(file);
                                first = true;
                            }
                        }
                        if !in_scope(t.trim_end_matches('/')) && !t.ends_with('/') {
                            continue;
                        }
                        first
                    }
                    // What the asked files import from outside the project; deeper files'
                    // outside imports would bury the project's own.
                    None if level == 1 => false,
                    None => continue,
                };
                answer.edges.push(DepEdge {
                    from: path,
                    to: import.target,
                    kind: import.kind,
                    spec: import.spec,
                    name: import.name,
                    line: import.line,
                    resolution: import.resolution,
                    depth: level,
                    first,
                });
            }
            frontier = next;
        }
        let mut files: Vec<DepNode> = reached
            .into_iter()
            .filter(|(_, d)| *d > 0)
            .filter(|(p, _)| {
                let language = Language::detect(std::path::Path::new(p), "").map_or("text", Language::name);
                scope.admits(p, language)
            })
            .map(|(path, depth)| DepNode { stale: self.is_stale(&path), path, depth })
            .collect();
        files.sort_by(|a, b| a.depth.cmp(&b.depth).then_with(|| a.path.cmp(&b.path)));
        let (edges, cut) = super::cap(answer.edges, limit);
        let (files, cut_files) = super::cap(files, limit);
        answer.edges = edges;
        answer.files = files;
        answer.truncated = cut || cut_files;
        Ok(answer)
    }

    /// What depends on the file (or directory's files) `input`: its importers, theirs, up to
    /// `depth` steps (`None`: all the way), at most `limit` files.
    pub fn file_dependents(
        &self,
        input: &str,
        depth: Option<usize>,
        scope: &Scope,
        limit: usize,
    ) -> Result<FileImpact, GraphError> {
        let (roots, closest) = self.files_named(input)?;
        let mut answer =
            FileImpact { query: input.to_string(), roots: roots.clone(), files: Vec::new(), truncated: false, closest };
        let mut seen: HashSet<String> = roots.iter().cloned().collect();
        let mut frontier = roots;
        let mut level = 0;
        let mut found = Vec::new();
        while !frontier.is_empty() {
            level += 1;
            if depth.is_some_and(|d| level > d.max(1)) {
                answer.truncated = true;
                break;
            }
            // A file is reached through its own path and through its package directory.
            let mut targets: Vec<String> = frontier.clone();
            targets.extend(frontier.iter().map(|f| format!("{}/", dir_of(f))).filter(|d| d != "/"));
            targets.sort();
            targets.dedup();
            let imports = self.reader().imports(&ImportQuery { from: None, targets: Some(targets) })?;
            let mut next = Vec::new();
            for StoredImport { path, language, import, .. } in imports {
                if !seen.insert(path.clone()) {
                    continue;
                }
                next.push(path.clone());
                if scope.admits(&path, &language) {
                    found.push(ImpactedFile {
                        path,
                        depth: level,
                        via: import.target.unwrap_or_default(),
                        line: import.line,
                        spec: import.spec,
                        resolution: import.resolution,
                        stale: false,
                    });
                }
            }
            if found.len() > limit {
                answer.truncated = true;
                break;
            }
            frontier = next;
        }
        found.sort_by(|a, b| a.depth.cmp(&b.depth).then_with(|| a.path.cmp(&b.path)));
        let (mut files, cut) = super::cap(found, limit);
        for f in &mut files {
            f.stale = self.is_stale(&f.path);
        }
        answer.files = files;
        answer.truncated |= cut;
        Ok(answer)
    }

    /// The shortest import chain from file `from` to file `to`, at most `max_depth` imports.
    pub fn file_path(&self, from: &str, to: &str, max_depth: usize) -> Result<FilePath, GraphError> {
        const MAX_FILES: usize = 20_000;
        let (starts, _) = self.files_named(from)?;
        let (ends, _) = self.files_named(to)?;
        let mut answer = FilePath { from: from.to_string(), to: to.to_string(), edges: Vec::new() };
        let goal: HashSet<&String> = ends.iter().collect();
        let mut parent: HashMap<String, DepEdge> = HashMap::new();
        let mut seen: HashSet<String> = starts.iter().cloned().collect();
        let mut queue: VecDeque<(String, usize)> = starts.iter().map(|s| (s.clone(), 0)).collect();
        let mut found = None;
        'search: while let Some((file, depth)) = queue.pop_front() {
            if depth >= max_depth || seen.len() > MAX_FILES {
                continue;
            }
            let imports = self.reader().imports(&ImportQuery { from: Some(vec![file.clone()]), targets: None })?;
            for StoredImport { path, import, .. } in imports {
                let Some(target) = &import.target else { continue };
                for next in self.expand(target)? {
                    if !seen.insert(next.clone()) {
                        continue;
                    }
                    parent.insert(
                        next.clone(),
                        DepEdge {
                            from: path.clone(),
                            to: Some(target.clone()),
                            kind: import.kind,
                            spec: import.spec.clone(),
                            name: import.name.clone(),
                            line: import.line,
                            resolution: import.resolution,
                            depth: depth + 1,
                            first: true,
                        },
                    );
                    if goal.contains(&next) {
                        found = Some(next);
                        break 'search;
                    }
                    queue.push_back((next, depth + 1));
                }
            }
        }
        let mut at = found;
        while let Some(file) = at {
            let Some(edge) = parent.remove(&file) else { break };
            at = Some(edge.from.clone());
            answer.edges.push(edge);
        }
        answer.edges.reverse();
        Ok(answer)
    }

    /// The definitions and imports of a file, in line order.
    pub fn outline(&self, input: &str) -> Result<OutlineAnswer, GraphError> {
        let (files, closest) = self.files_named(input)?;
        let Some(path) = files.into_iter().next().filter(|_| closest.is_empty()) else {
            return Ok(OutlineAnswer {
                path: input.to_string(),
                found: false,
                language: None,
                stale: false,
                definitions: Vec::new(),
                imports: Vec::new(),
                closest,
            });
        };
        let defs = self.reader().definitions(&DefQuery {
            paths: vec![path.clone()],
            limit: usize::MAX,
            ..DefQuery::default()
        })?;
        let language = defs.first().map(|d| d.language.clone());
        let mut depth_of: BTreeMap<String, usize> = BTreeMap::new();
        let mut definitions = Vec::with_capacity(defs.len());
        for d in defs {
            let depth = d.symbol.parent.as_ref().and_then(|p| depth_of.get(p)).map_or(0, |d| d + 1);
            depth_of.insert(d.symbol.qualified_name.clone(), depth);
            definitions.push((self.definition(d), depth));
        }
        let imports = self.reader().imports(&ImportQuery { from: Some(vec![path.clone()]), targets: None })?;
        let language = language.or_else(|| imports.first().map(|i| i.language.clone()));
        let imports = imports
            .into_iter()
            .map(|i| OutlineImport {
                line: i.import.line,
                kind: i.import.kind,
                spec: i.import.spec,
                name: i.import.name,
                alias: i.import.alias,
                target: i.import.target,
                resolution: i.import.resolution,
            })
            .collect();
        Ok(OutlineAnswer {
            stale: self.is_stale(&path),
            path,
            found: true,
            language,
            definitions,
            imports,
            closest: Vec::new(),
        })
    }

    /// For each of `paths`: the project files it imports and those importing it, at most
    /// `limit` of each.
    pub fn neighbours(&self, paths: &[String], limit: usize) -> Result<HashMap<String, Neighbours>, GraphError> {
        let mut out: HashMap<String, Neighbours> = paths.iter().map(|p| (p.clone(), Neighbours::default())).collect();
        if paths.is_empty() {
            return Ok(out);
        }
        let wanted: Vec<String> = out.keys().cloned().collect();
        for i in self.reader().imports(&ImportQuery { from: Some(wanted.clone()), targets: None })? {
            if let (Some(n), Some(t)) = (out.get_mut(&i.path), i.import.target)
                && !n.imports.contains(&t)
                && n.imports.len() < limit
            {
                n.imports.push(t);
            }
        }
        let mut targets = wanted.clone();
        targets.extend(wanted.iter().map(|f| format!("{}/", dir_of(f))).filter(|d| d != "/"));
        for i in self.reader().imports(&ImportQuery { from: None, targets: Some(targets) })? {
            let Some(t) = i.import.target else { continue };
            for (path, n) in out.iter_mut() {
                let reaches = t == *path || t.strip_suffix('/').is_some_and(|d| d == dir_of(path));
                if reaches && i.path != *path && !n.imported_by.contains(&i.path) && n.imported_by.len() < limit {
                    n.imported_by.push(i.path.clone());
                }
            }
        }
        Ok(out)
    }
}
