// The dashboard in headless Chromium (Debian's package), driven by playwright-core: one pass
// through what a person does — open the page with the token link, read the counts, search
// with the keyboard, open a hit in the file viewer, re-index and watch the progress, delete
// an index (asked first) — and what an attacker tries: a path out of the root, a page on a
// foreign origin, a rebinding host name. It reports what it saw as JSON on stdout; the
// assertions are in browser.rs. Screenshots of the main views go to $SCREENSHOTS.
//
// Environment: DASHBOARD_URL, TOKEN, INDEX, SCRATCH (an index to delete), QUERY, EXPECT_PATH,
// OUTSIDE_PATH (a relative path leading out of the root), SCREENSHOTS, CHROMIUM,
// NODE_MODULES (where playwright-core is).

import { createRequire } from "node:module";
import { mkdtempSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import http from "node:http";

const env = (name) => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const require = createRequire(join(env("NODE_MODULES"), "playwright-core", "package.json"));
const { chromium } = require("playwright-core");

const url = env("DASHBOARD_URL");
const index = env("INDEX");
const scratch = env("SCRATCH");
const shots = env("SCREENSHOTS");
mkdirSync(shots, { recursive: true });
const report = { console_errors: [], screenshots: [] };
const profile = mkdtempSync(join(tmpdir(), "cocosearch-chromium-"));

// A page on another origin, for the foreign-origin checks.
const evilServer = http.createServer((_, res) => {
  res.writeHead(200, { "Content-Type": "text/html" });
  res.end("<!doctype html><title>elsewhere</title><p>a page on another site</p>");
});
await new Promise((resolve) => evilServer.listen(0, "127.0.0.1", resolve));
const evilPort = evilServer.address().port;
const dashboardPort = new URL(url).port;

const context = await chromium.launchPersistentContext(profile, {
  executablePath: env("CHROMIUM"),
  headless: true,
  viewport: { width: 1360, height: 900 },
  colorScheme: "light",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    // evil.example is this machine: a foreign origin, and a rebinding host name.
    "--host-resolver-rules=MAP evil.example 127.0.0.1",
  ],
});

async function shot(page, name, options = {}) {
  const path = join(shots, `${name}.png`);
  await page.screenshot({ path, ...options });
  report.screenshots.push(path);
}
const metric = (locator, name) => locator.locator(`[data-metric="${name}"]`).first().innerText();
const numberOf = (text) => Number(String(text).replace(/[^0-9.]/g, ""));

let page;
let probing = false;
try {
  page = context.pages()[0] || (await context.newPage());
  page.on("console", (m) => {
    // The refused probes below log their 403s on purpose; anything else is a fault.
    if (m.type() === "error" && !probing) report.console_errors.push(m.text());
  });
  page.on("pageerror", (e) => report.console_errors.push(e.message));

  // The token link: redirected to the page without the token, which then loads.
  const landing = await page.goto(`${url}/dashboard?token=${encodeURIComponent(env("TOKEN"))}`);
  report.landing = { status: landing.status(), url: page.url() };
  const card = page.locator(`.card[data-index="${index}"]`);
  await card.waitFor();
  report.overview = {
    cards: await page.$$eval(".card", (cards) => cards.map((c) => c.dataset.index)),
    files: numberOf(await metric(card, "files")),
    chunks: numberOf(await metric(card, "chunks")),
    badge: await card.locator(".badge").first().innerText(),
  };
  await shot(page, "overview", { fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await shot(page, "overview-dark", { fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });

  // One index.
  await card.locator("h2 a").click();
  await page.locator(`[data-detail="${index}"]`).waitFor();
  report.detail = { files: numberOf(await metric(page, "files")), panels: await page.$$eval(".panel h2", (hs) => hs.map((h) => h.firstChild.textContent.trim())) };
  await shot(page, "detail", { fullPage: true });

  // Search from the keyboard: "/" focuses the box, Enter searches.
  await page.keyboard.press("/");
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === "q");
  report.slash_focuses_search = true;
  await page.keyboard.type(env("QUERY"));
  await page.keyboard.press("Enter");
  await page.locator(".hit").first().waitFor();
  report.search = {
    paths: await page.$$eval(".hit", (hits) => hits.map((h) => h.dataset.path)),
    highlighted: await page.locator(".hit .tk-kw").count(),
    location: decodeURIComponent(new URL(page.url()).hash),
  };
  await shot(page, "search");
  await page.emulateMedia({ colorScheme: "dark" });
  await shot(page, "search-dark");
  await page.emulateMedia({ colorScheme: "light" });

  // The file viewer, opened from the hit with Enter, at the hit's lines; Escape closes it.
  const expected = env("EXPECT_PATH");
  const link = page.locator(`.hit[data-path="${expected}"] .hit-loc`).first();
  const hitLine = numberOf((await link.locator(".line").innerText()).split("–")[0]);
  await link.focus();
  await page.keyboard.press("Enter");
  await page.locator("#viewer[open] .ln.mark").first().waitFor();
  report.viewer = await page.evaluate(() => {
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
  });
  report.viewer.hit_line = hitLine;
  await shot(page, "viewer");
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector("#viewer").open);
  report.viewer.closed_by_escape = true;
  report.viewer.focus_back_on_hit = await page.evaluate(() => document.activeElement.classList.contains("hit-loc"));

  // Paths out of the root, asked by the page itself (same origin, with its cookie).
  probing = true;
  report.refused = await page.evaluate(async ({ index, outside }) => {
    const get = async (path) => {
      const r = await fetch(`/api/file?index=${encodeURIComponent(index)}&path=${encodeURIComponent(path)}`);
      return { status: r.status, body: await r.text() };
    };
    return { outside: await get(outside), symlink: await get("src/leak.py") };
  }, { index, outside: env("OUTSIDE_PATH") });
  probing = false;

  // Re-index: progress on the card, then the new counts.
  await page.goto(`${url}/dashboard#/`);
  await card.waitFor();
  report.reindex = { badge_before: await card.locator(".badge").first().innerText(), files_before: numberOf(await metric(card, "files")) };
  await page.evaluate(() => {
    window.__progress = [];
    const record = () => {
      for (const p of document.querySelectorAll(".progress")) {
        const entry = { text: p.querySelector(".progress-top").innerText, cls: p.className, percent: p.querySelector("[role=progressbar]").getAttribute("aria-valuenow") };
        const last = window.__progress[window.__progress.length - 1];
        if (!last || last.text !== entry.text || last.cls !== entry.cls) window.__progress.push(entry);
      }
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await card.locator('[data-action="reindex"]').click();
  await page.locator(".progress:not(.done)").first().waitFor();
  report.reindex.button_disabled_while_running = await card.locator('[data-action="reindex"]').isDisabled();
  await shot(page, "reindex-progress");
  await page.locator(`.card[data-index="${index}"] .progress.done`).waitFor({ timeout: 180000 });
  report.reindex.progress = await page.evaluate(() => window.__progress);
  report.reindex.files_after = numberOf(await metric(card, "files"));
  report.reindex.chunks_after = numberOf(await metric(card, "chunks"));
  report.reindex.badge_after = await card.locator(".badge").first().innerText();
  report.reindex.toast = await page.locator(".toast").last().innerText();
  await shot(page, "reindex-done", { fullPage: true });

  // Delete asks first: Cancel (focused, so Enter) keeps the index; confirming deletes it.
  const scratchCard = page.locator(`.card[data-index="${scratch}"]`);
  await scratchCard.locator('[data-action="delete"]').click();
  await page.locator("#confirm[open]").waitFor();
  report.delete = {
    dialog: await page.locator("#confirm").innerText(),
    focused: await page.evaluate(() => document.activeElement.textContent),
  };
  await shot(page, "delete-confirm");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => !document.querySelector("#confirm").open);
  const listed = () => page.evaluate(async () => (await (await fetch("/api/indexes")).json()).indexes.map((i) => i.name));
  report.delete.after_cancel = await listed();
  await scratchCard.locator('[data-action="delete"]').click();
  await page.locator("#confirm[open]").waitFor();
  await page.locator("#confirm-ok").click();
  await scratchCard.waitFor({ state: "detached" });
  report.delete.after_confirm = await listed();
  report.delete.cards_after = await page.$$eval(".card", (cards) => cards.map((c) => c.dataset.index));

  // A page on another site: its requests carry its Origin and are refused; the rebinding
  // host name is refused too.
  const evil = await context.newPage();
  await evil.goto(`http://evil.example:${evilPort}/`);
  const attempt = async (method) => {
    const request = evil.waitForRequest((r) => r.url().startsWith(`${url}/api/`) && r.method() === method);
    const outcome = await evil.evaluate(
      ({ u, index, method }) => {
        const init = method === "POST" ? { method, body: JSON.stringify({ index }), headers: { "Content-Type": "text/plain" } } : {};
        const target = method === "POST" ? `${u}/api/jobs` : `${u}/api/indexes`;
        return fetch(target, { ...init, credentials: "include" }).then((r) => `read ${r.status}`, (e) => `failed: ${e}`);
      },
      { u: url, index, method }
    );
    await request;
    return { outcome };
  };
  report.foreign = { get: await attempt("GET"), post: await attempt("POST") };
  const rebinding = await evil.goto(`http://evil.example:${dashboardPort}/dashboard`);
  report.foreign.rebinding = rebinding.status();
  report.jobs_after_foreign = await page.evaluate(async () => (await (await fetch("/api/jobs")).json()).jobs.length);
} catch (error) {
  report.error = String(error && error.stack ? error.stack : error);
  if (page) await shot(page, "failure", { fullPage: true }).catch(() => {});
} finally {
  await context.close().catch(() => {});
  evilServer.close();
  rmSync(profile, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(report, null, 2) + "\n");
process.exit(report.error ? 1 : 0);
