//! Which project a request is about, how that was decided, and which paths it may read.
//!
//! Order, first match wins: an explicit `index_name` (or `path`) argument > the client's MCP
//! roots (the first `file://` root) > the HTTP session's `?project=/path` > `projectPath`
//! (`COCOSEARCH_PROJECT_PATH`) > the server's working directory, walked up to the git root,
//! when started with `--project-from-cwd`. The project's own `cocosearch.yaml` is then
//! resolved with [`Config::resolve`], so its index name and settings apply.
//!
//! Security invariant: every project, however it was named, passes the same rule
//! ([`crate::config::ProjectDirRule`]: no filesystem root, system, home or credentials
//! directory, and inside `mcp.allowedRoots` when that is set) before anything reads it. Paths
//! are canonicalized before the check, so `..` and symlinks cannot leave those trees. What a
//! call may read or index is computed from that call's own hints and the server's
//! configuration: one session's choice never widens another's.

use std::path::{Path, PathBuf};

use super::Error;
use super::state::{ConfigStamp, Source, Workspace};
use crate::config::{Config, Override, Raw, Request, UnsafeProjectDir};

/// What the transport and the client told us about where a call comes from.
#[derive(Debug, Clone, Default)]
pub struct Hints {
    /// The client's `file://` roots that exist on this machine, canonicalized, in order.
    pub roots: Vec<PathBuf>,
    /// Roots the client listed that are unusable here, and why.
    pub ignored_roots: Vec<String>,
    /// The HTTP session's `?project=` value, as given.
    pub query_project: Option<String>,
}

/// The project a call is about.
#[derive(Debug, Clone)]
pub struct Project {
    /// Its root, canonical.
    pub root: PathBuf,
    /// How it was chosen.
    pub source: Source,
    /// Its configuration: the server's flags and environment over the project's own file.
    pub config: Config,
}

/// Chooses the project from the hints and the server's defaults, without an explicit argument.
pub fn detect(shared: &Workspace, hints: &Hints) -> Result<Project, Error> {
    if let Some(root) = hints.roots.first() {
        return resolve(shared, root, Source::Roots);
    }
    if let Some(query) = &hints.query_project {
        let path = Path::new(query);
        if !path.is_absolute() {
            return Err(Error::new(format!(
                "?project={query} is not an absolute path — connect to /mcp?project=/absolute/path/to/project"
            )));
        }
        let root = path.canonicalize().map_err(|e| {
            Error::new(format!("?project={query} cannot be used: {e} — name an existing project directory"))
        })?;
        return resolve(shared, &root, Source::QueryParam);
    }
    if let Some((root, source)) = &shared.default_project {
        return resolve(shared, root, *source);
    }
    let mut message = String::from(
        "cannot tell which project you mean: the client sent no workspace roots and the server has no default project. \
         Pass index_name (list_indexes shows them) or, for index_codebase, path; \
         or start the server with `cocosearch mcp --project-from-cwd` in the project, set COCOSEARCH_PROJECT_PATH, \
         or connect over HTTP to /mcp?project=/path/to/project",
    );
    if !hints.ignored_roots.is_empty() {
        message.push_str(&format!(" (ignored roots: {})", hints.ignored_roots.join("; ")));
    }
    Err(Error::new(message))
}

/// Resolves the configuration of the project at `root` (canonical): the server's command-line
/// values and environment over the project's own `cocosearch.yaml`.
///
/// Resolutions are remembered per root until the configuration file found there changes:
/// resolving reads and merges every layer, which would cost each call a fraction of a
/// millisecond.
pub fn resolve(shared: &Workspace, root: &Path, source: Source) -> Result<Project, Error> {
    if let Err(reason) = shared.dir_rule.check(root) {
        return Err(refused(root, source, &reason));
    }
    let stamp = ConfigStamp::of(&shared.options, root);
    if let Some(config) = shared.resolved_config(root, &stamp) {
        return Ok(Project { root: config.project_root.clone(), source, config });
    }
    let mut overrides: Vec<Override> = shared.options.overrides.clone();
    // The project directory wins over COCOSEARCH_PROJECT_PATH, which only names the default.
    overrides.push(Override {
        key: "projectPath".into(),
        value: Raw::Text(root.display().to_string()),
        flag: "MCP project".into(),
    });
    let config = Config::resolve(&Request {
        config_file: shared.options.config_file.as_deref(),
        cwd: root,
        overrides: &overrides,
        env: &shared.options.env,
    })
    .map_err(|e| Error::new(format!("the configuration of {} is invalid: {e}", root.display())))?;
    shared.remember_config(root, stamp, config.clone());
    Ok(Project { root: config.project_root.clone(), source, config })
}

/// The error for a project directory the rule refuses, with the fix for the way it was named.
pub fn refused(root: &Path, source: Source, reason: &UnsafeProjectDir) -> Error {
    let dir = root.display();
    Error::new(match source {
        Source::QueryParam => format!(
            "?project={dir} cannot be used: {reason} — connect to /mcp?project=/path/to/a/project (a repository, not a system, home or credentials directory)"
        ),
        Source::Roots => format!("the client's root {dir} cannot be used: {reason} — open a project directory instead"),
        Source::Env => format!(
            "COCOSEARCH_PROJECT_PATH ({dir}) cannot be used: {reason} — set it to a project directory (a repository)"
        ),
        Source::Config => {
            format!("projectPath ({dir}) cannot be used: {reason} — set it to a project directory (a repository)")
        }
        Source::Cwd => format!(
            "the server's working directory {dir} cannot be the project: {reason} — start `cocosearch mcp --project-from-cwd` in a project directory"
        ),
        Source::Path => format!("refusing to index {dir}: {reason} — index a project directory (a repository)"),
        Source::IndexName => format!(
            "this server does not serve {dir}: {reason} — indexes of such directories are for the command line only"
        ),
    })
}

/// Drops the client's roots the rule refuses, noting why in `hints.ignored_roots`, so no
/// later step (choosing the project, the directories `index_codebase` may index) sees them.
pub fn confine_roots(shared: &Workspace, hints: &mut Hints) {
    let roots = std::mem::take(&mut hints.roots);
    for root in roots {
        match shared.dir_rule.check(&root) {
            Ok(()) => hints.roots.push(root),
            Err(reason) => hints.ignored_roots.push(format!("{}: {reason}", root.display())),
        }
    }
}

/// `path` made absolute against `base` and canonicalized (symlinks and `..` resolved).
pub fn canonical(path: &str, base: Option<&Path>) -> Result<PathBuf, Error> {
    let given = Path::new(path);
    let absolute = match (given.is_absolute(), base) {
        (true, _) => given.to_path_buf(),
        (false, Some(base)) => base.join(given),
        (false, None) => {
            return Err(Error::new(format!(
                "path {path:?} is relative and there is no project to resolve it against — pass an absolute path"
            )));
        }
    };
    let canonical =
        absolute.canonicalize().map_err(|e| Error::new(format!("path {} cannot be used: {e}", absolute.display())))?;
    if !canonical.is_dir() {
        return Err(Error::new(format!("path {} is not a directory", canonical.display())));
    }
    Ok(canonical)
}

/// Whether `path` (canonical) lies inside one of `allowed` (canonical or not).
pub fn inside(path: &Path, allowed: &[PathBuf]) -> bool {
    allowed.iter().any(|root| {
        let root = root.canonicalize().unwrap_or_else(|_| root.clone());
        path.starts_with(&root)
    })
}

/// Refuses an index whose recorded root the project rule refuses (an index of `/etc` built
/// from the command line): searching it would read that directory's files for the results.
pub fn check_index_root(shared: &Workspace, name: &str) -> Result<(), Error> {
    match shared.default_store()?.get_index(name)? {
        Some(meta) => servable_root(shared, name, &meta.root),
        // Searching it says that it does not exist.
        None => Ok(()),
    }
}

/// Whether the server may read `root`, the recorded root of index `name`.
fn servable_root(shared: &Workspace, name: &str, root: &std::path::Path) -> Result<(), Error> {
    shared.dir_rule.check(root).map_err(|reason| {
        let refusal = refused(root, Source::IndexName, &reason);
        Error::new(format!("index {name}: {}", refusal.message))
    })
}

/// The project of an existing index: its recorded root, with that project's configuration.
pub fn index_project(shared: &Workspace, name: &str) -> Result<Project, Error> {
    let store = shared.default_store()?;
    let meta = store.get_index(name)?.ok_or_else(|| {
        let mean = shared.index_like(name).map(|m| format!("{m} ")).unwrap_or_default();
        Error::new(format!(
            "no index named {name} — {mean}list_indexes shows the existing ones; index_codebase creates one"
        ))
    })?;
    // Checked here, not only in `resolve`: the fallback below must not serve a refused root.
    servable_root(shared, name, &meta.root)?;
    match resolve(shared, &meta.root, Source::IndexName) {
        Ok(project) => Ok(project),
        // The directory is gone or its configuration is broken: search what is stored anyway.
        Err(_) => {
            let mut config = shared.options.config.clone();
            config.project_root = meta.root.clone();
            config.settings.index_name = Some(name.to_string());
            Ok(Project { root: meta.root, source: Source::IndexName, config })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resolved_configuration_is_kept_until_its_file_changes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("canonical");
        std::fs::create_dir(root.join(".git")).expect("mkdir .git");
        let env = crate::config::Env::default();
        let request = crate::config::Request { config_file: None, cwd: &root, overrides: &[], env: &env };
        let config = Config::resolve(&request).expect("startup configuration");
        let shared = Workspace::new(crate::workspace::Options {
            config,
            env: env.clone(),
            config_file: None,
            overrides: Vec::new(),
            project_from_cwd: false,
            front: crate::workspace::Front::Mcp,
            progress: crate::embed::Progress::Hidden,
            notices: crate::workspace::Notices::Log,
        });
        let index = |shared: &Workspace| resolve(shared, &root, Source::Roots).expect("resolve").config.index_name();
        assert_eq!(index(&shared), config_index_default(&root));

        // A new file is found, and a changed one read again.
        std::fs::write(root.join("cocosearch.yaml"), "indexName: first\n").expect("write");
        assert_eq!(index(&shared), "first");
        std::fs::write(root.join("cocosearch.yaml"), "indexName: second_one\n").expect("write");
        assert_eq!(index(&shared), "second_one");
        std::fs::remove_file(root.join("cocosearch.yaml")).expect("remove");
        assert_eq!(index(&shared), config_index_default(&root));
    }

    /// The index name of a project without a configuration file: its directory's name.
    fn config_index_default(root: &Path) -> String {
        crate::config::sanitize_index_name(&root.file_name().expect("name").to_string_lossy())
    }

    #[test]
    fn inside_resolves_dot_dot_and_symlinks() {
        let dir = tempfile::tempdir().expect("tempdir");
        let project = dir.path().join("project");
        std::fs::create_dir_all(project.join("src")).expect("mkdir");
        let allowed = vec![project.clone()];
        let sub = canonical("src", Some(&project)).expect("src");
        assert!(inside(&sub, &allowed));
        let escape = canonical("src/../..", Some(&project)).expect("parent");
        assert!(!inside(&escape, &allowed), "{escape:?}");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/", project.join("rootlink")).expect("symlink");
            let link = canonical("rootlink", Some(&project)).expect("link");
            assert!(!inside(&link, &allowed), "{link:?}");
        }
        assert!(canonical("relative", None).is_err());
    }
}
