//! Pasted issues for the search benchmark: what an agent sends when it hands over a bug report
//! (a title, prose, a traceback or a panic, a code block, an environment), about 2,000
//! characters each, written for this benchmark about the code of its corpus (the Python
//! standard library and crate sources). They are read as long questions, so they measure the
//! long-question stage: frames, quoted messages and named code resolved, files weighed.

pub const ISSUES: &[&str] = &[
    r#"json.loads raises JSONDecodeError on a response that starts with a byte order mark

When a server answers with a UTF-8 body that starts with a BOM, `json.loads` on the decoded text fails instead of skipping the mark. This happens with files written by Notepad too.

Steps to reproduce:

```python
import json, urllib.request
with urllib.request.urlopen("http://localhost:8000/data.json") as response:
    body = response.read().decode("utf-8")
print(json.loads(body))
```

Traceback (most recent call last):
  File "/home/user/app/fetch.py", line 4, in <module>
    print(json.loads(body))
  File "/usr/lib/python3.12/json/__init__.py", line 346, in loads
    return _default_decoder.decode(s)
  File "/usr/lib/python3.12/json/decoder.py", line 337, in decode
    obj, end = self.raw_decode(s, idx=_w(s, 0).end())
  File "/usr/lib/python3.12/json/decoder.py", line 355, in raw_decode
    raise JSONDecodeError("Expecting value", s, err.value) from None
json.decoder.JSONDecodeError: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)

Expected behavior: either the decoder skips the BOM when it is given a str, or the error tells me
which codec to use. I see `detect_encoding` handles bytes that start with a BOM, but a str that
starts with '\ufeff' is rejected. Reading the file with `encoding="utf-8-sig"` works around it,
but the body of an HTTP response has no such option and `response.headers.get_content_charset()`
returns plain utf-8.

Environment:
- Python 3.12.1 on Windows 11 and on Ubuntu 22.04
- the same with `json.load(fp)` on a file opened in text mode

Is this intended? The docs of `json.loads` say that a str beginning with a BOM is an error, but
the message could name the fix, and `JSONDecoder.raw_decode` could at least report the position
after the mark so the caller can retry with `s[1:]`.

For comparison, `json.load` on a binary file object works, because `json.loads` accepts bytes
and `detect_encoding` sees the BOM there; only the str path rejects it.
"#,
    r#"asyncio.wait_for leaves the inner task running after a timeout when it ignores cancellation

We use `asyncio.wait_for` around a coroutine that catches `CancelledError` to flush a buffer.
When the timeout fires, `wait_for` cancels the inner task and then waits for it; if the task
swallows the cancellation the call never returns and the timeout is not raised.

```python
import asyncio

async def worker():
    try:
        await asyncio.sleep(10)
    except asyncio.CancelledError:
        await asyncio.sleep(0.1)   # flush
        return "flushed"

async def main():
    try:
        print(await asyncio.wait_for(worker(), timeout=0.5))
    except TimeoutError:
        print("timed out")

asyncio.run(main())
```

Actual output: `flushed` after 0.6 s, and no TimeoutError. Expected: `timed out`.

With Python 3.11 the traceback on Ctrl-C shows where it hangs:

Traceback (most recent call last):
  File "/usr/lib/python3.11/asyncio/tasks.py", line 490, in wait_for
    return fut.result()
  File "/usr/lib/python3.11/asyncio/tasks.py", line 476, in wait_for
    await waiter
  File "/usr/lib/python3.11/asyncio/timeouts.py", line 115, in __aexit__
    raise TimeoutError from exc_val
asyncio.exceptions.CancelledError

It looks like `Timeout.__aexit__` only turns the cancellation into a TimeoutError when the task
was cancelled by the timeout itself (`self._state == _State.EXPIRING`) and `uncancel()` returns
zero. When the inner coroutine returns a value after catching the cancellation, the result wins.
Is that the documented behaviour of `asyncio.timeout` and `wait_for` since 3.12? The docs of
`wait_for` still say "If a timeout occurs, it cancels the task and raises TimeoutError".

Environment: CPython 3.12.0, Linux x86_64, default event loop (no uvloop).

We also tried `async with asyncio.timeout(0.5):` directly; it behaves the same, so the question
is about `Timeout.__aexit__` rather than `wait_for` itself. On 3.10, with the old
implementation of `wait_for` (a loop on `fut.done()` and `_cancel_and_wait`), the TimeoutError is
raised as documented.
"#,
    r#"urllib.request raises RemoteDisconnected on a keep-alive connection closed by the server

After upgrading to Python 3.12 our nightly job that downloads about 300 files from an internal
server fails at random with `http.client.RemoteDisconnected: Remote end closed connection
without response`. The server closes idle keep-alive connections after 5 seconds.

Traceback (most recent call last):
  File "/srv/jobs/download.py", line 41, in fetch
    with opener.open(request, timeout=30) as response:
  File "/usr/lib/python3.12/urllib/request.py", line 515, in open
    response = self._open(req, data)
  File "/usr/lib/python3.12/urllib/request.py", line 1344, in do_open
    h.request(req.get_method(), req.selector, req.data, headers,
  File "/usr/lib/python3.12/http/client.py", line 1411, in getresponse
    response.begin()
  File "/usr/lib/python3.12/http/client.py", line 324, in begin
    version, status, reason = self._read_status()
  File "/usr/lib/python3.12/http/client.py", line 293, in _read_status
    raise RemoteDisconnected("Remote end closed connection without"
http.client.RemoteDisconnected: Remote end closed connection without response

The opener is built once with `urllib.request.build_opener(HTTPCookieProcessor(jar))` and reused.
I expected `AbstractHTTPHandler.do_open` to retry a request once when the connection it reused
was closed by the peer, as `http.client.HTTPConnection` users are told to do, or at least that
the handler would not reuse the connection. Setting `Connection: close` on every request makes
the failure go away, at the cost of a new TLS handshake per file.

Minimal reproduction: a server that accepts, answers one request with `Connection: keep-alive`
and closes the socket after 5 s; then two `opener.open` calls 6 s apart. The second fails.

Questions:
1. Does `urllib.request` reuse connections at all, or is the failure inside `http.client`?
2. Where should a retry for idempotent methods (GET, HEAD) live?

Python 3.12.1, Debian 12, server nginx 1.22 with `keepalive_timeout 5s`.
"#,
    r#"RotatingFileHandler.doRollover fails with PermissionError on Windows when two processes log

Two worker processes write to the same log file through `logging.handlers.RotatingFileHandler`
(maxBytes=10 MB, backupCount=5). On Windows the first rollover fails:

--- Logging error ---
Traceback (most recent call last):
  File "C:\Python312\Lib\logging\handlers.py", line 74, in emit
    self.doRollover()
  File "C:\Python312\Lib\logging\handlers.py", line 179, in doRollover
    self.rotate(self.baseFilename, dfn)
  File "C:\Python312\Lib\logging\handlers.py", line 120, in rotate
    os.rename(source, dest)
PermissionError: [WinError 32] The process cannot access the file because it is being used by another process: 'C:\\app\\logs\\worker.log' -> 'C:\\app\\logs\\worker.log.1'
Call stack:
  File "C:\app\worker.py", line 88, in run
    log.info("processed %s rows", count)
Message: 'processed %s rows'
Arguments: (512,)

After that every record is lost until the process restarts, because `shouldRollover` keeps
returning true and every `emit` tries the rename again, printing the same "--- Logging error
---" block to stderr for each record.

Expected: when the rotation fails, the handler keeps writing to the current file (or reopens
it) instead of failing every later record. The docs say that `RotatingFileHandler` is not meant
for several processes, and that a `QueueHandler` with a `QueueListener` in one process is the
way, which we will do; but the handler's state after a failed `rotate` looks wrong on its own:
`self.stream` is closed in `doRollover` before the rename and never reopened when the rename
raises.

Configuration:

```python
handler = logging.handlers.RotatingFileHandler(
    "logs/worker.log", maxBytes=10 * 1024 * 1024, backupCount=5, encoding="utf-8", delay=True
)
handler.setFormatter(logging.Formatter("%(asctime)s %(process)d %(levelname)s %(message)s"))
logging.getLogger().addHandler(handler)
```

Python 3.12.2 on Windows Server 2022; the same on 3.11. On Linux the rename succeeds.
"#,
    r#"csv.DictReader returns '\ufeffid' as the first field name for files exported by Excel

Files exported from Excel as "CSV UTF-8" start with a byte order mark. Reading them with the
csv module keeps the mark in the first header, so `row["id"]` raises a KeyError:

```python
import csv
with open("export.csv", newline="", encoding="utf-8") as f:
    reader = csv.DictReader(f, delimiter=";")
    for row in reader:
        print(row["id"], row["name"])
```

Traceback (most recent call last):
  File "/home/me/report.py", line 5, in <module>
    print(row["id"], row["name"])
KeyError: 'id'

`reader.fieldnames` is `['\ufeffid', 'name', 'amount']`. With `encoding="utf-8-sig"` it works,
so this is arguably the caller's fault, but `csv.Sniffer().sniff()` on the same sample guesses
the delimiter correctly and `has_header` returns True, and nothing warns about the mark.

Two smaller things noticed while debugging:
- `DictReader.fieldnames` is read lazily on first access (the property calls `next(self.reader)`),
  so an empty file gives `None` rather than an empty list, which our code did not expect.
- `csv.Error: line contains NUL` is raised for a file with a stray NUL byte, but the message does
  not say which line; `reader.line_num` has it, and the error could include it.

Would a note in the docs of `DictReader` (that a BOM ends up in the first field name unless the
file is opened with utf-8-sig) be welcome? I can open a pull request for the docs and for the
line number in the NUL error if that change is acceptable.

Environment: Python 3.11.7 and 3.12.1 on macOS 14; Excel for Mac 16.80.

For reference, `csv.reader` on the same file gives the same first cell, `'\ufeffid'`, and
`csv.DictWriter` never writes a BOM, so a file round-tripped through the module loses it: the
header of the written file is `id;name;amount`, which Excel then opens as ANSI and shows the
accented names wrongly. `io.TextIOWrapper` with `encoding="utf-8-sig"` writes the mark, which is
what we do now, but it took a while to find out which side was responsible.
"#,
    r#"thread 'main' panicked: called `Result::unwrap()` on an `Err` value: Error("trailing characters", line: 1, column: 18)

Deserialising a config file with serde_json fails when the file ends with a second JSON value
written by a buggy exporter, and the panic message does not help users find which file it was.

```rust
#[derive(serde::Deserialize)]
struct Config { name: String, retries: u32 }

fn main() {
    let text = std::fs::read_to_string("config.json").unwrap();
    let config: Config = serde_json::from_str(&text).unwrap();
    println!("{} {}", config.name, config.retries);
}
```

config.json: `{"name":"a","retries":3} {"name":"b"}`

thread 'main' panicked at src/main.rs:6:54:
called `Result::unwrap()` on an `Err` value: Error("trailing characters", line: 1, column: 18)
stack backtrace:
   0: rust_begin_unwind
   1: core::panicking::panic_fmt
   2: core::result::unwrap_failed
   3: serde_json::de::Deserializer<R>::end
             at ~/.cargo/registry/src/index.crates.io/serde_json/src/de.rs:249:9
   4: serde_json::de::from_trait
             at ~/.cargo/registry/src/index.crates.io/serde_json/src/de.rs:2478:5
   5: serde_json::de::from_str
   6: demo::main
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.

What I expected: a way to read the first value and ignore the rest, like Python's
`raw_decode`. I found `StreamDeserializer` (`Deserializer::from_str(text).into_iter::<Config>()`),
which reads both values, and `Deserializer::end` which is what rejects the trailing characters.
Is there an API that reads one value and returns the offset where it stopped? `byte_offset()` on
the stream looks right but is not mentioned in the docs of `from_str`.

Also, the `Display` of `serde_json::Error` says "line 1 column 18"; the column points at the
space before the second value, not at its first character, which confused our users.

serde_json 1.0.108, rustc 1.74, Linux. The same with `serde_json::from_slice` on the bytes.
"#,
    r#"subprocess.run(timeout=...) hangs when the child spawned a grandchild that keeps stdout open

`subprocess.run(["sh", "-c", "sleep 100 & echo started"], capture_output=True, timeout=2)` does
not return after 2 seconds: it waits for the grandchild `sleep`, which inherited the pipe.

```python
import subprocess, time
start = time.monotonic()
try:
    subprocess.run(["sh", "-c", "sleep 100 & echo started"], capture_output=True, timeout=2)
except subprocess.TimeoutExpired as e:
    print("timeout after", time.monotonic() - start)
```

Expected: `timeout after 2.0`. Actual: the call returns after 100 s with no exception.

Pressing Ctrl-C shows:

Traceback (most recent call last):
  File "/tmp/t.py", line 4, in <module>
    subprocess.run(["sh", "-c", "sleep 100 & echo started"], capture_output=True, timeout=2)
  File "/usr/lib/python3.12/subprocess.py", line 550, in run
    stdout, stderr = process.communicate(input, timeout=timeout)
  File "/usr/lib/python3.12/subprocess.py", line 1209, in communicate
    stdout, stderr = self._communicate(input, endtime, timeout)
  File "/usr/lib/python3.12/subprocess.py", line 2115, in _communicate
    ready = selector.select(timeout)
  File "/usr/lib/python3.12/selectors.py", line 415, in select
    fd_event_list = self._selector.poll(timeout)
KeyboardInterrupt

Reading `run`: on TimeoutExpired it kills the child and then calls `process.communicate()` again
without a timeout to collect the output, and that second call waits for EOF on the pipes, which
never comes while the grandchild holds them. The sh child is killed at 2 s as expected (ps shows
it gone), so the timeout fired; it is the cleanup that blocks.

Is a second timeout for the cleanup, or closing the pipes after `kill()`, acceptable? On Windows
`run` already handles this case differently (`_communicate` there uses threads that are joined
with a timeout). Using `start_new_session=True` and killing the process group works around it.

Python 3.12.1 and 3.13.0a2 on Linux; 3.8 behaves the same.
"#,
    r#"regex: `Regex::new` takes 3 seconds and 400 MB for a pattern with a large bounded repetition

Compiling a pattern with a bounded repetition over a Unicode class is very slow and uses a lot
of memory, and the error when it exceeds the size limit does not say which part is too big.

```rust
use regex::Regex;

fn main() {
    let started = std::time::Instant::now();
    let re = Regex::new(r"\w{1000}").unwrap();
    println!("compiled in {:?}", started.elapsed());
    println!("{}", re.is_match("abc"));
}
```

With the default size limit this panics:

thread 'main' panicked at src/main.rs:5:41:
called `Result::unwrap()` on an `Err` value: CompiledTooBig(10485760)
stack backtrace:
   0: rust_begin_unwind
   1: core::panicking::panic_fmt
   2: core::result::unwrap_failed
   3: regex::regex::string::Regex::new
   4: demo::main

With `RegexBuilder::new(r"\w{1000}").size_limit(1 << 30).build()` it compiles, but it takes
about 3 seconds and peaks at 400 MB. `(?-u)\w{1000}` compiles instantly, so the cost is the
Unicode class repeated a thousand times in the NFA.

Expected: the error message could name the size limit and suggest `size_limit`, or `(?-u)` when
ASCII is enough; the docs of `RegexBuilder::size_limit` mention the limit but not what grows
it. Is there a way to see the size a pattern would need before building it (something on
`regex_syntax::hir::Hir` or the `meta::Regex` builder)?

regex 1.10.2, rustc 1.74, x86_64 Linux. The same on regex 1.9. A pattern like `[a-z]{1000}`
compiles in a few milliseconds.

What we are after is a way to reject such patterns up front in a web form that accepts user
regexes: today we wrap `Regex::new` in a thread with a time limit, which does not bound memory.
Setting `RegexBuilder::nest_limit` does not help, the pattern is not nested. Would
`regex_automata::meta::Builder` with `nfa_size_limit` be the right knob, and is the size
reported in `CompiledTooBig` the NFA's size in bytes?
"#,
];
