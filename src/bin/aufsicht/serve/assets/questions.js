// The desk's questions: one writer's cells that read alike and look alike,
// side by side, answered with one key. Enter stores what is typed (or the
// suggestion) for every cell shown; Alt and a crop's number takes that
// cell out (it stays asked); Escape goes to the next question.
"use strict";
const asked = { list: [], at: 0, apart: new Set() };

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
  const proposed = q.value != null ? line(texts.suggestion, q.value) : null;
  const label = document.createElement("label");
  label.textContent = texts.askpaper + " ";
  const input = document.createElement("input");
  input.id = "answer";
  input.placeholder = q.value != null ? String(q.value) : "";
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
  if (e.altKey && /^[1-9]$/.test(e.key)) {
    e.preventDefault();
    const i = Number(e.key) - 1;
    if (i < q.cells.length) toggle(i);
  } else if (e.key === "Escape") {
    e.preventDefault();
    asked.at = (asked.at + 1) % Math.max(1, asked.list.length);
    asked.apart.clear();
    renderQuestion(true);
  } else if (e.key === "Enter") {
    e.preventDefault();
    const typed = e.target.value.trim();
    if (typed === "" && q.value == null) return;
    answerQuestion(q, typed === "" ? q.value : parse(typed, q.cells[0].path));
  }
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
  const r = await fetch(`/api/questions/${q.id}` + ofNight(), {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!r.ok) { tell(await r.text(), true); await loadQuestions(); return; }
  asked.list = await r.json();
  asked.apart.clear();
  asked.at = Math.min(asked.at, Math.max(0, asked.list.length - 1));
  tell(`${texts.answered} ${kept.length}`);
  loadQueue();
  // The sheet below shows the answers too; the keyboard stays here.
  if (sheet) await open(sheet.id, current);
  renderQuestion(true);
}
