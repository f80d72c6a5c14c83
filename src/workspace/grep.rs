//! `cocosearch grep`, `grep_code` and the dashboard's grep mode: the options they take,
//! declared once ([`GrepOptions`]), and what they read ([`Workspace::open_grep`]): the project's
//! files as the index walks them, or a snapshot's, and the definitions of the project's index
//! when there is one.
//!
//! A grep needs no index: opening one never creates a store.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use serde::{Deserialize, Serialize};

pub use crate::grep::{FileError, FileMatches, GrepRequest, GrepSummary, LineKind, Order, Report, Sort};

use super::inputs::{spelled, string_list};
use super::project::Project;
use super::target::{Caller, IndexRef, Need};
use super::{Error, ErrorKind, Front, Workspace};
use crate::chunk::Language;
use crate::config::IndexingSettings;
use crate::discover;
use crate::grep::{self, Case, GrepError, Pattern, Polarity, Syntax};
use crate::store::{self, IndexReader, Store, StoreError};

/// What a grep takes besides its pattern and paths: rg's flags, declared once.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args, Deserialize, Serialize, schemars::JsonSchema)]
pub struct GrepOptions {
    #[command(flatten)]
    #[serde(flatten)]
    #[allow(missing_docs, reason = "flattened: its field is documented")]
    pub indexes: super::inputs::IndexList,
    /// The pattern is literal text: no character is special (rg -F).
    #[arg(short = 'F', long = "fixed-strings")]
    #[serde(default)]
    pub fixed_strings: bool,
    /// Match case-insensitively (rg -i).
    #[arg(short = 'i', long = "ignore-case", conflicts_with = "smart_case")]
    #[serde(default)]
    pub case_insensitive: bool,
    /// Case-insensitive unless the pattern has an upper-case letter (rg -S).
    #[arg(short = 'S', long)]
    #[serde(default)]
    pub smart_case: bool,
    /// Only whole words (rg -w).
    #[arg(short = 'w', long = "word-regexp", alias = "word")]
    #[serde(default)]
    pub word: bool,
    /// A match may span lines: `\n` in the pattern matches a line break (rg -U).
    #[arg(short = 'U', long)]
    #[serde(default)]
    pub multiline: bool,
    /// Lines that do not match (rg -v).
    #[arg(long = "invert-match")]
    #[serde(default)]
    pub invert: bool,
    /// Globs: `*.py` keeps matching files only, `!tests/**` leaves them out (repeatable).
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    #[serde(default, deserialize_with = "string_list", skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Option<String>")]
    pub glob: Vec<String>,
    /// Only these languages (comma list; the names of search's --lang).
    #[arg(
        short = 't',
        long = "type",
        visible_alias = "lang",
        value_name = "LANGS",
        value_delimiter = ',',
        value_parser = super::inputs::LanguageNames,
        hide_possible_values = true
    )]
    #[serde(default, deserialize_with = "string_list", skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Option<String>")]
    pub language: Vec<String>,
    /// Lines of context before each match.
    #[arg(short = 'B', long = "before-context", value_name = "N")]
    #[serde(default)]
    #[schemars(range(max = 20))]
    pub context_before: Option<usize>,
    /// Lines of context after each match.
    #[arg(short = 'A', long = "after-context", value_name = "N")]
    #[serde(default)]
    #[schemars(range(max = 20))]
    pub context_after: Option<usize>,
    /// Lines of context before and after each match.
    #[arg(short = 'C', long = "context", value_name = "N")]
    #[serde(default)]
    #[schemars(range(max = 20))]
    pub around: Option<usize>,
    /// At most N matching lines per file (rg -m).
    #[arg(short = 'm', long = "max-count", value_name = "N")]
    #[serde(default)]
    pub max_count: Option<u64>,
    /// Only the paths of the files with a match (rg -l), no lines.
    #[arg(short = 'l', long = "files-with-matches", conflicts_with = "count")]
    #[serde(default)]
    pub files_only: bool,
    /// Only the number of matching lines of each file (rg -c).
    #[arg(short = 'c', long)]
    #[serde(default)]
    pub count: bool,
}

impl GrepOptions {
    /// The engine's request for `patterns` within `paths` (empty: the whole project), with
    /// each option checked; refusals name the option as `front` spells it, and a server's
    /// context is kept to a few lines.
    pub fn request(&self, patterns: Vec<String>, paths: Vec<PathBuf>, front: Front) -> Result<GrepRequest, Error> {
        let languages = self
            .language
            .iter()
            .map(|name| {
                Language::from_name(name).ok_or_else(|| {
                    Error::usage(format!("{}: {}", spelled::<GrepOptions>(front, "language"), Language::unknown(name)))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let most = if front == Front::Command { usize::MAX } else { MAX_SERVED_CONTEXT };
        let around = self.around.unwrap_or(0);
        Ok(GrepRequest {
            pattern: Pattern {
                patterns,
                syntax: if self.fixed_strings { Syntax::Fixed } else { Syntax::Regex },
                case: if self.case_insensitive {
                    Case::Insensitive
                } else if self.smart_case {
                    Case::Smart
                } else {
                    Case::Sensitive
                },
                word: self.word,
                multiline: self.multiline,
            },
            polarity: if self.invert { Polarity::Inverted } else { Polarity::Matching },
            before: self.context_before.unwrap_or(around).min(most),
            after: self.context_after.unwrap_or(around).min(most),
            max_count: self.max_count,
            report: if self.files_only {
                Report::Files
            } else if self.count {
                Report::Count
            } else {
                Report::Lines
            },
            globs: self.glob.clone(),
            languages,
            paths,
            limit: None,
            sort: grep::Sort::default(),
            replace: None,
        })
    }
}

/// The most context lines a server shows on each side of a match.
const MAX_SERVED_CONTEXT: usize = 20;

/// Whether matches are given the definitions they lie in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Definitions {
    /// From the project's index, when it exists and was built for this root.
    FromIndex,
    /// Not looked up (no store is opened).
    Skip,
}

/// Files handed to the index together: one read of states and definitions per batch.
const ENCLOSE_BATCH: usize = 32;

/// What a grep reads, opened by [`Workspace::open_grep`].
pub struct GrepTarget {
    /// The project whose files are searched.
    pub project: Project,
    /// The project's index (which need not exist).
    pub index: String,
    /// The index read for definitions (or the snapshot's files), when there is one.
    reader: Option<Box<dyn IndexReader>>,
    /// Whether the files are a snapshot's rather than the ones on disk.
    files: Files,
}

/// Where a grep reads the files it searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Files {
    /// The project's files on disk.
    OnDisk,
    /// The files a snapshot stored (`--at`), with the definitions it recorded.
    AtSnapshot,
}

impl Workspace {
    /// Opens what a grep of `caller` reads: the project of `index` (its files, or at a
    /// snapshot the files it stored) and, for `definitions`, its index when it exists and was
    /// built for this root. Never creates a store.
    pub fn open_grep(
        self: &Arc<Self>,
        caller: Caller<'_>,
        index: &IndexRef,
        definitions: Definitions,
    ) -> Result<GrepTarget, Error> {
        let (project, name) = self.project_and_index(caller, index.name(), Need::Project)?;
        let store = existing_store(&project)?;
        let Some(reference) = index.reference() else {
            let reader = match definitions {
                Definitions::FromIndex => store.and_then(|store| project_index(&project, store.as_ref(), &name)),
                Definitions::Skip => None,
            };
            return Ok(GrepTarget { project, index: name, reader, files: Files::OnDisk });
        };
        let store = store.ok_or_else(|| self.no_index(&name, Some(&project.root)))?;
        if store.get_index(&name)?.is_none() {
            return Err(self.no_index(&name, Some(&project.root)));
        }
        let (at, _) = super::snapshots::resolve(store.as_ref(), &name, &project.root, Some(reference))?;
        let reader = Some(store.reader_at(&name, at)?);
        Ok(GrepTarget { project, index: name, reader, files: Files::AtSnapshot })
    }
}

/// What a grep of several indexes reads: each index's project, in the order named, and what
/// the user should know about the indexes left out.
///
/// Invariant: there is at least one project (`open_greps` fails otherwise).
pub struct GrepTargets {
    /// The projects read.
    targets: Vec<GrepTarget>,
    /// An index named that does not exist, left out: why, and what to do.
    pub warnings: Vec<String>,
}

impl Workspace {
    /// Opens what a grep reads: the project of `index` ([`Workspace::open_grep`]), or with
    /// `names` (`--indexes`) the projects of the index named and those. One that does not
    /// exist is left out with a warning; none existing is the error of the first.
    pub fn open_greps(
        self: &Arc<Self>,
        caller: Caller<'_>,
        index: &IndexRef,
        names: &[String],
        definitions: Definitions,
    ) -> Result<GrepTargets, Error> {
        if names.is_empty() {
            let target = self.open_grep(caller, index, definitions)?;
            return Ok(GrepTargets { targets: vec![target], warnings: Vec::new() });
        }
        if index.reference().is_some() {
            let flag = spelled::<GrepOptions>(self.options.front, "index_names");
            return Err(Error::usage(format!(
                "{flag} greps the projects as they are on disk: give one index with a snapshot"
            )));
        }
        let (targets, warnings) =
            self.open_each(index.name(), names, |_, name| self.open_grep(caller, &IndexRef::named(name), definitions))?;
        Ok(GrepTargets { targets, warnings })
    }
}

impl GrepTargets {
    /// Greps each project in turn ([`GrepTarget::run`]), handing each matching file to `emit`
    /// with the project it belongs to, until `emit` breaks or `request.limit` lines matched in
    /// all; the summaries counted together.
    pub fn run(
        &self,
        request: &GrepRequest,
        mut emit: impl FnMut(&GrepTarget, FileMatches) -> ControlFlow<()>,
    ) -> Result<GrepSummary, Error> {
        let mut total = GrepSummary::default();
        for target in &self.targets {
            let mut request = request.clone();
            request.limit = request.limit.map(|limit| limit.saturating_sub(total.matched_lines));
            if request.limit == Some(0) {
                total.cut = true;
                break;
            }
            let mut stopped = false;
            let summary = target.run(&request, |file| {
                let flow = emit(target, file);
                stopped = flow.is_break();
                flow
            })?;
            total.absorb(summary);
            if stopped {
                break;
            }
        }
        Ok(total)
    }

    /// Whether several projects are read (their paths then need their project's root).
    pub fn several(&self) -> bool {
        self.targets.len() > 1
    }

    /// The projects read, in the order named.
    pub fn targets(&self) -> &[GrepTarget] {
        &self.targets
    }

    /// The first project read (the one a grep of one index reads).
    pub fn first(&self) -> &GrepTarget {
        &self.targets[0]
    }
}

/// The store `project` names when it exists (none is ever created here); a store that fails
/// to open is no store (grep needs none).
fn existing_store(project: &Project) -> Result<Option<Arc<dyn Store>>, Error> {
    match store::open::open_existing(&project.config.settings.database) {
        Ok(opened) => Ok(opened.map(|o| o.store)),
        Err(e) if e.is_configuration() => Err(e.into()),
        Err(_) => Ok(None),
    }
}

/// The reader of the project's index `name`, when it exists and was built for this project
/// root.
fn project_index(project: &Project, store: &dyn Store, name: &str) -> Option<Box<dyn IndexReader>> {
    let meta = store.get_index(name).ok()??;
    let root = &project.config.project_root;
    let canonical = root.canonicalize().unwrap_or_else(|_| root.clone());
    if meta.root != canonical && &meta.root != root {
        return None;
    }
    store.reader(&meta.name).ok()
}

impl GrepTarget {
    /// Where the files searched come from.
    pub fn files(&self) -> Files {
        self.files
    }

    /// Whether matches carry their definitions (an index was found).
    pub fn has_definitions(&self) -> bool {
        self.reader.is_some()
    }

    /// Greps the project (its files as [`GrepTarget::files`] says), handing each matching file
    /// (with its definitions when there is an index to read them from) to `emit` in path
    /// order.
    pub fn run(
        &self,
        request: &GrepRequest,
        mut emit: impl FnMut(FileMatches) -> ControlFlow<()>,
    ) -> Result<GrepSummary, Error> {
        let config = &self.project.config;
        let options = walk_options(&config.project_root, &config.settings.indexing);
        let search = |emit: &mut dyn FnMut(FileMatches) -> ControlFlow<()>| match (self.files, &self.reader) {
            (Files::AtSnapshot, Some(reader)) => {
                grep::grep_stored(reader.as_ref(), &config.project_root, request, emit)
            }
            _ => grep::grep(&options, request, emit),
        };
        let Some(reader) = self.reader.as_deref().filter(|_| request.report == Report::Lines) else {
            return search(&mut emit).map_err(grep_error);
        };
        let mut pending: Vec<FileMatches> = Vec::new();
        let mut stopped = false;
        let flush = |pending: &mut Vec<FileMatches>, emit: &mut dyn FnMut(FileMatches) -> ControlFlow<()>| {
            if let Err(e) = grep::enclose(reader, pending) {
                tracing::warn!(error = %e, "cannot read definitions from the index");
            }
            for file in pending.drain(..) {
                if emit(file).is_break() {
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        };
        let mut summary = search(&mut |file| {
            pending.push(file);
            if pending.len() >= ENCLOSE_BATCH {
                let flow = flush(&mut pending, &mut emit);
                stopped = flow.is_break();
                return flow;
            }
            ControlFlow::Continue(())
        })
        .map_err(grep_error)?;
        if !stopped && flush(&mut pending, &mut emit).is_break() {
            summary.cut = true;
        }
        Ok(summary)
    }

    /// The files a grep of `request` searches, in its order (`cocosearch grep --files`), and
    /// the paths that could not be searched.
    pub fn list_files(&self, request: &GrepRequest) -> Result<(Vec<String>, Vec<FileError>), Error> {
        let config = &self.project.config;
        match (self.files, &self.reader) {
            (Files::AtSnapshot, Some(reader)) => Ok((
                grep::stored_paths(reader.as_ref(), &config.project_root, request).map_err(grep_error)?,
                Vec::new(),
            )),
            _ => {
                let options = walk_options(&config.project_root, &config.settings.indexing);
                let (files, walked) = grep::files(&options, request).map_err(grep_error)?;
                let errors = walked.errors.into_iter().map(|(path, message)| FileError { path, message }).collect();
                Ok((files, errors))
            }
        }
    }
}

/// A grep's failure as every presenter reports it: a pattern, size or glob the user can fix
/// is a usage error.
fn grep_error(e: GrepError) -> Error {
    match e {
        GrepError::Pattern(_) | GrepError::TooBig(_) | GrepError::Glob(..) => Error::usage(e.to_string()),
        GrepError::Store(StoreError::IndexNotFound(_)) => Error::of_kind(ErrorKind::NotFound, e.to_string()),
        GrepError::Store(e) => e.into(),
        other => Error::new(other.to_string()),
    }
}

/// The walk options of the index, for `root`.
pub fn walk_options(root: &std::path::Path, indexing: &IndexingSettings) -> discover::Options {
    discover::Options::for_index(root, indexing)
}

/// For a query shaped like an identifier (`getUserById`, `Session.send`, `std::fs`) that a
/// search hit holds literally: where every occurrence is listed, since search shows only the
/// best few, phrased for `front`.
pub fn hint(query: &str, hits: &[crate::search::Hit], front: Front) -> Option<String> {
    let query = query.trim();
    let identifier = |part: &str| {
        part.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
            && part.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    let shaped = !query.is_empty()
        && query.len() <= 200
        && query.split(['.', ':']).filter(|p| !p.is_empty()).all(identifier)
        && identifier(query.split(['.', ':']).next().unwrap_or(""));
    if !shaped || !hits.iter().any(|h| h.content.contains(query)) {
        return None;
    }
    let dotted = !query.chars().all(|c| c.is_alphanumeric() || c == '_');
    Some(match (front, dotted) {
        (Front::Command, false) => format!("for every occurrence: `cocosearch grep -w {query}`"),
        (Front::Command, true) => format!("for every occurrence: `cocosearch grep -F '{query}'`"),
        (Front::Mcp, _) => format!(
            "for every occurrence of {query}, call grep_code with pattern {query:?} and fixed_strings true{}",
            if dotted { "" } else { ", word true" }
        ),
        (Front::Dashboard, _) => format!("for every occurrence of {query}: the search box's grep mode"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifier_queries_found_literally_get_the_hint() {
        let hit = |content: &str| crate::search::Hit {
            index: "i".into(),
            root: "/p".into(),
            path: "a.py".into(),
            start_line: 1,
            end_line: 1,
            language: "python".into(),
            symbol_type: None,
            symbol_name: None,
            qualified_name: None,
            signature: None,
            symbols: Vec::new(),
            enclosing: None,
            score: 1.0,
            vector_score: None,
            keyword_score: None,
            parse_status: crate::chunk::ParseStatus::Ok,
            content: content.into(),
            before: Vec::new(),
            after: Vec::new(),
            stale: false,
        };
        let hits = [hit("x = getUserById(1)\ny = Session.send()")];
        assert_eq!(
            hint("getUserById", &hits, Front::Command).as_deref(),
            Some("for every occurrence: `cocosearch grep -w getUserById`")
        );
        assert!(hint("Session.send", &hits, Front::Command).is_some_and(|h| h.contains("-F 'Session.send'")));
        assert!(hint("Session.send", &hits, Front::Mcp).is_some_and(|h| h.contains("grep_code")));
        assert_eq!(hint("how do we send", &hits, Front::Command), None);
        assert_eq!(hint("missingName", &hits, Front::Command), None);
        assert_eq!(hint("1abc", &hits, Front::Command), None);
    }
}
