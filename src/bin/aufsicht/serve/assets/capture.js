// The phone's page: each photo checked at once (too dark, too blurred),
// sent to /api/scans, and its status shown as it comes back.
"use strict";
(function () {
  const words = JSON.parse(document.getElementById("words").textContent);
  const params = new URLSearchParams(location.search);
  const token = params.get("token");
  const night = params.get("tournament");
  const headers = token ? { "x-aufsicht-token": token } : {};
  const list = document.getElementById("sent");

  // Mean brightness and the variance of a Laplacian over a small copy:
  // a dark photo or a shaken one is worth taking again at once.
  function looks(file) {
    return new Promise(resolve => {
      const img = new Image();
      img.onload = () => {
        const w = 240, h = Math.max(1, Math.round(240 * img.height / img.width));
        const c = document.createElement("canvas");
        c.width = w; c.height = h;
        const g = c.getContext("2d");
        g.drawImage(img, 0, 0, w, h);
        const d = g.getImageData(0, 0, w, h).data;
        const grey = new Float32Array(w * h);
        let sum = 0;
        for (let i = 0; i < w * h; i++) {
          grey[i] = 0.299 * d[4 * i] + 0.587 * d[4 * i + 1] + 0.114 * d[4 * i + 2];
          sum += grey[i];
        }
        let lap = 0, n = 0, mean = 0;
        const vals = [];
        for (let y = 1; y < h - 1; y++) for (let x = 1; x < w - 1; x++) {
          const i = y * w + x;
          const v = 4 * grey[i] - grey[i - 1] - grey[i + 1] - grey[i - w] - grey[i + w];
          vals.push(v); mean += v; n++;
        }
        mean /= Math.max(1, n);
        for (const v of vals) lap += (v - mean) * (v - mean);
        URL.revokeObjectURL(img.src);
        resolve({ brightness: sum / (w * h), sharpness: lap / Math.max(1, n) });
      };
      img.onerror = () => resolve(null);
      img.src = URL.createObjectURL(file);
    });
  }

  // What was just sent by mistake: taken back with the answer's receipt.
  function takeBack(answer, li) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = words.takeback;
    b.addEventListener("click", async () => {
      b.disabled = true;
      try {
        const r = await fetch("/api/scans/take-back", {
          method: "POST",
          headers: Object.assign({ "Content-Type": "application/json" }, headers),
          body: JSON.stringify({ sheets: answer.sheets, receipt: answer.receipt }),
        });
        const said = r.ok ? (await r.json()).message : await r.text();
        li.className = r.ok ? "taken-back" : li.className;
        // Where it lay ("Runde 1, Tisch 3"), then what became of it.
        const at = r.ok ? answer.message.split(":")[0] + ": " : "";
        li.replaceChildren(document.createTextNode(at + said));
      } catch (e) {
        // Not sent (no network): the button stays to try again.
        b.disabled = false;
        b.title = words.failed + " (" + e.message + ")";
      }
    });
    return b;
  }

  async function send(file) {
    const li = document.createElement("li");
    li.textContent = file.name + ": " + words.sending;
    list.prepend(li);
    const seen = await looks(file);
    const warn = [];
    if (seen && seen.brightness < 70) warn.push(words.dark);
    if (seen && seen.sharpness < 40) warn.push(words.blurred);
    const form = new FormData();
    form.append("file", file, file.name);
    const of = night ? "?tournament=" + encodeURIComponent(night) : "";
    try {
      const r = await fetch("/api/scans" + of, { method: "POST", headers, body: form });
      if (!r.ok) throw new Error(await r.text());
      const [answer] = await r.json();
      li.className = answer.status;
      li.title = file.name;
      li.textContent = answer.message;
      if (answer.receipt) li.appendChild(takeBack(answer, li));
    } catch (e) {
      li.className = "failed";
      li.textContent = file.name + ": " + words.failed + " (" + e.message + ")";
    }
    if (warn.length) {
      const w = document.createElement("strong");
      w.textContent = " " + warn.join(" ");
      li.appendChild(w);
    }
    document.body.dataset.sent = String(list.children.length);
  }

  document.getElementById("photos").addEventListener("change", async ev => {
    for (const file of ev.target.files) await send(file);
    ev.target.value = "";
  });
  document.body.dataset.ready = "1";
})();
