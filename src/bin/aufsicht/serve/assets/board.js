// The standings from /api/standings as a table; polled every `every` ms (0: once).
"use strict";
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
function board(every) {
  const token = takeKey();
  const headers = token ? { "x-aufsicht-token": token } : {};
  const csv = document.getElementById("csv");
  const shown = new URLSearchParams(location.search).get("tournament");
  if (csv && shown) csv.href += "&tournament=" + encodeURIComponent(shown);
  const names = JSON.parse(document.getElementById("words").textContent);
  async function load() {
    const night = new URLSearchParams(location.search).get("tournament");
    const of = night ? "&tournament=" + encodeURIComponent(night) : "";
    const r = await fetch("/api/standings?format=json" + of, { headers });
    if (!r.ok) return;
    const rows = await r.json();
    const table = document.getElementById("board");
    table.replaceChildren();
    const tr = table.insertRow();
    const named = rows.some(l => l.name);
    const heads = named ? [names.rank, names.player, names.name, names.total] : [names.rank, names.player, names.total];
    for (const h of heads) {
      const th = document.createElement("th"); th.textContent = h; tr.appendChild(th);
    }
    for (const l of rows) {
      const row = table.insertRow();
      row.dataset.player = l.player;
      const cells = named ? [l.rank, l.player, l.name ?? "", l.total] : [l.rank, l.player, l.total];
      for (const v of cells) row.insertCell().textContent = v;
    }
    await showChecks(headers, of);
    document.body.dataset.loaded = String(Date.now());
  }
  load();
  if (every > 0) setInterval(load, every);
}

// The night's checks above the table; while any stands, the ranking is
// provisional, on screen and on paper.
async function showChecks(headers, of) {
  const r = await fetch("/api/checks" + (of ? "?" + of.slice(1) : ""), { headers });
  if (!r.ok) return;
  // A check a person settled is shown, but leaves the ranking final.
  const all = await r.json();
  const checks = all.filter((c) => !c.settled);
  const box = document.getElementById("checks");
  const list = box.querySelector("ul");
  list.replaceChildren();
  for (const c of checks) {
    const li = document.createElement("li");
    li.dataset.code = c.code;
    li.textContent = c.message;
    list.appendChild(li);
  }
  box.hidden = checks.length === 0;
  document.getElementById("provisional").hidden = checks.length === 0;
  document.body.dataset.checks = String(checks.length);
}
