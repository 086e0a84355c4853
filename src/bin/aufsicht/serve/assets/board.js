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
  const shown = new URLSearchParams(location.search).get("tournament");
  for (const csv of [document.getElementById("csv"), document.getElementById("csv-de")]) {
    if (csv && shown) csv.href += "&tournament=" + encodeURIComponent(shown);
  }
  const names = JSON.parse(document.getElementById("words").textContent);
  async function load() {
    const night = new URLSearchParams(location.search).get("tournament");
    const of = night ? "&tournament=" + encodeURIComponent(night) : "";
    const r = await fetch("/api/standings?format=json" + of, { headers });
    if (!r.ok) return;
    const rows = await r.json();
    const table = document.getElementById("board");
    table.replaceChildren();
    // Columns: rank, number, name where the list gives names, one a
    // round the night played, the total. Each cell knows its column.
    const named = rows.some(l => l.name);
    const rounds = [...new Set(rows.flatMap(l => Object.keys(l)))]
      .filter(k => /^round_\d+$/.test(k) && rows.some(l => l[k] !== null && l[k] !== undefined))
      .sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)));
    const columns = [["rank", names.rank, l => l.rank], ["player", names.player, l => l.player]];
    if (named) columns.push(["name", names.name, l => l.name ?? ""]);
    for (const k of rounds) columns.push(["round", names.round + " " + k.slice(6), l => l[k] ?? ""]);
    columns.push(["total", names.total, l => l.total]);
    const tr = table.insertRow();
    for (const [kind, head] of columns) {
      const th = document.createElement("th"); th.textContent = head; th.className = kind; tr.appendChild(th);
    }
    for (const l of rows) {
      const row = table.insertRow();
      row.dataset.player = l.player;
      for (const [kind, , value] of columns) {
        const td = row.insertCell(); td.textContent = value(l); td.className = kind;
      }
      // A player with a sheet still in doubt is marked, on paper too.
      if (l.review) {
        row.classList.add("in-doubt");
        row.cells[row.cells.length - 1].textContent += " *";
        row.title = names.in_doubt;
      }
    }
    await showChecks(headers, of);
    document.body.dataset.loaded = String(Date.now());
  }
  load();
  if (every > 0) setInterval(load, every);
}

function names() {
  return JSON.parse(document.getElementById("words").textContent);
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
  // One line on paper too: how many checks are open, not which.
  const line = document.getElementById("provisional");
  line.textContent = (checks.length === 1 ? names().open_one : names().open_many.replace("#", checks.length))
    + " · * " + names().in_doubt;
  line.hidden = checks.length === 0;
  // The heading says "vorläufig" until the page knows nothing is open.
  const h1 = document.querySelector("h1");
  h1.textContent = checks.length === 0 ? names().final_title : h1.dataset.provisional;
  document.title = h1.textContent;
  document.body.dataset.checks = String(checks.length);
}
