//! What the MCP transport tells about a call's project, before the workspace decides
//! ([`crate::workspace::project`]): the client's `file://` roots and the HTTP session's
//! `?project=`, and the `project` object of tool results.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::workspace::project::Project;

/// The `project` object of tool results.
pub(crate) fn project_json(project: &Project) -> Value {
    json!({
        "root": project.root,
        "source": project.source.as_str(),
        "index": project.config.index_name(),
        "config_file": project.config.file.as_ref().map(|(path, _)| path),
    })
}

/// Parses the client's roots: `file://` URIs of directories on this machine.
pub(crate) fn parse_roots<'a>(uris: impl IntoIterator<Item = &'a str>) -> (Vec<PathBuf>, Vec<String>) {
    let mut roots = Vec::new();
    let mut ignored = Vec::new();
    for uri in uris {
        let path = url::Url::parse(uri).ok().filter(|u| u.scheme() == "file").and_then(|u| u.to_file_path().ok());
        match path.map(|p| p.canonicalize()) {
            Some(Ok(path)) if path.is_dir() => roots.push(path),
            Some(Ok(path)) => ignored.push(format!("{} is not a directory", path.display())),
            Some(Err(e)) => ignored.push(format!("{uri}: {e}")),
            None => ignored.push(format!("{uri} is not a file:// URI")),
        }
    }
    (roots, ignored)
}

/// The `?project=` value of a request URI's query string.
pub(crate) fn query_project(query: Option<&str>) -> Option<String> {
    let query = query?;
    url::form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == "project").map(|(_, v)| v.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_keep_existing_file_directories_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let uri = url::Url::from_file_path(dir.path()).expect("file URI").to_string();
        let file = dir.path().join("f.txt");
        std::fs::write(&file, "x").expect("write");
        let file_uri = url::Url::from_file_path(&file).expect("file URI").to_string();
        let (roots, ignored) =
            parse_roots([uri.as_str(), "https://example.com/x", file_uri.as_str(), "file:///nope/x"]);
        assert_eq!(roots, vec![dir.path().canonicalize().expect("canonical")]);
        assert_eq!(ignored.len(), 3, "{ignored:?}");
    }

    #[test]
    fn query_parameter_is_decoded() {
        assert_eq!(query_project(Some("a=1&project=%2Ftmp%2Fmy%20proj")).as_deref(), Some("/tmp/my proj"));
        assert_eq!(query_project(Some("a=1")), None);
        assert_eq!(query_project(None), None);
    }
}
