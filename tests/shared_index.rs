//! A team's shared index. CI indexes the team's repository (the `email` package of the Python
//! standard library, in git) into PostgreSQL as the database's owner; a developer whose own
//! store is the embedded one names the shared base (`shared.url`, a read-only role, and
//! `shared.index`) and `cocosearch index` writes only the files their working tree changed
//! into a local overlay. Searching reads the base minus every file the overlay shadows plus the
//! overlay, as one index: it answers 50 questions exactly as a fresh local index of the same
//! working tree does, keyword-only and with the static model; a file deleted locally is never
//! answered from the base; the read-only role sends the server no write; and a base that cannot
//! be reached leaves the developer with a complete local index.

use std::collections::{BTreeSet, HashSet};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

use crate::support::{TestCtx, copy_tree, models, rev_parse, run, services, stdlib, with_database};

/// The shared index's name, as CI builds it and developers name it.
const TEAM: &str = "team";

/// How the indexes get vectors: the same for CI, the developer and the fresh local index.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Embedder {
    /// Keyword-only (`embedding.provider: none`).
    Keyword,
    /// The static built-in model from the test environment's directory (no hub).
    Static,
}

impl Embedder {
    fn apply(self, cmd: &mut Command) {
        match self {
            Embedder::Keyword => cmd.env("COCOSEARCH_EMBEDDING_PROVIDER", "none"),
            Embedder::Static => cmd
                .env("COCOSEARCH_EMBEDDING_PROVIDER", "builtin")
                .env("COCOSEARCH_EMBEDDING_MODEL_PATH", &models().static_model),
        };
    }
}

/// Roles are cluster-wide: their names carry the process id and this counter.
static ROLES: AtomicUsize = AtomicUsize::new(0);

/// The test's own database owned by a LOGIN role of its own, with a second LOGIN role that may
/// only read it. Dropped at the end with both roles (best effort).
struct SharedDatabase {
    db: String,
    owner: String,
    reader: String,
}

impl SharedDatabase {
    /// Creates the roles and hands `t`'s database to the owner. With `log_statements`, every
    /// statement of the reader is written to the server's log.
    fn create(t: &TestCtx, log_statements: bool) -> SharedDatabase {
        let url = url::Url::parse(&t.db_url()).expect("the test database URL parses");
        let db = url.path().trim_start_matches('/').to_string();
        let n = ROLES.fetch_add(1, Ordering::SeqCst);
        let pid = std::process::id();
        let shared =
            SharedDatabase { db, owner: format!("cst_owner_{pid}_{n}"), reader: format!("cst_reader_{pid}_{n}") };
        let (db, owner, reader) = (&shared.db, &shared.owner, &shared.reader);
        let mut roles = format!(
            "CREATE ROLE {owner} LOGIN; CREATE ROLE {reader} LOGIN;
             ALTER ROLE {reader} SET default_transaction_read_only = on;
             ALTER DATABASE {db} OWNER TO {owner};
             GRANT CONNECT ON DATABASE {db} TO {reader};"
        );
        if log_statements {
            roles.push_str(&format!("ALTER ROLE {reader} SET log_statement = 'all';"));
        }
        admin(&services().admin_url, &roles);
        admin(
            &t.db_url(),
            &format!("CREATE EXTENSION IF NOT EXISTS vector; GRANT USAGE ON SCHEMA public TO {reader};"),
        );
        shared
    }

    /// What a DBA grants once CI has built the base: reading every table, now and later.
    fn grant_reads(&self) {
        let (owner, reader) = (&self.owner, &self.reader);
        admin(
            &self.admin_url(),
            &format!(
                "ALTER DEFAULT PRIVILEGES FOR ROLE {owner} IN SCHEMA public GRANT SELECT ON TABLES TO {reader};
                 GRANT SELECT ON ALL TABLES IN SCHEMA public TO {reader};"
            ),
        );
    }

    /// The superuser on this database.
    fn admin_url(&self) -> String {
        with_database(&services().admin_url, &self.db)
    }

    /// CI's URL: the owner on this database (the server trusts local connections).
    fn owner_url(&self) -> String {
        self.url_of(&self.owner)
    }

    /// The developers' URL: the read-only role on this database.
    fn reader_url(&self) -> String {
        self.url_of(&self.reader)
    }

    fn url_of(&self, role: &str) -> String {
        let mut url = url::Url::parse(&self.admin_url()).expect("the admin URL parses");
        url.set_username(role).expect("the URL takes a user name");
        url.set_password(None).expect("the URL takes no password");
        url.to_string()
    }
}

impl Drop for SharedDatabase {
    fn drop(&mut self) {
        // The database first: a role that owns a database or holds grants on it cannot go.
        if let Ok(mut superuser) = postgres::Client::connect(&services().admin_url, postgres::NoTls) {
            let _ = superuser.batch_execute(&format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.db));
            let _ = superuser.batch_execute(&format!("DROP ROLE IF EXISTS {}, {}", self.reader, self.owner));
        }
    }
}

/// Runs `statements` as the superuser through `url`.
fn admin(url: &str, statements: &str) {
    let mut client = postgres::Client::connect(url, postgres::NoTls)
        .unwrap_or_else(|e| panic!("cannot connect to the test server as superuser ({url}): {e}"));
    client.batch_execute(statements).unwrap_or_else(|e| panic!("{statements}: {e}"));
}

/// Commit 1 appends a function of another standard library module to each file:
/// (file, module it comes from, function).
const COMMIT_1_APPENDS: [(&str, &str, &str); 2] =
    [("email/base64mime.py", "base64.py", "a85encode"), ("email/utils.py", "http/cookiejar.py", "http2time")];
/// Commit 2 adds this file, a copy of this standard library module...
const COMMIT_2_ADDS: (&str, &str) = ("email/quopri.py", "quopri.py");
/// ... and removes this one (`git rm`): nothing may be answered from it.
const COMMIT_2_REMOVES: &str = "email/iterators.py";
/// Commit 3 deletes this function from this file.
const COMMIT_3_DELETES: (&str, &str) = ("email/encoders.py", "encode_7or8bit");
/// The edits the developer has not committed: appended code from other modules.
const UNCOMMITTED_APPENDS: [(&str, &str, &str); 5] = [
    ("email/header.py", "textwrap.py", "dedent"),
    ("email/generator.py", "shlex.py", "quote"),
    ("email/parser.py", "mimetypes.py", "guess_type"),
    ("email/errors.py", "smtplib.py", "SMTPResponseException"),
    ("email/contentmanager.py", "base64.py", "b85decode"),
];

/// Every path whose content in the developer's working tree differs from commit A's (the
/// removed file aside): what the overlay must hold.
fn changed_paths() -> BTreeSet<&'static str> {
    let appended = COMMIT_1_APPENDS.iter().chain(&UNCOMMITTED_APPENDS).map(|(path, _, _)| *path);
    appended.chain([COMMIT_2_ADDS.0, COMMIT_3_DELETES.0]).collect()
}

/// Runs `git ARGS` in `dir`.
fn git_in(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"])
        .args(args)
        .output()
        .expect("run git");
    assert!(out.status.success(), "git {args:?} in {}: {}", dir.display(), String::from_utf8_lossy(&out.stderr));
}

/// What `git ARGS` prints in `dir`.
fn git_output(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git").current_dir(dir).args(args).output().expect("run git");
    assert!(out.status.success(), "git {args:?} in {}: {}", dir.display(), String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The working tree in `dir` differs from commit `a` in exactly the planned paths: the
/// changed (and added) ones, and the removed one.
fn assert_tree_differs_from(dir: &Path, a: &str) {
    let listed = git_output(dir, &["diff", "--name-status", "--no-renames", a]);
    let differ: BTreeSet<(String, String)> = listed
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(status, path)| (status.to_string(), path.to_string()))
        .collect();
    let mut planned: BTreeSet<(String, String)> = changed_paths()
        .into_iter()
        .map(|p| (if p == COMMIT_2_ADDS.0 { "A" } else { "M" }.to_string(), p.to_string()))
        .collect();
    planned.insert(("D".to_string(), COMMIT_2_REMOVES.to_string()));
    assert_eq!(differ, planned, "the developer's tree against A");
}

/// Commit A in `t`'s project: the standard library's `email` package. Returns its id.
fn commit_a(t: &TestCtx) -> String {
    git_in(t.path(), &["init", "-q", "-b", "main"]);
    copy_tree(&stdlib().join("email"), &t.path().join("email"));
    git_in(t.path(), &["add", "-A"]);
    git_in(t.path(), &["commit", "-qm", "A: the email package"]);
    rev_parse(t, "HEAD")
}

/// CI's checkout: a `git clone` of `t`'s repository at `commit`, inside `ci`'s directory.
fn ci_checkout(t: &TestCtx, ci: &TestCtx, commit: &str) -> PathBuf {
    let checkout = ci.path().join("checkout");
    let (from, to) = (t.path().display().to_string(), checkout.display().to_string());
    git_in(ci.path(), &["clone", "-q", &from, &to]);
    git_in(&checkout, &["reset", "-q", "--hard", commit]);
    checkout
}

/// The line range of the top-level `def NAME(` or `class NAME` in `text`, its trailing blank
/// lines left out.
fn definition_lines(text: &str, name: &str) -> std::ops::Range<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let opens = |l: &str| {
        [format!("def {name}("), format!("class {name}("), format!("class {name}:")].iter().any(|p| l.starts_with(p))
    };
    let start = lines.iter().position(|l| opens(l)).unwrap_or_else(|| panic!("no top-level definition of {name}"));
    let top_level = |l: &&str| !l.is_empty() && !l.starts_with([' ', '\t', ')', '#']);
    let mut end = lines[start + 1..].iter().position(top_level).map_or(lines.len(), |i| start + 1 + i);
    while end > start + 1 && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    start..end
}

/// The source of the top-level definition `name` in the standard library module `module`.
fn stdlib_definition(module: &str, name: &str) -> String {
    let path = stdlib().join(module);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines: Vec<&str> = text.lines().collect();
    let span = definition_lines(&text, name);
    assert!(span.len() >= 3, "{name} in {module} is a real definition, not a stub: {span:?}");
    lines[span].join("\n") + "\n"
}

/// Appends the definition `name` of the standard library module `module` to `path` in `dir`.
fn append_definition(dir: &Path, path: &str, module: &str, name: &str) {
    let file = dir.join(path);
    let mut text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    text.push_str("\n\n");
    text.push_str(&stdlib_definition(module, name));
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
}

/// Deletes the lines of the top-level definition `name` from `path` in `dir`.
fn delete_definition(dir: &Path, path: &str, name: &str) {
    let file = dir.join(path);
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let span = definition_lines(&text, name);
    let kept: Vec<&str> = text.lines().enumerate().filter(|(i, _)| !span.contains(i)).map(|(_, line)| line).collect();
    std::fs::write(&file, kept.join("\n") + "\n").unwrap_or_else(|e| panic!("{}: {e}", file.display()));
}

/// The developer's three commits on top of A, then their uncommitted edits.
fn developer_work(dir: &Path) {
    for (path, module, name) in COMMIT_1_APPENDS {
        append_definition(dir, path, module, name);
    }
    git_in(dir, &["commit", "-qam", "1: two functions borrowed"]);

    std::fs::copy(stdlib().join(COMMIT_2_ADDS.1), dir.join(COMMIT_2_ADDS.0)).expect("copy the added module");
    git_in(dir, &["add", COMMIT_2_ADDS.0]);
    git_in(dir, &["rm", "-q", COMMIT_2_REMOVES]);
    git_in(dir, &["commit", "-qm", "2: quopri in, iterators out"]);

    delete_definition(dir, COMMIT_3_DELETES.0, COMMIT_3_DELETES.1);
    git_in(dir, &["commit", "-qam", "3: one encoder fewer"]);

    for (path, module, name) in UNCOMMITTED_APPENDS {
        append_definition(dir, path, module, name);
    }
}

/// CI: `cocosearch index -q --index team` in its checkout, as the database's owner.
fn ci_build(ci: &TestCtx, checkout: &Path, shared: &SharedDatabase, embedder: Embedder) {
    let mut cmd = ci.cmd();
    cmd.current_dir(checkout).env("COCOSEARCH_DATABASE_URL", shared.owner_url());
    embedder.apply(&mut cmd);
    let out = run(cmd, &["index", "-q", "--index", TEAM]);
    assert_eq!(out.code, 0, "CI's build of the shared index as its owner: {out:?}");
}

/// `t`'s embedded store, run in `tree`, without any shared index.
fn local(t: &TestCtx, tree: &Path, embedder: Embedder) -> Command {
    let mut cmd = t.cmd();
    cmd.current_dir(tree)
        .env("COCOSEARCH_DATABASE_BACKEND", "sqlite")
        .env("COCOSEARCH_DATABASE_PATH", t.embedded_dir());
    embedder.apply(&mut cmd);
    cmd
}

/// The developer: their embedded store in their working tree, over the shared base at `url`.
fn developer(t: &TestCtx, url: &str, embedder: Embedder) -> Command {
    let mut cmd = local(t, t.path(), embedder);
    cmd.env("COCOSEARCH_SHARED_URL", url).env("COCOSEARCH_SHARED_INDEX", TEAM);
    cmd
}

/// A `files` counter of an index summary (`files.added`, `files.shared`, ...).
fn files(summary: &Value, counter: &str) -> Option<u64> {
    summary["files"][counter].as_u64()
}

/// A port nothing listens on: bound, then let go.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    listener.local_addr().expect("the bound address").port()
}

/// Questions a developer of the `email` package asks: names, qualified names and phrases. The
/// first thirteen are answered from the files the developer changed, added or removed (text only
/// in the removed file, only in a deleted function, only in an uncommitted edit).
const QUERIES: [&str; 50] = [
    "a85encode",
    "http2time",
    "convert an HTTP date string to seconds since the epoch",
    "typed_subpart_iterator",
    "body_line_iterator",
    "encode_7or8bit",
    "unhex",
    "decode a quoted-printable file",
    "dedent",
    "return a shell-escaped version of the string",
    "guess_type",
    "SMTPResponseException",
    "b85decode",
    "decode_header",
    "make_header",
    "Message.get_payload",
    "set_charset",
    "parse a date header",
    "fold long header lines",
    "parsedate_to_datetime",
    "formataddr",
    "split an address list into name and address pairs",
    "make_msgid",
    "generate a unique Message-ID",
    "BytesParser",
    "FeedParser",
    "incremental parser that accepts data in chunks",
    "flatten a message to bytes",
    "BytesGenerator",
    "encode a header with RFC 2047 encoded words",
    "quoted-printable body encoding",
    "encode_base64",
    "register a character set alias",
    "Charset.header_encode",
    "multipart boundary",
    "Message.set_boundary",
    "walk all the parts of a message",
    "attach a part to a multipart message",
    "MIMEMultipart",
    "guess the image subtype from its data",
    "EmailPolicy",
    "HeaderRegistry",
    "defects found while parsing a message",
    "MissingHeaderBodySeparatorDefect",
    "get_filename from the content-disposition header",
    "decode RFC 2231 parameters",
    "Message.get_param",
    "ContentManager.set_content",
    "get_addr_spec",
    "message_from_bytes",
];

/// Hits that must show the developer's content: (query, path, text the hit holds).
const DEVELOPER_CONTENT: [(&str, &str, &str); 8] = [
    ("a85encode", "email/base64mime.py", "def a85encode("),
    ("http2time", "email/utils.py", "def http2time("),
    ("unhex", "email/quopri.py", "def unhex("),
    ("dedent", "email/header.py", "def dedent("),
    ("return a shell-escaped version of the string", "email/generator.py", "shell-escaped"),
    ("guess_type", "email/parser.py", "def guess_type("),
    ("SMTPResponseException", "email/errors.py", "class SMTPResponseException("),
    ("b85decode", "email/contentmanager.py", "def b85decode("),
];

/// Text the developer deleted: (query, text no hit may hold).
const DELETED_CONTENT: [(&str, &str); 3] = [
    ("encode_7or8bit", "def encode_7or8bit("),
    ("typed_subpart_iterator", "def typed_subpart_iterator("),
    ("body_line_iterator", "def body_line_iterator("),
];

/// `search --json --limit 10 QUERY` with `extra` arguments: the results, or what went wrong.
fn search(cmd: Command, query: &str, extra: &[&str]) -> Result<Vec<Value>, String> {
    let mut args = vec!["search", "--json", "--limit", "10", query];
    args.extend_from_slice(extra);
    let out = run(cmd, &args);
    if out.code != 0 {
        return Err(format!("{out:?}"));
    }
    let results = out.json()["results"].as_array().cloned();
    results.ok_or_else(|| format!("no results array: {out:?}"))
}

/// Each hit's path and lines, best first.
fn locations(hits: &[Value]) -> Vec<(String, u64, u64)> {
    let place = |h: &Value| {
        let line = |k: &str| h[k].as_u64().unwrap_or_default();
        (h["path"].as_str().unwrap_or_default().to_string(), line("start_line"), line("end_line"))
    };
    hits.iter().map(place).collect()
}

/// Whether some hit is in `path` and holds `text`.
fn shows(hits: &[Value], path: &str, text: &str) -> bool {
    hits.iter().any(|h| h["path"] == path && h["content"].as_str().is_some_and(|c| c.contains(text)))
}

/// The developer's hits for every query; asserts each equals the fresh index's.
fn assert_same_answers(
    developer: impl Fn() -> Command,
    fresh: impl Fn() -> Command,
) -> Vec<(&'static str, Vec<Value>)> {
    let mut mismatches = Vec::new();
    let mut answers = Vec::new();
    for query in QUERIES {
        let overlay = search(developer(), query, &[]);
        let clean = search(fresh(), query, &["--index", TEAM]);
        match (&overlay, &clean) {
            (Ok(o), Ok(c)) if locations(o) == locations(c) => {}
            (Ok(o), Ok(c)) => {
                mismatches.push(format!("{query:?}\n  overlay: {:?}\n  fresh:   {:?}", locations(o), locations(c)))
            }
            _ => mismatches.push(format!("{query:?}\n  overlay: {overlay:?}\n  fresh: {clean:?}")),
        }
        answers.push((query, overlay.unwrap_or_default()));
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} queries are answered differently by the overlay and a fresh local index:\n{}",
        mismatches.len(),
        QUERIES.len(),
        mismatches.join("\n")
    );
    answers
}

/// No hit comes from the removed file or holds deleted text, and the edited files' hits show
/// the developer's content.
fn assert_developer_content(answers: &[(&str, Vec<Value>)]) {
    let of = |query: &str| answers.iter().find(|(q, _)| *q == query).map(|(_, hits)| hits.as_slice()).unwrap_or(&[]);
    let mut wrong = Vec::new();
    for (query, hits) in answers {
        if hits.iter().any(|h| h["path"] == COMMIT_2_REMOVES) {
            wrong.push(format!("{query:?} answers from the removed {COMMIT_2_REMOVES}: {:?}", locations(hits)));
        }
    }
    for (query, text) in DELETED_CONTENT {
        if of(query).iter().any(|h| h["content"].as_str().is_some_and(|c| c.contains(text))) {
            wrong.push(format!("{query:?} shows deleted text {text:?}: {:?}", locations(of(query))));
        }
    }
    for (query, path, text) in DEVELOPER_CONTENT {
        if !shows(of(query), path, text) {
            wrong.push(format!("{query:?} shows no hit in {path} holding {text:?}: {:?}", locations(of(query))));
        }
    }
    assert!(wrong.is_empty(), "the overlay does not read as the developer's tree:\n{}", wrong.join("\n"));
}

/// The test server's log file (`scripts/testenv.py` starts PostgreSQL with
/// `pg_ctl -l <data_directory>/postgres.log`) and its length when a check began.
struct ServerLog {
    path: PathBuf,
    start: u64,
}

/// One message of the server's log: the backend's pid, its level and its text (continuation
/// lines included).
struct LogEntry {
    pid: u32,
    level: String,
    text: String,
}

impl ServerLog {
    /// Marks the log's present end: only what is appended after it is read.
    fn mark() -> ServerLog {
        let mut client = postgres::Client::connect(&services().admin_url, postgres::NoTls)
            .unwrap_or_else(|e| panic!("cannot connect to the test server as superuser: {e}"));
        let row = client.query_one("SHOW data_directory", &[]).expect("SHOW data_directory");
        let path = PathBuf::from(row.get::<_, String>(0)).join("postgres.log");
        let start = std::fs::metadata(&path)
            .unwrap_or_else(|e| {
                panic!(
                    "{}: {e} (the check reads the log of the local test server of scripts/testenv.py)",
                    path.display()
                )
            })
            .len();
        ServerLog { path, start }
    }

    /// The messages appended since the mark. The server writes each message with one write,
    /// so messages of parallel sessions interleave whole; a line that does not open with the
    /// default prefix (`%m [%p] `) continues the message before it.
    fn entries(&self) -> Vec<LogEntry> {
        let mut file = std::fs::File::open(&self.path).unwrap_or_else(|e| panic!("{}: {e}", self.path.display()));
        file.seek(SeekFrom::Start(self.start)).expect("seek to the mark");
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).expect("read the server log");
        let opens = regex::Regex::new(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \S+ \[(\d+)\] ([A-Z]+):  (.*)$")
            .expect("the prefix pattern compiles");
        let mut entries: Vec<LogEntry> = Vec::new();
        for line in String::from_utf8_lossy(&bytes).lines() {
            if let Some(m) = opens.captures(line) {
                let pid = m[2].parse().expect("a pid is a number");
                entries.push(LogEntry { pid, level: m[3].to_string(), text: m[4].to_string() });
            } else if let Some(last) = entries.last_mut() {
                last.text.push('\n');
                last.text.push_str(line);
            }
        }
        entries
    }

    /// What the read-only role sent since the mark, and the refusals for want of write access.
    /// Only the reader logs its statements (`log_statement` is set for that role alone), so
    /// the pids of statement messages are its sessions; a statement of theirs refused before it
    /// ran (at parse, in the extended protocol) is logged only as an error's `STATEMENT:`. A
    /// refusal is taken from any session: no other role of the test server is read-only or
    /// refused a permission.
    fn reader_activity(&self) -> (Vec<String>, Vec<String>) {
        let entries = self.entries();
        let executed = |e: &LogEntry| -> Option<String> {
            if e.level != "LOG" {
                return None;
            }
            if let Some(sql) = e.text.strip_prefix("statement: ") {
                return Some(sql.to_string());
            }
            let rest = e.text.strip_prefix("execute ")?;
            rest.split_once(": ").map(|(_, sql)| sql.to_string())
        };
        let mut pids = HashSet::new();
        let mut statements = Vec::new();
        for (entry, sql) in entries.iter().filter_map(|e| executed(e).map(|sql| (e, sql))) {
            pids.insert(entry.pid);
            statements.push(sql);
        }
        let refused_early = entries.iter().filter(|e| e.level == "STATEMENT" && pids.contains(&e.pid));
        statements.extend(refused_early.map(|e| e.text.clone()));
        let refusal = |e: &&LogEntry| {
            e.level == "ERROR" && (e.text.contains("read-only transaction") || e.text.contains("permission denied"))
        };
        let refusals = entries.iter().filter(refusal).map(|e| format!("[{}] {}", e.pid, e.text)).collect();
        (statements, refusals)
    }

    /// The read-only role sent at least one statement since the mark, none of them a write
    /// or a lock, and the server refused nothing for want of write access.
    fn assert_reader_wrote_nothing(&self) {
        let (statements, refusals) = self.reader_activity();
        assert!(
            !statements.is_empty(),
            "no statement of the read-only role in {} since byte {}: the base was not read \
             (or the server's log_line_prefix is not the default `%m [%p] `)",
            self.path.display(),
            self.start
        );
        let writes: Vec<String> =
            statements.iter().filter_map(|sql| write_in(sql).map(|why| format!("{why}: {}", sql.trim()))).collect();
        assert!(writes.is_empty(), "the read-only role sent writes:\n{}", writes.join("\n"));
        assert!(refusals.is_empty(), "a read-only session was refused a write:\n{}", refusals.join("\n"));
    }
}

/// `sql` without comments, string literals and quoted identifiers, in upper case, its
/// whitespace collapsed: the words a write would show.
fn sql_words(sql: &str) -> String {
    let mut out = String::new();
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                for d in chars.by_ref() {
                    if d == c {
                        break;
                    }
                }
                out.push(' ');
            }
            '-' if chars.peek() == Some(&'-') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
                out.push(' ');
            }
            '/' if chars.peek() == Some(&'*') => {
                let mut previous = ' ';
                for d in chars.by_ref() {
                    if previous == '*' && d == '/' {
                        break;
                    }
                    previous = d;
                }
                out.push(' ');
            }
            _ => out.extend(c.to_uppercase()),
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Why `sql` writes or locks, if it does.
fn write_in(sql: &str) -> Option<&'static str> {
    const WRITES: [&str; 22] = [
        "INSERT", "UPDATE", "DELETE", "MERGE", "CREATE", "ALTER", "DROP", "TRUNCATE", "GRANT", "REVOKE", "COMMENT",
        "LOCK", "VACUUM", "ANALYZE", "REINDEX", "CLUSTER", "REFRESH", "CALL", "DO", "SECURITY", "IMPORT", "REASSIGN",
    ];
    let words = sql_words(sql);
    let first = words.split([' ', '(', ';']).next().unwrap_or_default();
    let any = |patterns: &[&str]| patterns.iter().any(|p| words.contains(p));
    let data_modifying = regex::Regex::new(r"\b(INSERT|UPDATE|DELETE|MERGE)\b").expect("the pattern compiles");
    let select_into = regex::Regex::new(r"^SELECT\b.*\bINTO\b").expect("the pattern compiles");
    if WRITES.contains(&first) {
        Some("a writing statement")
    } else if first == "COPY" && words.contains(" FROM ") {
        Some("COPY ... FROM")
    } else if first == "WITH" && data_modifying.is_match(&words) {
        Some("a data-modifying WITH")
    } else if select_into.is_match(&words) {
        Some("a query into a new table")
    } else if any(&[" FOR UPDATE", " FOR NO KEY UPDATE", " FOR SHARE", " FOR KEY SHARE"]) {
        Some("a row lock")
    } else if words.contains("PG_ADVISORY") || words.contains("PG_TRY_ADVISORY") {
        Some("an advisory lock (a writer's)")
    } else if any(&["NEXTVAL(", "SETVAL("]) {
        Some("a sequence advanced")
    } else {
        None
    }
}

/// CI builds the base at commit A; the developer's overlay holds exactly their nine changed
/// files; their 50 searches equal those of a fresh local index of the same working tree. With
/// `check_log`, the read-only role's statements are checked in the server's log too.
fn overlay_equals_a_fresh_local_index(embedder: Embedder, check_log: bool) {
    let t = TestCtx::new(&format!("shared_overlay_{embedder:?}"));
    let shared = SharedDatabase::create(&t, check_log);
    let a = commit_a(&t);
    let ci = TestCtx::new("shared_ci");
    let checkout = ci_checkout(&t, &ci, &a);
    ci_build(&ci, &checkout, &shared, embedder);
    shared.grant_reads();
    developer_work(t.path());
    assert_tree_differs_from(t.path(), &a);

    let log = check_log.then(ServerLog::mark);
    let out = run(developer(&t, &shared.reader_url(), embedder), &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let summary = out.json();
    let discovered = files(&summary, "discovered").expect("files.discovered");
    let changed = changed_paths().len() as u64;
    assert_eq!(files(&summary, "added"), Some(changed), "the overlay holds what differs from A: {summary:#}");
    assert_eq!(
        files(&summary, "shared"),
        Some(discovered.saturating_sub(changed)),
        "the rest is the base's: {summary:#}"
    );
    // `stats` says how much of the base the tree reads: every unchanged file; the changed ones
    // and the deleted one are shadowed (the added file was never the base's).
    let out = run(developer(&t, &shared.reader_url(), embedder), &["stats", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let stats = out.json();
    assert_eq!(stats["shared"]["index"], TEAM, "{stats:#}");
    assert_eq!(stats["shared"]["files"].as_u64(), Some(discovered.saturating_sub(changed)), "{stats:#}");
    let (added, deleted) = (1, 1);
    let shadowed = changed - added + deleted;
    assert_eq!(stats["shared"]["shadowed"].as_u64(), Some(shadowed), "{stats:#}");
    let out = run(developer(&t, &shared.reader_url(), embedder), &["config", "check", "--json"]);
    let report = out.json();
    let check = report["checks"].as_array().and_then(|c| c.iter().find(|c| c["name"] == "shared")).cloned();
    assert_eq!(check.map(|c| c["ok"].clone()), Some(Value::Bool(true)), "config check reaches it: {report:#}");

    let fresh = TestCtx::new("shared_fresh");
    let out = run(local(&fresh, t.path(), embedder), &["index", "-q", "--index", TEAM]);
    assert_eq!(out.code, 0, "a fresh local index of the developer's tree: {out:?}");
    let answers =
        assert_same_answers(|| developer(&t, &shared.reader_url(), embedder), || local(&fresh, t.path(), embedder));
    assert_developer_content(&answers);
    // Did-you-mean draws on the names of both, less those only the deleted file defined.
    let suggest = |cmd: Command, extra: &[&str]| {
        let args: Vec<&str> = ["search", "--json", "body_line_iteratr"].iter().chain(extra).copied().collect();
        run(cmd, &args).json()["did_you_mean"].clone()
    };
    let overlay = suggest(developer(&t, &shared.reader_url(), embedder), &[]);
    let fresh = suggest(local(&fresh, t.path(), embedder), &["--index", TEAM]);
    assert_eq!(overlay, fresh, "the same suggestions as a fresh local index");
    assert!(!overlay.to_string().contains("body_line_iterator"), "a deleted file's name is not suggested: {overlay}");
    if let Some(log) = log {
        log.assert_reader_wrote_nothing();
    }
}

/// Keyword-only; and the read-only role's statements, in the server's log, hold no write.
#[test]
fn overlay_equals_a_fresh_local_index_keyword_only() {
    overlay_equals_a_fresh_local_index(Embedder::Keyword, true);
}

/// With the static built-in model: CI's vectors and the overlay's rank as one index.
#[test]
fn overlay_equals_a_fresh_local_index_with_the_static_model() {
    overlay_equals_a_fresh_local_index(Embedder::Static, false);
}

/// A base on a closed port: the developer is told, and indexes and searches locally.
#[test]
fn unreachable_base_falls_back_to_a_local_index() {
    let t = TestCtx::new("shared_unreachable");
    commit_a(&t);
    let url = format!("postgresql://reader@127.0.0.1:{}/shared", closed_port());
    let out = run(developer(&t, &url, Embedder::Keyword), &["index", "--json"]);
    assert_eq!(out.code, 0, "an unreachable base is no failure: {out:?}");
    let stderr = out.stderr.to_lowercase();
    assert!(stderr.contains("shared index") && stderr.contains("unreachable"), "the developer is told: {out:?}");
    let summary = out.json();
    let discovered = files(&summary, "discovered").expect("files.discovered");
    assert!(discovered > 0, "{summary:#}");
    assert_eq!(files(&summary, "shared"), Some(0), "nothing from the base: {summary:#}");
    assert_eq!(files(&summary, "added"), Some(discovered), "a complete local index: {summary:#}");

    let hits = search(developer(&t, &url, Embedder::Keyword), "decode_header", &[]).expect("search");
    assert!(shows(&hits, "email/header.py", "def decode_header("), "{:?}", locations(&hits));

    // `config check` names the shared index's problem and the setting that fixes it.
    let out = run(developer(&t, &url, Embedder::Keyword), &["config", "check", "--json"]);
    assert_ne!(out.code, 0, "a check that fails fails the command: {out:?}");
    let report = out.json();
    let shared = report["checks"].as_array().and_then(|c| c.iter().find(|c| c["name"] == "shared"));
    let shared = shared.unwrap_or_else(|| panic!("a check of the shared index: {report:#}"));
    assert_eq!(shared["ok"], false, "{shared:#}");
    assert!(shared["fix"].as_str().is_some_and(|f| f.contains("shared.url")), "{shared:#}");
}
