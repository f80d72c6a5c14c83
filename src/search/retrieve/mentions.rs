//! The mentioned-files retriever: files of the index that the query names by path, traceback
//! frame or dotted module (`search::mentions`), as a file list for the fusion. Off by default
//! (`FileWeights::mentioned` is 0: it did not move Acc@5).

use super::{Evidence, Index, Needs, Retriever};
use crate::search::analyse::Analysed;
use crate::search::mentions;
use crate::store::StoreError;

/// Files the query names.
pub(super) struct MentionedFiles;

impl Retriever for MentionedFiles {
    fn needs(&self) -> Needs {
        Needs::Text
    }

    fn runs(&self, search: &Analysed<'_>) -> bool {
        // Cheap: saves reading the index's file list for queries that name no file.
        search.files().mentioned > 0.0 && mentions::may_name_files(search.text)
    }

    fn retrieve(&self, search: &Analysed<'_>, index: &Index<'_>) -> Result<Vec<Evidence>, StoreError> {
        let files = index.reader.file_states(None)?;
        let ranked = mentions::mentioned_files(search.text, files.keys().map(String::as_str));
        Ok(vec![Evidence::Files {
            ranked,
            scores: Vec::new(),
            weight: search.files().mentioned,
            leg: super::Leg::MentionedFiles,
        }])
    }
}
