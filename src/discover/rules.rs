//! What is left out of an index by default, and what counts as sensitive.
//!
//! Defaults keep indexes about code a person wrote: no VCS internals, dependencies, build
//! output, caches, lock files, minified bundles, media or archives. Sensitive files (secrets,
//! keys, credentials) are never indexed unless a pattern in `indexing.includeSensitive`
//! re-includes them explicitly: an index is searchable by anything that can reach the database.

use globset::{Glob, GlobSet, GlobSetBuilder};

/// Directory names skipped whole, wherever they appear.
pub const EXCLUDED_DIRS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    ".bzr",
    "_darcs",
    ".jj", // version control
    "node_modules",
    "bower_components",
    "jspm_packages",
    "vendor", // dependencies
    "target",
    "dist",
    "build",
    "out",
    "_build",
    ".next",
    ".nuxt",
    ".svelte-kit",
    ".output", // build output
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    ".eggs",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
    ".ipynb_checkpoints",
    "site-packages", // python
    ".cache",
    ".gradle",
    ".terraform",
    ".serverless",
    ".parcel-cache",
    ".turbo",
    ".yarn",
    "coverage",
    "htmlcov",
    ".idea",
    ".vs",
    ".DS_Store",
    // repository metadata: a pasted bug report matches the bug-report template best
    "ISSUE_TEMPLATE",
];

/// File globs excluded by default (matched against the file name).
pub const EXCLUDED_FILES: &[&str] = &[
    // a worktree's or submodule's pointer to its git directory (a file, not the directory)
    ".git",
    // lock files
    "*.lock",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "pnpm-lock.yaml",
    "go.sum",
    "*.lockb",
    // minified bundles and maps
    "*.min.js",
    "*.min.css",
    "*.min.mjs",
    "*.bundle.js",
    "*.map",
    // media
    "*.png",
    "*.jpg",
    "*.jpeg",
    "*.gif",
    "*.bmp",
    "*.ico",
    "*.icns",
    "*.webp",
    "*.tif",
    "*.tiff",
    "*.psd",
    "*.svg",
    "*.heic",
    "*.avif",
    "*.mp3",
    "*.mp4",
    "*.m4a",
    "*.wav",
    "*.ogg",
    "*.flac",
    "*.avi",
    "*.mov",
    "*.mkv",
    "*.webm",
    "*.ttf",
    "*.otf",
    "*.woff",
    "*.woff2",
    "*.eot",
    // archives and packages
    "*.zip",
    "*.tar",
    "*.gz",
    "*.tgz",
    "*.bz2",
    "*.xz",
    "*.zst",
    "*.7z",
    "*.rar",
    "*.jar",
    "*.war",
    "*.ear",
    "*.whl",
    "*.egg",
    "*.deb",
    "*.rpm",
    "*.dmg",
    "*.iso",
    "*.apk",
    // compiled and binary data
    "*.pyc",
    "*.pyo",
    "*.pyd",
    "*.so",
    "*.so.*",
    "*.dylib",
    "*.dll",
    "*.exe",
    "*.o",
    "*.a",
    "*.lib",
    "*.obj",
    "*.class",
    "*.wasm",
    "*.bin",
    "*.dat",
    "*.db",
    "*.sqlite",
    "*.sqlite3",
    "*.parquet",
    "*.pkl",
    "*.npy",
    "*.npz",
    "*.onnx",
    "*.safetensors",
    "*.pt",
    "*.ckpt",
    // documents
    "*.pdf",
    "*.doc",
    "*.docx",
    "*.xls",
    "*.xlsx",
    "*.ppt",
    "*.pptx",
    "*.odt",
    // copies of well-known third-party libraries (after GitHub linguist's vendor list): their
    // words crowd a project's own code out of search results
    "jquery*.js",
    "jquery-ui*.js",
    "bootstrap.js",
    "bootstrap.css",
    "bootstrap-theme.css",
    "underscore.js",
    "underscore-min.js",
    "lodash.js",
    "lodash.core.js",
    "backbone.js",
    "modernizr*.js",
    "angular.js",
    "angular-*.js",
    "d3.js",
    "d3.v*.js",
    "three.js",
    "prototype.js",
    "mootools*.js",
    "dojo.js",
    "require.js",
    "handlebars.js",
    "handlebars.runtime.js",
    "moment.js",
    "moment-with-locales.js",
    "highcharts.js",
    "popper.js",
    "font-awesome*.css",
    "normalize.css",
    // translation catalogs and notebooks: long, repetitive, rarely what a search means
    "*.po",
    "*.pot",
    "*.mo",
    "*.ipynb",
    // repository metadata
    "FUNDING.yml",
    "CODEOWNERS",
    "PULL_REQUEST_TEMPLATE.md",
    "pull_request_template.md",
    "ISSUE_TEMPLATE.md",
    "issue_template.md",
    // editor and OS noise
    "*.swp",
    "*.swo",
    "*~",
    ".DS_Store",
    "Thumbs.db",
];

/// Sensitive file globs (matched against the file name).
pub const SENSITIVE_FILES: &[&str] = &[
    ".env",
    ".env.*",
    "*.env",
    "*.pem",
    "*.key",
    "*.crt",
    "*.p12",
    "*.pfx",
    "*.jks",
    "*.keystore",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    "*credentials*",
    "*secret*",
    ".npmrc",
    ".pypirc",
    ".netrc",
    ".pgpass",
    ".htpasswd",
    "*.kdbx",
    ".git-credentials",
];

/// Directories whose whole content is sensitive: cloud CLI and key stores.
pub const SENSITIVE_DIRS: &[&str] =
    &[".aws", ".azure", ".gcloud", "gcloud", ".kube", ".docker", ".ssh", ".gnupg", ".terraform.d"];

fn set(patterns: &[&str]) -> GlobSet {
    let mut builder = GlobSetBuilder::new();
    for p in patterns {
        // Our own constants: a typo here is a bug caught by the tests below.
        if let Ok(glob) = Glob::new(p) {
            builder.add(glob);
        }
    }
    builder.build().unwrap_or_else(|_| GlobSet::empty())
}

/// The compiled default rules.
pub struct Rules {
    excluded_files: GlobSet,
    sensitive_files: GlobSet,
}

impl Rules {
    /// Compiles the defaults.
    pub fn new() -> Rules {
        Rules { excluded_files: set(EXCLUDED_FILES), sensitive_files: set(SENSITIVE_FILES) }
    }

    /// Whether a directory with this name is skipped whole by default.
    pub fn excluded_dir(&self, name: &str) -> bool {
        EXCLUDED_DIRS.contains(&name) || name.ends_with(".egg-info")
    }

    /// Whether a directory with this name holds secrets.
    pub fn sensitive_dir(&self, name: &str) -> bool {
        SENSITIVE_DIRS.contains(&name)
    }

    /// Whether a file with this name is excluded by default.
    pub fn excluded_file(&self, name: &str) -> bool {
        self.excluded_files.is_match(name)
    }

    /// Whether a file with this name looks sensitive.
    pub fn sensitive_file(&self, name: &str) -> bool {
        self.sensitive_files.is_match(name)
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_pattern_compiles() {
        for p in EXCLUDED_FILES.iter().chain(SENSITIVE_FILES) {
            assert!(Glob::new(p).is_ok(), "{p}");
        }
    }

    #[test]
    fn defaults_classify_common_names() {
        let r = Rules::new();
        for name in [
            ".env",
            ".env.local",
            "server.pem",
            "id_rsa",
            "id_rsa.pub",
            "aws_credentials.json",
            "client_secret.json",
            ".npmrc",
        ] {
            assert!(r.sensitive_file(name), "{name} should be sensitive");
        }
        for name in ["main.py", "environment.py", "keyboard.rs", "README.md"] {
            assert!(!r.sensitive_file(name), "{name} should not be sensitive");
        }
        for name in [
            "yarn.lock",
            "Cargo.lock",
            "app.min.js",
            "logo.png",
            "data.sqlite",
            "x.pyc",
            "jquery-3.6.0.js",
            "django.po",
            "messages.pot",
            "FUNDING.yml",
            "analysis.ipynb",
        ] {
            assert!(r.excluded_file(name), "{name} should be excluded");
        }
        for name in ["lock.py", "min.js", "build.rs", "query.js", "moments.py", "pot.rs", "bootstrap_app.js"] {
            assert!(!r.excluded_file(name), "{name} should be indexed");
        }
        assert!(r.excluded_dir("node_modules") && r.excluded_dir("foo.egg-info") && !r.excluded_dir("src"));
        assert!(r.excluded_dir("ISSUE_TEMPLATE") && r.excluded_file("PULL_REQUEST_TEMPLATE.md"));
        assert!(r.excluded_file(".git"), "a linked worktree's .git file is git's, not the project's");
        assert!(r.excluded_file("ISSUE_TEMPLATE.md"));
    }
}
