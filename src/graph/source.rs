//! The text of a definition, found by name: the lines the index recorded for it, read from
//! the file on disk through [`crate::discover::ProjectFiles`] (never outside the project),
//! cut to a number of lines when asked.

use super::{Definition, Graph, GraphError, Scope};
use crate::chunk::SymbolKind;

/// Which kind of definition a source question is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    /// Functions and methods.
    Function,
    /// Classes, structs, enums, interfaces, traits, impl blocks and type definitions.
    Class,
}

impl SourceKind {
    fn kinds(self) -> Vec<SymbolKind> {
        let wanted = |kind: SymbolKind| match self {
            SourceKind::Function => kind.is_callable(),
            SourceKind::Class => kind.is_type() || matches!(kind, SymbolKind::Type | SymbolKind::Module),
        };
        SymbolKind::all().iter().copied().filter(|&kind| wanted(kind)).collect()
    }
}

/// A definition's text.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceAnswer {
    /// The name as asked.
    pub query: String,
    /// The definition shown, if one matched.
    pub definition: Option<Definition>,
    /// Its lines, as the file on disk holds them now.
    pub content: String,
    /// Lines left out by the cap.
    pub truncated_lines: usize,
    /// Other definitions the name matched (pass `file_path` to pick one).
    pub others: Vec<Definition>,
    /// When nothing matched: the index's names closest to the query.
    pub closest: Vec<String>,
    /// Why the text could not be shown, when it could not.
    pub warning: Option<String>,
}

/// Largest file read for a definition's text.
const MAX_FILE_BYTES: u64 = 16 << 20;

impl Graph {
    /// The text of the definition of `kind` named `name` (in `file`, when given), at most
    /// `max_lines` lines.
    pub fn source(
        &self,
        name: &str,
        kind: SourceKind,
        file: Option<&str>,
        max_lines: Option<usize>,
    ) -> Result<SourceAnswer, GraphError> {
        let mut answer = SourceAnswer {
            query: name.to_string(),
            definition: None,
            content: String::new(),
            truncated_lines: 0,
            others: Vec::new(),
            closest: Vec::new(),
            warning: None,
        };
        let mut found = self.lookup(name, &kind.kinds(), &Scope::default())?;
        if let Some(file) = file.map(str::trim).filter(|f| !f.is_empty()) {
            let (paths, _) = self.files_named(file)?;
            found.retain(|(d, _)| paths.contains(&d.path));
        }
        let mut found = found.into_iter();
        let Some((first, _)) = found.next() else {
            answer.closest = self.closest(name)?;
            return Ok(answer);
        };
        answer.others = found.take(10).map(|(d, _)| self.definition(d)).collect();
        let def = self.definition(first);
        match self.project().map(|p| p.read(&def.path, MAX_FILE_BYTES)) {
            Some(Ok((bytes, _))) => {
                let text = String::from_utf8_lossy(&bytes);
                let lines: Vec<&str> = text
                    .lines()
                    .skip(def.start_line.saturating_sub(1) as usize)
                    .take((def.end_line.saturating_sub(def.start_line) + 1) as usize)
                    .collect();
                let keep = max_lines.map_or(lines.len(), |m| m.max(1).min(lines.len()));
                answer.truncated_lines = lines.len() - keep;
                answer.content = lines[..keep].join("\n");
                if def.stale {
                    answer.warning = Some(format!(
                        "{} changed since it was indexed: these are lines {}-{} as the file is now — re-index to refresh",
                        def.path, def.start_line, def.end_line
                    ));
                }
            }
            Some(Err(refused)) => answer.warning = Some(format!("{refused} — the text cannot be shown")),
            None => answer.warning = Some("the project directory is gone — the text cannot be shown".into()),
        }
        answer.definition = Some(def);
        Ok(answer)
    }
}
