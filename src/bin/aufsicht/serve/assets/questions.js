// The desk's questions: one writer's cells that read alike and look alike,
// side by side, answered with one key. Enter stores what is typed (or the
// suggestion; on a footer, what the ink reads) for every cell shown; Alt
// and a crop's number (two digits typed in turn beyond 9) takes that cell
// out (it stays asked); Escape goes to the next question; Strg-Z takes
// the last answer back as a whole.
"use strict";
const asked = { list: [], at: 0, apart: new Set(), digits: "", timer: null };

// A footer's question offers what the ink reads: the value the sums want
// is shown beside it, never taken by Enter (it would hide a writer's mistake).
function isFooter(q) {
  return /^(gesamt|abzug|endergebnis)\//.test(q.cells[0].path);
}
function offered(q) {
  if (!isFooter(q)) return q.value;
  const read = (q.cells[0].reading || "").trim();
  if (read === "") return null;
  const n = Number(read);
  return Number.isInteger(n) ? n : null;
}

async function loadQuestions() {
  asked.list = await get("/api/questions" + ofNight());
  asked.at = Math.min(asked.at, Math.max(0, asked.list.length - 1));
  asked.apart.clear();
  renderQuestion(false);
}

// `take`: the keyboard goes to the answer (not when the desk opens, where
// it is the first flag's).
function renderQuestion(take) {
  const box = document.getElementById("questions");
  const q = asked.list[asked.at];
  document.getElementById("questions-count").textContent = String(asked.list.length);
  const body = document.getElementById("question");
  body.replaceChildren();
  box.dataset.open = String(asked.list.length);
  if (!q) { body.textContent = texts.noquestions; return; }
  body.dataset.id = q.id;
  const crops = document.createElement("div");
  crops.className = "crops";
  q.cells.forEach((c, i) => {
    const fig = document.createElement("figure");
    fig.className = asked.apart.has(i) ? "apart" : "";
    fig.tabIndex = -1;
    const img = document.createElement("img");
    img.src = `/api/sheets/${c.sheet}/crop?path=${encodeURIComponent(c.path)}`;
    img.alt = c.path;
    const cap = document.createElement("figcaption");
    cap.textContent = `${i + 1}: ${c.label || c.path}`;
    fig.append(img, cap);
    fig.onclick = () => { toggle(i); };
    crops.appendChild(fig);
  });
  const about = document.createElement("div");
  about.textContent = `${texts.questionof} ${asked.at + 1}/${asked.list.length}: ` +
    `${q.cells.length} ${q.cells.length === 1 ? texts.cell : texts.cells}, ${texts.read} ${q.cells[0].reading || "–"}`;
  const proposed = q.value != null ? line(isFooter(q) ? texts.sums : texts.suggestion, q.value) : null;
  const label = document.createElement("label");
  label.textContent = texts.askpaper + " ";
  const input = document.createElement("input");
  input.id = "answer";
  const offer = offered(q);
  input.placeholder = offer != null ? String(offer) : "";
  input.addEventListener("keydown", onQuestionKey);
  label.appendChild(input);
  body.append(about, crops);
  if (proposed) body.appendChild(proposed);
  body.appendChild(label);
  if (take) input.focus();
}

function toggle(i) {
  if (asked.apart.has(i)) asked.apart.delete(i); else asked.apart.add(i);
  const figs = document.querySelectorAll("#question figure");
  figs.forEach((f, j) => f.classList.toggle("apart", asked.apart.has(j)));
  document.getElementById("answer").focus();
}

function onQuestionKey(e) {
  const q = asked.list[asked.at];
  if (!q) return;
  if (e.altKey && /^[0-9]$/.test(e.key)) {
    e.preventDefault();
    cropKey(q, e.key);
  } else if (e.key === "Escape") {
    e.preventDefault();
    asked.at = (asked.at + 1) % Math.max(1, asked.list.length);
    asked.apart.clear();
    renderQuestion(true);
  } else if (e.key === "Enter") {
    e.preventDefault();
    const typed = e.target.value.trim();
    const offer = offered(q);
    if (typed === "" && offer == null) return;
    answerQuestion(q, typed === "" ? offer : parse(typed, q.cells[0].path));
  }
}

// Alt and a crop's number: beyond 9 crops, a first digit that can begin
// a crop's number waits a moment for the second.
function cropKey(q, digit) {
  clearTimeout(asked.timer);
  asked.digits += digit;
  const n = Number(asked.digits);
  const more = n * 10 <= q.cells.length && asked.digits.length < 2;
  const done = () => {
    const i = Number(asked.digits) - 1;
    asked.digits = "";
    if (i >= 0 && i < q.cells.length) toggle(i);
  };
  if (more) asked.timer = setTimeout(done, 600); else done();
}

// Said beside the question, where the person looks.
function tell(text, error) {
  const s = document.getElementById("question-status");
  s.textContent = text;
  s.className = error ? "error" : "";
}

async function answerQuestion(q, value) {
  const name = by.value.trim();
  if (!name) { tell(texts.namefirst, true); by.focus(); return; }
  localStorage.setItem("aufsicht-by", name);
  const kept = q.cells.filter((_, i) => !asked.apart.has(i));
  if (kept.length === 0) return;
  const body = kept.length === q.cells.length
    ? { by: name, value }
    : { by: name, cells: kept.map(c => ({ sheet: c.sheet, path: c.path, value })) };
  // The answer is on its way: the old crops and count go at once.
  tell(texts.sending);
  document.getElementById("question").replaceChildren();
  let r;
  try {
    r = await fetch(`/api/questions/${q.id}` + ofNight(), {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (e) { await loadQuestions().catch(() => {}); tell(e instanceof Error ? e.message : String(e), true); return; }
  if (!r.ok) { const said = await r.text(); await loadQuestions(); tell(said, true); return; }
  asked.list = await r.json();
  asked.apart.clear();
  asked.at = Math.min(asked.at, Math.max(0, asked.list.length - 1));
  // Strg-Z takes the whole answer back, each cell's record withdrawn.
  done.push({ group: kept.map(c => ({ id: c.sheet, what: "withdraw", body: { path: c.path } })) });
  document.body.dataset.undoable = String(done.length);
  tell(`${texts.answered} ${kept.length}`);
  loadQueue();
  // The sheet below shows the answers too; the keyboard stays here.
  if (sheet) await open(sheet.id, current);
  renderQuestion(true);
}
