"""Part of `cargo bench --bench dashboard` (not a test): the dashboard's first load in headless
Chromium, measured by the page itself (from navigation start to the index cards drawn), in a
new browser profile each time (nothing cached). Prints one JSON array of milliseconds.

Environment: DASHBOARD_URL, LOADS, CHROMIUM; run with the python `scripts/testenv.py browser`
names (COCOSEARCH_TEST_PLAYWRIGHT_PYTHON).
"""

import json
import os
import shutil
import sys
import tempfile

from playwright.sync_api import sync_playwright

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Polled in the page on every animation frame: the time of the first frame with a card.
DRAWN = "() => (document.querySelector('.card') ? performance.now() : null)"

samples = []
with sync_playwright() as p:
    for _ in range(int(os.environ.get("LOADS", "10"))):
        profile = tempfile.mkdtemp(prefix="cocosearch-bench-")
        try:
            context = p.chromium.launch_persistent_context(
                profile, executable_path=os.environ["CHROMIUM"], headless=True, args=ARGS)
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(os.environ["DASHBOARD_URL"] + "/dashboard")
            samples.append(page.wait_for_function(DRAWN, polling="raf").json_value())
            context.close()
        finally:
            shutil.rmtree(profile, ignore_errors=True)
sys.stdout.write(json.dumps(samples) + "\n")
