//! What [`super::read`] finds in the shapes questions come in.

use super::*;

fn frames(s: &Structure) -> Vec<(&str, Option<u32>, Option<&str>)> {
    s.frames.iter().map(|f| (f.path.as_str(), f.line, f.function.as_deref())).collect()
}

fn names(s: &Structure) -> Vec<(&str, Seen, bool)> {
    s.names.iter().map(|n| (n.dotted.as_str(), n.seen, n.called)).collect()
}

#[test]
fn a_python_traceback_gives_its_frames_innermost_last_and_its_message() {
    let text = "Calling it fails:\n\nTraceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    main()\n  File \"/usr/lib/python3/site-packages/requests/sessions.py\", line 465, in request\n    prep = self.prepare_request(req)\n  File \"/usr/lib/python3/site-packages/requests/models.py\", line 312, in prepare_body\n    raise ValueError(\"Data must not be a string.\")\nValueError: Data must not be a string.\n";
    let s = read(text);
    assert_eq!(
        frames(&s),
        vec![
            ("app.py", Some(3), None),
            ("/usr/lib/python3/site-packages/requests/sessions.py", Some(465), Some("request")),
            ("/usr/lib/python3/site-packages/requests/models.py", Some(312), Some("prepare_body")),
        ]
    );
    assert_eq!(s.messages, vec!["Data must not be a string"]);
    let found = names(&s);
    assert!(found.contains(&("prepare_body", Seen::Frame, true)), "{found:?}");
    assert!(found.contains(&("prepare_request", Seen::Code, true)), "{found:?}");
}

#[test]
fn pytest_java_and_javascript_frames() {
    let pytest = read(
        "src/_pytest/capture.py:436: in write\n    return self.buffer.write(obj)\nE   TypeError: write() argument must be str, not bytes\n",
    );
    assert_eq!(pytest.frames[0].path, "src/_pytest/capture.py");
    assert_eq!(pytest.frames[0].function.as_deref(), Some("write"));
    assert_eq!(pytest.messages, vec!["write() argument must be str, not bytes"]);
    let java = read(
        "Exception in thread \"main\" java.lang.IllegalStateException: boom\n\tat org.apache.commons.lang3.StringUtils.join(StringUtils.java:4123)\n",
    );
    assert_eq!(java.frames[0].path, "org/apache/commons/lang3/StringUtils.java");
    assert_eq!((java.frames[0].line, java.frames[0].function.as_deref()), (Some(4123), Some("StringUtils.join")));
    let js = read("    at parseRequest (/srv/app/lib/request.js:42:17)\n");
    assert_eq!(js.frames[0].path, "/srv/app/lib/request.js");
    assert_eq!(js.frames[0].function.as_deref(), Some("parseRequest"));
}

#[test]
fn names_in_code_blocks_backticks_and_prose() {
    let text = "Writing fails with `ds.to_netcdf` when the store is remote.\n\n```python\nimport xarray as xr\nds = xr.open_dataset(path)\nds.to_netcdf(\"out.nc\", engine=\"h5netcdf\")\n```\n\nThe get_user_by_id helper and Session.send() look fine; `FlaskClient` too.\n";
    let s = read(text);
    let found = names(&s);
    for expected in [
        ("ds.to_netcdf", Seen::Code, true),
        ("xr.open_dataset", Seen::Code, true),
        ("FlaskClient", Seen::Backticks, false),
        ("get_user_by_id", Seen::Prose, false),
        ("Session.send", Seen::Prose, true),
    ] {
        assert!(found.contains(&expected), "{expected:?} in {found:?}");
    }
    // Plain words of the prose and the language's keywords are not names.
    assert!(!found.iter().any(|(n, ..)| ["Writing", "import", "fails", "The"].contains(n)), "{found:?}");
    assert_eq!(s.names.iter().find(|n| n.dotted == "ds.to_netcdf").map(Name::last), Some("to_netcdf"));
}

#[test]
fn an_interpreter_session_is_code() {
    let s = read(
        "Repro:\n>>> from click.testing import CliRunner\n>>> CliRunner().invoke(cli, [\"--help\"])\n<Result okay>\n",
    );
    let found = names(&s);
    assert!(found.contains(&("CliRunner", Seen::Code, true)), "{found:?}");
    assert!(found.contains(&("click.testing", Seen::Code, false)), "{found:?}");
}

#[test]
fn text_without_code_says_nothing() {
    assert_eq!(read("The page is slow when many users log in at once."), Structure::default());
}

#[test]
fn links_to_a_line_on_a_code_host_are_frames() {
    let text = "It should raise `InvalidUrl` (see e.g. [this line](https://github.com/psf/requests/blob/ca6f9af5/requests/models.py#L401)); GitLab: https://gitlab.com/o/r/-/blob/main/src/lib.rs#L7-L9 and https://github.com/o/r/blob/main/README.md";
    let s = read(text);
    assert_eq!(
        frames(&s),
        vec![
            ("ca6f9af5/requests/models.py", Some(401), None),
            ("main/src/lib.rs", Some(7), None),
            ("main/README.md", None, None),
        ]
    );
}

#[test]
fn a_members_container_is_its_type_named_qualifier() {
    let name = |dotted: &str| Name { dotted: dotted.to_string(), seen: Seen::Prose, called: false };
    assert_eq!(name("Settings.PreferTypeHandlersForEnums").container(), Some("Settings"));
    assert_eq!(name("requests.Session.mount_all").container(), Some("Session"));
    assert_eq!(name("os.path.joinx").container(), None, "a module is no container");
    assert_eq!(name("e.g").container(), None, "one letter names nothing");
    assert_eq!(name("Settings").container(), None);
}
