// The review desk: the queue of sheets, flagged first; each flag with its
// crops, reading, alternatives and suggestion; every correction stored at once.
"use strict";
const texts = JSON.parse(document.getElementById("words").textContent);
// A key given in the address's fragment (which no request carries) or
// query becomes the desk's cookie, and leaves the address at once.
function takeKey() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const key = hash.get("token") || query.get("token");
  if (!key) return null;
  query.delete("token");
  history.replaceState(null, "", location.pathname + (query.size ? "?" + query : ""));
  fetch("/api/login", { method: "POST", headers: { "x-aufsicht-token": key } });
  return key;
}
const token = takeKey();
const params = new URLSearchParams(location.search);
const auth = token ? { "x-aufsicht-token": token } : {};
// The night in hand: the page's ?tournament=, else the one the desk opened on.
let night = params.get("tournament");

// The projector and the ranking follow the night in hand.
function links() {
  for (const a of document.querySelectorAll("nav a")) {
    const q = new URLSearchParams();
    if (night) q.set("tournament", night);
    a.href = a.pathname + (q.size ? "?" + q : "");
  }
}
links();
const by = document.getElementById("by");
by.value = localStorage.getItem("aufsicht-by") || "";
by.addEventListener("change", () => localStorage.setItem("aufsicht-by", by.value.trim()));

// What a test or the organiser can read off: keys pressed in value boxes,
// cells stored, and keypress-to-verified-sheet-on-screen times (ms).
window.deskStats = { keys: 0, cells: 0, latencies: [] };

let queue = [];
let sheet = null;     // the view of the open sheet
let current = 0;      // the flag in hand
const handled = new Set();

const key = (f) => `${sheet.id}|${f.code}|${f.path}`;

function say(text, error) {
  const s = document.getElementById("status");
  s.textContent = text;
  s.className = error ? "error" : "";
  // Said where the person looks, however far down the sheet they are.
  s.scrollIntoView({ block: "nearest" });
}

async function get(url) {
  const r = await fetch(url, { headers: auth });
  if (!r.ok) throw new Error(await r.text());
  return r.json();
}

const ofNight = () => (night ? "?tournament=" + encodeURIComponent(night) : "");

// 2026-10-03 as Germans write it, 03.10.2026 (in English as stored).
function germanDate(iso) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m || document.documentElement.lang !== "de") return iso;
  return `${m[3]}.${m[2]}.${m[1]}`;
}

// The archive's nights to switch between (shown where it holds several).
async function loadNights() {
  const nights = await get("/api/nights");
  const pick = document.getElementById("night");
  pick.replaceChildren();
  for (const n of nights) {
    const o = document.createElement("option");
    // A series' night goes by its venue and its name.
    o.value = n.venue ? `${n.venue}/${n.name}` : n.name;
    o.textContent = `${n.date ? germanDate(n.date) + " " : ""}${o.value} (${n.sheets})`;
    o.selected = night ? o.value === night : n.opened;
    pick.appendChild(o);
  }
  pick.closest("label").hidden = nights.length < 2;
  pick.onchange = async () => {
    night = pick.value;
    const q = new URLSearchParams(location.search);
    q.set("tournament", night);
    history.replaceState(null, "", "?" + q);
    links();
    sheet = null;
    document.getElementById("flags").replaceChildren();
    await loadQueue();
    const first = queue.find(s => s.status !== "ok" && !s.out) || queue[0];
    if (first) await open(first.id, 0);
    document.body.dataset.night = night;
  };
}

async function loadQueue() {
  queue = await get("/api/sheets" + ofNight());
  const list = document.getElementById("queue");
  list.replaceChildren();
  for (const s of queue) {
    const li = document.createElement("li");
    // Named by round and table; the file (a photo is kept under its
    // hash's first 12 digits, the name sent is the rest) on hover.
    const name = (s.source || "").split("/").pop().replace(/^[0-9a-f]{12}-/, "");
    li.textContent = `R${s.round ?? "?"} T${s.table ?? "?"} · ${s.flags}`;
    li.title = name;
    li.dataset.id = s.id;
    li.className = s.out ? "out" : s.status === "ok" ? "" : "flagged";
    if (sheet && sheet.id === s.id) li.classList.add("current");
    li.onclick = () => open(s.id, 0);
    list.appendChild(li);
  }
}

async function open(id, at) {
  sheet = await get(`/api/sheets/${id}/view`);
  current = Math.max(0, Math.min(at, sheet.flags.length - 1));
  render();
  for (const li of document.querySelectorAll("#queue li"))
    li.classList.toggle("current", Number(li.dataset.id) === id);
}

function line(label, value) {
  const p = document.createElement("div");
  p.textContent = `${label}: ${value}`;
  return p;
}

function button(id, text, onclick) {
  const b = document.createElement("button");
  b.id = id; b.textContent = text; b.onclick = onclick;
  return b;
}

// The supervisor's powers: the sheet's verdict, and the rows initialled here.
function renderPowers() {
  const box = document.getElementById("powers");
  box.replaceChildren();
  // Sent by mistake: out of the night with one key, and back.
  if (sheet.discarded) {
    const d = sheet.discarded;
    box.append(line(texts.discarded, `${d.reason} (${d.by}, ${when(d.at)})`),
      button("undiscard", texts.undiscard, () => power("discard", { discard: false })));
  } else if (sheet.status === "unreadable") {
    box.append(button("discard", texts.discard, () => power("discard", {})));
  }
  if (sheet.void) {
    const v = sheet.void;
    box.append(line(texts.voided, `${v.reason} (${v.by}, ${when(v.at)})`),
      button("unvoid", texts.unvoid, () => power("verdict", { void: false })));
  } else {
    const reason = document.createElement("input");
    reason.id = "void-reason"; reason.placeholder = texts.voidreason;
    box.append(reason, button("void", texts.void,
      () => power("verdict", { void: true, reason: reason.value })));
  }
  if (sheet.copy_of) {
    const c = sheet.copy_of;
    box.append(line(texts.copyof, `#${c.of} (${c.by}, ${when(c.at)})`),
      button("uncopy", texts.uncopy, async () => { await power("copy", { of: null }); await loadChecks(); }));
  }
  // Another game's sheet: the night's after all, or back.
  if (sheet.game_confirmed) {
    const g = sheet.game_confirmed;
    box.append(line(texts.gameconfirmed, `${g.by}, ${when(g.at)}`),
      button("not-our-game", texts.notourgame, () => power("game", { ours: false })));
  } else if (sheet.flags.some((f) => f.code === "WRONG_GAME")) {
    box.append(button("our-game", texts.ourgame, () => power("game", { ours: true })));
  }
  // Read the scan again on another form (a header off its boxes, say).
  const forms = document.createElement("select");
  forms.id = "reread-form";
  for (const id of sheet.forms || []) {
    const o = document.createElement("option");
    o.value = id; o.textContent = id; o.selected = id === sheet.form;
    forms.append(o);
  }
  box.append(line(texts.form, `${sheet.form ?? "?"}${sheet.header_off ? " – " + texts.headeroff : ""}`),
    forms, button("reread", texts.reread, () => power("reread", { form: forms.value })));
  const seated = (sheet.names || []).map((p, s) =>
    `${s + 1}: ${p.number ?? "?"}${p.name ? " " + p.name : ""}`);
  if (seated.length) box.append(line(texts.players, seated.join(" · ")));
  for (const i of sheet.supervisor_initials || [])
    box.append(line(`${texts.initialled} ${i.row}`, `${i.by}, ${when(i.at)}`),
      button(`uninitial-${i.row}`, texts.takeback, () => power("initials", { row: i.row, undo: true })));
  // What the Leitung decided counts where the writer erred; the written
  // value takes it back.
  for (const c of sheet.counts || [])
    box.append(line(`${texts.counted} (${c.label})`, c.said),
      button(`uncount-${c.path}`, texts.takeback,
        () => power("counts", { reason: c.reason, values: [{ path: c.path, value: c.written }] })));
  for (const i of sheet.footer_initials || [])
    box.append(line(`${texts.initialled} ${i.seat} ${i.field}`, `${i.by}, ${when(i.at)}`),
      button(`uninitial-${i.seat}-${i.field}`, texts.takeback,
        () => power("initials", { seat: i.seat, field: i.field, undo: true })));
}

async function power(what, body) {
  const name = by.value.trim();
  if (!name) { say(texts.namefirst, true); by.focus(); return; }
  localStorage.setItem("aufsicht-by", name);
  const r = await fetch(`/api/sheets/${sheet.id}/${what}`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json", "if-match": `"${sheet.version}"` },
    body: JSON.stringify({ by: name, ...body }),
  });
  if (!r.ok) { say(await r.text(), true); if (r.status === 409) await open(sheet.id, current); return; }
  await open(sheet.id, current);
  if (what === "discard" && body.discard !== false) {
    done.push({ id: sheet.id, what: "discard", body: { discard: false }, version: sheet.version });
    document.body.dataset.undoable = String(done.length);
  }
  say(texts.saved);
  loadQueue();
}

function render() {
  const box = document.getElementById("flags");
  box.replaceChildren();
  renderPowers();
  loadHistory().catch(() => {});
  // Out of the night: nothing on it is asked; "doch behalten" brings it back.
  if (sheet.discarded) {
    document.getElementById("page").src = sheet.page || "";
    say(texts.discarded);
    return;
  }
  document.getElementById("page").src = sheet.page || "";
  if (sheet.scan_changed) say(texts.scanchanged, true);
  if (sheet.flags.length === 0) { say(texts.noflags); return; }
  sheet.flags.forEach((f, i) => {
    const div = document.createElement("div");
    div.className = "flag" + (handled.has(key(f)) || f.settled ? " done" : "");
    div.id = `flag-${i}`;
    const code = document.createElement("span");
    code.className = "code";
    code.textContent = (f.word || f.code) + " ";
    code.title = f.code;
    div.append(code, document.createTextNode(f.message));
    const crops = document.createElement("div");
    for (const c of f.cells) {
      if (!c.crop) continue;
      const img = document.createElement("img");
      img.src = c.crop; img.title = c.label; img.className = "crop";
      crops.appendChild(img);
    }
    div.appendChild(crops);
    if (f.reading != null) div.appendChild(line(texts.reading, f.reading || "–"));
    if (f.alternatives && f.alternatives.length)
      div.appendChild(line(texts.alternatives,
        f.alternatives.map(([v, p]) => `${v} (${Math.round(p * 100)}%)`).join(", ")));
    if (f.suggestion != null) div.appendChild(line(texts.suggestion, f.suggestion));
    // The Aufsicht's initials make a change valid: a correction, a tout, a
    // later edit in another pen (a row's, or a footer value's).
    const initialled = ["CORRECTION_NOT_INITIALLED", "TOUT_NOT_INITIALLED", "INK_DIFFERS"];
    if (f.row != null && initialled.includes(f.code))
      div.appendChild(button(`initial-${i}`, `${texts.initial} ${f.row}`,
        () => power("initials", { row: f.row })));
    else if (f.code === "INK_DIFFERS" && f.seat != null && f.field)
      div.appendChild(button(`initial-${i}`, `${texts.initial} ${f.seat} ${f.field}`,
        () => power("initials", { seat: f.seat, field: f.field })));
    if (f.settled) div.appendChild(line(texts.settled, `${f.settled.by}, ${when(f.settled.at)}`));
    // A doubt asks what the paper says; a writer's mistake also what counts.
    const ask = document.createElement("label");
    ask.className = "ask";
    ask.textContent = texts.askpaper + " ";
    div.appendChild(ask);
    const input = document.createElement("input");
    input.id = `value-${i}`;
    input.placeholder = f.suggestion != null ? String(f.suggestion) : (f.value ?? "");
    input.dataset.index = i;
    input.addEventListener("keydown", onKey);
    input.addEventListener("focus", () => mark(i));
    ask.appendChild(input);
    const reading = ["CELL_UNCERTAIN", "INK_DIFFERS"].includes(f.code);
    if (f.places.length && !reading) div.appendChild(askCounts(f, i, f.places));
    box.appendChild(div);
  });
  focus(current);
}

// "Was gilt?": the value that counts instead of the written one, with why;
// over a row or a seat's footer, at the cell picked.
function askCounts(f, i, places) {
  const ask = document.createElement("label");
  ask.className = "ask";
  ask.textContent = texts.askcounts + " ";
  const at = document.createElement("select");
  at.id = `counts-at-${i}`;
  for (const p of places) {
    const o = document.createElement("option");
    o.value = p.path; o.textContent = p.label;
    at.append(o);
  }
  if (places.length > 1) ask.append(at);
  const value = document.createElement("input");
  value.id = `counts-${i}`;
  value.placeholder = f.suggestion != null ? String(f.suggestion) : "";
  const reason = document.createElement("input");
  reason.id = `counts-reason-${i}`;
  reason.placeholder = texts.countsreason;
  const set = button(`counts-set-${i}`, texts.countsset, () => {
    const typed = value.value.trim();
    const counted = typed === "" ? f.suggestion : parse(typed, at.value);
    if (counted == null) { say(texts.askcounts, true); value.focus(); return; }
    power("counts", { reason: reason.value.trim(), values: [{ path: at.value, value: counted }] });
  });
  ask.append(value, reason, set);
  return ask;
}

function mark(i) {
  current = i;
  document.querySelectorAll(".flag").forEach((d, j) => d.classList.toggle("current", j === i));
}

function focus(i) {
  const input = document.getElementById(`value-${i}`);
  if (input) { input.focus(); mark(i); }
}

function next() {
  if (current + 1 < sheet.flags.length) { focus(current + 1); return; }
  const at = queue.findIndex(s => s.id === sheet.id);
  const after = queue.slice(at + 1).find(s => s.status !== "ok" && !s.out);
  if (after) open(after.id, 0); else say(texts.alldone);
}

function onKey(e) {
  if (["Shift", "Control", "Alt", "Meta"].includes(e.key)) return;
  window.deskStats.keys += 1;
  const f = sheet.flags[current];
  if (e.key === "Delete" && e.target.value === "" && sheet.status === "unreadable" && !sheet.discarded) {
    e.preventDefault(); power("discard", {});
  } else if (e.key === "Delete" && e.target.value === "") {
    // An empty box: the cell is blank on the paper.
    e.preventDefault(); store(f, null, false, performance.now());
  } else if (e.key === "Tab" || e.key === "ArrowDown") {
    e.preventDefault();
    if (e.shiftKey) focus(Math.max(0, current - 1)); else next();
  } else if (e.key === "ArrowUp") {
    e.preventDefault(); focus(Math.max(0, current - 1));
  } else if (e.key === "PageDown" || e.key === "PageUp") {
    e.preventDefault();
    const at = queue.findIndex(s => s.id === sheet.id) + (e.key === "PageDown" ? 1 : -1);
    if (queue[at]) open(queue[at].id, 0);
  } else if (e.key === "z" || e.key === "Z") {
    e.preventDefault(); zoom();
  } else if (e.key === "k" || e.key === "K") {
    e.preventDefault(); store(f, f.value, true, performance.now());
  } else if (e.key === "Enter") {
    e.preventDefault();
    const typed = e.target.value.trim();
    if (typed === "" && f.suggestion == null) { handled.add(key(f)); next(); return; }
    const value = typed === "" ? f.suggestion : parse(typed, f.path);
    store(f, value, false, performance.now());
  }
}

function parse(typed, path) {
  if (typed === "-" || typed === "–") return null;
  if (path && path.startsWith("players/")) return typed;
  const n = Number(typed);
  return Number.isInteger(n) ? n : typed;
}

function zoom() {
  const page = document.getElementById("page");
  page.style.transform = page.style.transform ? "" : "scale(2)";
}
document.getElementById("page").addEventListener("click", zoom);

// What this desk changed, newest last: Strg-Z takes the newest back, an
// answer withdrawn or a discard undone, one more record in the trail
// (nothing is overwritten).
const done = [];

async function undo() {
  const last = done.pop();
  document.body.dataset.undoable = String(done.length);
  if (!last) { say(texts.nothingtoundo, true); return; }
  const name = by.value.trim();
  if (!name) { say(texts.namefirst, true); by.focus(); done.push(last); return; }
  // A group answer is taken back as a whole: every cell it set, each
  // step dropped once done, so that a second Strg-Z after a broken
  // connection takes back only what is still to take back.
  const steps = last.group ? [...last.group] : [last];
  let failed = null;
  while (steps.length > 0) {
    const step = steps[0];
    const version = step.version != null ? { "if-match": `"${step.version}"` } : {};
    try {
      const r = await fetch(`/api/sheets/${step.id}/${step.what}`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json", ...version },
        body: JSON.stringify({ by: name, ...step.body }),
      });
      if (!r.ok) { failed = await r.text(); break; }
    } catch (e) { failed = e instanceof Error ? e.message : String(e); break; }
    steps.shift();
  }
  if (failed != null && steps.length > 0) {
    done.push(last.group ? { group: steps } : last);
    document.body.dataset.undoable = String(done.length);
  }
  if (sheet) await open(sheet.id, current);
  loadQueue();
  if (last.group && typeof loadQuestions === "function") await loadQuestions();
  if (failed != null) say(failed, true); else say(texts.undone);
}

// A time of the trail as the desk's language writes it.
function when(at) {
  const t = new Date(at);
  if (Number.isNaN(t.getTime())) return at;
  return t.toLocaleString(document.documentElement.lang || "de", { dateStyle: "medium", timeStyle: "short" });
}

// The sheet's history: who changed what, when, from what to what.
async function loadHistory() {
  const trail = await get(`/api/sheets/${sheet.id}/trail`);
  const table = document.querySelector("#history table");
  table.replaceChildren();
  const kinds = Object.fromEntries(texts.kinds.split("|").map(k => k.split("=")));
  const head = table.insertRow();
  for (const h of texts.historyheads.split("|")) {
    const th = document.createElement("th"); th.textContent = h; head.appendChild(th);
  }
  for (const t of trail.slice().reverse()) {
    const row = table.insertRow();
    const value = v => (v === "" || v == null ? texts.blank : v);
    for (const v of [when(t.at), t.by, kinds[t.kind] || t.kind, t.label || t.path || t.field, value(t.old), value(t.new)])
      row.insertCell().textContent = v;
    if (t.why) row.title = t.why;
  }
  document.getElementById("history").hidden = trail.length === 0;
}

// Strg-Z takes this desk's last change back wherever the focus is (the
// browser's own undo would only erase a box, the reviewer's name too).
let undoing = false;
document.addEventListener("keydown", e => {
  if ((e.ctrlKey || e.metaKey) && !e.shiftKey && (e.key === "z" || e.key === "Z")) {
    e.preventDefault(); e.stopPropagation();
    // One at a time: a held key repeats, and a second undo would send
    // an outdated version.
    if (e.repeat || undoing) return;
    undoing = true;
    undo().finally(() => { undoing = false; });
  }
}, true);

// Entf where no box has the focus discards the sheet shown (any sheet:
// a photo sent twice, a retake), with the desk's own reason; a readable
// one only when the person says so (Strg-Z brings it back).
document.addEventListener("keydown", e => {
  if (e.target.closest && e.target.closest("input, select, textarea")) return;
  if (e.key === "Delete" && sheet && !sheet.discarded) {
    e.preventDefault();
    if (sheet.status === "unreadable" || window.confirm(texts.discardask)) power("discard", {});
  }
});

async function store(f, value, kept, pressed) {
  if (!f.path) { handled.add(key(f)); next(); return; }
  const name = by.value.trim();
  if (!name) { say(texts.namefirst, true); by.focus(); return; }
  localStorage.setItem("aufsicht-by", name);
  const r = await fetch(`/api/sheets/${sheet.id}/values`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json", "if-match": `"${sheet.version}"` },
    body: JSON.stringify({ by: name, values: [{ path: f.path, value }] }),
  });
  if (!r.ok) {
    say(await r.text(), true);
    if (r.status === 409) await open(sheet.id, current);
    return;
  }
  handled.add(key(f));
  const was = current;
  const mine = key(f);
  await open(sheet.id, was);
  // The version after this change: Strg-Z undoes it only if nobody changed the sheet since.
  done.push({ id: sheet.id, what: "withdraw", body: { path: f.path }, version: sheet.version });
  document.body.dataset.undoable = String(done.length);
  window.deskStats.cells += 1;
  window.deskStats.latencies.push(performance.now() - pressed);
  say(kept ? texts.kept : texts.saved);
  loadQueue();
  const still = sheet.flags.findIndex(g => key(g) === mine);
  if (still >= 0) { current = still; next(); }
  else if (sheet.flags.length === 0 || was >= sheet.flags.length) { current = sheet.flags.length - 1; next(); }
  else focus(was);
}

// The phone's way in: its page's address with the token, as a QR code,
// where a phone can reach the desk at all.
async function showCapture() {
  const c = await get("/api/capture");
  const box = document.getElementById("capture");
  if (!c.reachable || !c.svg) {
    // On loopback no phone reaches the desk: say how one would.
    const line = document.createElement("p");
    line.className = "hint";
    line.textContent = texts.captureloopback;
    box.replaceChildren(line);
    box.hidden = false;
    return;
  }
  const img = document.createElement("img");
  img.src = "data:image/svg+xml," + encodeURIComponent(c.svg);
  img.alt = c.url;
  const a = document.createElement("a");
  a.href = c.url; a.textContent = texts.capture;
  box.replaceChildren(img, a);
  box.hidden = false;
}

// The night's checks at the top of the queue: what the sheets say about
// each other (a table twice, a sheet scanned twice), each sheet a link.
async function loadChecks() {
  const checks = await get("/api/checks" + ofNight());
  const box = document.getElementById("checks");
  const list = box.querySelector("ul");
  list.replaceChildren();
  const pending = checks.filter((c) => !c.settled);
  for (const c of checks) {
    const li = document.createElement("li");
    li.dataset.code = c.code;
    if (c.settled) li.className = "settled";
    li.append(c.message);
    if (c.action) {
      const act = document.createElement("em");
      act.className = "action";
      act.textContent = " → " + c.action;
      li.append(act);
    }
    for (const id of c.sheets) {
      const b = document.createElement("button");
      b.type = "button";
      // Named as the queue names it, by round and table.
      const s = queue.find(q => q.id === id);
      b.textContent = s ? `R${s.round ?? "?"} T${s.table ?? "?"}` : "#" + id;
      b.title = "#" + id;
      b.addEventListener("click", () => open(id, 0));
      li.append(" ", b);
    }
    // The same paper read twice: each later one settled as the first's copy.
    if (c.code === "SHEET_TWICE" || c.code === "TABLE_TWICE") {
      const [first, ...later] = c.sheets;
      for (const id of later) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "copy";
        b.dataset.copy = String(id);
        b.textContent = `#${id} ${texts.copyof} #${first}`;
        b.addEventListener("click", async () => {
          await open(id, 0);
          await power("copy", { of: first });
          await loadChecks();
        });
        li.append(" ", b);
      }
    }
    list.appendChild(li);
  }
  box.hidden = checks.length === 0;
  document.getElementById("checks-count").textContent = String(pending.length);
  document.body.dataset.checks = String(pending.length);
}

(async function start() {
  const began = performance.now();
  await loadNights();
  await loadQueue();
  const first = queue.find(s => s.status !== "ok" && !s.out) || queue[0];
  if (first) await open(first.id, 0);
  // The questions come first where there are any; the desk works without them.
  await loadQuestions().catch(e => say(e instanceof Error ? e.message : String(e), true));
  if (asked.list.length) document.getElementById("answer")?.focus();
  window.deskReady = performance.now() - began;
  document.body.dataset.ready = "1";
  showCapture().catch(() => {});
  loadChecks().catch(() => {});
  setInterval(() => loadChecks().catch(() => {}), 5000);
  // Sheets sent from a phone (or a scanner's watch) join the queue as they come.
  setInterval(() => loadQueue().catch(() => {}), 3000);
})().catch(e => say(e instanceof Error ? e.message : String(e), true));
