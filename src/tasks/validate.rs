//! What a task may hold: every value from a person or an agent is checked here before the
//! store sees it, and a refusal names the field and the fix.

use std::path::{Component, Path, PathBuf};

use super::TaskError;
use crate::store::TaskStatus;

/// The longest title, in characters (the Codebase MCP server's limit).
pub const MAX_TITLE_CHARS: usize = 200;
/// The longest description or notes, in bytes: a task is a note, not a document.
pub const MAX_TEXT_BYTES: usize = 64 * 1024;
/// The longest branch name, in bytes.
const MAX_BRANCH_BYTES: usize = 255;
/// The most tasks one list answers (and its default).
pub const MAX_LIMIT: u32 = 100;
/// Tasks listed when no limit is given.
pub const DEFAULT_LIMIT: u32 = 50;
/// The shortest id prefix accepted for a task id.
const MIN_ID_PREFIX: usize = 4;

fn invalid(field: &'static str, problem: String) -> TaskError {
    TaskError::Invalid { field, problem }
}

/// A title: 1 to 200 characters once trimmed.
pub fn title(text: &str) -> Result<String, TaskError> {
    let trimmed = text.trim();
    let chars = trimmed.chars().count();
    if chars == 0 {
        return Err(invalid("title", "is empty — give the task a title of 1 to 200 characters".into()));
    }
    if chars > MAX_TITLE_CHARS {
        return Err(invalid(
            "title",
            format!(
                "has {chars} characters, more than {MAX_TITLE_CHARS} — shorten it and put the rest in the description"
            ),
        ));
    }
    if trimmed.chars().any(char::is_control) {
        return Err(invalid("title", "holds control characters (a line break?) — use one line of text".into()));
    }
    Ok(trimmed.to_string())
}

/// A description or notes: at most 64 KiB.
pub fn text(field: &'static str, text: &str) -> Result<String, TaskError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(invalid(
            field,
            format!("is {} bytes, more than {MAX_TEXT_BYTES} — keep it short and link a planning document", text.len()),
        ));
    }
    Ok(text.to_string())
}

/// A status by its name (`need to be done`, `in progress`, `complete`), case and `_`/`-`
/// spellings forgiven, plus the short names `todo`, `doing` and `done`.
pub fn status(text: &str) -> Result<TaskStatus, TaskError> {
    let folded = text.trim().to_lowercase().replace(['_', '-'], " ");
    let found = match folded.as_str() {
        "need to be done" | "todo" => Some(TaskStatus::NeedToBeDone),
        "in progress" | "doing" => Some(TaskStatus::InProgress),
        "complete" | "completed" | "done" => Some(TaskStatus::Complete),
        _ => None,
    };
    found.ok_or_else(|| {
        invalid("status", format!("{text:?} is not a status — use one of: need to be done, in progress, complete"))
    })
}

/// A commit id: exactly 40 hexadecimal digits (a SHA-1), kept lowercase.
pub fn commit(text: &str) -> Result<String, TaskError> {
    let t = text.trim();
    if t.len() != 40 || !t.bytes().all(|b| b.is_ascii_hexdigit()) {
        let what = if t.bytes().all(|b| b.is_ascii_hexdigit()) {
            format!("has {} hexadecimal digits", t.len())
        } else {
            "is not hexadecimal".to_string()
        };
        return Err(invalid(
            "commit",
            format!("{text:?} {what}; a commit is its full 40-digit SHA-1 — `git rev-parse HEAD` prints one"),
        ));
    }
    Ok(t.to_ascii_lowercase())
}

/// A branch name git could have: no spaces, control characters, `..`, or the characters git
/// refuses (`~^:?*[\`), not starting with `-`.
pub fn branch(text: &str) -> Result<String, TaskError> {
    let t = text.trim();
    let bad = t.is_empty()
        || t.len() > MAX_BRANCH_BYTES
        || t.starts_with('-')
        || t.starts_with('/')
        || t.ends_with('/')
        || t.ends_with(".lock")
        || t.contains("..")
        || t.contains("@{")
        || t.chars().any(|c| c.is_whitespace() || c.is_control() || "~^:?*[\\".contains(c));
    if bad {
        return Err(invalid(
            "branch",
            format!("{text:?} is not a git branch name — pass the name `git branch --show-current` prints"),
        ));
    }
    Ok(t.to_string())
}

/// `limit`: 1 to 100, 50 when not given.
pub fn limit(limit: Option<u32>) -> Result<usize, TaskError> {
    match limit.unwrap_or(DEFAULT_LIMIT) {
        n @ 1..=MAX_LIMIT => Ok(n as usize),
        n => Err(invalid("limit", format!("must be 1 to {MAX_LIMIT}, got {n} — pass a number in that range"))),
    }
}

/// How a task is named: its whole id, or the start of it (as git names commits).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskId {
    /// A whole UUID.
    Whole(String),
    /// Its first few characters.
    Prefix(String),
}

/// A task id: a UUID, or its first 4 or more characters.
pub fn task_id(text: &str) -> Result<TaskId, TaskError> {
    let t = text.trim().to_ascii_lowercase();
    let well_formed = (MIN_ID_PREFIX..=36).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-');
    if !well_formed {
        return Err(invalid(
            "task_id",
            format!(
                "{text:?} is not a task id — pass the id create_task or `cocosearch task list` printed (a UUID, or its first 4+ characters)"
            ),
        ));
    }
    Ok(if t.len() == 36 { TaskId::Whole(t) } else { TaskId::Prefix(t) })
}

/// A planning reference: a file inside the project `root`, given relative to it (or as an
/// absolute path inside it). Returns the path relative to the root, with `/`. A path that
/// leaves the root (`..`, an absolute path elsewhere, a symbolic link out) is refused, and so
/// is a file that does not exist.
pub fn planning_reference(root: &Path, text: &str) -> Result<String, TaskError> {
    let field = "planning_references";
    let given = Path::new(text.trim());
    if text.trim().is_empty() {
        return Err(invalid(
            field,
            "holds an empty path — give each document's path relative to the project root".into(),
        ));
    }
    let outside = || {
        invalid(
            field,
            format!(
                "{text:?} is outside the project {} — planning documents must be files inside it, given relative to its root",
                root.display()
            ),
        )
    };
    let canonical_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let relative = if given.is_absolute() {
        let under = |r: &Path| given.strip_prefix(r).ok().map(Path::to_path_buf);
        under(root).or_else(|| under(&canonical_root)).ok_or_else(outside)?
    } else {
        given.to_path_buf()
    };
    let mut clean = PathBuf::new();
    for part in relative.components() {
        match part {
            Component::Normal(p) => clean.push(p),
            Component::CurDir => {}
            // `..` is refused even when it would come back inside: a reference names one file.
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return Err(outside()),
        }
    }
    if clean.as_os_str().is_empty() {
        return Err(invalid(field, format!("{text:?} names the project root, not a document — give a file's path")));
    }
    let full = canonical_root.join(&clean);
    match full.canonicalize() {
        Ok(real) if !real.starts_with(&canonical_root) => Err(outside()),
        Ok(real) if !real.is_file() => {
            Err(invalid(field, format!("{text:?} is not a file — name a document such as docs/plan.md")))
        }
        Ok(_) => Ok(clean.to_string_lossy().replace('\\', "/")),
        Err(_) => Err(invalid(
            field,
            format!("{text:?} does not exist in {} — create the document first, or fix the path", root.display()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_one_to_two_hundred_characters() {
        assert_eq!(title("  Fix it  ").expect("ok"), "Fix it");
        assert!(title(&"é".repeat(200)).is_ok(), "characters, not bytes");
        let e = title(&"x".repeat(201)).expect_err("long").to_string();
        assert!(e.contains("title") && e.contains("201 characters"), "{e}");
        assert!(title("   ").expect_err("empty").to_string().contains("title is empty"));
    }

    #[test]
    fn statuses_commits_branches_and_limits() {
        assert_eq!(status("In_Progress").expect("ok"), TaskStatus::InProgress);
        assert_eq!(status("done").expect("ok"), TaskStatus::Complete);
        let e = status("finished").expect_err("unknown").to_string();
        assert!(e.contains("status") && e.contains("need to be done, in progress, complete"), "{e}");
        let sha = "4B825DC642CB6EB9A060E54BF8D69288FBEE4904";
        assert_eq!(commit(sha).expect("ok"), sha.to_lowercase());
        assert!(commit(&sha[..39]).expect_err("short").to_string().contains("39 hexadecimal digits"));
        assert!(commit(&format!("{}g", &sha[..39])).expect_err("hex").to_string().contains("not hexadecimal"));
        assert_eq!(branch("fix/retry-uploads").expect("ok"), "fix/retry-uploads");
        for bad in ["", "a b", "-x", "a..b", "x~1", "a:b"] {
            assert!(branch(bad).is_err(), "{bad:?}");
        }
        assert_eq!(limit(None).expect("default"), 50);
        assert!(limit(Some(0)).expect_err("0").to_string().contains("limit must be 1 to 100, got 0"));
        assert!(limit(Some(101)).is_err());
        assert_eq!(task_id("ABCD").expect("prefix"), TaskId::Prefix("abcd".into()));
        assert!(task_id("abc").is_err() && task_id("zzzz").is_err() && task_id("1; --").is_err());
    }

    #[test]
    fn planning_references_stay_inside_the_project_and_exist() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("docs")).expect("mkdir");
        std::fs::write(root.join("docs/plan.md"), "# plan").expect("write");
        assert_eq!(planning_reference(root, "docs/plan.md").expect("ok"), "docs/plan.md");
        assert_eq!(planning_reference(root, "./docs/plan.md").expect("ok"), "docs/plan.md");
        let absolute = root.join("docs/plan.md").display().to_string();
        assert_eq!(planning_reference(root, &absolute).expect("absolute inside"), "docs/plan.md");
        for outside in ["../x.md", "docs/../../x.md", "/etc/passwd"] {
            let e = planning_reference(root, outside).expect_err(outside).to_string();
            assert!(e.contains("planning_references") && e.contains("outside the project"), "{e}");
        }
        let e = planning_reference(root, "docs/missing.md").expect_err("missing").to_string();
        assert!(e.contains("does not exist"), "{e}");
        assert!(planning_reference(root, "docs").expect_err("dir").to_string().contains("not a file"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc", root.join("docs/link.md")).expect("link");
            let e = planning_reference(root, "docs/link.md").expect_err("link out").to_string();
            assert!(e.contains("outside the project"), "{e}");
        }
    }
}
