// The cocosearch dashboard: a small single-page app over the JSON API under /api/ (see
// docs/dashboard.md). Views by location hash: #/ (every index), #/index/NAME (one index),
// #/search?q=... (search; the parameters are those of /api/search). No framework and no build
// step: elements are made with h(), and text from indexes (paths, symbols, file content) only
// ever reaches the page as text nodes or through Highlight, which escapes it.
"use strict";

(() => {
  // ---------------------------------------------------------------- helpers

  const $ = (selector, root = document) => root.querySelector(selector);
  const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

  // An element: h("a", {href: "#/", class: "x", onclick: f}, "text", child, [more]).
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
      else if (key === "class") el.className = value;
      else if (key === "width") el.style.width = value;
      else if (key === "html") el.innerHTML = value; // Only ever given Highlight's escaped output.
      else el.setAttribute(key, value === true ? "" : value);
    }
    append(el, children);
    return el;
  }
  function append(el, children) {
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      el.append(child instanceof Node ? child : String(child));
    }
    return el;
  }
  // Replaces an element's children (arrays flattened, null and false skipped).
  function setChildren(el, ...children) {
    el.replaceChildren();
    return append(el, children);
  }
  function svg(tag, attrs, ...children) {
    const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, value);
    for (const child of children.flat()) if (child) el.append(child);
    return el;
  }
  const icon = (d) => svg("svg", { viewBox: "0 0 24 24", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round", "stroke-linejoin": "round", "aria-hidden": "true" }, svg("path", { d }));
  const ICONS = {
    search: "M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16zM21 21l-4.35-4.35",
    refresh: "M21 12a9 9 0 1 1-2.64-6.36M21 3v6h-6",
    rebuild: "M3 12a9 9 0 0 1 15.5-6.2L21 8M21 3v5h-5M21 12a9 9 0 0 1-15.5 6.2L3 16M3 21v-5h5",
    trash: "M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6",
    edit: "M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z",
  };

  const number = (n) => Number(n || 0).toLocaleString("en-US");
  function bytes(n) {
    const units = ["B", "KB", "MB", "GB", "TB"];
    let value = Number(n || 0);
    let unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit += 1;
    }
    return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
  }
  function ago(iso) {
    if (!iso) return "never";
    const seconds = (Date.now() - Date.parse(iso)) / 1000;
    if (!Number.isFinite(seconds)) return iso;
    if (seconds < 45) return "just now";
    const steps = [[60, "min", 60], [24, "h", 3600], [30, "d", 86400], [12, "mo", 2592000]];
    for (const [limit, unit, size] of steps) if (seconds / size < limit) return `${Math.max(1, Math.round(seconds / size))} ${unit} ago`;
    return `${Math.round(seconds / 31536000)} y ago`;
  }
  function duration(ms) {
    if (ms === null || ms === undefined) return "";
    if (ms < 1000) return `${ms} ms`;
    if (ms < 60000) return `${(ms / 1000).toFixed(1)} s`;
    return `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`;
  }
  const short = (commit) => (commit ? commit.slice(0, 8) : "?");
  const plural = (n, word) => `${number(n)} ${word}${Number(n) === 1 ? "" : "s"}`;
  const label = (snake) => String(snake).replace(/_/g, " ").replace("utf8", "UTF-8");
  const backendName = (b) => ({ sqlite: "SQLite", postgres: "PostgreSQL" })[b] || b;

  // ---------------------------------------------------------------- API

  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }
  async function api(path, options = {}) {
    const init = { method: options.method || "GET", credentials: "same-origin", headers: {} };
    if (options.body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(options.body);
    }
    const response = await fetch(path, init);
    let data = null;
    try {
      data = await response.json();
    } catch (_) {
      data = null;
    }
    if (!response.ok) {
      const error = new ApiError(response.status, (data && data.error) || `${response.status} ${response.statusText}`);
      if (response.status === 401) showTokenNeeded();
      throw error;
    }
    return data;
  }

  // ---------------------------------------------------------------- state

  const state = {
    info: null,
    indexes: null,
    // The last job seen per index (running, or just finished), to draw its progress.
    jobs: new Map(),
    // Event streams open, by job id.
    streams: new Map(),
    view: null,
  };
  const main = () => $("#main");

  // ---------------------------------------------------------------- toasts

  function toast(title, text, kind = "") {
    const el = h("div", { class: `toast ${kind}` }, h("b", {}, title), text ? h("div", {}, text) : null);
    $("#toasts").append(el);
    setTimeout(() => el.remove(), kind === "bad" ? 12000 : 6000);
  }

  // ---------------------------------------------------------------- top bar

  function renderStatus() {
    const status = $("#status");
    setChildren(status);
    const info = state.info;
    if (!info) return;
    if (info.store.error) {
      status.append(h("span", { class: "pill", title: info.store.error }, h("span", { class: "dot bad" }), "store unreachable"));
    } else {
      status.append(
        h("span", { class: "pill", title: `${info.store.choice}\n${info.store.location}` },
          h("span", { class: "dot" }), h("b", {}, backendName(info.store.backend)), info.store.location)
      );
    }
    const embedder = info.embedder;
    const pill = embedder.provider === "none"
      ? h("span", { class: "pill", title: "embedding.provider is none: keyword search only" }, h("span", { class: "dot off" }), "keyword search only")
      : h("span", { class: "pill", id: "embedder-pill", title: `${embedder.provider} at ${embedder.url}` },
        h("span", { class: "dot off" }), h("b", {}, embedder.model), embedder.provider);
    status.append(pill);
    status.append(h("span", { class: "pill", title: "cocosearch version" }, `v${info.version}`));
  }

  // Asks /health whether the embedder answers, after the page is drawn (it costs a request to it).
  async function checkHealth() {
    try {
      const response = await fetch("/health", { credentials: "same-origin" });
      const health = await response.json();
      const dot = $("#embedder-pill .dot");
      if (dot && health.embedder) {
        dot.className = `dot ${health.embedder.reachable ? "" : "bad"}`;
        if (!health.embedder.reachable) $("#embedder-pill").title = `not answering: ${health.embedder.error || ""}`;
      }
    } catch (_) {
      // The page works without it.
    }
  }

  function showTokenNeeded() {
    setChildren(main(), 
      h("div", { class: "empty-state" },
        h("h2", {}, "This server needs its token"),
        h("p", {}, "Open the address that ", h("code", {}, "cocosearch dashboard"), " opened, or add ",
          h("code", {}, "?token=…"), " with the value of ", h("code", {}, "mcp.token"), " to this address once."))
    );
  }

  // ---------------------------------------------------------------- router

  function route() {
    const hash = location.hash || "#/";
    const [path, query] = hash.slice(1).split("?");
    const params = new URLSearchParams(query || "");
    let view = "indexes";
    if (path.startsWith("/index/")) {
      view = "index";
      renderIndex(decodeURIComponent(path.slice("/index/".length)));
    } else if (path === "/search") {
      view = "search";
      renderSearch(params);
    } else if (path === "/symbol") {
      view = "search";
      renderSymbol(params);
    } else {
      renderOverview();
    }
    for (const a of $$(".tabs a")) {
      const current = a.dataset.nav === view || (view === "index" && a.dataset.nav === "indexes");
      if (current) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    }
  }

  // ---------------------------------------------------------------- jobs and progress

  function jobText(job) {
    const s = job.summary;
    if (job.state === "failed") return `Failed: ${job.error || "see the server log"}`;
    if (!s) return job.message;
    const f = s.files || {};
    const changed = (f.added || 0) + (f.modified || 0) + (f.removed || 0);
    const parts = [changed ? `+${number(f.added)} ~${number(f.modified)} −${number(f.removed)} files` : "no file changed"];
    parts.push(`${plural((s.chunks || {}).written || 0, "chunk")} written`);
    parts.push(`in ${duration(s.elapsed_ms)}`);
    const verb = job.fresh ? "Rebuilt" : "Re-indexed";
    return `${job.state === "completed" ? verb : label(job.state)}: ${parts.join(", ")}`;
  }

  // The job's message without the index name the card already shows: "Walking the tree, …".
  function runningText(job) {
    const text = job.message.startsWith(`${job.index}: `) ? job.message.slice(job.index.length + 2) : job.message;
    return `${job.fresh ? "Rebuilding" : "Re-indexing"}: ${text}`;
  }

  function progressEl(job) {
    const done = job.state !== "running";
    const failed = job.state === "failed" || job.state === "interrupted";
    const percent = Math.round(job.percent || 0);
    const fill = h("span", { class: "progress-fill", width: `${done ? 100 : percent}%` });
    return h("div", { class: `progress${done ? (failed ? " failed" : " done") : ""}`, "data-progress": job.index, role: "status" },
      h("div", { class: "progress-top" }, h("span", {}, done ? jobText(job) : runningText(job)), h("span", {}, done ? "" : `${percent}%`)),
      h("div", { class: "progress-track", role: "progressbar", "aria-label": `indexing ${job.index}`, "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": String(done ? 100 : percent) }, fill));
  }

  function drawProgress(job) {
    for (const slot of $$(`[data-progress-slot="${CSS.escape(job.index)}"]`)) setChildren(slot, progressEl(job));
    for (const button of $$(`[data-action][data-index="${CSS.escape(job.index)}"]`)) {
      if (button.dataset.action !== "search") button.disabled = job.state === "running";
    }
  }

  // Follows a job's event stream until it ends, drawing its progress, then reloads the view.
  function follow(job) {
    state.jobs.set(job.index, job);
    drawProgress(job);
    if (job.state !== "running" || state.streams.has(job.job_id)) return;
    const stream = new EventSource(`/api/jobs/${encodeURIComponent(job.job_id)}/events`);
    state.streams.set(job.job_id, stream);
    stream.addEventListener("progress", (event) => {
      const update = JSON.parse(event.data);
      state.jobs.set(update.index, update);
      drawProgress(update);
    });
    stream.addEventListener("done", async (event) => {
      stream.close();
      state.streams.delete(job.job_id);
      const final = JSON.parse(event.data);
      state.jobs.set(final.index, final);
      const ok = final.state === "completed";
      toast(ok ? `${final.fresh ? "Rebuilt" : "Re-indexed"} ${final.index}` : `Indexing ${final.index}: ${final.state}`, jobText(final), ok ? "ok" : "bad");
      await refreshView();
      drawProgress(final);
    });
    stream.onerror = () => {
      // The server went away or ended the stream early: stop, and say so on the next draw.
      if (stream.readyState === EventSource.CLOSED) state.streams.delete(job.job_id);
    };
  }

  async function startJob(index, fresh) {
    try {
      const answer = await api("/api/jobs", { method: "POST", body: { index, fresh } });
      follow(answer.job);
      if (!answer.started) toast(`${index} is already being indexed`, "Following the running job.");
    } catch (error) {
      toast(`Cannot ${fresh ? "rebuild" : "re-index"} ${index}`, error.message, "bad");
    }
  }

  // Asks first; deletes; goes back to every index.
  async function deleteIndex(stats) {
    const sure = await confirmDialog({
      title: `Delete index ${stats.name}?`,
      text: `This removes its ${plural(stats.files, "file")} and ${plural(stats.chunks, "chunk")} from the ${backendName(stats.backend)} store. The project's files are not touched; re-running cocosearch index builds it again.`,
      ok: "Delete index",
    });
    if (!sure) return;
    try {
      await api(`/api/indexes/${encodeURIComponent(stats.name)}`, { method: "DELETE" });
      state.jobs.delete(stats.name);
      toast(`Deleted ${stats.name}`, null, "ok");
      if (location.hash.startsWith("#/index/")) location.hash = "#/";
      else await refreshView();
    } catch (error) {
      toast(`Cannot delete ${stats.name}`, error.message, "bad");
    }
  }

  function confirmDialog({ title, text, ok }) {
    const dialog = $("#confirm");
    $("#confirm-title").textContent = title;
    $("#confirm-text").textContent = text;
    $("#confirm-ok").textContent = ok;
    dialog.returnValue = "";
    const opener = document.activeElement;
    dialog.showModal();
    $("button[value=cancel]", dialog).focus();
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => {
        if (opener && opener.focus) opener.focus();
        resolve(dialog.returnValue === "confirm");
      }, { once: true });
    });
  }

  function actions(stats, size = "") {
    const disabled = stats.job && stats.job.state === "running";
    const refuse = stats.servable ? null : "this server does not read files of this root";
    return [
      h("a", { class: `btn ${size}`, href: `#/search?index=${encodeURIComponent(stats.name)}`, "data-action": "search", "data-index": stats.name }, icon(ICONS.search), "Search"),
      h("span", { class: "spacer" }),
      h("button", { type: "button", class: `btn ${size}`, "data-action": "reindex", "data-index": stats.name, disabled: disabled || !!refuse, title: refuse || "Index what changed since the last run", onclick: () => startJob(stats.name, false) }, icon(ICONS.refresh), "Re-index"),
      h("button", { type: "button", class: `btn ${size}`, "data-action": "rebuild", "data-index": stats.name, disabled: disabled || !!refuse, title: refuse || "Delete and rebuild from nothing (--fresh)", onclick: () => startJob(stats.name, true) }, icon(ICONS.rebuild), "Rebuild"),
      h("button", { type: "button", class: `btn danger ${size}`, "data-action": "delete", "data-index": stats.name, disabled, onclick: () => deleteIndex(stats) }, icon(ICONS.trash), "Delete"),
    ];
  }

  // ---------------------------------------------------------------- index overview

  function freshnessBadge(stats) {
    const f = stats.freshness;
    if (!stats.servable) return h("span", { class: "badge", title: "the project rule refuses this root" }, "Not served");
    if (!f.scanned) return h("span", { class: "badge bad" }, "Root missing");
    const live = stats.watched_by && stats.watched_by.following === "live";
    if (live) return h("span", { class: "badge ok", title: `kept fresh by ${stats.watched_by.process}` }, "Live");
    return f.stale ? h("span", { class: "badge warn" }, "Behind") : h("span", { class: "badge ok" }, "Up to date");
  }

  // Who keeps an index fresh as files change, for the freshness panel.
  function watcherText(stats) {
    const w = stats.watched_by;
    if (!w) return "none — `cocosearch watch` (or this dashboard, unless --no-watch) keeps it fresh";
    const state = w.following === "live" ? "follows every change" : "catching up with the files";
    return `${w.process}, since ${ago(w.since)}: ${state}`;
  }

  function behind(f) {
    const parts = [];
    if (f.added.count) parts.push(`${number(f.added.count)} added`);
    if (f.modified.count) parts.push(`${number(f.modified.count)} modified`);
    if (f.removed.count) parts.push(`${number(f.removed.count)} removed`);
    if (f.commit_drift) parts.push("HEAD moved");
    if (f.branch_drift) parts.push("branch changed");
    if (f.stale_by_age) parts.push(`${Math.round(f.age_days)} days old`);
    return parts;
  }

  function warnings(stats) {
    const list = [];
    const f = stats.freshness;
    if (!stats.servable) list.push(["bad", "The project rule refuses this root: the dashboard shows counts only."]);
    else if (!f.scanned) list.push(["bad", `The root is gone: ${stats.root}`]);
    else if (f.stale) list.push(["", `Behind the files: ${behind(f).join(" · ")}. Re-index to catch up.`]);
    if (stats.pending_embeddings > 0) list.push(["", `${plural(stats.pending_embeddings, "chunk")} await vectors: re-index with the embedder up.`]);
    if (stats.last_run && stats.last_run.status !== "completed") list.push(["bad", `The last run ${stats.last_run.status === "running" ? "is still running" : `was ${stats.last_run.status}`}.`]);
    const health = stats.parse_health.ok_percent;
    if (health !== null && health < 90) list.push(["", `Only ${health}% of chunks parsed cleanly.`]);
    if (!stats.model) list.push(["", "No embedding model yet: keyword search only."]);
    return list;
  }

  const PALETTE = ["c1", "c2", "c3", "c4", "c5", "c6", "c7"];
  function languageStrip(stats) {
    const total = stats.languages.reduce((sum, l) => sum + l.chunks, 0) || 1;
    const top = stats.languages.slice(0, 6);
    const rest = stats.languages.slice(6).reduce((sum, l) => sum + l.chunks, 0);
    const parts = top.map((l, i) => ({ name: l.language, chunks: l.chunks, color: PALETTE[i] }));
    if (rest) parts.push({ name: "other", chunks: rest, color: "c7" });
    return h("div", {},
      h("div", { class: "strip", role: "img", "aria-label": `chunks by language: ${parts.map((p) => `${p.name} ${Math.round((p.chunks * 100) / total)}%`).join(", ")}` },
        parts.map((p) => h("span", { class: `fill-${p.color}`, width: `${(p.chunks * 100) / total}%`, title: `${p.name}: ${number(p.chunks)} chunks` }))),
      h("div", { class: "strip-legend" }, parts.map((p) => h("span", {}, h("span", { class: `swatch fill-${p.color}` }), `${p.name} ${Math.round((p.chunks * 100) / total)}%`))));
  }

  function card(stats) {
    const embedded = stats.chunks - Math.min(stats.pending_embeddings, stats.chunks);
    const run = stats.last_run;
    const f = stats.freshness;
    const git = stats.git_commit || f.head_commit
      ? [`${stats.git_branch || "detached"} @ ${short(stats.git_commit)}`, f.commit_drift || f.branch_drift ? h("span", { class: "badge warn" }, `HEAD ${f.head_branch || "detached"} @ ${short(f.head_commit)}`) : null]
      : null;
    const warningList = warnings(stats);
    return h("article", { class: "card", "data-index": stats.name },
      h("div", {},
        h("div", { class: "card-head" },
          h("h2", {}, h("a", { href: `#/index/${encodeURIComponent(stats.name)}` }, stats.name)),
          h("div", { class: "badges" }, freshnessBadge(stats), h("span", { class: "badge" }, backendName(stats.backend)))),
        h("p", { class: "root", title: stats.root }, stats.root)),
      h("dl", { class: "metrics" },
        h("div", {}, h("dt", {}, "Files"), h("dd", { "data-metric": "files" }, number(stats.files))),
        h("div", {}, h("dt", {}, "Chunks"), h("dd", { "data-metric": "chunks" }, number(stats.chunks))),
        h("div", { title: `${number(embedded)} embedded, ${number(stats.pending_embeddings)} waiting` }, h("dt", {}, "Vectors"),
          h("dd", { "data-metric": "vectors" }, number(embedded), stats.pending_embeddings ? h("small", {}, ` +${number(stats.pending_embeddings)}`) : null)),
        h("div", {}, h("dt", {}, "Storage"), h("dd", { "data-metric": "storage" }, bytes(stats.storage_bytes)))),
      stats.languages.length ? languageStrip(stats) : null,
      h("dl", { class: "facts" },
        h("dt", {}, "Last run"), h("dd", {}, run ? `${ago(run.finished_at || run.started_at)} · ${run.kind}${run.status !== "completed" ? ` · ${run.status}` : ""}${run.duration_ms !== null ? ` · ${duration(run.duration_ms)}` : ""}` : "never"),
        git ? [h("dt", {}, "Git"), h("dd", {}, git)] : null,
        h("dt", {}, "Model"), h("dd", {}, stats.model ? `${stats.model} · ${stats.dimension || "?"} dims` : "none (keywords only)")),
      warningList.length ? h("ul", { class: "warnings" }, warningList.map(([kind, text]) => h("li", { class: kind }, text))) : null,
      h("div", { "data-progress-slot": stats.name }),
      h("footer", { class: "card-foot" }, actions(stats)));
  }

  async function renderOverview() {
    state.view = "indexes";
    document.title = "Indexes · cocosearch";
    const root = main();
    if (!state.indexes) setChildren(root, h("div", { class: "loading", role: "status" }, "Loading indexes…"));
    try {
      const data = await api("/api/indexes");
      state.indexes = data.indexes;
    } catch (error) {
      if (error.status !== 401) setChildren(root, h("div", { class: "notice bad" }, `Cannot list the indexes: ${error.message}`));
      return;
    }
    if (state.view !== "indexes") return;
    const list = state.indexes;
    const totals = list.reduce((t, s) => ({ files: t.files + s.files, chunks: t.chunks + s.chunks }), { files: 0, chunks: 0 });
    const head = h("div", { class: "page-head" },
      h("div", {}, h("h1", {}, "Indexes"),
        h("p", { class: "sub", id: "summary" }, `${plural(list.length, "index").replace("indexs", "indexes")} · ${plural(totals.files, "file")} · ${plural(totals.chunks, "chunk")}`)),
      h("span", { class: "spacer" }),
      h("button", { type: "button", class: "btn", onclick: () => refreshView(), title: "Measure again" }, icon(ICONS.refresh), "Refresh"));
    if (!list.length) {
      setChildren(root, head, h("div", { class: "empty-state" },
        h("h2", {}, "No indexes yet"),
        h("p", {}, "Run ", h("code", {}, "cocosearch index"), " in a project, then refresh this page.")));
      return;
    }
    setChildren(root, head, h("div", { class: "cards" }, list.map(card)));
    for (const stats of list) {
      if (stats.job) follow(stats.job);
      else if (state.jobs.has(stats.name)) drawProgress(state.jobs.get(stats.name));
    }
  }

  async function refreshView() {
    if (state.view === "indexes") await renderOverview();
    else if (state.view === "index") await renderIndex(state.current);
  }

  // ---------------------------------------------------------------- one index

  function tile(name, value, note, noteClass = "") {
    return h("div", { class: "tile" }, h("div", { class: "label" }, name), h("div", { class: "value", "data-metric": name.toLowerCase() }, value), note ? h("div", { class: `note ${noteClass}` }, note) : null);
  }

  // Horizontal bars: rows of {label, value, note}; colour by row.
  function bars(rows, { colors = PALETTE, unit = "" } = {}) {
    const max = Math.max(1, ...rows.map((r) => r.value));
    return h("div", { class: "bars" }, rows.map((row, i) =>
      h("div", { class: "bar-row", title: row.note || "" },
        h("span", { class: "bar-label" }, row.label),
        h("span", { class: "bar-track" }, h("span", { class: `bar-fill fill-${colors[i % colors.length]}`, width: `${Math.max(1.5, (row.value * 100) / max)}%` })),
        h("span", { class: "bar-value" }, `${number(row.value)}${unit}`))));
  }

  const STATUSES = ["ok", "partial", "error", "unsupported"];
  function healthPanel(stats) {
    const health = stats.parse_health;
    const overall = health.ok_percent;
    const ring = (() => {
      const r = 26;
      const c = 2 * Math.PI * r;
      const pct = overall === null ? 0 : overall;
      return svg("svg", { class: "ring", viewBox: "0 0 64 64", width: "64", height: "64", role: "img", "aria-label": overall === null ? "no parsed chunks" : `${overall}% of parsed chunks are clean` },
        svg("circle", { cx: 32, cy: 32, r, class: "ring-track" }),
        svg("circle", { cx: 32, cy: 32, r, class: `ring-fill ${pct >= 99 ? "good" : pct >= 90 ? "fair" : "poor"}`, "stroke-dasharray": `${(pct / 100) * c} ${c}`, transform: "rotate(-90 32 32)" }));
    })();
    // Languages with failures first, then the largest; the rest summed up in one line.
    const sorted = [...health.languages].sort((a, b) => (b.partial + b.error > 0) - (a.partial + a.error > 0));
    const shown = sorted.slice(0, 10);
    const hidden = sorted.length - shown.length;
    const rows = shown.map((l) => {
      const total = STATUSES.reduce((sum, s) => sum + l[s], 0) || 1;
      return h("div", { class: "bar-row", title: STATUSES.map((s) => `${s} ${number(l[s])}`).join(" · ") },
        h("span", { class: "bar-label" }, l.language),
        h("span", { class: "bar-track stacked" }, STATUSES.filter((s) => l[s]).map((s) => h("span", { class: `fill-${s}`, width: `${(l[s] * 100) / total}%` }))),
        h("span", { class: "bar-value" }, l.ok_percent === null ? "no grammar" : `${l.ok_percent}%`));
    });
    return h("section", { class: "panel" },
      h("h2", {}, "Parse health"),
      h("div", { class: "health-head" }, ring,
        h("div", {}, h("div", { class: "big" }, overall === null ? "–" : `${overall}%`), h("div", { class: "empty" }, "of parsed chunks are free of syntax errors"))),
      h("div", { class: "bars" }, rows),
      hidden > 0 ? h("p", { class: "empty more" }, `and ${plural(hidden, "more language")}${sorted.slice(10).every((l) => !l.partial && !l.error) ? ", all clean" : ""}`) : null,
      h("div", { class: "legend" }, STATUSES.map((s) => h("span", {}, h("span", { class: `swatch fill-${s}` }), s))));
  }

  // How fresh a search answer is: live, fresh, or how far behind; and vectors still to come.
  function freshnessNote(f) {
    if (!f) return null;
    const behindBy = f.files_added + f.files_modified + f.files_removed;
    const state = f.state === "live" ? h("span", { class: "badge ok", title: f.watched_by ? `kept fresh by ${f.watched_by.process}` : "" }, "live")
      : f.state === "behind" ? h("span", { class: "badge warn" }, behindBy ? `${plural(behindBy, "file")} changed since indexed` : "HEAD moved since indexed")
      : h("span", { class: "badge ok" }, "fresh");
    const pending = f.pending_embeddings > 0
      ? h("span", { class: "badge warn", title: "found by keyword until their vectors are computed" }, `${number(f.pending_embeddings)} awaiting vectors`)
      : null;
    return h("span", { class: "freshness", "data-state": f.state }, state, pending);
  }

  function freshnessPanel(stats) {
    const f = stats.freshness;
    const parts = behind(f);
    const lists = [["+", "add", f.added], ["~", "mod", f.modified], ["−", "del", f.removed]]
      .flatMap(([sign, cls, set]) => set.paths.slice(0, 8).map((p) => h("li", { title: p }, h("span", { class: `sign ${cls}` }, sign), p)));
    const run = stats.last_run;
    return h("section", { class: "panel" },
      h("h2", {}, "Freshness", freshnessBadge(stats), f.scanned ? h("span", { class: "aside" }, `scanned in ${f.scan_ms} ms`) : null),
      h("dl", { class: "facts" },
        h("dt", {}, "Watcher"), h("dd", { "data-watcher": stats.watched_by ? stats.watched_by.following : "none" }, watcherText(stats)),
        h("dt", {}, "On disk"), h("dd", {}, !f.scanned ? "not scanned" : parts.length ? parts.join(" · ") : "every file matches the index"),
        h("dt", {}, "Indexed at"), h("dd", {}, stats.git_commit ? `${stats.git_branch || "detached"} @ ${short(stats.git_commit)}` : "not a git checkout"),
        f.head_commit ? [h("dt", {}, "HEAD now"), h("dd", {}, `${f.head_branch || "detached"} @ ${short(f.head_commit)}`, f.commit_drift || f.branch_drift ? " " : null, f.commit_drift || f.branch_drift ? h("span", { class: "badge warn" }, "moved") : null)] : null,
        h("dt", {}, "Last run"), h("dd", {}, run ? `${run.kind}, ${run.status}, ${ago(run.finished_at || run.started_at)}${run.duration_ms !== null ? ` in ${duration(run.duration_ms)}` : ""} (+${number(run.files_added)} ~${number(run.files_modified)} −${number(run.files_removed)} files)` : "never"),
        h("dt", {}, "Created"), h("dd", {}, ago(stats.created_at))),
      lists.length ? h("ul", { class: "paths" }, lists) : null);
  }

  function failingPanel(stats) {
    const files = stats.failing_files || [];
    return h("section", { class: "panel" },
      h("h2", {}, "Most failing files", h("span", { class: "aside" }, files.length ? `top ${files.length}` : "")),
      files.length
        ? h("table", { class: "list" },
          h("thead", {}, h("tr", {}, h("th", {}, "File"), h("th", {}, "Status"), h("th", { class: "num" }, "Failing"), h("th", { class: "num" }, "First error"))),
          h("tbody", {}, files.map((file) => {
            const first = file.errors[0];
            return h("tr", {},
              h("td", { class: "path" }, h("a", { href: "#", onclick: (e) => { e.preventDefault(); openViewer({ index: stats.name, path: file.path, line: first ? first.line : 1 }); } }, file.path)),
              h("td", {}, h("span", { class: `badge ${file.status === "error" ? "bad" : "warn"}` }, file.status)),
              h("td", { class: "num" }, `${number(file.failing_chunks)} / ${number(file.chunks)}`),
              h("td", { class: "num" }, first ? `${first.line}:${first.column}` : "–"));
          })))
        : h("p", { class: "empty" }, "Every file parsed cleanly."));
  }

  function skippedPanel(stats) {
    const entries = Object.entries(stats.skipped || {}).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
    return h("section", { class: "panel" },
      h("h2", {}, "Skipped files", h("span", { class: "aside" }, entries.length ? `${number(entries.reduce((s, [, n]) => s + n, 0))} in the last complete run` : "")),
      entries.length ? bars(entries.map(([reason, n]) => ({ label: label(reason), value: n })), { colors: ["c7"] }) : h("p", { class: "empty" }, "Nothing was skipped."));
  }

  function runsPanel(stats) {
    const runs = stats.runs || [];
    return h("section", { class: "panel wide" },
      h("h2", {}, "Recent runs"),
      runs.length
        ? h("table", { class: "list" },
          h("thead", {}, h("tr", {}, h("th", {}, "Started"), h("th", {}, "Kind"), h("th", {}, "Status"), h("th", { class: "num" }, "Files +/~/−"), h("th", { class: "num" }, "Chunks written"), h("th", { class: "num" }, "Embedded"), h("th", { class: "num" }, "Took"))),
          h("tbody", {}, runs.map((r) => {
            const s = r.summary || {};
            const files = s.files || {};
            return h("tr", {},
              h("td", { title: r.started_at }, ago(r.started_at)),
              h("td", {}, r.kind),
              h("td", {}, h("span", { class: `badge ${r.status === "completed" ? "ok" : r.status === "running" ? "accent" : "bad"}` }, r.status)),
              h("td", { class: "num" }, `+${number(files.added)} ~${number(files.modified)} −${number(files.removed)}`),
              h("td", { class: "num" }, number((s.chunks || {}).written)),
              h("td", { class: "num" }, number((s.embeddings || {}).computed)),
              h("td", { class: "num" }, duration(s.elapsed_ms)));
          })))
        : h("p", { class: "empty" }, "No runs recorded."));
  }

  // The project's tasks by status, with their links; loaded after the page (a slow store
  // never holds the statistics back).
  const TASK_STATUSES = [["need to be done", "To do", "warn"], ["in progress", "In progress", "accent"], ["complete", "Complete", "ok"]];

  function taskCard(task) {
    const links = [];
    for (const b of task.branches) links.push(h("span", { class: "badge", title: "branch" }, `⎇ ${b}`));
    for (const c of task.commits) links.push(h("span", { class: "badge mono", title: `commit ${c}` }, c.slice(0, 10)));
    for (const p of task.planning_references) links.push(h("span", { class: "badge", title: "planning document" }, `📄 ${p}`));
    return h("li", { class: "task", "data-task": task.id },
      h("div", { class: "task-title" }, task.title),
      h("div", { class: "task-meta" }, h("span", { class: "mono", title: task.id }, task.id.slice(0, 8)), " · ", h("span", { title: task.updated_at }, ago(task.updated_at))),
      task.description ? h("p", { class: "task-text" }, task.description) : null,
      links.length ? h("div", { class: "task-links" }, links) : null);
  }

  async function loadTasks(name) {
    const slot = main().querySelector(`[data-tasks="${CSS.escape(name)}"]`);
    if (!slot) return;
    let data;
    try {
      data = await api(`/api/tasks?index=${encodeURIComponent(name)}`);
    } catch (error) {
      setChildren(slot, h("h2", {}, "Tasks"), h("p", { class: "notice bad" }, error.message));
      return;
    }
    const total = Object.values(data.counts).reduce((s, n) => s + n, 0);
    setChildren(slot,
      h("h2", {}, "Tasks", h("span", { class: "aside" }, total ? `${number(total)} in this project` : "")),
      total
        ? h("div", { class: "task-board" }, TASK_STATUSES.map(([status, label, kind]) =>
          h("div", { class: "task-column", "data-status": status },
            h("h3", {}, h("span", { class: `badge ${kind}` }, label), " ", h("span", { class: "aside" }, number(data.counts[status] || 0))),
            h("ul", { class: "task-list" }, (data.by_status[status] || []).map(taskCard)))))
        : h("p", { class: "empty" }, "No tasks yet: agents record them with create_task, people with `cocosearch task add`."));
  }

  async function renderIndex(name) {
    state.view = "index";
    state.current = name;
    document.title = `${name} · cocosearch`;
    const root = main();
    if (!root.querySelector(`[data-detail="${CSS.escape(name)}"]`)) setChildren(root, h("div", { class: "loading", role: "status" }, `Loading ${name}…`));
    let stats;
    try {
      stats = await api(`/api/indexes/${encodeURIComponent(name)}`);
    } catch (error) {
      if (error.status !== 401) setChildren(root, h("div", { class: "crumbs" }, h("a", { href: "#/" }, "Indexes")), h("div", { class: "notice bad" }, error.message));
      return;
    }
    if (state.view !== "index" || state.current !== name) return;
    const embedded = stats.chunks - Math.min(stats.pending_embeddings, stats.chunks);
    const symbolRows = Object.entries(stats.symbols_by_type || {}).sort((a, b) => b[1] - a[1]).map(([kind, n]) => ({ label: kind, value: n }));
    const symbolTotal = symbolRows.reduce((s, r) => s + r.value, 0);
    setChildren(root, 
      h("div", { "data-detail": name },
        h("div", { class: "crumbs" }, h("a", { href: "#/" }, "Indexes"), " / ", name),
        h("div", { class: "page-head" },
          h("div", {},
            h("h1", {}, name, " ", freshnessBadge(stats), " ", h("span", { class: "badge" }, backendName(stats.backend))),
            h("p", { class: "sub mono" }, stats.root)),
          h("span", { class: "spacer" }),
          h("div", { class: "detail-actions" }, actions(stats).filter((el) => !el.classList.contains("spacer")))),
        h("div", { class: "detail-progress", "data-progress-slot": name }),
        warnings(stats).length ? h("ul", { class: "warnings detail-warnings" }, warnings(stats).map(([kind, text]) => h("li", { class: kind }, text))) : null,
        h("div", { class: "tiles" },
          tile("Files", number(stats.files), `${number(stats.languages.length)} languages`),
          tile("Chunks", number(stats.chunks), `${number(stats.lines)} lines`),
          tile("Vectors", number(embedded), stats.pending_embeddings ? `${number(stats.pending_embeddings)} waiting` : stats.model ? `${stats.model}, ${stats.dimension} dims` : "keyword search only", stats.pending_embeddings ? "warn" : ""),
          tile("Symbols", number(symbolTotal), `${symbolRows.length} kinds`),
          tile("Storage", bytes(stats.storage_bytes), backendName(stats.backend)),
          tile("Last run", stats.last_run ? ago(stats.last_run.finished_at || stats.last_run.started_at) : "never", stats.last_run ? `${stats.last_run.kind}, ${duration(stats.last_run.duration_ms)}` : "")),
        h("div", { class: "grid2" },
          h("section", { class: "panel" }, h("h2", {}, "Languages", h("span", { class: "aside" }, "chunks")),
            stats.languages.length ? bars(stats.languages.slice(0, 12).map((l) => ({ label: l.language, value: l.chunks, note: `${number(l.files)} files, ${number(l.lines)} lines` }))) : h("p", { class: "empty" }, "Nothing indexed.")),
          h("section", { class: "panel" }, h("h2", {}, "Symbols", h("span", { class: "aside" }, "definitions by kind")),
            symbolRows.length ? bars(symbolRows.slice(0, 12), { colors: ["c2"] }) : h("p", { class: "empty" }, "No definitions extracted.")),
          healthPanel(stats),
          freshnessPanel(stats),
          failingPanel(stats),
          skippedPanel(stats),
          runsPanel(stats),
          h("section", { class: "panel wide tasks", "data-tasks": name }, h("h2", {}, "Tasks"), h("p", { class: "empty" }, "Loading tasks…")))));
    loadTasks(name);
    if (stats.job) follow(stats.job);
    else if (state.jobs.has(name)) drawProgress(state.jobs.get(name));
  }

  // ---------------------------------------------------------------- search

  const MODES = [["auto", "Auto"], ["hybrid", "Hybrid"], ["vector", "Vector"], ["keyword", "Keyword"], ["grep", "Grep (every line, regex)"]];

  function searchForm() {
    const info = state.info || { languages: [], symbol_types: [] };
    // The indexes searched: one, several or all, ticked in a drop-down.
    const indexSelect = h("details", { class: "index-picker", id: "f-index" },
      h("summary", { "aria-label": "Indexes searched" }, ""), h("div", { class: "index-options", role: "group", "aria-label": "Indexes" }));
    const form = h("form", { class: "search-form", role: "search", onsubmit: (e) => { e.preventDefault(); submitSearch(); } },
      h("div", { class: "searchbar" },
        h("div", { class: "field" }, icon(ICONS.search),
          h("input", { type: "search", id: "q", name: "q", placeholder: "Ask in plain words, or give an identifier, a \"phrase\" or a path", "aria-label": "Search query", autocomplete: "off", spellcheck: "false" })),
        indexSelect,
        h("button", { type: "submit", class: "btn primary" }, "Search")),
      h("div", { class: "filters" },
        h("label", {}, "Language", h("input", { type: "text", id: "f-lang", list: "languages", placeholder: "any (py, ts, …)" })),
        h("datalist", { id: "languages" }, info.languages.map((l) => h("option", { value: l }))),
        h("label", {}, "Path", h("input", { type: "text", id: "f-path", placeholder: "glob, e.g. src/**" })),
        h("label", {}, "Symbol type", h("select", { id: "f-symbol-type" }, h("option", { value: "" }, "any"), info.symbol_types.map((k) => h("option", { value: k }, k)))),
        h("label", {}, "Symbol name", h("input", { type: "text", id: "f-symbol-name", placeholder: "glob, e.g. get_*" })),
        h("label", {}, "Mode", h("select", { id: "f-mode" }, MODES.map(([v, t]) => h("option", { value: v }, t)))),
        h("label", { title: "Search a snapshot the index keeps (a branch, tag or commit indexed earlier)" }, "Snapshot", h("select", { id: "f-at" }, h("option", { value: "" }, "working tree"))),
        h("label", {}, "Results", h("input", { type: "number", id: "f-limit", min: "1", max: "200", placeholder: "10" })),
        h("label", { title: "Also list the functions and methods most likely meant" }, "Definitions", h("input", { type: "number", id: "f-definitions", min: "0", max: "200", placeholder: "0" }))));
    return form;
  }

  // Ticks the indexes of `selected` (names) in the picker; the first index when none of them exists.
  function fillIndexes(selected) {
    const picker = $("#f-index");
    if (!picker) return;
    const names = (state.indexes || []).map((s) => s.name);
    let ticked = selected.filter((n) => names.includes(n));
    if (!ticked.length && names.length) ticked = [names[0]];
    const box = (n) => h("label", { class: "index-option" },
      h("input", { type: "checkbox", value: n, checked: ticked.includes(n), onchange: indexesChanged }), n);
    setChildren($(".index-options", picker), names.map(box));
    summariseIndexes();
  }

  // The indexes ticked in the picker, in the order listed.
  function chosenIndexes() {
    return $$("#f-index input:checked").map((i) => i.value);
  }

  function summariseIndexes() {
    const chosen = chosenIndexes();
    const all = (state.indexes || []).length;
    $("#f-index summary").textContent = chosen.length === 1 ? chosen[0]
      : chosen.length === all && all > 1 ? `All ${all} indexes` : chosen.length ? `${chosen.length} indexes` : "No index";
    $("#f-index").dataset.chosen = chosen.join(",");
  }

  // A snapshot belongs to one index: the Snapshot field offers them while one is ticked.
  function indexesChanged() {
    summariseIndexes();
    const chosen = chosenIndexes();
    fillSnapshots(chosen.length === 1 ? chosen[0] : "", "");
  }

  // The indexes a page's parameters name: `indexes=a,b`, `index=a`, or `index=*` for all.
  function indexesOf(params) {
    const names = (state.indexes || []).map((s) => s.name);
    if (params.get("indexes")) return params.get("indexes").split(",").map((n) => n.trim()).filter(Boolean);
    if (params.get("index") === "*") return names;
    return params.get("index") ? [params.get("index")] : names.slice(0, 1);
  }

  // The snapshots the selected index keeps, for the Snapshot field (none for every index at once).
  async function fillSnapshots(index, selected) {
    const select = $("#f-at");
    if (!select) return;
    let snapshots = [];
    if (index) {
      try {
        snapshots = (await api(`/api/indexes/${encodeURIComponent(index)}`)).snapshots || [];
      } catch (_) {
        snapshots = [];
      }
    }
    const older = snapshots.filter((s) => !s.current);
    setChildren(select, h("option", { value: "" }, "working tree"),
      older.map((s) => h("option", { value: s.name }, s.commit ? `${s.name} (${s.commit.slice(0, 8)})` : s.name)));
    select.value = older.some((s) => s.name === selected) ? selected : "";
    select.disabled = !older.length;
  }

  function submitSearch() {
    const params = new URLSearchParams();
    const q = $("#q").value.trim();
    if (!q) {
      $("#q").focus();
      return;
    }
    params.set("q", q);
    $("#f-index").open = false;
    const chosen = chosenIndexes();
    if (chosen.length === 1) params.set("index", chosen[0]);
    else if (chosen.length > 1) params.set("indexes", chosen.join(","));
    const values = { lang: "#f-lang", path: "#f-path", "symbol-type": "#f-symbol-type", "symbol-name": "#f-symbol-name", limit: "#f-limit", definitions: "#f-definitions", at: "#f-at" };
    for (const [key, selector] of Object.entries(values)) {
      const value = $(selector).value.trim();
      if (value) params.set(key, value);
    }
    const mode = $("#f-mode").value;
    if (mode !== "auto") params.set("mode", mode);
    const target = `#/search?${params.toString()}`;
    if (location.hash === target) renderSearch(params);
    else location.hash = target;
  }

  // The /api/search parameters for the page's own (index "*" is every index: @all).
  function apiParams(params) {
    const out = new URLSearchParams();
    for (const [key, value] of params) {
      if (key === "index" && value === "*") {
        out.set("indexes", "@all");
      } else {
        out.set(key, value);
      }
    }
    return out;
  }

  async function renderSearch(params) {
    state.view = "search";
    document.title = params.get("q") ? `${params.get("q")} · cocosearch` : "Search · cocosearch";
    const root = main();
    if (!$(".search-form", root)) {
      setChildren(root, h("div", { class: "page-head" }, h("h1", {}, "Search")), searchForm(), h("div", { id: "results", "aria-live": "polite" }));
    }
    if (!state.indexes) {
      try {
        state.indexes = (await api("/api/indexes")).indexes;
      } catch (error) {
        return;
      }
    }
    fillIndexes(indexesOf(params));
    $("#q").value = params.get("q") || "";
    $("#f-lang").value = params.get("lang") || "";
    $("#f-path").value = params.get("path") || "";
    $("#f-symbol-type").value = params.get("symbol-type") || "";
    $("#f-symbol-name").value = params.get("symbol-name") || "";
    $("#f-mode").value = params.get("mode") || "auto";
    $("#f-limit").value = params.get("limit") || "";
    $("#f-definitions").value = params.get("definitions") || "";
    const chosen = chosenIndexes();
    await fillSnapshots(chosen.length === 1 ? chosen[0] : "", params.get("at") || "");
    const results = $("#results");
    if (!params.get("q")) {
      setChildren(results, state.indexes.length ? null : h("div", { class: "empty-state" }, h("h2", {}, "No indexes to search"), h("p", {}, "Run ", h("code", {}, "cocosearch index"), " in a project first.")));
      $("#q").focus();
      return;
    }
    if (!params.get("index") && !params.get("indexes") && state.indexes[0]) params.set("index", state.indexes[0].name);
    setChildren(results, h("div", { class: "loading", role: "status" }, "Searching…"));
    if (params.get("mode") === "grep") return renderGrep(params, results);
    const started = performance.now();
    let answer;
    try {
      answer = await api(`/api/search?${apiParams(params).toString()}`);
    } catch (error) {
      setChildren(results, h("div", { class: "notice bad" }, error.message));
      return;
    }
    const wall = performance.now() - started;
    const multi = new Set(answer.results.map((r) => r.index)).size > 1 || answer.indexes.length > 1;
    setChildren(results, 
      h("div", { class: "result-meta", "data-took": String(Math.round(wall)) },
        h("span", {}, h("b", {}, plural(answer.results.length, "result")), ` for “${answer.query}”`),
        h("span", { class: "badge accent" }, answer.mode),
        h("span", {}, `${answer.query_kind} query`),
        h("span", {}, `${answer.took_ms} ms`),
        answer.cached_embedding ? h("span", {}, "cached embedding") : null,
        answer.degraded ? h("span", { class: "badge warn" }, answer.degraded) : null,
        params.get("at") ? h("span", { class: "badge", "data-at": params.get("at") }, `at ${params.get("at")}`) : null,
        freshnessNote(answer.freshness)),
      answer.warnings.map((w) => h("div", { class: "notice" }, w)),
      answer.resolution ? resolutionEl(answer.resolution) : null,
      answer.hint ? h("div", { class: "notice hint" }, answer.hint, " ",
        h("button", { type: "button", class: "btn", onclick: () => grepFor(params) }, "Grep every occurrence")) : null,
      answer.results.length
        ? h("ol", { class: "results" }, answer.results.map((hit) => hitEl(hit, multi, params.get("at"))))
        : h("div", { class: "empty-state" }, h("h2", {}, "No results"), h("p", {}, "Try plain words, fewer filters, or another mode.")),
      definitionsEl(answer.definitions || []));
  }

  // Whether a one-name query named a definition: resolved, ambiguous (each candidate and why)
  // or not found (the closest names), as the symbol tools say it.
  function resolutionEl(resolution) {
    const candidates = resolution.candidates.map((c) => h("li", {},
      h("code", {}, c.name), ` ${c.path}:${c.lines} `, h("span", { class: "muted" }, `(${c.why})`)));
    const heads = { resolved: "Resolved to one definition", ambiguous: `Ambiguous: ${resolution.candidates.length} definitions`, not_found: "No definition has this name" };
    return h("div", { class: "notice resolution", "data-state": resolution.state },
      heads[resolution.state] || resolution.state,
      resolution.did_you_mean.length ? ` — did you mean ${resolution.did_you_mean.join(", ")}?` : null,
      candidates.length ? h("ul", {}, candidates) : null);
  }

  // The grep hint's button: the same query, in grep mode, as a whole word taken literally.
  function grepFor(params) {
    const next = new URLSearchParams(params);
    next.set("mode", "grep");
    location.hash = `#/search?${next.toString()}`;
  }

  // Grep mode: every line matching the query as a regular expression (/api/grep), in path
  // order, each with the definition it lies in when the index knows it.
  async function renderGrep(params, results) {
    // Grep reads the projects of the indexes chosen, one after the other.
    const chosen = indexesOf(params);
    const query = new URLSearchParams({ q: params.get("q") });
    if (chosen.length > 1) query.set("indexes", chosen.join(","));
    else query.set("index", chosen[0] || "");
    if (params.get("lang")) query.set("lang", params.get("lang"));
    if (params.get("path")) query.set("glob", params.get("path"));
    if (params.get("limit")) query.set("limit", params.get("limit"));
    if (params.get("at")) query.set("at", params.get("at"));
    let answer;
    try {
      answer = await api(`/api/grep?${query.toString()}`);
    } catch (error) {
      setChildren(results, h("div", { class: "notice bad" }, error.message));
      return;
    }
    setChildren(results,
      h("div", { class: "result-meta" },
        h("span", {}, h("b", {}, plural(answer.results.length, "match")), ` of /${answer.pattern}/`),
        h("span", { class: "badge accent" }, "grep"),
        h("span", {}, `${answer.summary.files_matched} of ${answer.summary.files_searched} files`),
        h("span", {}, `${answer.summary.took_ms} ms`),
        answer.truncated ? h("span", { class: "badge warn" }, "cut: more matches exist") : null),
      (answer.warnings || []).map((w) => h("div", { class: "notice" }, w)),
      answer.results.length
        ? h("ol", { class: "results" }, answer.results.map((hit) => grepHitEl(hit, answer.indexes.length > 1)))
        : h("div", { class: "empty-state" }, h("h2", {}, "No match"), h("p", {}, "The query is a regular expression over the project's files.")));
  }

  function grepHitEl(hit, multi) {
    const open = (e) => {
      e.preventDefault();
      openViewer({ index: hit.index, path: hit.path, line: hit.start_line, end: hit.end_line });
    };
    const code = [...hit.before, ...hit.content.split("\n"), ...hit.after].join("\n");
    return h("li", { class: "hit grep-hit", "data-path": hit.path, "data-index": hit.index },
      h("div", { class: "hit-head" },
        h("a", { class: "hit-loc", href: "#", onclick: open, title: "Show the file" }, hit.path, h("span", { class: "line" }, `:${hit.start_line}:${hit.column || 1}`)),
        multi ? h("span", { class: "badge accent" }, hit.index) : null,
        hit.symbol ? h("span", { class: "hit-sym" }, `in ${hit.symbol.type} `, h("code", {}, hit.symbol.qualified_name), ` (${hit.symbol.start_line}–${hit.symbol.end_line})`) : null,
        hit.stale ? h("span", { class: "badge warn", title: "the file changed since it was indexed" }, "changed") : null),
      h("div", { class: "code" }, codeLines({ code, language: hit.language || "text", first: hit.start_line - hit.before.length, context: [hit.start_line, hit.end_line] })));
  }

  // The ranked definitions a search asked for (`definitions`), each opening the viewer.
  function definitionsEl(definitions) {
    if (!definitions.length) return null;
    return h("section", { class: "definitions" },
      h("h2", {}, "Definitions most likely meant"),
      h("ol", { class: "results" }, definitions.map((d) => h("li", { class: "hit", "data-path": d.path },
        h("div", { class: "hit-head" },
          h("a", { class: "hit-loc", href: "#", onclick: (e) => { e.preventDefault(); openViewer({ index: d.index, path: d.path, line: d.start_line, end: d.end_line }); } },
            d.path, h("span", { class: "line" }, `:${d.start_line}–${d.end_line}`)),
          h("span", { class: "hit-sym" }, `${d.kind} `, h("code", {}, d.name)),
          h("span", { class: "badge" }, d.score.toFixed(2)))))));
  }

  function codeLines({ code, language, first, mark = null, context = null, ids = false }) {
    const lines = window.Highlight.lines(code, language);
    return lines.map((html, i) => {
      const n = first + i;
      const marked = mark && n >= mark[0] && n <= mark[1];
      const ctx = context && (n < context[0] || n > context[1]);
      return h("div", { class: `ln${marked ? " mark" : ""}${ctx ? " ctx" : ""}`, id: ids ? `L${n}` : null, "data-line": String(n) },
        h("span", { class: "n" }, String(n)), h("span", { class: "c", html: html || " " }));
    });
  }

  // A symbol's name, linked to its code graph (definitions, references, impact).
  function symbolLink(index, name, at) {
    const params = new URLSearchParams({ index, name });
    if (at) params.set("at", at);
    return h("a", { class: "sym-link", href: `#/symbol?${params.toString()}`, title: `Definitions, references and impact of ${name}` }, h("code", {}, name));
  }

  function hitEl(hit, multi, at) {
    const score = Math.round(hit.score * 100);
    const parts = [hit.vector_score !== null ? `vector ${hit.vector_score.toFixed(2)}` : null, hit.keyword_score !== null ? `keyword ${hit.keyword_score.toFixed(2)}` : null].filter(Boolean);
    const first = hit.start_line - hit.before.length;
    const code = [...hit.before, ...hit.content.split("\n"), ...hit.after].join("\n");
    const location = `${hit.path}:${hit.start_line}${hit.end_line > hit.start_line ? `–${hit.end_line}` : ""}`;
    const open = (e) => {
      e.preventDefault();
      openViewer({ index: hit.index, path: hit.path, line: hit.start_line, end: hit.end_line });
    };
    const symbol = hit.symbol
      ? h("span", { class: "hit-sym" }, `${hit.symbol.type} `, symbolLink(hit.index, hit.symbol.qualified_name || hit.symbol.name, at))
      : hit.enclosing ? h("span", { class: "hit-sym" }, "in ", symbolLink(hit.index, hit.enclosing, at)) : null;
    return h("li", { class: "hit", "data-path": hit.path, "data-index": hit.index },
      h("div", { class: "hit-head" },
        h("a", { class: "hit-loc", href: "#", onclick: open, title: "Show the file (Enter)" }, hit.path, h("span", { class: "line" }, `:${hit.start_line}${hit.end_line > hit.start_line ? `–${hit.end_line}` : ""}`)),
        symbol,
        hit.stale ? h("span", { class: "badge warn", title: "the file changed since it was indexed" }, "changed") : null,
        hit.parse_status !== "ok" && hit.parse_status !== "unsupported" ? h("span", { class: "badge" }, hit.parse_status) : null,
        multi ? h("span", { class: "badge accent" }, hit.index) : null,
        h("span", { class: "hit-score", title: parts.join(" · ") || "exact symbol match" },
          parts.length ? h("span", {}, parts.join(" · ")) : null,
          h("span", { class: "meter", "aria-hidden": "true" }, h("span", { width: `${score}%` })),
          h("b", { "aria-label": `score ${hit.score.toFixed(2)}` }, hit.score.toFixed(2)))),
      preview(h("div", { class: "code", "aria-label": `${location}, ${hit.language}` },
        codeLines({ code, language: hit.language, first, context: [hit.start_line, hit.end_line] }))));
  }

  // A long hit is shown clamped to its first lines, with a button to show the rest, so one big
  // chunk does not push the other results off the screen.
  const PREVIEW_LINES = 16;
  function preview(code) {
    const total = code.children.length;
    if (total <= PREVIEW_LINES + 4) return code;
    code.classList.add("clamped");
    const label = () => code.classList.contains("clamped") ? `Show all ${total} lines` : "Show fewer lines";
    const more = h("button", { class: "hit-more", type: "button", "aria-expanded": "false" }, label());
    more.addEventListener("click", () => {
      const clamped = code.classList.toggle("clamped");
      more.setAttribute("aria-expanded", String(!clamped));
      more.textContent = label();
    });
    return [code, more];
  }

  // ---------------------------------------------------------------- code graph

  // A symbol's code graph (/api/graph?symbol=): where it is defined, every reference with the
  // definition it lies in, and what a change to it reaches, level by level.
  async function renderSymbol(params) {
    state.view = "symbol";
    const name = params.get("name") || "";
    const index = params.get("index") || "";
    const at = params.get("at") || "";
    document.title = `${name} · cocosearch`;
    const root = main();
    setChildren(root, h("div", { class: "page-head" }, h("h1", {}, h("code", {}, name)),
      h("p", { class: "muted" }, `index ${index}${at ? ` at ${at}` : ""}`)),
      h("div", { class: "loading", role: "status" }, "Reading the code graph…"));
    const query = new URLSearchParams({ index, symbol: name });
    if (at) query.set("at", at);
    let graph;
    try {
      graph = await api(`/api/graph?${query.toString()}`);
    } catch (error) {
      setChildren(root, h("div", { class: "notice bad" }, error.message));
      return;
    }
    const open = (path, line, end) => (e) => {
      e.preventDefault();
      if (at) return;
      openViewer({ index, path, line, end });
    };
    const place = (path, line, end) => h("a", { class: "hit-loc", href: "#", onclick: open(path, line, end), title: at ? "" : "Show the file" },
      path, h("span", { class: "line" }, `:${line}${end && end > line ? `–${end}` : ""}`));
    const definitions = graph.definitions.results;
    const references = graph.references.results;
    const impact = [...graph.impact.direct, ...graph.impact.transitive];
    const section = (title, count, list, empty) => h("section", { class: "panel graph-section", "data-section": title },
      h("h2", {}, title, h("span", { class: "badge" }, String(count))),
      count ? list : h("p", { class: "empty" }, empty));
    setChildren(root,
      h("div", { class: "page-head" }, h("h1", {}, h("code", {}, name)), h("p", { class: "muted" }, `index ${index}${at ? ` at ${at}` : ""}`)),
      graph.definitions.hint ? h("div", { class: "notice" }, graph.definitions.hint) : null,
      section("Definitions", definitions.length, h("ol", { class: "graph-list" }, definitions.map((d) => h("li", { "data-path": d.path },
        place(d.path, d.start_line, d.end_line), h("span", { class: "hit-sym" }, `${d.kind} `, h("code", {}, d.qualified_name)),
        h("code", { class: "sig" }, d.signature)))), "no definition is indexed"),
      section("References", references.length, h("ol", { class: "graph-list" }, references.map((r) => h("li", { "data-path": r.path, "data-caller": r.caller ? r.caller.qualified_name : "" },
        place(r.path, r.line), h("span", { class: "hit-sym" }, r.caller ? ["in ", symbolLink(index, r.caller.qualified_name, at)] : "at module level"),
        h("span", { class: "badge" }, r.kind), r.certainty === "exact" ? null : h("span", { class: "badge warn" }, r.certainty)))), "nothing indexed uses it"),
      section("Impact", impact.length, h("ol", { class: "graph-list" }, impact.map((i) => h("li", { "data-path": i.path },
        h("span", { class: "badge" }, `level ${i.depth}`), place(i.path, i.line || 1),
        i.definition ? h("span", { class: "hit-sym" }, "in ", symbolLink(index, i.definition.qualified_name, at)) : null))), "a change reaches nothing else"));
  }

  // ---------------------------------------------------------------- file viewer

  let viewerTarget = null;

  async function openViewer(target) {
    const dialog = $("#viewer");
    viewerTarget = { ...target, opener: document.activeElement };
    $("#viewer-title").textContent = target.path;
    setChildren($("#viewer-meta"), h("span", {}, target.index));
    const body = $("#viewer-code");
    setChildren(body, h("div", { class: "loading", role: "status" }, "Loading…"));
    $("#viewer-graph").hidden = true;
    const editor = $("#viewer-editor");
    const editorName = state.info && state.info.editor;
    editor.disabled = !editorName;
    editor.title = editorName ? `Open in ${editorName} at line ${target.line}` : "Set COCOSEARCH_EDITOR (or VISUAL or EDITOR) where the server runs to open files in your editor";
    if (!dialog.open) dialog.showModal();
    let file;
    try {
      file = await api(`/api/file?index=${encodeURIComponent(target.index)}&path=${encodeURIComponent(target.path)}`);
    } catch (error) {
      setChildren(body, h("div", { class: "notice bad", role: "alert" }, error.message));
      return;
    }
    if (viewerTarget === null || viewerTarget.path !== target.path) return;
    setChildren($("#viewer-meta"), 
      h("span", { class: "badge accent" }, file.language),
      h("span", {}, `${plural(file.lines, "line")} · ${bytes(file.bytes)}`),
      h("span", {}, `index ${file.index}`),
      file.stale ? h("span", { class: "badge warn", title: "lines may have moved since indexing" }, "changed since indexed") : null);
    const end = target.end || target.line;
    setChildren(body, h("div", { class: "code" }, codeLines({ code: file.content, language: file.language, first: 1, mark: [target.line, end], ids: true })));
    const line = $(`#L${target.line}`, body);
    if (line) body.scrollTop += line.getBoundingClientRect().top - body.getBoundingClientRect().top - 3 * line.offsetHeight;
    body.focus();
    loadGraph(target);
  }

  // The code graph panel: shown only when the server has a graph (/api/graph answers).
  async function loadGraph(target) {
    const panel = $("#viewer-graph");
    if (!state.info || !state.info.graph) return;
    try {
      const graph = await api(`/api/graph?index=${encodeURIComponent(target.index)}&file=${encodeURIComponent(target.path)}`);
      const list = (title, items) => [h("h3", {}, title), items && items.length
        ? h("ul", {}, items.map((item) => h("li", {}, h("a", { href: "#", onclick: (e) => { e.preventDefault(); openViewer({ index: target.index, path: item.path, line: item.line || 1 }); } }, item.path))))
        : h("p", { class: "empty" }, "none")];
      setChildren(panel, list("Imports", graph.dependencies.files), list("Imported by", graph.dependents.results));
      panel.hidden = false;
    } catch (_) {
      panel.hidden = true;
    }
  }

  async function openInEditor() {
    if (!viewerTarget) return;
    try {
      const answer = await api("/api/open", { method: "POST", body: { index: viewerTarget.index, path: viewerTarget.path, line: viewerTarget.line } });
      toast("Opened in your editor", answer.opened, "ok");
    } catch (error) {
      toast("Cannot open the editor", error.message, "bad");
    }
  }

  function setUpViewer() {
    const dialog = $("#viewer");
    $("#viewer-close").addEventListener("click", () => dialog.close());
    $("#viewer-editor").addEventListener("click", openInEditor);
    dialog.addEventListener("click", (e) => {
      if (e.target === dialog) dialog.close();
    });
    dialog.addEventListener("close", () => {
      const opener = viewerTarget && viewerTarget.opener;
      viewerTarget = null;
      if (opener && opener.isConnected) opener.focus();
    });
  }

  // ---------------------------------------------------------------- start

  document.addEventListener("keydown", (e) => {
    const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement.tagName);
    if (e.key === "/" && !typing && !document.querySelector("dialog[open]")) {
      e.preventDefault();
      if (state.view !== "search") location.hash = "#/search";
      setTimeout(() => $("#q") && $("#q").focus(), 0);
    }
  });

  async function start() {
    setUpViewer();
    try {
      state.info = await api("/api/info");
    } catch (error) {
      if (error.status !== 401) setChildren(main(), h("div", { class: "notice bad" }, `The server did not answer: ${error.message}`));
      return;
    }
    renderStatus();
    window.addEventListener("hashchange", route);
    route();
    checkHealth();
  }

  start();
})();
