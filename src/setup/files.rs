//! The files of a setup: where each path really leads, what it holds, and writing it.
//!
//! A project is someone's repository, and any path in it may be a symbolic link: a committed
//! `.mcp.json` pointing at `~/.claude.json`, a `.cursor` directory linked to a shared folder.
//! Each path is walked component by component from the canonical root; a link is followed only
//! when its canonical target lies inside the root, so nothing is read or written outside it
//! (as `discover::ProjectFiles` does for reads). A link inside the project is followed and the
//! file it leads to is written in place, so `AGENTS.md -> CLAUDE.md` stays a link and both
//! names are one file of the plan.

use std::fs;
use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};

use super::{Change, Kept, Outcome, Role, SetupError};

/// The files a plan has reached so far.
pub(super) struct Files {
    /// The project root, canonical.
    root: PathBuf,
    pending: Vec<Pending>,
}

/// One file of a plan being made: what it held, and its text so far.
pub(super) struct Pending {
    /// The path relative to the root it was first reached by.
    shown: PathBuf,
    /// The root joined with `shown` (for messages).
    full: PathBuf,
    /// Where it really is.
    real: PathBuf,
    /// Its text on disk, if it exists.
    original: Option<String>,
    /// Its new text, once something changed it.
    pub(super) text: Option<String>,
    roles: Vec<Role>,
    /// What was left as it is in it.
    pub(super) kept: Vec<Kept>,
}

impl Pending {
    /// The text as the plan has it now: merged so far, or as on disk (`None`: no file).
    pub(super) fn current(&self) -> Option<&str> {
        self.text.as_deref().or(self.original.as_deref())
    }

    /// The file's path, for messages.
    pub(super) fn full_path(&self) -> PathBuf {
        self.full.clone()
    }
}

impl Files {
    /// No files yet, under `root` (which must exist).
    pub(super) fn new(root: &Path) -> Result<Files, SetupError> {
        let canonical = root.canonicalize().map_err(|source| SetupError::Read { path: root.to_path_buf(), source })?;
        Ok(Files { root: canonical, pending: Vec::new() })
    }

    /// The file at `relative` (plain components only), read when first reached; a file reached
    /// before, by this name or another leading to it, is the same entry with its text so far.
    pub(super) fn open(&mut self, relative: &Path, role: Role) -> Result<&mut Pending, SetupError> {
        let full = self.root.join(relative);
        let real = resolve(&self.root, relative)?;
        let at = match self.pending.iter().position(|p| p.real == real) {
            Some(at) => at,
            None => {
                let original = read(&real, &full)?;
                self.pending.push(Pending {
                    shown: relative.to_path_buf(),
                    full,
                    real,
                    original,
                    text: None,
                    roles: Vec::new(),
                    kept: Vec::new(),
                });
                self.pending.len() - 1
            }
        };
        let entry = &mut self.pending[at];
        if !entry.roles.contains(&role) {
            entry.roles.push(role);
        }
        Ok(entry)
    }

    /// The plan's files, in the order they were first reached.
    pub(super) fn into_changes(self) -> Vec<Change> {
        self.pending
            .into_iter()
            .map(|p| {
                let outcome = match (&p.original, &p.text) {
                    (None, Some(_)) => Outcome::Created,
                    (Some(before), Some(after)) if before != after => Outcome::Updated,
                    _ => Outcome::Unchanged,
                };
                Change {
                    path: p.shown,
                    outcome,
                    roles: p.roles,
                    kept: p.kept,
                    real: p.real,
                    text: p.text.or(p.original).unwrap_or_default(),
                }
            })
            .collect()
    }
}

/// Where `relative` leads from the canonical `root`: each existing component that is a link
/// is replaced by its canonical target, which must lie inside the root. Components that do not
/// exist yet are kept as they are (they will be created, inside what exists).
fn resolve(root: &Path, relative: &Path) -> Result<PathBuf, SetupError> {
    let components: Vec<Component<'_>> = relative.components().collect();
    let mut real = root.to_path_buf();
    let mut shown = root.to_path_buf();
    let mut missing = false;
    for (i, component) in components.iter().enumerate() {
        // The paths are the setup's own constants; anything but a plain name would be a bug
        // that must not climb out of the root.
        let Component::Normal(name) = component else {
            return Err(SetupError::Outside { path: root.join(relative), root: root.to_path_buf() });
        };
        shown.push(name);
        real.push(name);
        if missing {
            continue;
        }
        let link = match fs::symlink_metadata(&real) {
            Ok(meta) => meta.file_type().is_symlink(),
            Err(e) if e.kind() == ErrorKind::NotFound => {
                missing = true;
                continue;
            }
            Err(source) => return Err(SetupError::Read { path: shown, source }),
        };
        if link {
            real = real.canonicalize().map_err(|_| SetupError::BrokenLink { path: shown.clone() })?;
            if !real.starts_with(root) {
                return Err(SetupError::Outside { path: shown, root: root.to_path_buf() });
            }
        }
        let meta = fs::metadata(&real).map_err(|source| SetupError::Read { path: shown.clone(), source })?;
        let last = i + 1 == components.len();
        if last && !meta.is_file() {
            return Err(SetupError::NotA { path: shown, expected: "regular file" });
        }
        if !last && !meta.is_dir() {
            return Err(SetupError::NotA { path: shown, expected: "directory" });
        }
    }
    Ok(real)
}

/// The text of the file at `real` (`None` when it does not exist); `shown` names it.
fn read(real: &Path, shown: &Path) -> Result<Option<String>, SetupError> {
    match fs::read(real) {
        Ok(bytes) => String::from_utf8(bytes).map(Some).map_err(|_| SetupError::NotText { path: shown.to_path_buf() }),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(source) => Err(SetupError::Read { path: shown.to_path_buf(), source }),
    }
}

/// Writes `text` to `real` through a temporary file in the same directory and a rename; an
/// existing file's permissions carry over.
pub(super) fn write(real: &Path, text: &str) -> Result<(), SetupError> {
    let fail = |source| SetupError::Write { path: real.to_path_buf(), source };
    let (Some(dir), Some(name)) = (real.parent(), real.file_name()) else {
        return Err(fail(std::io::Error::new(ErrorKind::InvalidInput, "not a file path")));
    };
    let permissions = match fs::metadata(real) {
        Ok(meta) => Some(meta.permissions()),
        Err(e) if e.kind() == ErrorKind::NotFound => None,
        Err(e) => return Err(fail(e)),
    };
    fs::create_dir_all(dir).map_err(fail)?;
    let temp = dir.join(format!(".{}.cocosearch-{}.tmp", name.to_string_lossy(), std::process::id()));
    let result = fs::write(&temp, text)
        .and_then(|()| permissions.map_or(Ok(()), |p| fs::set_permissions(&temp, p)))
        .and_then(|()| fs::rename(&temp, real));
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result.map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(dir: &Path) -> Files {
        Files::new(dir).expect("root")
    }

    #[test]
    fn a_missing_path_resolves_inside_the_root_and_reads_as_absent() {
        let dir = tempfile::tempdir().expect("dir");
        let mut f = files(dir.path());
        let entry = f.open(Path::new(".cursor/rules/x.mdc"), Role::Config).expect("open");
        assert_eq!(entry.current(), None);
        assert!(entry.real.starts_with(dir.path().canonicalize().expect("canonical")));
    }

    #[cfg(unix)]
    #[test]
    fn links_inside_the_project_are_one_file_and_links_outside_are_refused() {
        let dir = tempfile::tempdir().expect("dir");
        let outside = tempfile::tempdir().expect("outside");
        std::fs::write(dir.path().join("CLAUDE.md"), "hello\n").expect("write");
        std::fs::write(outside.path().join("x.json"), "{}").expect("write");
        std::os::unix::fs::symlink("CLAUDE.md", dir.path().join("AGENTS.md")).expect("link");
        std::os::unix::fs::symlink(outside.path(), dir.path().join(".cursor")).expect("link");
        std::os::unix::fs::symlink(outside.path().join("x.json"), dir.path().join(".mcp.json")).expect("link");
        std::os::unix::fs::symlink("nowhere", dir.path().join("GEMINI.md")).expect("link");

        let mut f = files(dir.path());
        f.open(Path::new("CLAUDE.md"), Role::Config).expect("claude").text = Some("changed\n".into());
        let agents = f.open(Path::new("AGENTS.md"), Role::Config).expect("agents");
        assert_eq!(agents.current(), Some("changed\n"), "the link is the same file, with its text so far");
        assert_eq!(f.pending.len(), 1);

        // The error names the link.
        for (path, link, expect) in [
            (".cursor/mcp.json", ".cursor", "Outside"),
            (".mcp.json", ".mcp.json", "Outside"),
            ("GEMINI.md", "GEMINI.md", "BrokenLink"),
        ] {
            let err = f.open(Path::new(path), Role::Config).err().expect("refused");
            assert!(format!("{err:?}").starts_with(expect), "{path}: {err:?}");
            assert!(err.to_string().contains(&format!("{}/{link} ", f.root.display())), "{err}");
        }
    }

    #[test]
    fn a_directory_where_a_file_goes_is_refused() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::create_dir(dir.path().join("CLAUDE.md")).expect("dir");
        std::fs::write(dir.path().join(".cursor"), "a file").expect("file");
        let mut f = files(dir.path());
        let err = f.open(Path::new("CLAUDE.md"), Role::Config).err().expect("refused");
        assert!(matches!(err, SetupError::NotA { expected: "regular file", .. }), "{err:?}");
        let err = f.open(Path::new(".cursor/mcp.json"), Role::Config).err().expect("refused");
        assert!(matches!(err, SetupError::NotA { expected: "directory", .. }), "{err:?}");
    }

    #[cfg(unix)]
    #[test]
    fn writing_replaces_the_file_keeps_its_permissions_and_leaves_no_temporary_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("a/b/file.json");
        write(&path, "one\n").expect("create");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        write(&path, "two\n").expect("replace");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "two\n");
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let names: Vec<_> =
            std::fs::read_dir(dir.path().join("a/b")).expect("ls").flatten().map(|e| e.file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("file.json")]);
    }
}
