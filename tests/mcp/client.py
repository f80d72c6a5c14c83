"""Drive `cocosearch mcp` with the official MCP Python SDK (`mcp` on PyPI).

The Rust integration tests (tests/mcp_server.rs) run this script with the test
virtualenv's python. Each scenario connects a real client over stdio or
streamable HTTP, does what an agent would do, and prints one JSON report of
what it observed on stdout; the Rust test asserts on the report. Logs and
tracebacks go to stderr. A protocol failure raises, so the script exits
non-zero and the test fails with the traceback.

    client.py SCENARIO --bin PATH --project DIR [--url URL] [--mode legacy|auto] ...
"""

import argparse
import asyncio
import json
import os
import shlex
import sys
import time

import httpx2
import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError


def log(msg):
    print("client.py: " + msg, file=sys.stderr, flush=True)


def unions(schema, at=""):
    """Places in a JSON schema that are not one plain JSON type."""
    out = []
    if isinstance(schema, dict):
        t = schema.get("type")
        if isinstance(t, list):
            out.append(at + "/type is a list")
        elif t == "null":
            out.append(at + "/type is null")
        for key in ("anyOf", "oneOf", "allOf"):
            if key in schema:
                out.append(at + "/" + key)
        for k, v in schema.items():
            out.extend(unions(v, at + "/" + k))
    elif isinstance(schema, list):
        for i, v in enumerate(schema):
            out.extend(unions(v, "%s/%d" % (at, i)))
    return out


def result_json(result):
    """A tool result as the agent sees it: the text, and its JSON (the text parsed, or the structured result)."""
    text = "".join(c.text for c in result.content if isinstance(c, types.TextContent))
    try:
        parsed = json.loads(text)
    except ValueError:
        # Text written for reading (search_code's compact form): its JSON is the structured result.
        parsed = result.structured_content
    return {
        "is_error": bool(result.is_error),
        "text": text,
        "json": parsed,
        "structured": result.structured_content,
    }


class Roots:
    """A roots callback that counts its calls."""

    def __init__(self, paths):
        self.uris = ["file://" + p for p in paths]
        self.calls = 0

    async def __call__(self, context):
        self.calls += 1
        return types.ListRootsResult(roots=[types.Root(uri=u, name="workspace") for u in self.uris])


def stdio_server(args, extra=()):
    """The server as a stdio subprocess; with --stdout-log, its stdout is also copied to a file.

    --command replaces `BIN mcp EXTRA...` with a whole command line (a JSON list), as a
    client's configuration file gives it.
    """
    command = json.loads(args.command) if args.command else [args.bin, "mcp", *extra]
    if args.stdout_log:
        line = "%s | tee %s" % (" ".join(shlex.quote(c) for c in command), shlex.quote(args.stdout_log))
        return StdioServerParameters(command="sh", args=["-c", line], cwd=args.cwd, env=dict(os.environ))
    return StdioServerParameters(command=command[0], args=command[1:], cwd=args.cwd, env=dict(os.environ))


def connect(args, roots=None, url=None):
    """A Client for the transport the arguments name."""
    kwargs = {"mode": args.mode, "read_timeout_seconds": 120}
    if roots is not None:
        kwargs["list_roots_callback"] = roots
    if url or args.url:
        target = url or args.url
        if args.token:
            http = httpx2.AsyncClient(headers={"Authorization": "Bearer " + args.token}, timeout=120)
            return Client(streamable_http_client(target, http_client=http), **kwargs)
        return Client(target, **kwargs)
    return Client(stdio_server(args, args.server_arg), **kwargs)


async def call(client, name, arguments, **kw):
    return result_json(await client.call_tool(name, arguments, **kw))


async def wait_for_job(client, job_id, timeout=240):
    """Polls index_status until the job is over; returns the last status and the poll count."""
    deadline = time.monotonic() + timeout
    polls = 0
    while True:
        polls += 1
        status = await call(client, "index_status", {"job_id": job_id, "wait_seconds": 5})
        if status["is_error"] or status["json"]["job"]["state"] != "running":
            return status, polls
        if time.monotonic() > deadline:
            raise RuntimeError("job %s still running after %ds: %s" % (job_id, timeout, status["text"]))


async def session(args):
    """A whole agent session: list tools, index in the background, follow it, search, misuse."""
    report = {}
    roots = Roots([args.project])
    async with connect(args, roots=roots) as client:
        report["protocol_version"] = client.protocol_version
        report["server_info"] = client.server_info.model_dump() if client.server_info else None
        report["instructions"] = client.instructions
        tools = await client.list_tools()
        report["tools"] = {t.name: {"schema": t.input_schema, "description": t.description} for t in tools.tools}
        # What every session pays before its first question, as the client holds it.
        listed = tools.model_dump(mode="json", by_alias=True, exclude_none=True)
        report["tools_list_characters"] = len(json.dumps(listed, separators=(",", ":"), ensure_ascii=False))
        report["schema_unions"] = {t.name: unions(t.input_schema) for t in tools.tools}

        progress = []

        async def on_progress(value, total, message):
            progress.append({"progress": value, "total": total, "message": message})

        started = time.monotonic()
        report["index"] = await call(client, "index_codebase", {}, progress_callback=on_progress)
        report["index_seconds"] = time.monotonic() - started
        job_id = report["index"]["json"]["job"]["job_id"]
        report["progress_during_call"] = list(progress)
        report["status"], report["polls"] = await wait_for_job(client, job_id)
        report["progress"] = progress

        # The full form (every field of `cocosearch search --json`); the compact default is
        # tests/mcp_budget.rs's.
        report["search"] = await call(client, "search_code", {"query": "where do we retry failed uploads", "format": "full"})
        report["search_filtered"] = await call(
            client,
            "search_code",
            {"query": "user lookup", "language": "python", "symbol_type": "method", "max_lines": 2,
             "context_after": 1, "limit": 3, "definitions": 2, "format": "full"},
        )
        # The options every front end declares alike: a floor on scores, lines on both sides of
        # each hit, a mode by name.
        report["search_min_score"] = await call(
            client, "search_code", {"query": "where do we retry failed uploads", "min_score": 0.9, "format": "full"})
        report["search_around"] = await call(
            client, "search_code",
            {"query": "where do we retry failed uploads", "around": 2, "smart_context": False, "limit": 3,
             "format": "full"})
        report["search_keyword"] = await call(client, "search_code", {"query": "upload", "mode": "keyword", "format": "full"})
        report["stats"] = await call(client, "index_stats", {})
        report["list"] = await call(client, "list_indexes", {})

        bad = {}
        bad["wrong_type"] = await call(client, "search_code", {"query": "x", "limit": "ten"})
        bad["unknown_param"] = await call(client, "search_code", {"qurey": "x"})
        bad["missing_required"] = await call(client, "clear_index", {})
        bad["bad_language"] = await call(client, "search_code", {"query": "x", "language": "klingon"})
        bad["no_such_index"] = await call(client, "search_code", {"query": "x", "index_name": "no_such_index"})
        bad["bad_index_name"] = await call(client, "index_stats", {"index_name": "Bad Name!"})
        bad["outside_roots"] = await call(client, "index_codebase", {"path": "/etc"})
        bad["escape_roots"] = await call(client, "index_codebase", {"path": args.project + "/../.."})
        try:
            await client.call_tool("no_such_tool", {})
            bad["unknown_tool"] = {"raised": None}
        except MCPError as e:
            bad["unknown_tool"] = {"raised": str(e)}
        report["bad"] = bad
        # Still serving after all that.
        report["after_bad"] = await call(client, "search_code", {"query": "get_user_by_id"})
    report["roots_calls"] = roots.calls
    return report


async def roots_flow(args):
    """The client advertises a root; the server must use it to pick the project."""
    roots = Roots([args.project])
    async with connect(args, roots=roots) as client:
        report = {"protocol_version": client.protocol_version}
        report["search"] = await call(client, "search_code", {"query": "where do we retry failed uploads", "format": "full"})
        report["stats"] = await call(client, "index_stats", {})
    report["roots_calls"] = roots.calls
    return report


async def no_roots(args):
    """A client without roots: the call needs another source or says what to do."""
    async with connect(args) as client:
        return {
            "protocol_version": client.protocol_version,
            "search": await call(client, "search_code", {"query": "where do we retry failed uploads"}),
            "by_name": await call(client, "search_code", {"query": "upload", "index_name": args.index or "x"}),
        }


async def http_project(args):
    """Two HTTP sessions with different ?project= values, side by side: each keeps its own."""
    report = {}
    urls = {"a": args.url + "?project=" + args.project, "b": args.url + "?project=" + args.other_project}
    async with connect(args, url=urls["a"]) as a, connect(args, url=urls["b"]) as b:
        report["protocol_version"] = a.protocol_version
        report["a"] = await call(a, "search_code", {"query": "where do we retry failed uploads"})
        report["b"] = await call(b, "search_code", {"query": "where do we retry failed uploads"})
        report["a_again"] = await call(a, "index_stats", {})
    return report


async def calls(args):
    """The tool calls of --calls (a JSON list of {"tool", "args", "wait"}), in one session.

    The client lists the roots of --roots (a JSON list of directories; default: --project; an
    empty list: a client without roots). A call with "wait" set follows the job it started to
    its end. Each result is reported, in order.
    """
    paths = json.loads(args.roots) if args.roots is not None else [args.project]
    roots = Roots(paths) if paths else None
    report = {"results": []}
    async with connect(args, roots=roots) as client:
        report["protocol_version"] = client.protocol_version
        for item in json.loads(args.calls):
            result = await call(client, item["tool"], item.get("args", {}))
            if item.get("wait") and not result["is_error"]:
                result["status"], _ = await wait_for_job(client, result["json"]["job"]["job_id"])
            report["results"].append(result)
    report["roots_calls"] = roots.calls if roots else 0
    return report


async def busy(args):
    """While another process writes the index: deleting or rebuilding it must be refused."""
    roots = Roots([args.project])
    async with connect(args, roots=roots) as client:
        return {
            "clear": await call(client, "clear_index", {"index_name": args.index}),
            "fresh": await call(client, "index_codebase", {"fresh": True}),
            "again": await call(client, "index_codebase", {}),
        }


async def tools_only(args):
    async with connect(args) as client:
        tools = await client.list_tools()
        return {"tools": sorted(t.name for t in tools.tools),
                "schema_unions": {t.name: unions(t.input_schema) for t in tools.tools},
                "server_info": client.server_info.model_dump() if client.server_info else None,
                "protocol_version": client.protocol_version}


async def live(args):
    """A watched project, as an agent sees it: each file change (add, edit, rename, delete)
    shows in search_code without any index_codebase call; then vectors arrive in the
    background. Reports, per step, whether the change was seen and after how long."""
    roots = Roots([args.project])
    report = {"steps": {}}

    def paths_for(result, token):
        hits = (result["json"] or {}).get("results", [])
        return sorted({h["path"] for h in hits if token in (h.get("content") or "")})

    async def until(client, query, check, timeout=30):
        started = time.monotonic()
        last = None
        while time.monotonic() - started < timeout:
            last = await call(client, "search_code", {"query": query, "limit": 20, "format": "full"})
            if not last["is_error"] and check(last):
                return True, round(time.monotonic() - started, 3), last
            await asyncio.sleep(0.1)
        return False, round(time.monotonic() - started, 3), last

    def write(relative, text):
        path = os.path.join(args.project, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    async with connect(args, roots=roots) as client:
        # The first search starts the watcher of the project's index.
        ok, took, last = await until(
            client, "upload retry", lambda r: (r["json"].get("freshness") or {}).get("watched_by") is not None)
        report["watched"] = {"seen": ok, "seconds": took, "freshness": (last["json"] or {}).get("freshness")}

        write("live/added.py", "def zebra_added_token(a):\n    return a * 2\n")
        ok, took, _ = await until(client, "zebra_added_token",
                                  lambda r: "live/added.py" in paths_for(r, "zebra_added_token"))
        report["steps"]["added"] = {"seen": ok, "seconds": took}

        write("live/added.py", "def zebra_edited_token(a):\n    return a * 3\n")
        ok, took, _ = await until(client, "zebra_edited_token",
                                  lambda r: "live/added.py" in paths_for(r, "zebra_edited_token"))
        gone, _, _ = await until(client, "zebra_added_token",
                                 lambda r: "live/added.py" not in paths_for(r, "zebra_added_token"))
        report["steps"]["edited"] = {"seen": ok and gone, "seconds": took}

        os.rename(os.path.join(args.project, "live/added.py"), os.path.join(args.project, "live/renamed.py"))
        ok, took, last = await until(client, "zebra_edited_token",
                                     lambda r: paths_for(r, "zebra_edited_token") == ["live/renamed.py"])
        report["steps"]["renamed"] = {"seen": ok, "seconds": took, "paths": paths_for(last, "zebra_edited_token")}

        os.remove(os.path.join(args.project, "live/renamed.py"))
        ok, took, last = await until(client, "zebra_edited_token",
                                     lambda r: paths_for(r, "zebra_edited_token") == [])
        report["steps"]["deleted"] = {"seen": ok, "seconds": took, "paths": paths_for(last, "zebra_edited_token")}

        # Vectors for what the watcher wrote come in the background: then the chunks are
        # found by meaning too (a vector score on the hit).
        write("live/semantic.py", "def compress_archive_files(folder):\n"
                                  "    \"\"\"Pack every file of the folder into one zip archive.\"\"\"\n"
                                  "    return zip_folder(folder)\n")
        ok, took, last = await until(
            client, "pack a folder into a zip archive",
            lambda r: any(h["path"] == "live/semantic.py" and h.get("vector_score") is not None
                          for h in r["json"].get("results", []))
            and (r["json"].get("freshness") or {}).get("pending_embeddings") == 0,
            timeout=60)
        report["steps"]["vectors"] = {"seen": ok, "seconds": took,
                                      "freshness": (last["json"] or {}).get("freshness") if last else None}
        report["notes"] = (last["json"] or {}).get("notes") if last else None
    return report


async def tasks(args):
    """The task tools as an agent uses them: create, two status changes, a branch and a
    commit linked, lists by status and by branch, a search, get with the history; then each
    invalid input once, and the list again to show nothing was written."""
    roots = Roots([args.project])
    report = {}
    async with connect(args, roots=roots) as client:
        created = await call(client, "create_task", {
            "title": "Retry failed uploads",
            "description": "uploads give up after one error",
            "planning_references": ["docs/plan.md"],
        })
        report["create"] = created
        task_id = created["json"]["id"]
        report["doing"] = await call(client, "update_task", {"task_id": task_id, "status": "in progress", "notes": "started"})
        report["done"] = await call(client, "update_task", {"task_id": task_id, "status": "complete"})
        report["link"] = await call(client, "update_task", {"task_id": task_id, "branch": args.branch, "commit": args.commit})
        report["other"] = await call(client, "create_task", {"title": "Unrelated"})
        report["by_status"] = await call(client, "list_tasks", {"status": "complete"})
        report["todo"] = await call(client, "list_tasks", {"status": "need to be done"})
        report["by_branch"] = await call(client, "list_tasks", {"branch": args.branch})
        report["search"] = await call(client, "search_tasks", {"query": "UPLOADS retry"})
        report["get"] = await call(client, "get_task", {"task_id": task_id})
        bad = {
            "empty_title": ("create_task", {"title": ""}),
            "long_title": ("create_task", {"title": "x" * 201}),
            "unknown_status": ("update_task", {"task_id": task_id, "status": "finished"}),
            "short_commit": ("update_task", {"task_id": task_id, "commit": "a" * 39}),
            "non_hex_commit": ("update_task", {"task_id": task_id, "commit": "g" * 40}),
            "outside_plan": ("create_task", {"title": "Escape", "planning_references": ["../outside.md"]}),
            "absolute_plan": ("create_task", {"title": "Escape", "planning_references": ["/etc/passwd"]}),
            "missing_plan": ("create_task", {"title": "Missing", "planning_references": ["docs/nope.md"]}),
            "limit_0": ("list_tasks", {"limit": 0}),
            "limit_101": ("list_tasks", {"limit": 101}),
            "unknown_task": ("get_task", {"task_id": "00000000-0000-4000-8000-000000000000"}),
        }
        report["invalid"] = {}
        for name, (tool, arguments) in bad.items():
            report["invalid"][name] = await call(client, tool, arguments)
        report["after"] = await call(client, "list_tasks", {"limit": 100})
        report["get_after"] = await call(client, "get_task", {"task_id": task_id})
    return report


SCENARIOS = {
    "live": live,
    "session": session,
    "roots": roots_flow,
    "no-roots": no_roots,
    "http-project": http_project,
    "tools": tools_only,
    "calls": calls,
    "busy": busy,
    "tasks": tasks,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", choices=sorted(SCENARIOS))
    ap.add_argument("--bin", required=True, help="the cocosearch binary")
    ap.add_argument("--project", required=True, help="the project directory (a root the client advertises)")
    ap.add_argument("--other-project", help="a second project (http-project)")
    ap.add_argument("--cwd", help="the server's working directory (stdio)")
    ap.add_argument("--url", help="streamable HTTP endpoint; stdio when absent")
    ap.add_argument("--token", help="bearer token for HTTP")
    ap.add_argument("--mode", default="legacy", help="legacy (initialize) or auto (2026-07-28 when the server has it)")
    ap.add_argument("--index", help="an index name (no-roots, busy)")
    ap.add_argument("--calls", help="calls: a JSON list of {tool, args, wait}")
    ap.add_argument("--roots", help="calls: a JSON list of root directories (default: --project)")
    ap.add_argument("--branch", help="tasks: the branch to link")
    ap.add_argument("--commit", help="tasks: the commit to link")
    ap.add_argument("--stdout-log", help="copy the server's stdout here (stdio)")
    ap.add_argument("--server-arg", action="append", default=[], help="extra argument to `cocosearch mcp`")
    ap.add_argument("--command", help="the server's whole command line, a JSON list (stdio; replaces --bin mcp)")
    args = ap.parse_args()
    report = asyncio.run(SCENARIOS[args.scenario](args))
    print(json.dumps(report, default=str))


if __name__ == "__main__":
    main()
