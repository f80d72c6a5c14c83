//! Downloading a built-in model from the Hugging Face hub into the cache, verified and atomic.
//!
//! Each file is fetched from `{hub}/{repo}/resolve/{revision}/{path}` (the hub's own layout,
//! which mirrors and `HF_ENDPOINT` servers share) into a temporary directory beside the cache
//! entry, hashed while it streams, and checked as the registry says ([`FileCheck`]). Only when
//! every file passed is the manifest written and the directory renamed into place; on any
//! failure the temporary directory is removed, so a partial or corrupted download never
//! stays in the cache.
//!
//! The hub answers an LFS file with a redirect to its storage; the redirect carries the
//! declaration (`X-Linked-Etag`) and the storage answers with the bytes. So the first request
//! does not follow redirects: the declaration is read from the hub's own answer, then the
//! bytes are fetched from wherever it points.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use reqwest::header::{CONTENT_LENGTH, ETAG, HeaderMap, LOCATION};
use sha2::{Digest, Sha256};

use super::cache::{Cached, MANIFEST, Manifest, ManifestFile, ModelCache, PARTIAL_PREFIX};
use super::models::{FileCheck, KnownModel, ModelFile};
use super::verify::{self, Declared};
use super::{ModelError, Progress};
use crate::config::{redact_text, redact_url};

/// How long to wait for a connection to the hub.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a transfer may stall before it is abandoned.
const READ_TIMEOUT: Duration = Duration::from_secs(60);
/// Same-host redirects followed while looking for a file's declaration (renamed repos).
const MAX_HUB_REDIRECTS: usize = 5;

/// What [`ensure`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetched {
    /// The model was in the cache already; nothing was downloaded.
    Cached(Cached),
    /// The model was downloaded and verified now.
    Downloaded(Cached),
}

impl Fetched {
    /// The cached model, however it got there.
    pub fn cached(&self) -> &Cached {
        match self {
            Fetched::Cached(c) | Fetched::Downloaded(c) => c,
        }
    }
}

/// Makes sure `model` is in `cache`, downloading it from `hub` if it is not.
pub fn ensure(model: &KnownModel, cache: &ModelCache, hub: &str, progress: Progress) -> Result<Fetched, ModelError> {
    if let Some(cached) = cache.find(model) {
        return Ok(Fetched::Cached(cached));
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |e: std::io::Error| ModelError::Io { path, reason: e.to_string() }
    };
    std::fs::create_dir_all(&cache.root).map_err(io(&cache.root))?;
    cache.sweep_partials();
    let partial = Partial::create(cache, model).map_err(io(&cache.root))?;

    let client = Clients::new()?;
    let bar = progress_bar(model, progress);
    let mut files = Vec::with_capacity(model.files.len());
    for file in model.files {
        files.push(fetch_file(&client, model, file, hub, &partial.dir, &bar)?);
    }
    bar.bar.finish_and_clear();
    let manifest = Manifest {
        name: model.name.to_string(),
        repo: model.repo.to_string(),
        revision: model.revision.to_string(),
        files,
    };
    let text = serde_json::to_string_pretty(&manifest).unwrap_or_default();
    std::fs::write(partial.dir.join(MANIFEST), text).map_err(io(&partial.dir))?;

    let target = cache.dir(model);
    if target.exists() {
        // Another process finished first, or an older copy no longer matches its manifest.
        if let Some(cached) = cache.find(model) {
            return Ok(Fetched::Cached(cached));
        }
        tracing::warn!(path = %target.display(), "the cached model changed since it was verified; replacing it");
        std::fs::remove_dir_all(&target).map_err(io(&target))?;
    }
    if let Err(e) = partial.commit(&target) {
        // Another process may have renamed its own complete copy into place meanwhile.
        return cache.find(model).map(Fetched::Cached).ok_or_else(|| io(&target)(e));
    }
    Ok(Fetched::Downloaded(Cached { dir: target, manifest }))
}

/// A temporary download directory, removed unless committed.
struct Partial {
    dir: PathBuf,
    committed: bool,
}

impl Partial {
    fn create(cache: &ModelCache, model: &KnownModel) -> std::io::Result<Partial> {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let name = format!("{PARTIAL_PREFIX}{}@{}-{}-{nanos}", model.name, model.revision, std::process::id());
        let dir = cache.root.join(name);
        std::fs::create_dir_all(&dir)?;
        Ok(Partial { dir, committed: false })
    }

    /// Renames the directory into place; on failure it is removed as usual.
    fn commit(mut self, target: &Path) -> std::io::Result<()> {
        std::fs::rename(&self.dir, target)?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for Partial {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// One client that stops at redirects (to read the hub's declaration) and one that follows
/// them (to fetch the bytes from storage).
struct Clients {
    hub: reqwest::Client,
    follow: reqwest::Client,
}

impl Clients {
    fn new() -> Result<Clients, ModelError> {
        let build = |policy| {
            reqwest::Client::builder()
                .redirect(policy)
                .connect_timeout(CONNECT_TIMEOUT)
                .read_timeout(READ_TIMEOUT)
                .user_agent(concat!("cocosearch/", env!("CARGO_PKG_VERSION")))
                .build()
                .map_err(|e| ModelError::Http { url: String::new(), reason: e.to_string() })
        };
        Ok(Clients {
            hub: build(reqwest::redirect::Policy::none())?,
            follow: build(reqwest::redirect::Policy::limited(10))?,
        })
    }
}

/// A download's progress bar, drawn on stderr (when `progress` allows) only once the hub
/// answers with bytes: a download that fails before draws nothing (a bar of 0 B flashed
/// before the error).
struct Bar {
    bar: ProgressBar,
    progress: Progress,
}

impl Bar {
    /// Draws the bar from now on.
    fn reveal(&self) {
        if self.progress == Progress::Stderr && self.bar.is_hidden() {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}

fn progress_bar(model: &KnownModel, progress: Progress) -> Bar {
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
    if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} {eta}") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(format!("downloading {}", model.name));
    Bar { bar, progress }
}

/// The URL of `path` in `model`'s repository at its pinned revision.
pub fn file_url(hub: &str, model: &KnownModel, path: &str) -> String {
    format!("{}/{}/resolve/{}/{}", hub.trim_end_matches('/'), model.repo, model.revision, path)
}

fn fetch_file(
    clients: &Clients,
    model: &KnownModel,
    file: &ModelFile,
    hub: &str,
    dir: &Path,
    bar: &Bar,
) -> Result<ManifestFile, ModelError> {
    let url = file_url(hub, model, file.path);
    let dest = dir.join(file.path);
    if let Some(parent) = dest.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| ModelError::Io { path: parent.to_path_buf(), reason: e.to_string() })?;
    }
    // A mirror's address may carry a password or a token: errors show it redacted.
    let unreachable = |e: &reqwest::Error| ModelError::Unreachable {
        model: model.name.to_string(),
        url: redact_url(hub),
        reason: redact_text(&crate::embed::transport_reason(e)),
    };
    let http = |url: &str, reason: String| ModelError::Http { url: redact_url(url), reason: redact_text(&reason) };

    let (size, sha256, declared) = crate::embed::runtime().block_on(async {
        // Ask the hub itself, following only same-host redirects, until it answers with the
        // bytes or points at storage elsewhere.
        let mut current = reqwest::Url::parse(&url).map_err(|e| http(&url, e.to_string()))?;
        let mut declared = Declared::Nothing;
        let mut response = None;
        for _ in 0..=MAX_HUB_REDIRECTS {
            let answer = clients.hub.get(current.clone()).send().await.map_err(|e| unreachable(&e))?;
            let status = answer.status();
            // The first declaration is the hub's; a later hop may be storage with an ETag of
            // its own making.
            if declared == Declared::Nothing {
                declared = declaration(answer.headers());
            }
            if !status.is_redirection() {
                if !status.is_success() {
                    return Err(http(current.as_str(), status_reason(status, model, file)));
                }
                response = Some(answer);
                break;
            }
            let location = answer
                .headers()
                .get(LOCATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|l| current.join(l).ok())
                .ok_or_else(|| http(current.as_str(), format!("HTTP {status} without a usable Location")))?;
            if location.host_str() != current.host_str() || location.port() != current.port() {
                let answer = clients.follow.get(location.clone()).send().await.map_err(|e| unreachable(&e))?;
                if !answer.status().is_success() {
                    return Err(http(location.as_str(), format!("HTTP {}", answer.status())));
                }
                response = Some(answer);
                break;
            }
            current = location;
        }
        let mut response = response.ok_or_else(|| http(&url, "too many redirects".into()))?;
        let expected_len =
            response.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
        bar.bar.inc_length(expected_len.unwrap_or(0));
        bar.reveal();
        let mut out =
            std::fs::File::create(&dest).map_err(|e| ModelError::Io { path: dest.clone(), reason: e.to_string() })?;
        let mut hasher = Sha256::new();
        let mut size = 0u64;
        while let Some(chunk) = response.chunk().await.map_err(|e| unreachable(&e))? {
            out.write_all(&chunk).map_err(|e| ModelError::Io { path: dest.clone(), reason: e.to_string() })?;
            hasher.update(&chunk);
            size += chunk.len() as u64;
            bar.bar.inc(chunk.len() as u64);
        }
        out.sync_all().map_err(|e| ModelError::Io { path: dest.clone(), reason: e.to_string() })?;
        if let Some(expected) = expected_len.filter(|&n| n != size) {
            return Err(ModelError::Corrupt {
                model: model.name.to_string(),
                file: file.path.to_string(),
                check: "length",
                expected: expected.to_string(),
                actual: size.to_string(),
            });
        }
        Ok((size, verify::hex(&hasher.finalize()), declared))
    })?;

    check(model, file, &dest, &sha256, &declared)?;
    Ok(ManifestFile { path: file.path.to_string(), size, sha256 })
}

fn declaration(headers: &HeaderMap) -> Declared {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    Declared::from_headers(text("x-linked-etag"), headers.get(ETAG).and_then(|v| v.to_str().ok()))
}

fn status_reason(status: reqwest::StatusCode, model: &KnownModel, file: &ModelFile) -> String {
    match status.as_u16() {
        404 => format!("HTTP 404: {} has no {} at revision {}", model.repo, file.path, model.revision),
        401 | 403 => format!("HTTP {status}: the hub refused access to {}", model.repo),
        _ => format!("HTTP {status}"),
    }
}

/// Applies `file`'s check to the downloaded bytes; the error names what differed.
fn check(
    model: &KnownModel,
    file: &ModelFile,
    path: &Path,
    sha256: &str,
    declared: &Declared,
) -> Result<(), ModelError> {
    let corrupt = |check: &'static str, expected: &str, actual: String| ModelError::Corrupt {
        model: model.name.to_string(),
        file: file.path.to_string(),
        check,
        expected: expected.to_string(),
        actual,
    };
    match (file.check, declared) {
        (FileCheck::Sha256 { sha256: pinned, .. }, _) if pinned != sha256 => {
            Err(corrupt("sha256", pinned, sha256.to_string()))
        }
        (FileCheck::Sha256 { .. }, _) => Ok(()),
        (FileCheck::HubDeclared, Declared::Sha256(expected)) if expected != sha256 => {
            Err(corrupt("sha256 declared by the hub", expected, sha256.to_string()))
        }
        (FileCheck::HubDeclared, Declared::Sha256(_)) => Ok(()),
        (FileCheck::HubDeclared, Declared::GitBlob(expected)) => {
            let actual = verify::git_blob_sha1_file(path)
                .map_err(|e| ModelError::Io { path: path.to_path_buf(), reason: e.to_string() })?;
            if &actual == expected { Ok(()) } else { Err(corrupt("git blob id declared by the hub", expected, actual)) }
        }
        (FileCheck::HubDeclared, Declared::Nothing) => {
            Err(ModelError::Undeclared { model: model.name.to_string(), file: file.path.to_string() })
        }
    }
}
