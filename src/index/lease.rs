//! Which process watches an index: one watcher per index, visible to every other process.
//!
//! A watcher (`workspace::watch`) holds an exclusive lock on a small file in the user's cache directory, named
//! after the store and the index, and writes who it is into it. The lock is the truth (the
//! kernel drops it when the process ends, even by kill -9), the contents only describe the
//! holder; `stats`, the dashboard and a second watcher read them when the lock is taken.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::PathBuf;

/// The process watching an index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Watcher {
    /// Its process id.
    pub pid: u32,
    /// What it is (`cocosearch watch`, `cocosearch mcp`, `cocosearch dashboard`).
    pub process: String,
    /// When it started watching (RFC 3339).
    pub since: String,
    /// Whether its first comparison of the tree with the index is done: from then on the index
    /// follows the files; before, it may still be behind them.
    pub following: Following,
}

/// Where a watcher stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Following {
    /// Its first run is comparing the tree with the index.
    CatchingUp,
    /// The index follows the files (each change within the debounce time and a batch).
    Live,
}

/// The lock a watcher holds while it runs; dropping it lets go.
#[derive(Debug)]
pub struct Lease {
    file: File,
    me: Watcher,
}

impl Lease {
    /// Says the watcher's first run is done: the index follows the files from now on.
    pub fn mark_live(&mut self) -> std::io::Result<()> {
        self.me.following = Following::Live;
        write_holder(&mut self.file, &self.me)
    }
}

/// Writes who holds the lease: pid, process, since and where it stands, one per line (the
/// process name never holds a newline).
fn write_holder(file: &mut File, me: &Watcher) -> std::io::Result<()> {
    let following = match me.following {
        Following::CatchingUp => "catching-up",
        Following::Live => "live",
    };
    let text = format!("{}\n{}\n{}\n{following}\n", me.pid, me.process.replace('\n', " "), me.since);
    file.set_len(0)?;
    file.rewind()?;
    file.write_all(text.as_bytes())?;
    file.flush()
}

/// The outcome of [`claim`].
#[derive(Debug)]
pub enum Claim {
    /// This process watches the index now.
    Taken(Lease),
    /// Another process does.
    HeldBy(Option<Watcher>),
}

/// Takes the watch of `index` in the store at `location`.
pub fn claim(location: &str, index: &str, process: &str) -> std::io::Result<Claim> {
    let path = lease_path(location, index)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = OpenOptions::new().create(true).truncate(false).read(true).write(true).open(&path)?;
    match file.try_lock() {
        Ok(()) => {
            let me = Watcher {
                pid: std::process::id(),
                process: process.to_string(),
                since: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
                following: Following::CatchingUp,
            };
            write_holder(&mut file, &me)?;
            Ok(Claim::Taken(Lease { file, me }))
        }
        Err(TryLockError::WouldBlock) => Ok(Claim::HeldBy(describe(&mut file))),
        Err(TryLockError::Error(e)) => Err(e),
    }
}

/// The process watching `index` in the store at `location`, if one does.
pub fn watcher_of(location: &str, index: &str) -> Option<Watcher> {
    let path = lease_path(location, index).ok()?;
    let mut file = OpenOptions::new().read(true).open(path).ok()?;
    match file.try_lock_shared() {
        // Nobody holds it: no watcher (the shared lock goes with the file).
        Ok(()) => None,
        Err(TryLockError::WouldBlock) => Some(describe(&mut file).unwrap_or(Watcher {
            pid: 0,
            process: "a process".into(),
            since: String::new(),
            following: Following::CatchingUp,
        })),
        Err(TryLockError::Error(_)) => None,
    }
}

fn describe(file: &mut File) -> Option<Watcher> {
    let mut text = String::new();
    file.rewind().ok()?;
    file.read_to_string(&mut text).ok()?;
    let mut lines = text.lines();
    let pid = lines.next()?.trim().parse().ok()?;
    let process = lines.next()?.to_string();
    let since = lines.next().unwrap_or_default().to_string();
    let following = if lines.next() == Some("live") { Following::Live } else { Following::CatchingUp };
    Some(Watcher { pid, process, since, following })
}

/// `<cache>/cocosearch/watchers/<hash of store and index>.lock`: one file per index of each
/// store, whatever characters the store's location holds. Only a watcher creates it: asking
/// who watches writes nothing.
fn lease_path(location: &str, index: &str) -> std::io::Result<PathBuf> {
    let base = dirs::cache_dir()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no cache directory for this user"))?;
    let dir = base.join("cocosearch").join("watchers");
    let key = blake3::hash(format!("{location}\0{index}").as_bytes()).to_hex();
    Ok(dir.join(format!("{}.lock", &key[..32])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_claim_sees_the_first_holder_and_a_dropped_lease_frees_the_index() {
        let location = format!("test-store-{}-{:?}", std::process::id(), std::time::Instant::now());
        let Claim::Taken(mut lease) = claim(&location, "idx", "cocosearch watch").expect("claim") else {
            panic!("a fresh index is free")
        };
        let holder = watcher_of(&location, "idx").expect("held");
        assert_eq!((holder.pid, holder.process.as_str()), (std::process::id(), "cocosearch watch"));
        assert_eq!(holder.following, Following::CatchingUp);
        lease.mark_live().expect("mark live");
        assert_eq!(watcher_of(&location, "idx").expect("held").following, Following::Live);
        match claim(&location, "idx", "cocosearch mcp").expect("claim") {
            Claim::HeldBy(Some(w)) => assert_eq!(w.pid, std::process::id()),
            other => panic!("expected the first holder, got {other:?}"),
        }
        assert!(watcher_of(&location, "other").is_none(), "another index is not watched");
        drop(lease);
        assert!(watcher_of(&location, "idx").is_none(), "a dropped lease frees the index");
        assert!(matches!(claim(&location, "idx", "cocosearch watch").expect("claim"), Claim::Taken(_)));
    }
}
