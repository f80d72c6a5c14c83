"""The dashboard in headless Chromium (Debian's package), driven by Playwright for Python.

One pass through what a person does (open the page with the token link, read the counts,
search with the keyboard, open a hit in the file viewer, re-index and watch the progress,
delete an index, asked first) and what an attacker tries (a path out of the root, a page on a
foreign origin, a rebinding host name). It reports what it saw as JSON on stdout; the
assertions are in browser.rs. Screenshots of the main views go to $SCREENSHOTS.

Environment: DASHBOARD_URL, TOKEN, INDEX, SCRATCH (an index to delete), QUERY, EXPECT_PATH,
OUTSIDE_PATH (a relative path leading out of the root), SCREENSHOTS, CHROMIUM.
"""

import http.server
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import traceback
from urllib.parse import quote, unquote, urlparse

from playwright.sync_api import sync_playwright


def env(name):
    value = os.environ.get(name)
    if value is None:
        raise RuntimeError("%s is not set" % name)
    return value


url = env("DASHBOARD_URL")
index = env("INDEX")
scratch = env("SCRATCH")
shots = env("SCREENSHOTS")
os.makedirs(shots, exist_ok=True)
# Only this run's pictures: a failure.png left from an earlier run would mislead.
for old in os.listdir(shots):
    if old.endswith(".png"):
        os.remove(os.path.join(shots, old))
report = {"console_errors": [], "screenshots": []}
profile = tempfile.mkdtemp(prefix="cocosearch-chromium-")


class Elsewhere(http.server.BaseHTTPRequestHandler):
    """A page on another origin, for the foreign-origin checks."""

    def do_GET(self):
        body = b"<!doctype html><title>elsewhere</title><p>a page on another site</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


evil_server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Elsewhere)
threading.Thread(target=evil_server.serve_forever, daemon=True).start()
evil_port = evil_server.server_address[1]
dashboard_port = urlparse(url).port


def shot(page, name, full_page=False):
    path = os.path.join(shots, "%s.png" % name)
    page.screenshot(path=path, full_page=full_page)
    report["screenshots"].append(path)


def metric(locator, name):
    return locator.locator('[data-metric="%s"]' % name).first.inner_text()


def number_of(text):
    digits = re.sub(r"[^0-9.]", "", str(text))
    return float(digits) if "." in digits else int(digits)


probing = False


def on_console(message):
    # The refused probes below log their 403s on purpose; anything else is a fault.
    if message.type == "error" and not probing:
        report["console_errors"].append(message.text)


RECORD_PROGRESS = """() => {
  window.__progress = [];
  const record = () => {
    for (const p of document.querySelectorAll(".progress")) {
      const entry = {
        text: p.querySelector(".progress-top").innerText,
        cls: p.className,
        percent: p.querySelector("[role=progressbar]").getAttribute("aria-valuenow"),
      };
      const last = window.__progress[window.__progress.length - 1];
      if (!last || last.text !== entry.text || last.cls !== entry.cls) window.__progress.push(entry);
    }
  };
  new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
}"""

VIEWER_STATE = """() => {
  const marks = [...document.querySelectorAll("#viewer .ln.mark")].map((l) => Number(l.dataset.line));
  const first = document.querySelector("#viewer .ln.mark");
  const box = document.querySelector("#viewer-code").getBoundingClientRect();
  const row = first.getBoundingClientRect();
  return {
    title: document.querySelector("#viewer-title").textContent,
    marked: [marks[0], marks[marks.length - 1]],
    visible: row.top >= box.top && row.bottom <= box.bottom,
    scrolled: document.querySelector("#viewer-code").scrollTop,
    text: first.querySelector(".c").textContent,
    focus: document.activeElement.id,
  };
}"""

PROBE_OUTSIDE = """async ({ index, outside }) => {
  const get = async (path) => {
    const r = await fetch(`/api/file?index=${encodeURIComponent(index)}&path=${encodeURIComponent(path)}`);
    return { status: r.status, body: await r.text() };
  };
  return { outside: await get(outside), symlink: await get("src/leak.py") };
}"""

LISTED = "async () => (await (await fetch('/api/indexes')).json()).indexes.map((i) => i.name)"

FOREIGN_FETCH = """({ u, index, method }) => {
  const init = method === "POST"
    ? { method, body: JSON.stringify({ index }), headers: { "Content-Type": "text/plain" } }
    : {};
  const target = method === "POST" ? `${u}/api/jobs` : `${u}/api/indexes`;
  return fetch(target, { ...init, credentials: "include" }).then((r) => `read ${r.status}`, (e) => `failed: ${e}`);
}"""


def run(context):
    global probing
    page = context.pages[0] if context.pages else context.new_page()
    try:
        page.on("console", on_console)
        page.on("pageerror", lambda e: report["console_errors"].append(str(e)))

        # The token link: redirected to the page without the token, which then loads.
        landing = page.goto("%s/dashboard?token=%s" % (url, quote(env("TOKEN"), safe="")))
        report["landing"] = {"status": landing.status, "url": page.url}
        card = page.locator('.card[data-index="%s"]' % index)
        card.wait_for()
        report["overview"] = {
            "cards": page.eval_on_selector_all(".card", "cards => cards.map((c) => c.dataset.index)"),
            "files": number_of(metric(card, "files")),
            "chunks": number_of(metric(card, "chunks")),
            "badge": card.locator(".badge").first.inner_text(),
            "warnings": card.locator(".warnings").first.inner_text(),
        }
        shot(page, "overview", full_page=True)
        page.emulate_media(color_scheme="dark")
        shot(page, "overview-dark", full_page=True)
        page.emulate_media(color_scheme="light")

        # One index.
        card.locator("h2 a").click()
        page.locator('[data-detail="%s"]' % index).wait_for()
        report["detail"] = {
            "files": number_of(metric(page, "files")),
            "panels": page.eval_on_selector_all(".panel h2", "hs => hs.map((h) => h.firstChild.textContent.trim())"),
        }
        shot(page, "detail", full_page=True)

        # Search from the keyboard: "/" focuses the box, Enter searches.
        page.keyboard.press("/")
        page.wait_for_function("() => document.activeElement && document.activeElement.id === 'q'")
        report["slash_focuses_search"] = True
        page.keyboard.type(env("QUERY"))
        page.keyboard.press("Enter")
        page.locator(".hit").first.wait_for()
        report["search"] = {
            "paths": page.eval_on_selector_all(".hit", "hits => hits.map((h) => h.dataset.path)"),
            "highlighted": page.locator(".hit .tk-kw").count(),
            "location": unquote(urlparse(page.url).fragment),
        }
        # A long hit is clamped with a button that shows all of it.
        long_hit = page.locator('.hit[data-path="%s"]' % env("EXPECT_PATH")).first
        more = long_hit.locator(".hit-more")
        clamped_height = long_hit.locator(".code").evaluate("(c) => c.clientHeight")
        report["search"]["more"] = {
            "label": more.inner_text(),
            "clamped": long_hit.locator(".code.clamped").count(),
        }
        shot(page, "search")
        more.focus()
        page.keyboard.press("Enter")
        report["search"]["more"]["expanded"] = {
            "label": more.inner_text(),
            "clamped": long_hit.locator(".code.clamped").count(),
            "grew": long_hit.locator(".code").evaluate("(c) => c.clientHeight") > clamped_height,
        }
        page.keyboard.press("Enter")
        page.emulate_media(color_scheme="dark")
        shot(page, "search-dark")
        page.emulate_media(color_scheme="light")

        # The file viewer, opened from the hit with Enter, at the hit's lines; Escape closes it.
        link = page.locator('.hit[data-path="%s"] .hit-loc' % env("EXPECT_PATH")).first
        hit_line = number_of(link.locator(".line").inner_text().split("\u2013")[0])
        link.focus()
        page.keyboard.press("Enter")
        page.locator("#viewer[open] .ln.mark").first.wait_for()
        report["viewer"] = page.evaluate(VIEWER_STATE)
        report["viewer"]["hit_line"] = hit_line
        shot(page, "viewer")
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.querySelector('#viewer').open")
        report["viewer"]["closed_by_escape"] = True
        report["viewer"]["focus_back_on_hit"] = page.evaluate(
            "() => document.activeElement.classList.contains('hit-loc')")

        # The symbol of the archive hit opens its code graph: definitions and references.
        page.locator('.hit[data-path="%s"] .sym-link' % env("EXPECT_PATH")).first.click()
        page.locator('[data-section="References"]').wait_for()
        report["graph"] = {
            "title": page.locator(".page-head h1").inner_text(),
            "definitions": page.eval_on_selector_all(
                '[data-section="Definitions"] li', "items => items.map((i) => i.dataset.path)"),
            "references": page.eval_on_selector_all(
                '[data-section="References"] li', "items => items.map((i) => [i.dataset.path, i.dataset.caller])"),
        }
        shot(page, "graph")

        # A search at an older snapshot: the Snapshot field offers it, and its hits are its own.
        page.goto("%s/dashboard#/search" % url)
        page.locator('#f-at option[value="v1"]').wait_for(state="attached")
        options = page.eval_on_selector_all("#f-at option", "os => os.map((o) => o.value)")
        page.fill("#q", "hash a file the old way with md5")
        page.select_option("#f-at", "v1")
        page.locator("button[type=submit]").click()
        page.locator("[data-at]").wait_for()
        page.locator(".hit").first.wait_for()
        report["snapshot_search"] = {
            "options": options,
            "at": page.locator("[data-at]").inner_text(),
            "paths": page.eval_on_selector_all(".hit", "hits => hits.map((h) => h.dataset.path)"),
        }
        shot(page, "search-at-snapshot")

        # A search of one name says whether it names a definition, as the symbol tools do.
        page.goto("%s/dashboard#/search" % url)
        page.fill("#q", "verify_archive_checksum")
        page.locator("button[type=submit]").click()
        page.locator(".resolution").wait_for()
        report["resolution"] = {
            "state": page.locator(".resolution").get_attribute("data-state"),
            "text": page.locator(".resolution").inner_text(),
        }

        # Several indexes at once: tick the scratch index too; one ranking, each hit its index.
        page.goto("%s/dashboard#/search" % url)
        page.locator("#f-index summary").click()
        page.locator('#f-index input[value="%s"]' % scratch).check()
        page.fill("#q", "notes to throw away")
        page.locator("button[type=submit]").click()
        page.locator(".hit").first.wait_for()
        report["several_indexes"] = {
            "picker": page.locator("#f-index summary").inner_text(),
            "hash": unquote(page.evaluate("() => location.hash")),
            "hits": page.eval_on_selector_all(".hit", "hits => hits.map((h) => [h.dataset.index, h.dataset.path])"),
            "snapshot_field_disabled": page.locator("#f-at").is_disabled(),
        }
        shot(page, "search-several-indexes")
        # Grep mode reads both projects too.
        page.select_option("#f-mode", "grep")
        page.fill("#q", "throw away|Archive helpers")
        page.locator("button[type=submit]").click()
        page.locator(".grep-hit").first.wait_for()
        report["several_indexes"]["grep"] = page.eval_on_selector_all(
            ".grep-hit", "hits => hits.map((h) => [h.dataset.index, h.dataset.path])")

        # Paths out of the root, asked by the page itself (same origin, with its cookie).
        probing = True
        report["refused"] = page.evaluate(PROBE_OUTSIDE, {"index": index, "outside": env("OUTSIDE_PATH")})
        probing = False

        # Re-index: progress on the card, then the new counts.
        page.goto("%s/dashboard#/" % url)
        card.wait_for()
        reindex = report["reindex"] = {
            "badge_before": card.locator(".badge").first.inner_text(),
            "files_before": number_of(metric(card, "files")),
        }
        page.evaluate(RECORD_PROGRESS)
        card.locator('[data-action="reindex"]').click()
        page.locator(".progress:not(.done)").first.wait_for()
        reindex["button_disabled_while_running"] = card.locator('[data-action="reindex"]').is_disabled()
        shot(page, "reindex-progress")
        page.locator('.card[data-index="%s"] .progress.done' % index).wait_for(timeout=180_000)
        reindex["progress"] = page.evaluate("() => window.__progress")
        reindex["files_after"] = number_of(metric(card, "files"))
        reindex["chunks_after"] = number_of(metric(card, "chunks"))
        reindex["badge_after"] = card.locator(".badge").first.inner_text()
        reindex["toast"] = page.locator(".toast").last.inner_text()
        shot(page, "reindex-done", full_page=True)

        # Delete asks first: Cancel (focused, so Enter) keeps the index; confirming deletes it.
        scratch_card = page.locator('.card[data-index="%s"]' % scratch)
        scratch_card.locator('[data-action="delete"]').click()
        page.locator("#confirm[open]").wait_for()
        delete = report["delete"] = {
            "dialog": page.locator("#confirm").inner_text(),
            "focused": page.evaluate("() => document.activeElement.textContent"),
        }
        shot(page, "delete-confirm")
        page.keyboard.press("Enter")
        page.wait_for_function("() => !document.querySelector('#confirm').open")
        delete["after_cancel"] = page.evaluate(LISTED)
        scratch_card.locator('[data-action="delete"]').click()
        page.locator("#confirm[open]").wait_for()
        page.locator("#confirm-ok").click()
        scratch_card.wait_for(state="detached")
        delete["after_confirm"] = page.evaluate(LISTED)
        delete["cards_after"] = page.eval_on_selector_all(".card", "cards => cards.map((c) => c.dataset.index)")

        # A page on another site: its requests carry its Origin and are refused; the rebinding
        # host name is refused too.
        evil = context.new_page()
        evil.goto("http://evil.example:%d/" % evil_port)

        def attempt(method):
            wanted = lambda r: r.url.startswith(url + "/api/") and r.method == method  # noqa: E731
            with evil.expect_request(wanted):
                outcome = evil.evaluate(FOREIGN_FETCH, {"u": url, "index": index, "method": method})
            return {"outcome": outcome}

        report["foreign"] = {"get": attempt("GET"), "post": attempt("POST")}
        rebinding = evil.goto("http://evil.example:%d/dashboard" % dashboard_port)
        report["foreign"]["rebinding"] = rebinding.status
        report["jobs_after_foreign"] = page.evaluate(
            "async () => (await (await fetch('/api/jobs')).json()).jobs.length")
    except Exception:
        report["error"] = traceback.format_exc()
        try:
            shot(page, "failure", full_page=True)
        except Exception:
            pass


def main():
    try:
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                profile,
                executable_path=env("CHROMIUM"),
                headless=True,
                viewport={"width": 1360, "height": 900},
                color_scheme="light",
                args=[
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    # evil.example is this machine: a foreign origin, and a rebinding host name.
                    "--host-resolver-rules=MAP evil.example 127.0.0.1",
                ],
            )
            try:
                run(context)
            finally:
                context.close()
    except Exception:
        report.setdefault("error", traceback.format_exc())
    finally:
        evil_server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    sys.stdout.write(json.dumps(report, indent=2) + "\n")
    sys.exit(1 if "error" in report else 0)


main()
