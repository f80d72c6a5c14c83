//! The mentioned-files retriever: files of the index that the query names by path, traceback
//! frame or dotted module (`search::mentions`), then the files a change's scope names
//! (`fix(plugin): …` → `plugin.lua`), as a file list for the fusion. Off for short queries
//! (`FileWeights::mentioned` is 0: it did not move Acc@5).

use super::{Evidence, Index, Needs, Retriever};
use crate::search::analyse::Analysed;
use crate::search::{changes, mentions};
use crate::store::StoreError;

/// Files the query names.
pub(super) struct MentionedFiles;

impl Retriever for MentionedFiles {
    fn name(&self) -> &'static str {
        "files named"
    }

    fn needs(&self) -> Needs {
        Needs::Text
    }

    fn runs(&self, search: &Analysed<'_>) -> bool {
        // Cheap: saves reading the index's file list for queries that name no file.
        search.files().mentioned > 0.0
            && (mentions::may_name_files(search.text) || changes::scope(search.text).is_some())
    }

    fn retrieve(&self, search: &Analysed<'_>, index: &Index<'_>) -> Result<Vec<Evidence>, StoreError> {
        let files = super::path_names::paths(index)?;
        let mut ranked = mentions::mentioned_files(search.text, files.iter());
        if let Some(scope) = changes::scope(search.text) {
            let scoped = mentions::files_of_scope(scope, files.iter());
            ranked.extend(scoped.into_iter().filter(|path| !ranked.contains(path)).collect::<Vec<_>>());
        }
        Ok(vec![Evidence::Files {
            ranked,
            scores: Vec::new(),
            weight: search.files().mentioned,
            leg: super::Leg::MentionedFiles,
        }])
    }
}
