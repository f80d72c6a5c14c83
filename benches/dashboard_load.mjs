// Part of `cargo bench --bench dashboard` (not a test): the dashboard's first load in headless
// Chromium, measured by the page itself — from navigation start to the index cards drawn —
// in a new browser profile each time (nothing cached). Prints one JSON array of milliseconds.
//
// Environment: DASHBOARD_URL, LOADS, CHROMIUM, NODE_MODULES.

import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const require = createRequire(join(process.env.NODE_MODULES, "playwright-core", "package.json"));
const { chromium } = require("playwright-core");
const args = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const samples = [];
for (let i = 0; i < Number(process.env.LOADS || 10); i++) {
  const profile = mkdtempSync(join(tmpdir(), "cocosearch-bench-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM, headless: true, args });
  const page = context.pages()[0] || (await context.newPage());
  await page.goto(`${process.env.DASHBOARD_URL}/dashboard`);
  // Polled in the page on every animation frame: the time of the first frame with a card.
  const drawn = await page.waitForFunction(() => (document.querySelector(".card") ? performance.now() : null), null, { polling: "raf" });
  samples.push(await drawn.jsonValue());
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(samples) + "\n");
