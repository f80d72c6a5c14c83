//! Links a run's files into the code graph: the imports of each written file are resolved as
//! it is parsed (and written with its chunks), and once the run's writes are done every
//! stored import is resolved again against the final file list, so imports of files added
//! or removed in the run (or in a run that died before linking) point where they now lead.
//!
//! Architecture invariant: after a completed run, every stored import resolves exactly as
//! [`Resolver::resolve`] resolves it against the index's current files — the same answer a
//! fresh index would hold. Editing a file changes only that file's rows; adding or removing
//! files changes the resolution of imports that name them, and nothing else.

use crate::chunk::{FileGraph, Import, Language};
use crate::discover::ProjectFiles;
use crate::store::{ImportQuery, ImportRecord, ImportTarget, IndexWriter, StoreError};

use super::resolve::Resolver;

/// Configuration files larger than this are not read for module lookup.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// A resolver for the run's files, reading configuration files through `files`.
pub(crate) fn resolver<'a>(paths: impl IntoIterator<Item = &'a str>, files: &ProjectFiles) -> Resolver {
    let read = |path: &str| -> Option<String> {
        let (bytes, _) = files.read(path, MAX_CONFIG_BYTES).ok()?;
        if bytes.len() as u64 > MAX_CONFIG_BYTES {
            return None;
        }
        String::from_utf8(bytes).ok()
    };
    Resolver::new(paths, &read)
}

/// The import records of a parsed file: each import with where it resolves.
pub(crate) fn import_records(
    resolver: &Resolver,
    path: &str,
    lang: Option<Language>,
    graph: &FileGraph,
) -> Vec<ImportRecord> {
    graph
        .imports
        .iter()
        .map(|i| {
            let (target, resolution) = resolver.resolve(path, lang, i);
            ImportRecord {
                kind: i.kind,
                spec: i.spec.clone(),
                name: i.name.clone(),
                alias: i.alias.clone(),
                line: i.line,
                target,
                resolution,
            }
        })
        .collect()
}

/// Resolves every stored import again and records those whose answer changed; returns how
/// many changed.
pub(crate) fn relink(writer: &dyn IndexWriter, resolver: &Resolver) -> Result<u64, StoreError> {
    let stored = writer.reader().imports(&ImportQuery::default())?;
    let mut changed = Vec::new();
    for s in stored {
        let i = &s.import;
        let import =
            Import { kind: i.kind, spec: i.spec.clone(), name: i.name.clone(), alias: i.alias.clone(), line: i.line };
        let (target, resolution) = resolver.resolve(&s.path, Language::from_name(&s.language), &import);
        if target != i.target || resolution != i.resolution {
            changed.push(ImportTarget { id: s.id, target, resolution });
        }
    }
    writer.set_import_targets(&changed)?;
    Ok(changed.len() as u64)
}
