//! What the ranking stage knows about code (issue 26), through `cocosearch search` in keyword
//! mode on the embedded store: a lone name finds its definition, a file named by the question
//! leads, tests give way to the code they test.

use crate::cstest;
use crate::support::{TestCtx, copy_tree, run, stdlib};

/// The paths of a keyword search's hits, best first.
fn keyword_paths(t: &TestCtx, query: &str) -> Vec<String> {
    let out = run(t.cmd_db(), &["search", "--json", "--keyword", query]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    json["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["path"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn index(t: &TestCtx) {
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_EMBEDDING_PROVIDER", "none");
    let out = run(cmd, &["index", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");
}

// `search jsonify` in a flask checkout never showed `def jsonify`: the lone word read as plain
// language, and the chunks calling it many times (tests above all) outranked the definition.
cstest!(a_lone_name_puts_its_definition_first, |t| {
    t.write(
        "src/flask/json/__init__.py",
        "import json as _json\n\n\ndef dumps(obj, **kwargs):\n    return _json.dumps(obj, **kwargs)\n\n\n\
         def jsonify(*args, **kwargs):\n    \"\"\"Serialize the given arguments as JSON.\"\"\"\n    return current_app.json.response(*args, **kwargs)\n",
    );
    let calls = "    return jsonify(value)\n".repeat(6);
    t.write("src/flask/views.py", format!("from .json import jsonify\n\n\ndef render(value):\n{calls}"));
    let tests: String = (0..8)
        .map(|i| {
            format!("def test_jsonify_{i}(app):\n    rv = jsonify(a=1)\n    assert jsonify(b=2).json == rv.json\n\n\n")
        })
        .collect();
    t.write("tests/test_json.py", format!("from flask import jsonify\n\n\n{tests}"));
    t.write("src/flask/g.py", "def g():\n    return _app_ctx\n");
    index(&t);
    let found = keyword_paths(&t, "jsonify");
    assert_eq!(found.first().map(String::as_str), Some("src/flask/json/__init__.py"), "{found:?}");
    // A one-letter name finds its definition too.
    let found = keyword_paths(&t, "g");
    assert_eq!(found.first().map(String::as_str), Some("src/flask/g.py"), "{found:?}");
});

// A question naming a file in plain words ("hash code builder" → HashCodeBuilder.java) ranked
// a small chunk of another file that uses the same words first.
cstest!(a_file_named_by_the_question_leads, |t| {
    let dir = "src/main/java/org/apache/commons/lang3/builder";
    // Long methods that never say the class's name: only the path says it in each chunk.
    let body = "        total = total * constant + array.length + offset * multiplier - remainder;\n".repeat(12);
    let methods: String =
        (0..12).map(|i| format!("    public void appendArray{i}(final long[] array) {{\n{body}    }}\n\n")).collect();
    t.write(
        &format!("{dir}/HashCodeBuilder.java"),
        format!("package org.apache.commons.lang3.builder;\n\npublic class HashCodeBuilder {{\n    private int total;\n\n{methods}}}\n"),
    );
    t.write(
        &format!("{dir}/IDKey.java"),
        "package org.apache.commons.lang3.builder;\n\nfinal class IDKey {\n    /** The hash code of the key for the hash code builder: hash code builder, hash code builder. */\n    public int hashCode() {\n        return id;\n    }\n}\n",
    );
    t.write(
        &format!("{dir}/ToStringBuilder.java"),
        "package org.apache.commons.lang3.builder;\n\n/** A builder of strings; see the hash code builder. */\npublic class ToStringBuilder {\n}\n",
    );
    index(&t);
    let found = keyword_paths(&t, "hash code builder");
    assert_eq!(found.first().map(String::as_str), Some(format!("{dir}/HashCodeBuilder.java").as_str()), "{found:?}");
});

// Scores never said "nothing found": a nonsense identifier got ten hits with a top score of
// 0.83. A query of identifiers that no chunk holds and no definition is named after now says
// "no good match" in text, JSON and MCP; the nearest hits still follow.
cstest!(a_nonsense_identifier_is_no_good_match, |t| {
    crate::support::write_sample_project(&t);
    let out = run(t.cmd_db(), &["index", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");
    let nonsense = "qzxwvFrobnicator9000";
    let out = run(t.cmd_db(), &["search", "--json", nonsense]);
    let json = out.json();
    assert_eq!(json["verdict"], "no_good_match", "{json}");
    assert!(!json["results"].as_array().expect("results").is_empty(), "the nearest hits still follow: {json}");
    let pretty = run(t.cmd_db(), &["search", "--color", "always", nonsense]);
    assert!(pretty.stdout.contains("no good match"), "{pretty:?}");
    let found = run(t.cmd_db(), &["search", "--json", "get_user_by_id"]).json();
    assert_eq!(found["verdict"], "found", "{found}");
    let plain = run(t.cmd_db(), &["search", "--json", "where do we retry failed uploads"]).json();
    assert_eq!(plain["verdict"], "found", "plain language is never judged: {plain}");

    let project = t.path().display().to_string();
    let session = serde_json::json!([{"tool": "search_code", "args": {"query": nonsense}}]);
    let report = crate::security::calls(&t.cmd_db(), None, &project, &[&project], &session);
    let answer = &crate::security::results(&report)[0]["json"];
    assert_eq!(answer["verdict"], "no_good_match", "{answer}");
    assert!(answer["notes"].to_string().contains("no good match"), "{answer}");
});

// "hash code builder for consistent hashCode implementation" put every `hashCode` method of the
// project first (twenty classes define one) and `HashCodeBuilder.java` was not in the first
// ten: a name inside a sentence now counts as evidence beside the sentence's other words, as a
// bare identifier's definitions still rank first.
cstest!(a_name_inside_a_sentence_is_evidence_not_the_answer, |t| {
    let dir = "src/main/java/org/apache/commons/lang3";
    let appends: String = (0..6)
        .map(|i| format!("    public HashCodeBuilder append{i}(final long value) {{\n        total = total * constant + value;\n        return this;\n    }}\n\n"))
        .collect();
    t.write(
        &format!("{dir}/builder/HashCodeBuilder.java"),
        format!("package org.apache.commons.lang3.builder;\n\npublic class HashCodeBuilder {{\n    private int total;\n    private int constant = 37;\n\n{appends}    public int build() {{\n        return total;\n    }}\n}}\n"),
    );
    for name in ["Range", "Triple", "Fraction", "CharSet", "Pair", "MutableInt", "IDKey", "Version"] {
        t.write(
            &format!("{dir}/{name}.java"),
            format!("package org.apache.commons.lang3;\n\npublic final class {name} {{\n    private int id;\n\n    /** A consistent hash code for this {name}. */\n    @Override\n    public int hashCode() {{\n        return id * 31;\n    }}\n}}\n"),
        );
    }
    index(&t);
    let found = keyword_paths(&t, "hash code builder for consistent hashCode implementation");
    assert_eq!(
        found.first().map(String::as_str),
        Some(format!("{dir}/builder/HashCodeBuilder.java").as_str()),
        "{found:?}"
    );
    // Alone, the name still puts its definitions first.
    let found = keyword_paths(&t, "hashCode");
    assert!(found.first().is_some_and(|p| !p.ends_with("HashCodeBuilder.java")), "{found:?}");
});

// `Query` in an Elixir project listed every `def query` first and never `defmodule Ecto.Query`:
// a module's name is a path, and people name it by its last segment.
cstest!(a_module_named_by_a_path_is_found_by_its_last_segment, |t| {
    t.write(
        "lib/ecto/query.ex",
        "defmodule Ecto.Query do\n  @moduledoc \"Query DSL.\"\n\n  defmacro from(expr, kw \\\\ []) do\n    build(expr, kw)\n  end\nend\n",
    );
    for (file, module) in [("planner", "Planner"), ("builder", "Builder"), ("cache", "Cache")] {
        t.write(
            &format!("lib/ecto/query/{file}.ex"),
            format!(
                "defmodule Ecto.Query.{module} do\n  def query(prepared, kind) do\n    {{prepared, kind}}\n  end\nend\n"
            ),
        );
    }
    index(&t);
    let found = keyword_paths(&t, "Query");
    assert_eq!(found.first().map(String::as_str), Some("lib/ecto/query.ex"), "{found:?}");
});

/// The first hit of a keyword search: its path and the qualified name of its symbol.
fn first_hit(t: &TestCtx, query: &str) -> (String, String) {
    let out = run(t.cmd_db(), &["search", "--json", "--keyword", query]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    let hit = &json["results"][0];
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
    (text(&hit["path"]), text(&hit["symbol"]["qualified_name"]))
}

/// A session module whose redirect handling is quiet about the words of the reports below,
/// beside a helper that repeats them all.
fn write_redirect_project(t: &TestCtx) {
    let filler = "        history.append(previous)\n        previous = response\n".repeat(4);
    t.write(
        "pkg/sessions.py",
        format!(
            "class Session:\n    def rebuild_proxies(self, request, response):\n        \"\"\"Proxies for a redirected request: get, send, hang, loop, raise.\"\"\"\n        # redirect loop: get the request, send it again, raise when it hangs\n        location = response.headers['location']\n        # a KeyError when the response has no location\n        location = response.headers['location']\n        return self.send(request, location, redirect=True, loop=True, get=True)\n\n\
             \n    def resolve_redirects(self, response, request):\n        history = []\n        previous = None\n{filler}        location = response.headers['location']\n        return location\n"
        ),
    );
    let words = "    # redirect loop hangs: get the request, send it, raise instead of hanging\n".repeat(6);
    t.write("pkg/redirect_notes.py", format!("def describe_loop():\n{words}    return None\n"));
    t.write(
        "pkg/api.py",
        "from .sessions import Session\n\n\ndef get(url):\n    return Session().request('get', url)\n",
    );
}

// A pasted traceback names the function that failed in its innermost frame; the question's
// prose words sat in other functions and ranked them first.
cstest!(a_tracebacks_innermost_project_frame_comes_first, |t| {
    write_redirect_project(&t);
    index(&t);
    let report = "Calling get on a redirect loop hangs instead of raising, and then it fails with a KeyError.\n\n\
        Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    r = client.get(url)\n\
          File \"/usr/lib/python3/site-packages/pkg/api.py\", line 5, in get\n    return Session().request('get', url)\n\
          File \"/usr/lib/python3/site-packages/pkg/sessions.py\", line 22, in resolve_redirects\n    location = response.headers['location']\n\
        KeyError: 'location'\n";
    assert_eq!(first_hit(&t, report), ("pkg/sessions.py".into(), "Session.resolve_redirects".into()));
});

// A report that links to the line it suspects (`…/blob/<ref>/pkg/sessions.py#L22`) points at
// that file and the function holding the line; its prose words sat in other functions.
cstest!(a_link_to_a_line_finds_the_function_holding_it, |t| {
    write_redirect_project(&t);
    let sessions = std::fs::read_to_string(t.path().join("pkg/sessions.py")).unwrap_or_default();
    let line = sessions.lines().position(|l| l.contains("def resolve_redirects")).map_or(0, |i| i + 3);
    assert!(line > 3, "the fixture has resolve_redirects");
    index(&t);
    let report = format!(
        "Calling get on a redirect loop hangs instead of raising.\n\n\
         It seems the intention was to raise instead (see [this line](https://github.com/o/pkg/blob/1a2b3c4/pkg/sessions.py#L{line})).\n"
    );
    assert_eq!(first_hit(&t, &report), ("pkg/sessions.py".into(), "Session.resolve_redirects".into()));
});

// "Fix pipelining a rejected upgrade" ranked aiohttp's CHANGES.rst first: release notes hold
// the words of every change ever made. Asking for them still finds them.
cstest!(a_change_description_finds_code_before_release_notes, |t| {
    let entries = "- Fixed pipelining after a rejected upgrade request -- by :user:`someone`.\n\n".repeat(3);
    t.write("CHANGES.rst", format!("Changelog\n=========\n\n3.9.1 (2024-01-01)\n------------------\n\n{entries}"));
    t.write("CHANGES/3310.bugfix", "Fixed pipelining a rejected upgrade request.\n");
    t.write(
        "aiohttp/web_protocol.py",
        "class RequestHandler:\n    def data_received(self, data):\n        # an upgrade the handler rejected: keep pipelining the next request\n        if self._upgrade and not self._upgraded:\n            self._pipeline.append(data)\n        return self._parse(data)\n",
    );
    index(&t);
    let found = keyword_paths(&t, "Fix pipelining a rejected upgrade");
    assert_eq!(found.first().map(String::as_str), Some("aiohttp/web_protocol.py"), "{found:?}");
    let found = keyword_paths(&t, "changelog of the rejected upgrade fix");
    assert_eq!(found.first().map(String::as_str), Some("CHANGES.rst"), "{found:?}");
});

/// How `cocosearch analyze` read `query`: `short` or `long`.
fn read_as(t: &TestCtx, query: &str) -> String {
    let out = run(t.cmd_db(), &["analyze", "--json", "--keyword", query]);
    assert_eq!(out.code, 0, "{out:?}");
    out.json()["reading"]["length"].as_str().unwrap_or_default().to_string()
}

// Commit subjects ("Fix excessive CPU use on decompressing small members") were read as short
// questions; 144 of the 168 commit messages describe a change, and read as pasted issues are
// they find their files more often (file Acc@5 75.6 -> 76.8). A question is still a question,
// and a change that asks for tests finds them.
cstest!(a_short_change_description_is_read_as_a_description, |t| {
    t.write(
        "aiohttp/streams.py",
        "class ZLibDecompressor:\n    def decompress_sync(self, data, max_length=0):\n        # decompressing a stream of members: each member restarts the decompressor\n        while data and self._decompressor.eof:\n            data = self._restart(self._decompressor.unused_data)\n        return self._decompressor.decompress(data, max_length)\n",
    );
    let cases: String = (0..6)
        .map(|i| format!("def test_decompressing_small_members_{i}():\n    members = [gzip.compress(b'x')] * 64\n    assert decompress(b''.join(members)) == b'x' * 64\n\n\n"))
        .collect();
    t.write("tests/test_compression_utils.py", format!("import gzip\n\n\n{cases}"));
    t.write(
        "docs/client_advanced.rst",
        "Compressed responses\n====================\n\nDecompressing a stream of many small members: excessive CPU use on each member, as\neach is decompressed on its own. The fix: use fewer, larger members.\n",
    );
    index(&t);
    let change = "Fix excessive CPU use on decompressing small members";
    assert_eq!(read_as(&t, change), "long");
    assert_eq!(read_as(&t, "fix(streams): restart the decompressor"), "long");
    assert_eq!(read_as(&t, "how are small members decompressed"), "short");
    let found = keyword_paths(&t, change);
    assert_eq!(found.first().map(String::as_str), Some("aiohttp/streams.py"), "{found:?}");
    let asking = "Add tests for decompressing small members";
    assert_eq!(read_as(&t, asking), "short", "a change that asks for tests is a question for them");
    let found = keyword_paths(&t, asking);
    assert_eq!(found.first().map(String::as_str), Some("tests/test_compression_utils.py"), "{found:?}");
});

// pytest-10356's report defines `class Foo`, `class Bar` and `test_dings` in its snippet; the
// documentation's example and a benchmark define the same names, and the named code pointed
// at them before the module that obtains the marks. A report's own code names no test.
cstest!(a_reports_own_code_does_not_point_at_examples_that_share_its_names, |t| {
    let talk = "    # the markers of a class: lost, merged, inherited, deduplicated\n".repeat(3);
    t.write(
        "src/pkg/mark/structures.py",
        format!(
            "def get_unpacked_marks(obj):\n    mark_list = getattr(obj, 'pytestmark', [])\n{talk}    return normalize_mark_list(mark_list)\n\n\n\
             def store_mark(obj, mark):\n    obj.pytestmark = [*get_unpacked_marks(obj), mark]\n"
        ),
    );
    t.write(
        "doc/example/failure_demo.py",
        "class Foo:\n    b = 1\n\n\nclass Bar:\n    b = 2\n\n\nclass TestDings:\n    def test_dings(self):\n        assert Foo().b == Bar().b\n",
    );
    t.write("bench/manyparam.py", "import pytest\n\n\ndef foo(x):\n    return x\n\n\ndef bar(x):\n    return x\n");
    index(&t);
    let report = "Consider MRO when obtaining marks for classes\n\n\
        When using markers in two base classes `Foo` and `Bar`, inheriting from both loses the markers of one of them.\n\n\
        ```python\nimport pytest\n\n@pytest.mark.foo\nclass Foo(Base):\n    pass\n\n\n@pytest.mark.bar\nclass Bar(Base):\n    pass\n\n\n\
        class TestDings(Foo, Bar):\n    def test_dings(self):\n        # This test should have both markers, foo and bar.\n        pass\n```\n\n\
        I'd expect `foo` and `bar` to be markers for `test_dings`; merging the marker values by MRO would keep both.\n";
    let found = keyword_paths(&t, report);
    assert_eq!(found.first().map(String::as_str), Some("src/pkg/mark/structures.py"), "{found:?}");
});

// An error message quoted in a report is a string literal at its raise site.
cstest!(a_quoted_error_message_finds_its_raise_site, |t| {
    let talk =
        "    # invalid: leading whitespace, a reserved character or a return character in a header value\n".repeat(5);
    t.write(
        "pkg/utils.py",
        format!(
            "def check_header_validity(header):\n    name, value = header\n    if value.startswith(' '):\n        raise ValueError('Invalid leading whitespace, reserved character(s), or return character(s) in header value: %r' % value)\n\n\n\
             def describe_headers(headers):\n{talk}    return headers\n"
        ),
    );
    t.write("pkg/models.py", format!("def prepare_headers(self, headers):\n{talk}    return headers\n"));
    index(&t);
    let report = "When I set a header whose value comes from a config file, requests refuses it with\n\
        ValueError: Invalid leading whitespace, reserved character(s), or return character(s) in header value: ' token'\n\
        although the value looks fine to me and the same header value works with curl. Is the header check too strict?";
    assert_eq!(first_hit(&t, report), ("pkg/utils.py".into(), "check_header_validity".into()));
});

// `search g` in a flask checkout missed `g = LocalProxy(...)`: a module-level variable was no
// definition, so the files using `g` came first.
cstest!(a_one_letter_module_variable_is_found_at_its_assignment, |t| {
    t.write(
        "src/flask/globals.py",
        "from werkzeug.local import LocalProxy\n\n_cv_app = None\n\n\
         g = LocalProxy(_cv_app, 'g', unbound_message='working outside of the application context')\n",
    );
    let uses = "    g.user = load(user_id)\n    g.db = connect()\n    return g.user\n".repeat(4);
    t.write("src/flask/views.py", format!("from .globals import g\n\n\ndef before_request(user_id):\n{uses}"));
    t.write("src/flask/auth.py", format!("from .globals import g\n\n\ndef login(user_id):\n{uses}"));
    index(&t);
    assert_eq!(first_hit(&t, "g"), ("src/flask/globals.py".into(), "g".into()));
    let symbol = run(t.cmd_db(), &["symbol", "g", "--json"]);
    assert_eq!(symbol.code, 0, "{symbol:?}");
    assert!(symbol.stdout.contains("src/flask/globals.py"), "{symbol:?}");
});

// "where are request hooks registered" ranked `.pre-commit-config.yaml` (it says hooks) and
// the docs before the code that registers them.
cstest!(where_questions_rank_source_before_config_and_docs, |t| {
    t.write(
        ".pre-commit-config.yaml",
        "repos:\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n    hooks:\n      - id: check-yaml\n      - id: end-of-file-fixer\n  - repo: local\n    hooks:\n      - id: registered-hooks\n",
    );
    t.write(
        "docs/hooks.md",
        "# Request hooks\n\nHooks are registered on the app: request hooks run before each request.\n",
    );
    t.write(
        "src/app/scaffold.py",
        "class Scaffold:\n    def before_request(self, f):\n        \"\"\"Register a function to run before each request.\"\"\"\n        self.request_hooks.setdefault('before', []).append(f)\n        return f\n",
    );
    index(&t);
    let found = keyword_paths(&t, "where are request hooks registered");
    assert_eq!(found.first().map(String::as_str), Some("src/app/scaffold.py"), "{found:?}");
    // Asking for the configuration still finds it.
    let found = keyword_paths(&t, "pre-commit hooks config");
    assert_eq!(found.first().map(String::as_str), Some(".pre-commit-config.yaml"), "{found:?}");
});

// `zzqxv_nonexistent_identifier` was "found" (its parts are common words), and a misspelled
// `jsnify` got neither "no good match" nor the name it misspells.
cstest!(a_name_the_index_lacks_is_not_found_with_the_closest_names, |t| {
    t.write(
        "src/flask/json.py",
        "def jsonify(*args, **kwargs):\n    \"\"\"A JSON response.\"\"\"\n    return response(args, kwargs)\n\n\n\
         def nonexistent_identifier_check(identifier):\n    return identifier is None\n",
    );
    index(&t);
    for query in ["zzqxv_nonexistent_identifier", "zzqxvplumbus", "jsnify"] {
        let out = run(t.cmd_db(), &["search", "--json", query]);
        assert_eq!(out.json()["verdict"], "no_good_match", "{query}: {out:?}");
    }
    let misspelled = run(t.cmd_db(), &["search", "jsnify"]);
    assert!(misspelled.stderr.contains("did you mean `jsonify`"), "{misspelled:?}");
    let json = run(t.cmd_db(), &["search", "--json", "jsnify"]).json();
    assert_eq!(json["did_you_mean"][0], "jsonify", "{json}");
    // A search of one name says whether it names a definition, as the symbol tools do.
    assert_eq!(json["resolution"]["state"], "not_found", "{json}");
    assert_eq!(json["resolution"]["did_you_mean"][0], "jsonify", "{json}");
    let found = run(t.cmd_db(), &["search", "--json", "nonexistent_identifier_check"]).json();
    assert_eq!(found["verdict"], "found", "{found}");
    assert_eq!(found["did_you_mean"], serde_json::json!([]), "{found}");
    assert_eq!(found["resolution"]["state"], "resolved", "{found}");
    assert_eq!(found["resolution"]["candidates"][0]["name"], "nonexistent_identifier_check", "{found}");
    assert_eq!(found["resolution"]["candidates"][0]["why"], "named nonexistent_identifier_check", "{found}");
    let sentence = run(t.cmd_db(), &["search", "--json", "return a json response"]).json();
    assert!(sentence.get("resolution").is_none(), "only a query of one name is resolved: {sentence}");
});

// A hit's label and lines depended on --limit: with more hits asked for, neighbouring chunks
// joined it (issue 45). On real code (the standard library's logging and argparse), each
// hit at limits 1, 2, 3, 5 and 10 is the same as at 50: path, lines, label, enclosing definition.
cstest!(a_hits_label_and_lines_do_not_depend_on_the_limit, |t| {
    copy_tree(&stdlib().join("logging"), &t.path().join("logging"));
    std::fs::copy(stdlib().join("argparse.py"), t.path().join("argparse.py")).expect("copy argparse");
    index(&t);
    let hits = |query: &str, limit: usize| -> Vec<String> {
        let limit = limit.to_string();
        let out = run(t.cmd_db(), &["search", "--json", "--keyword", query, "--limit", &limit]);
        assert_eq!(out.code, 0, "{out:?}");
        let json = out.json();
        let describe = |r: &serde_json::Value| {
            format!(
                "{}:{}-{} {} in {}",
                r["path"].as_str().unwrap_or_default(),
                r["start_line"],
                r["end_line"],
                r["symbol"]["qualified_name"],
                r["enclosing"]
            )
        };
        json["results"].as_array().expect("results").iter().map(describe).collect()
    };
    for query in
        ["rotate the log file when it grows too big", "add an argument with a default value", "parse_known_args"]
    {
        let all = hits(query, 50);
        assert!(all.len() >= 10, "{query}: {all:?}");
        for limit in [1, 2, 3, 5, 10] {
            assert_eq!(hits(query, limit), all[..limit], "{query} at limit {limit}");
        }
    }
    // Text names what each hit is about too: its definition, or the one it lies inside.
    let query = "rotate the log file when it grows too big";
    let json = run(t.cmd_db(), &["search", "--json", "--keyword", query]).json();
    let compact = run(t.cmd_db(), &["search", "--compact", "--keyword", query]);
    let lines: Vec<&str> = compact.stdout.lines().collect();
    for (hit, line) in json["results"].as_array().expect("results").iter().zip(&lines) {
        let name = hit["symbol"]["qualified_name"].as_str().or(hit["enclosing"].as_str());
        assert!(name.is_none_or(|name| line.contains(name)), "{line} for {hit}");
    }
    // A named method is shown whole, and only it: `doRollover` began in a chunk holding the
    // class head and `__init__` and ended in the next, so the hit was those (119-168) labelled
    // with the method (160-181).
    let named = run(t.cmd_db(), &["search", "--json", "--keyword", "RotatingFileHandler.doRollover", "-m", "1"]).json();
    let first = &named["results"][0];
    let source = std::fs::read_to_string(t.path().join("logging/handlers.py")).expect("handlers.py");
    let lines: Vec<&str> = source.lines().collect();
    let start = first["start_line"].as_u64().expect("start") as usize;
    assert_eq!(first["symbol"]["qualified_name"], "RotatingFileHandler.doRollover", "{first}");
    assert!(lines[start - 1].trim_start().starts_with("def doRollover"), "starts at {start}: {first}");
    let end = first["end_line"].as_u64().expect("end") as usize;
    assert!(
        lines.get(end).is_none_or(|next| !next.starts_with("        ")),
        "ends inside the method at {end}: {first}"
    );
});

// Dapper's "Add Settings.PreferTypeHandlersForEnums opt-in flag" names a member the change
// adds: it is defined nowhere yet, and its class (`SqlMapper.Settings.cs`) ranked 10th behind
// the files whose words the message repeats. The member's container is where it goes.
cstest!(a_member_a_change_adds_points_at_its_container, |t| {
    t.write(
        "pkg/settings.py",
        "class Settings:\n    \"\"\"Process-wide options.\"\"\"\n\n    use_single_result = False\n    command_timeout = None\n\n    @classmethod\n    def reset(cls):\n        cls.use_single_result = False\n        cls.command_timeout = None\n",
    );
    let talk = "    # enum types: a registered handler, integer boxing, falling back to the default\n".repeat(6);
    t.write(
        "pkg/mapper.py",
        format!("def lookup_db_type(value, handlers):\n{talk}    return handlers.get(type(value), int)\n\n\ndef box_enum(value):\n{talk}    return int(value)\n"),
    );
    t.write(
        "pkg/handlers.py",
        format!("class EnumHandler:\n    def parse(self, value):\n{talk}        return value\n"),
    );
    index(&t);
    let change = "Prefer type handlers for enums\n\n* Add Settings.prefer_type_handlers_for_enums opt-in flag\n\n\
        When enabled, the mapper checks for a registered handler for enum types before falling back to\n\
        the default integer boxing. Default is false: no change for existing users.\n";
    let found = keyword_paths(&t, change);
    let settings = found.iter().position(|p| p == "pkg/settings.py");
    assert!(settings.is_some_and(|rank| rank < 2), "the class the member goes into leads: {found:?}");
});

// aeson's "Add doc on Complex instances" asks for documentation, and was read as asking for
// tests too: three test modules ranked before `FromJSON.hs` and `ToJSON.hs`, whose instances
// the change documents. Asking for one kind of auxiliary file is not asking for the others.
cstest!(asking_for_docs_does_not_ask_for_tests, |t| {
    t.write(
        "src/pkg/complex_encoding.py",
        "class ComplexEncoder:\n    \"\"\"Complex instances: encoded as their parts, decoded back.\"\"\"\n\n\
         \x20   def encode(self, value):\n        # complex instances: the real and the imaginary part\n        return [value.real, value.imag]\n\n\
         \x20   def decode(self, pair):\n        # complex instances back from their parts\n        return complex(*pair)\n",
    );
    let cases: String = (0..2)
        .map(|i| format!("def test_complex_instances_{i}():\n    instances = [complex({i}, 1)] * 4\n    assert roundtrip(instances) == instances\n\n\n"))
        .collect();
    t.write("tests/test_instances.py", format!("from pkg.encoding import ComplexEncoder\n\n\n{cases}"));
    index(&t);
    let found = keyword_paths(&t, "Add doc on complex instances");
    assert_eq!(found.first().map(String::as_str), Some("src/pkg/complex_encoding.py"), "{found:?}");
    let found = keyword_paths(&t, "tests of complex instances");
    assert_eq!(found.first().map(String::as_str), Some("tests/test_instances.py"), "{found:?}");
});

// fastapi's "Use PR Submit for translations" ranked four `docs_src/` tutorials (HTML forms that
// submit) before `scripts/translate.py`: a directory named of words (`docs_src`,
// `exposed-tests`, `integration_test`) is auxiliary when one of its words says so.
cstest!(a_directory_named_of_words_is_auxiliary_by_its_words, |t| {
    t.write(
        "scripts/translate.py",
        "def translate_page(language, path):\n    # translations: translate the page, then open a pull request for it\n    text = translate(path.read_text(), language)\n    return open_pull_request(text)\n",
    );
    for i in 0..3 {
        t.write(
            &format!("docs_src/request_forms/tutorial00{i}.py"),
            "from fastapi import FastAPI, Form\n\napp = FastAPI()\n\n\n@app.post(\"/submit/\")\nasync def submit(name: str = Form()):\n    # submit the form; translations of its labels come later\n    return {\"submit\": name}\n",
        );
    }
    index(&t);
    let found = keyword_paths(&t, "Use PR Submit for translations");
    assert_eq!(found.first().map(String::as_str), Some("scripts/translate.py"), "{found:?}");
});
