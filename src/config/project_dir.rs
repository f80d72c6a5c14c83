//! Which directories may be a project: the one rule every way of naming a project passes.
//!
//! A project is a directory someone indexes on purpose — a repository, a source tree. The
//! filesystem root, system directories, the home directory and the directories above it, and
//! the places where credentials live are not: indexing them walks hundreds of thousands of
//! files and copies secrets into the database, and an MCP client (or a web page that reached
//! the HTTP server) must never make the server read them. `mcp.allowedRoots` narrows the MCP
//! server further to the directories listed.
//!
//! The MCP server applies the rule to every project, however it was named (an explicit path,
//! the client's roots, `?project=`, `projectPath`, the working directory, an index's recorded
//! root). `cocosearch index` applies it too and refuses unless `--allow-any-dir` says the user
//! means it: the CLI is explicit, but `cocosearch index` run in the home directory should not
//! quietly index it.

use std::path::{Path, PathBuf};

/// Directories that hold the system, refused with everything below them.
const SYSTEM_TREES: &[&str] = &[
    "/etc",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/boot",
    "/dev",
    "/proc",
    "/sys",
    "/run",
    "/snap",
    "/usr/bin",
    "/usr/sbin",
    "/usr/lib",
    "/usr/lib32",
    "/usr/lib64",
    "/usr/libexec",
    "/usr/include",
    "/usr/share",
    "/var/lib",
    "/var/log",
    "/var/cache",
    "/var/spool",
    "/var/mail",
    "/var/run",
    "/var/backups",
    "/var/db",
    "/nix/store",
    // macOS.
    "/System",
    "/Library",
    "/private/etc",
    "/private/var/db",
    "/private/var/root",
    "/cores",
];

/// Directories refused themselves, though projects may live below them (`/var/www/app`,
/// `/usr/src/linux`, `/opt/service`).
const SYSTEM_DIRS: &[&str] = &[
    "/usr",
    "/usr/local",
    "/usr/src",
    "/var",
    "/opt",
    "/srv",
    "/home",
    "/root",
    "/mnt",
    "/media",
    "/tmp",
    "/var/tmp",
    "/nix",
    // macOS.
    "/Users",
    "/Volumes",
    "/Applications",
    "/private",
    "/private/var",
    "/private/tmp",
];

/// Under the home directory: where credentials are kept, refused with everything below them.
const SECRET_TREES: &[&str] = &[
    ".ssh",
    ".gnupg",
    ".aws",
    ".azure",
    ".kube",
    ".docker",
    ".password-store",
    ".config/gcloud",
    ".config/gh",
    ".local/share/keyrings",
    "Library/Keychains",
];

/// Under the home directory: settings and data folders refused themselves (they hold
/// credentials of many tools); a repository below them, like `~/.config/nvim`, is fine.
const SECRET_DIRS: &[&str] = &[".config", ".local", ".local/share", ".cache", "Library"];

/// Why a directory cannot be a project.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnsafeProjectDir {
    /// `/`.
    #[error("{} is the filesystem root", .0.display())]
    FilesystemRoot(PathBuf),
    /// A system directory, or inside one.
    #[error("{} is a system directory", .0.display())]
    System(PathBuf),
    /// The home directory itself.
    #[error("{} is your home directory", .0.display())]
    Home(PathBuf),
    /// A directory holding the home directory.
    #[error("{} holds your home directory", .0.display())]
    AboveHome(PathBuf),
    /// Where credentials are kept, or inside it.
    #[error("{} is where credentials are kept", .0.display())]
    SecretStore(PathBuf),
    /// Outside every directory of `mcp.allowedRoots`.
    #[error("{} is outside mcp.allowedRoots ({})", dir.display(), allowed.join(", "))]
    NotAllowed {
        /// The directory.
        dir: PathBuf,
        /// The allowed roots, as configured.
        allowed: Vec<String>,
    },
}

/// The rule, with its directories resolved once (`/lib` is `/usr/lib` on merged-usr systems,
/// `/etc` is `/private/etc` on macOS, the home directory may be a link).
#[derive(Debug, Clone)]
pub struct ProjectDirRule {
    system_trees: Vec<PathBuf>,
    system_dirs: Vec<PathBuf>,
    home: Option<PathBuf>,
    secret_trees: Vec<PathBuf>,
    secret_dirs: Vec<PathBuf>,
    allowed: Vec<PathBuf>,
    allowed_as_given: Vec<String>,
}

impl ProjectDirRule {
    /// The rule for this user (`home`, usually `$HOME`), limited to `allowed_roots` when
    /// there are any (`mcp.allowedRoots`; the CLI passes none).
    pub fn new(home: Option<&Path>, allowed_roots: &[String]) -> ProjectDirRule {
        let home = home.filter(|h| h.is_absolute()).map(canonical);
        let under_home = |list: &[&str]| -> Vec<PathBuf> {
            let Some(home) = &home else { return Vec::new() };
            list.iter().flat_map(|p| both(&home.join(p))).collect()
        };
        ProjectDirRule {
            system_trees: SYSTEM_TREES.iter().flat_map(|p| both(Path::new(p))).collect(),
            system_dirs: SYSTEM_DIRS.iter().flat_map(|p| both(Path::new(p))).collect(),
            secret_trees: under_home(SECRET_TREES),
            secret_dirs: under_home(SECRET_DIRS),
            home,
            allowed: allowed_roots.iter().map(|p| canonical(Path::new(p))).collect(),
            allowed_as_given: allowed_roots.to_vec(),
        }
    }

    /// The rule for the user of `env` (`$HOME`), limited to `allowed_roots` when there are any.
    pub fn from_env(env: &super::Env, allowed_roots: &[String]) -> ProjectDirRule {
        ProjectDirRule::new(env.get("HOME").filter(|h| !h.is_empty()).map(Path::new), allowed_roots)
    }

    /// Whether `dir` may be a project; `Err` says why not. `dir` is canonicalized first, so
    /// `..` and links are judged by where they lead.
    pub fn check(&self, dir: &Path) -> Result<(), UnsafeProjectDir> {
        let dir = canonical(dir);
        if dir.parent().is_none() {
            return Err(UnsafeProjectDir::FilesystemRoot(dir));
        }
        // The home directory first: `/root` is a system directory too, but "your home
        // directory" is the truer reason for root.
        if let Some(home) = &self.home {
            if &dir == home {
                return Err(UnsafeProjectDir::Home(dir));
            }
            if home.starts_with(&dir) {
                return Err(UnsafeProjectDir::AboveHome(dir));
            }
        }
        if self.system_trees.iter().any(|t| dir.starts_with(t)) || self.system_dirs.contains(&dir) {
            return Err(UnsafeProjectDir::System(dir));
        }
        if self.secret_trees.iter().any(|t| dir.starts_with(t)) || self.secret_dirs.contains(&dir) {
            return Err(UnsafeProjectDir::SecretStore(dir));
        }
        if !self.allowed.is_empty() && !self.allowed.iter().any(|a| dir.starts_with(a)) {
            return Err(UnsafeProjectDir::NotAllowed { dir, allowed: self.allowed_as_given.clone() });
        }
        Ok(())
    }
}

/// `path` canonicalized, or as given when it does not exist.
fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// `path` as written and, when it differs, where it leads.
fn both(path: &Path) -> Vec<PathBuf> {
    let resolved = canonical(path);
    if resolved == path { vec![resolved] } else { vec![path.to_path_buf(), resolved] }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_home_and_secret_directories_are_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let home = dir.path().join("home/me");
        for sub in ["work/app", ".ssh/keys", ".config/nvim", ".config/gh", ".aws"] {
            std::fs::create_dir_all(home.join(sub)).expect("mkdir");
        }
        let rule = ProjectDirRule::new(Some(&home), &[]);
        let home = home.canonicalize().expect("canonical");
        let refused = |p: &Path| rule.check(p).err();

        assert_eq!(refused(Path::new("/")), Some(UnsafeProjectDir::FilesystemRoot("/".into())));
        for system in ["/etc", "/etc/ssl", "/usr", "/usr/lib", "/var", "/proc/self", "/sys", "/dev"] {
            assert!(matches!(refused(Path::new(system)), Some(UnsafeProjectDir::System(_))), "{system}");
        }
        let homeless = ProjectDirRule::new(None, &[]);
        assert!(matches!(homeless.check(Path::new("/tmp")), Err(UnsafeProjectDir::System(_))));
        assert_eq!(refused(&home), Some(UnsafeProjectDir::Home(home.clone())));
        assert_eq!(refused(&home.join("..")), Some(UnsafeProjectDir::AboveHome(home.parent().expect("up").into())));
        for secret in [".ssh", ".ssh/keys", ".aws", ".config", ".config/gh"] {
            assert!(matches!(refused(&home.join(secret)), Some(UnsafeProjectDir::SecretStore(_))), "{secret}");
        }
        // Projects: in the home directory, a repository below ~/.config, a temporary directory.
        let elsewhere = tempfile::tempdir().expect("tempdir");
        for fine in [home.join("work/app"), home.join(".config/nvim"), elsewhere.path().to_path_buf()] {
            assert_eq!(refused(&fine), None, "{}", fine.display());
        }
        // root's home is named as a home, not as a system directory.
        let root = ProjectDirRule::new(Some(Path::new("/root")), &[]);
        assert_eq!(root.check(Path::new("/root")), Err(UnsafeProjectDir::Home("/root".into())));
        // A link is judged by where it leads.
        std::os::unix::fs::symlink("/etc", home.join("work/etc_link")).expect("symlink");
        assert!(matches!(refused(&home.join("work/etc_link")), Some(UnsafeProjectDir::System(_))));
        assert!(matches!(refused(&home.join("work/app/../../.ssh")), Some(UnsafeProjectDir::SecretStore(_))));
    }

    #[test]
    fn allowed_roots_narrow_the_rule() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (inside, outside) = (dir.path().join("work/app"), dir.path().join("other"));
        std::fs::create_dir_all(&inside).expect("mkdir");
        std::fs::create_dir_all(&outside).expect("mkdir");
        let allowed = vec![dir.path().join("work").display().to_string()];
        let rule = ProjectDirRule::new(None, &allowed);
        assert_eq!(rule.check(&inside), Ok(()));
        assert!(matches!(rule.check(&outside), Err(UnsafeProjectDir::NotAllowed { .. })));
        // The allowed roots never let a system directory through.
        let rule = ProjectDirRule::new(None, &["/".to_string()]);
        assert!(matches!(rule.check(Path::new("/etc")), Err(UnsafeProjectDir::System(_))));
    }
}
