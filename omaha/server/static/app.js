"use strict";
// omaha serve: the page talks only to its own server (no CDN, no other network).
const $ = (id) => document.getElementById(id);
let games = [];
let current = null;

let svgEtag = ""; // the board the page holds: the server sends the SVG only when it differs
let epoch = 0; // bumped by every action, so a poll answered before it is not shown after it
let busy = 0;

async function api(path, body) {
  const headers = {"X-Omaha-SVG": svgEtag};
  const options = body === undefined ? {headers} : {
    method: "POST", headers: {...headers, "Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) { throw new Error(data.error || response.statusText); }
  return data;
}

function showError(message) { $("error").textContent = message || ""; }

function fillGames() {
  $("game").innerHTML = "";
  for (const g of games) {
    const o = document.createElement("option");
    o.value = g.name; o.textContent = g.name; $("game").appendChild(o);
  }
}

function fillGameOptions(name, state) {
  const g = games.find((x) => x.name === name);
  if (!g) return;
  $("scenario").innerHTML = "";
  for (const s of g.scenarios) {
    const o = document.createElement("option"); o.value = s; o.textContent = s;
    $("scenario").appendChild(o);
  }
  $("human").innerHTML = "";
  for (const p of g.players) {
    const o = document.createElement("option"); o.value = p; o.textContent = p;
    $("human").appendChild(o);
  }
  if (state) {
    if (g.scenarios.includes(state.scenario)) $("scenario").value = state.scenario;
    const human = state.sides.length ? state.sides[0] : state.players.find((p) => !(p in state.bots));
    if (human) $("human").value = human;
  }
}

// ---------------------------------------------------------------------------------
// Map play. Each choice is drawn on the hex it is made on (its "spot"): the last cell
// it names, or the hex of the piece it names. A choice that names a piece (or a cell)
// and then a cell is made in two clicks: select the piece, then its destination. The
// server says which cells and pieces a choice names, in pointing order (state.names),
// and where each piece stands (places); nothing here reads the notation.
// ---------------------------------------------------------------------------------
let selected = null; // the key of the selected subject ("piece:ID" or "cell:LABEL")
let fallbackUses = 0; // clicks on the fallback list (the tests of map play want none)
const subjectKey = (s) => `${s.kind}:${s.id}`;

function planChoices(state) {
  const at = (p) => state.places[p];
  for (const c of state.choices) {
    let subject = null, spot = null;
    const cells = c.cells, pieces = c.pieces;
    if (cells.length && pieces.length) {
      subject = {kind: "piece", id: pieces[0], cell: at(pieces[0]) || null};
      spot = cells[cells.length - 1];
    } else if (pieces.length >= 2) {
      subject = {kind: "piece", id: pieces[0], cell: at(pieces[0]) || null};
      spot = at(pieces[pieces.length - 1]) || null;
    } else if (cells.length >= 2) {
      subject = {kind: "cell", id: cells[0], cell: cells[0]};
      spot = cells[cells.length - 1];
    } else if (cells.length === 1) {
      spot = cells[0];
    } else if (pieces.length === 1) {
      spot = at(pieces[0]) || null;
    }
    c.subject = subject; c.spot = spot;
  }
}

const mapChoices = () => (current ? current.choices.filter((c) => c.spot) : []);
const promptChoices = () => (current ? current.choices.filter((c) => !c.spot) : []);

function subjects() {
  const out = new Map();
  for (const c of mapChoices()) {
    if (!c.subject) continue;
    const k = subjectKey(c.subject);
    if (!out.has(k)) out.set(k, {...c.subject, key: k, count: 0});
    out.get(k).count += 1;
  }
  return out;
}

function live(c) { return !c.subject || subjectKey(c.subject) === selected; }

function atCell(cell) {
  const acts = mapChoices().filter((c) => c.spot === cell && live(c));
  const subs = [...subjects().values()].filter((s) => s.cell === cell && s.key !== selected);
  return {acts, subs};
}

function select(key) {
  selected = key;
  closePopup();
  drawOverlay();
  renderPanel();
  const spots = mapChoices().filter((c) => c.subject && subjectKey(c.subject) === key).map((c) => c.spot);
  showCells(spots);
}

function onCell(cell, x, y) {
  const {acts, subs} = atCell(cell);
  if (acts.length + subs.length === 0) {
    closePopup();
    if (selected) select(null);
    return;
  }
  if (acts.length === 1 && subs.length === 0) { closePopup(); choose(acts[0].n); return; }
  if (acts.length === 0 && subs.length === 1) { select(subs[0].key); return; }
  openPopup(cell, acts, subs, x, y);
}

function openPopup(cell, acts, subs, x, y) {
  const box = $("popup");
  box.innerHTML = "";
  const close = document.createElement("button");
  close.type = "button"; close.className = "close"; close.textContent = `${cell} ✕`;
  close.addEventListener("click", closePopup);
  box.appendChild(close);
  for (const c of acts) {
    const b = document.createElement("button");
    b.type = "button"; b.dataset.n = c.n;
    b.textContent = c.facts.label ? `${c.text} — ${c.facts.label}` : c.text;
    b.addEventListener("click", () => { closePopup(); choose(c.n); });
    b.addEventListener("mouseenter", () => showDetails([c]));
    box.appendChild(b);
  }
  for (const s of subs) {
    const b = document.createElement("button");
    b.type = "button"; b.dataset.subject = s.key;
    b.textContent = `select ${s.id} (${s.count} choice${s.count > 1 ? "s" : ""})`;
    b.addEventListener("click", () => select(s.key));
    box.appendChild(b);
  }
  const wrap = $("boardwrap").getBoundingClientRect();
  box.hidden = false;
  box.style.left = `${Math.max(0, Math.min(x - wrap.left + 12, wrap.width - box.offsetWidth - 4))}px`;
  box.style.top = `${Math.max(0, Math.min(y - wrap.top + 12, wrap.height - box.offsetHeight - 4))}px`;
}

function closePopup() { $("popup").hidden = true; $("popup").innerHTML = ""; }

// -- geometry of the server's picture ------------------------------------------------
let geometry = new Map();
function cellShape(label) {
  if (geometry.has(label)) return geometry.get(label);
  const poly = $("board").querySelector(`polygon[data-cell="${CSS.escape(label)}"]`);
  let shape = null;
  if (poly) {
    const pts = poly.getAttribute("points").trim().split(/\s+/).map((p) => p.split(",").map(Number));
    const cx = pts.reduce((a, p) => a + p[0], 0) / pts.length;
    const cy = pts.reduce((a, p) => a + p[1], 0) / pts.length;
    const r = Math.max(...pts.map((p) => Math.hypot(p[0] - cx, p[1] - cy)));
    const xs = pts.map((p) => p[0]);
    shape = {points: poly.getAttribute("points"), cx, cy, r, w: Math.max(...xs) - Math.min(...xs)};
  }
  geometry.set(label, shape);
  return shape;
}

function svgEl(parent, name, attrs, text) {
  const e = document.createElementNS(parent.namespaceURI, name); // the SVG namespace
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
}

function drawOverlay() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  let g = svg.querySelector("#overlay");
  if (g) g.remove();
  g = svgEl(svg, "g", {id: "overlay"});
  const byCell = new Map();
  for (const c of mapChoices()) {
    if (!live(c)) continue;
    if (!byCell.has(c.spot)) byCell.set(c.spot, []);
    byCell.get(c.spot).push(c);
  }
  // the cells the decision is about (an attack's target while it is put together)
  for (const cell of current ? current.focus || [] : []) {
    const s = cellShape(cell);
    if (!s) continue;
    const tg = svgEl(g, "g", {class: "target", "data-target": cell});
    svgEl(tg, "polygon", {points: s.points});
    svgEl(tg, "circle", {cx: s.cx, cy: s.cy, r: s.r * 0.78});
    svgEl(tg, "title", {}, `the target: ${cell}`);
  }
  const sel = selected ? subjects().get(selected) : null;
  if (sel && sel.cell) {
    const s = cellShape(sel.cell);
    if (s) { const sg = svgEl(g, "g", {class: "selected", "data-selected": sel.cell}); svgEl(sg, "polygon", {points: s.points}); }
  }
  for (const s of subjects().values()) {
    if (s.key === selected || !s.cell || byCell.has(s.cell)) continue;
    const shape = cellShape(s.cell);
    if (!shape) continue;
    const sg = svgEl(g, "g", {class: "subject", "data-subject": s.cell});
    svgEl(sg, "polygon", {points: shape.points});
  }
  for (const [cell, acts] of byCell) {
    const shape = cellShape(cell);
    if (!shape) continue;
    const fire = acts.some((c) => c.facts.chances.length);
    const kind = fire ? "fire" : acts.some((c) => c.subject) ? "move" : "act";
    const sg = svgEl(g, "g", {class: `spot ${kind}`, "data-spot": cell});
    svgEl(sg, "polygon", {points: shape.points});
    const subs = atCell(cell).subs.length;
    const text = acts.length === 1 && !subs ? acts[0].facts.label : `${acts.length + subs} choices`;
    if (text) spotLabel(sg, shape, text);
  }
}

/** A choice's label on its hex, measured in the page: whole on one line at the largest
 *  font that fits the hex (down to a legible least), else on two lines at its " · ",
 *  else cut with an ellipsis and whole on the hover. */
function spotLabel(parent, shape, text) {
  const room = Math.min(shape.r * 1.6, shape.w * 0.92), y = shape.cy + shape.r * 0.62;
  const line = (t, dy, font) => svgEl(parent, "text", {x: shape.cx, y: y + dy, "text-anchor": "middle", "font-size": font}, t);
  let font = shape.r * 0.26;
  const least = shape.r * 0.2;
  const one = line(text, 0, font);
  const wide = one.getComputedTextLength();
  if (wide <= room || wide * (least / font) <= room) {
    if (wide > room) one.setAttribute("font-size", font * room / wide);
    return;
  }
  one.remove();
  const parts = text.split(" · ");
  if (parts.length > 1) {
    const a = parts[0], b = parts.slice(1).join(" · ");
    const top = line(a, -least * 1.05, least), bottom = line(b, 0, least);
    if (Math.max(top.getComputedTextLength(), bottom.getComputedTextLength()) <= room) return;
    top.remove(); bottom.remove();
  }
  let cut = text;
  const t = line(cut, 0, least);
  while (cut.length > 2 && t.getComputedTextLength() > room) { cut = cut.slice(0, -1); t.textContent = `${cut.trimEnd()}…`; }
  svgEl(parent, "title", {}, text);
}

// -- zoom and pan ------------------------------------------------------------------
const view = {x: 0, y: 0, zoom: 1.5, width: 0, height: 0, game: ""};
/** The zoom at which a hex is about 120 px across: counter text is legible there; or a
 *  little less, down to WIDTH_FIT of it, when that puts the whole picture's width (a
 *  small map and its side panel, as Bloody Omaha's) in the window. */
const WIDTH_FIT = 0.9;
function defaultZoom() {
  const any = $("board").querySelector("polygon[data-cell]");
  const shape = any ? cellShape(any.dataset.cell) : null;
  const zoom = shape ? Math.min(Math.max(60 / shape.r, 1), 3) : 1.5;
  const across = boardSize().w / (view.width || 1);
  return across < zoom && across >= zoom * WIDTH_FIT ? across : zoom;
}
function boardSize() {
  const box = $("board").getBoundingClientRect();
  return {w: box.width || 1, h: box.height || 1, left: box.left, top: box.top};
}
function applyView() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const b = boardSize();
  const w = b.w / view.zoom, h = b.h / view.zoom;
  // the map stays in the window: a small margin past its edges, centred when it is smaller
  const m = 40 / view.zoom;
  view.x = w >= view.width ? (view.width - w) / 2 : Math.min(Math.max(view.x, -m), view.width - w + m);
  view.y = h >= view.height ? (view.height - h) / 2 : Math.min(Math.max(view.y, -m), view.height - h + m);
  svg.setAttribute("viewBox", `${view.x} ${view.y} ${w} ${h}`);
}
function fitZoom() {
  const b = boardSize();
  return Math.min(b.w / view.width, b.h / view.height);
}
function zoomAt(factor, cx, cy) {
  const b = boardSize();
  const px = view.x + (cx - b.left) / view.zoom, py = view.y + (cy - b.top) / view.zoom;
  view.zoom = Math.min(Math.max(view.zoom * factor, fitZoom() * 0.9), 6);
  view.x = px - (cx - b.left) / view.zoom; view.y = py - (cy - b.top) / view.zoom;
  applyView();
}
function fit() {
  view.zoom = fitZoom();
  const b = boardSize();
  view.x = (view.width - b.w / view.zoom) / 2; view.y = (view.height - b.h / view.zoom) / 2;
  applyView();
}
function centreOn(cells, keepZoom) {
  const shapes = cells.map(cellShape).filter(Boolean);
  if (!shapes.length) return;
  const x0 = Math.min(...shapes.map((s) => s.cx - s.r)), x1 = Math.max(...shapes.map((s) => s.cx + s.r));
  const y0 = Math.min(...shapes.map((s) => s.cy - s.r)), y1 = Math.max(...shapes.map((s) => s.cy + s.r));
  const b = boardSize();
  if (!keepZoom) view.zoom = defaultZoom();
  // the middle of what to show; when it is wider than the window, its first part (the
  // rest is a drag away: the counters stay legible)
  const w = b.w / view.zoom, h = b.h / view.zoom;
  view.x = x1 - x0 + 40 <= w ? (x0 + x1) / 2 - w / 2 : x0 - 20;
  view.y = y1 - y0 + 40 <= h ? (y0 + y1) / 2 - h / 2 : y0 - 20;
  applyView();
}
function inView(cell) {
  const s = cellShape(cell);
  if (!s) return false;
  const b = boardSize();
  const w = b.w / view.zoom, h = b.h / view.zoom;
  return s.cx >= view.x && s.cx <= view.x + w && s.cy >= view.y && s.cy <= view.y + h;
}
/** Bring ``cells`` into view when none of them is (keeping the zoom if they fit). */
function showCells(cells) {
  if (cells.length && !cells.some(inView)) centreOn(cells, true);
}
function home() {
  const spots = mapChoices().filter(live).map((c) => c.spot);
  const mine = current ? Object.values(current.places) : [];
  centreOn(spots.length ? spots : mine, false);
}

function putBoard(text) {
  $("board").innerHTML = text;
  geometry = new Map();
  const svg = $("board").querySelector("svg");
  const vb = (svg.getAttribute("viewBox") || "").split(/\s+/).map(Number);
  view.width = vb[2] || Number(svg.getAttribute("width")); view.height = vb[3] || Number(svg.getAttribute("height"));
  svg.removeAttribute("width"); svg.removeAttribute("height");
  svg.setAttribute("preserveAspectRatio", "xMinYMin meet");
}

function newBoard(state) {
  putBoard(state.svg);
  svgEtag = state.svg_etag;
  $("board").classList.remove("past");
  const game = `${state.game}/${state.scenario}/${state.seed}`;
  if (view.game !== game) { view.game = game; view.fresh = true; }
  applyView();
}

let drag = null, dragged = false;
$("board").addEventListener("pointerdown", (e) => {
  if (e.button !== 0) return;
  drag = {x: e.clientX, y: e.clientY, vx: view.x, vy: view.y}; dragged = false;
});
window.addEventListener("pointermove", (e) => {
  if (!drag) return;
  const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
  if (!dragged && Math.hypot(dx, dy) < 5) return;
  dragged = true; $("board").classList.add("dragging");
  view.x = drag.vx - dx / view.zoom; view.y = drag.vy - dy / view.zoom;
  applyView();
});
window.addEventListener("pointerup", () => { drag = null; $("board").classList.remove("dragging"); });
$("board").addEventListener("wheel", (e) => {
  e.preventDefault();
  zoomAt(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX, e.clientY);
}, {passive: false});
$("zoom-in").addEventListener("click", () => { const b = boardSize(); zoomAt(1.25, b.left + b.w / 2, b.top + b.h / 2); });
$("zoom-out").addEventListener("click", () => { const b = boardSize(); zoomAt(0.8, b.left + b.w / 2, b.top + b.h / 2); });
$("zoom-fit").addEventListener("click", fit);
$("zoom-home").addEventListener("click", home);
window.addEventListener("resize", applyView);

function cellAt(target) {
  const o = target.closest("[data-spot],[data-subject]");
  if (o) return o.dataset.spot || o.dataset.subject;
  const piece = target.closest("g.piece[data-id]");
  if (piece && current && current.places[piece.dataset.id]) return current.places[piece.dataset.id];
  const cell = target.closest("[data-cell]");
  return cell ? cell.dataset.cell : null;
}

$("board").addEventListener("click", (event) => {
  if (dragged) { dragged = false; return; }
  if (!current || !current.you || stepping) return;
  const cell = cellAt(event.target);
  if (cell) onCell(cell, event.clientX, event.clientY);
  else { closePopup(); if (selected) select(null); }
});
$("board").addEventListener("mouseover", (event) => {
  const o = event.target.closest("[data-spot]");
  if (o) showDetails(atCell(o.dataset.spot).acts);
});

// -- the panel: prompt, buttons, details, the list -----------------------------------
function showDetails(list) {
  const box = $("details");
  box.innerHTML = "";
  for (const c of list.slice(0, 4)) {
    const what = document.createElement("div");
    what.className = "what"; what.textContent = `${c.n}. ${c.text}`;
    box.appendChild(what);
    for (const line of c.facts.lines) {
      const d = document.createElement("div"); d.textContent = line; box.appendChild(d);
    }
    for (const [result, p] of c.facts.chances) {
      const d = document.createElement("div");
      const bar = document.createElement("span");
      bar.className = "bar"; bar.style.width = `${Math.round(p * 120)}px`;
      d.appendChild(bar);
      d.appendChild(document.createTextNode(`${result} ${(p * 100).toFixed(0)}%`));
      box.appendChild(d);
    }
  }
  if (list.length > 4) {
    const more = document.createElement("div"); more.textContent = `… and ${list.length - 4} more here`; box.appendChild(more);
  }
}

function button(parent, text, label, onClick, hover) {
  const b = document.createElement("button");
  b.type = "button"; b.textContent = text;
  if (label) { const l = document.createElement("span"); l.className = "label"; l.textContent = label; b.appendChild(l); }
  b.addEventListener("click", onClick);
  if (hover) b.addEventListener("mouseenter", hover);
  parent.appendChild(b);
  return b;
}

function renderPanel() {
  const box = $("actions");
  box.innerHTML = "";
  if (!current) return;
  for (const c of promptChoices()) {
    const b = button(box, c.text, c.facts.label, () => choose(c.n), () => showDetails([c]));
    b.dataset.n = c.n;
    if (c.plan) b.classList.add("plan");
  }
  const subs = subjects();
  for (const s of subs.values()) {
    if (s.cell || s.key === selected) continue; // on the map: clicked there
    const b = button(box, `${s.id} …`, `${s.count} on the map`, () => select(s.key));
    b.dataset.subject = s.key; b.classList.add("subject");
  }
  if (selected && subs.size > 1) {
    const b = button(box, "clear selection", "", () => select(null));
    b.id = "unselect";
  }
  const hint = $("hint");
  if (hint) {
    const sel = selected ? subs.get(selected) : null;
    const n = mapChoices().filter(live).length;
    hint.textContent = sel ? `${sel.id} selected: click a highlighted hex (${n} choices on the map)`
      : n ? `${n} choices on the map: click a highlighted hex${subs.size ? ", or a dashed one to select it" : ""}` : "";
  }
  renderChoices();
}

function renderChoices() {
  const box = $("choices");
  box.innerHTML = "";
  if (!current) return;
  for (const c of current.choices) { // every choice: the list is the fallback
    const b = document.createElement("button");
    b.type = "button"; b.textContent = c.text; b.dataset.n = c.n; b.title = c.facts.lines.join("\n") || `#${c.n}`;
    if (c.plan) b.classList.add("plan");
    b.addEventListener("click", () => { fallbackUses += 1; choose(c.n); });
    b.addEventListener("mouseenter", () => showDetails([c]));
    box.appendChild(b);
  }
  const f = $("filter");
  f.textContent = current.choices.length
    ? `all ${current.choices.length} choices as a list` : "no choices";
}

// -- stepping through the game so far (as a log viewer steps a record) ---------------
let stepping = null; // {k, total} while the board shows a past position
async function stepTo(k) {
  try {
    const data = await api(`/api/step?k=${Math.max(0, k)}`);
    if (data.k >= data.total) { await live(); return; }
    stepping = data;
    closePopup();
    putBoard(data.svg);
    svgEtag = ""; // the page holds no live board now: the next reply brings it
    $("board").classList.add("past");
    applyView();
    $("step-at").textContent = `action ${data.k} of ${data.total} · ${data.turn} · ${data.phase}`;
    showError("");
  } catch (e) { showError(e.message); }
}
async function live() {
  if (!stepping) return;
  stepping = null;
  try { render(await api("/api/state")); } catch (e) { showError(e.message); }
}
const stepTotal = () => (stepping ? stepping.total : current ? current.actions : 0);
$("step-first").addEventListener("click", () => stepTo(0));
$("step-back").addEventListener("click", () => stepTo((stepping ? stepping.k : stepTotal()) - 1));
$("step-fwd").addEventListener("click", () => { if (stepping) stepTo(stepping.k + 1); });
$("step-live").addEventListener("click", live);
window.omahaStepping = () => stepping;

let renders = 0;
function render(state) {
  if (state.unchanged) return;
  current = state;
  renders += 1;
  $("title").textContent = state.title;
  planChoices(state);
  stepping = null;
  $("step-at").textContent = `the game so far: ${state.actions} actions`;
  if (state.svg !== undefined) newBoard(state);
  const status = $("status");
  status.innerHTML = "";
  const line = document.createElement("div");
  line.textContent = `${state.turn} · ${state.phase}`;
  status.appendChild(line);
  const who = document.createElement("div");
  if (state.result) {
    who.className = "result"; who.id = "result"; who.textContent = `Game over: ${state.result}`;
  } else if (state.you) {
    who.className = "prompt"; who.id = "prompt"; who.textContent = `${state.you}: ${state.prompt}`;
  } else if (state.waiting_for) {
    who.id = "waiting"; who.textContent = `waiting for ${state.waiting_for}`;
  }
  status.appendChild(who);
  const hint = document.createElement("div");
  hint.id = "hint"; hint.className = "hint";
  status.appendChild(hint);
  const sides = document.createElement("div");
  sides.id = "sides"; sides.className = "hint"; sides.textContent = state.sides.length ? `you play ${state.sides.join(", ")}` : "you watch";
  status.appendChild(sides);
  $("undo").disabled = !state.can_undo;
  // a browser seated by invitation plays that game only
  $("newgame").hidden = !state.owner;
  $("load").parentElement.hidden = !state.owner;
  renderInvite(state);
  const log = $("log");
  log.innerHTML = "";
  log.start = state.log_total - state.log.length + 1;
  for (const e of state.log) {
    const li = document.createElement("li");
    li.textContent = e.text;
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight; // the log scrolls in its own box; the prompt stays put
  // keep the selection while its subject still has choices; one subject alone is selected
  const subs = subjects();
  if (!selected || !subs.has(selected)) selected = null;
  if (!selected && subs.size === 1) selected = [...subs.keys()][0];
  closePopup();
  $("details").innerHTML = "";
  drawOverlay();
  renderPanel();
  const spots = mapChoices().filter(live).map((c) => c.spot);
  if (view.fresh) { view.fresh = false; home(); } else showCells([...spots, ...(state.focus || [])]);
}

function renderInvite(state) {
  const keep = state.sides.includes($("human").value) ? $("human").value : state.sides[0];
  const spare = state.owner && !state.result ? state.sides.filter((s) => s !== keep) : [];
  $("invite-box").hidden = spare.length === 0 && !$("invite-link").value;
  const select = $("invite-side");
  select.innerHTML = "";
  for (const side of spare) {
    const o = document.createElement("option"); o.value = side; o.textContent = side; select.appendChild(o);
  }
  $("invite").disabled = spare.length === 0;
}

async function act(path, body) {
  epoch += 1; busy += 1;
  try { render(await api(path, body)); showError(""); } catch (e) { showError(e.message); } finally { busy -= 1; }
}

// Poll only where another person may change the game: a game shared by invitation
// (or about to be), or one waiting for someone else's decision.
const shared = (state) => !state.owner || state.waiting_for || Object.keys(state.seats).length || $("invite-link").value;

async function poll() {
  if (busy || stepping || !current || document.hidden || !shared(current)) return;
  const seen = epoch;
  try {
    const state = await api(`/api/state?since=${encodeURIComponent(current.version)}`);
    if (seen === epoch && !busy) render(state);
  } catch (e) { showError(e.message); }
}
const choose = (n) => act("/api/choose", {n});
window.omahaState = () => current; // for tests and curious users
window.omahaRenders = () => renders;
window.omahaBoard = () => svgEtag; // which board the page shows (its etag)
window.omahaFallbackUses = () => fallbackUses; // clicks on the list, not the map or the prompt
window.omahaSelected = () => selected;
// where the page draws each choice: its hex, and what is selected first (for tests)
window.omahaPlan = () => (current ? current.choices.map((c) => ({
  n: c.n, spot: c.spot, subject: c.subject ? subjectKey(c.subject) : null,
  subjectCell: c.subject ? c.subject.cell : null,
})) : []);
window.omahaView = () => ({...view});

$("game").addEventListener("change", () => fillGameOptions($("game").value, null));
$("newgame").addEventListener("submit", (event) => {
  event.preventDefault();
  const g = games.find((x) => x.name === $("game").value);
  const human = $("human").value;
  const pickBot = (side) => {
    for (const pref of ["heuristic", "historical", "solitaire", "random"]) {
      const b = g.bots.find((x) => x.name === pref || (x.name.startsWith(pref) && x.sides.length === 1 && x.sides[0] === side));
      if (b && b.sides.includes(side)) return b.name;
    }
    return "random";
  };
  const bots = {};
  for (const p of g.players) if (p !== human) bots[p] = pickBot(p);
  if ($("opponents").value === "people") { for (const p of Object.keys(bots)) delete bots[p]; }
  $("invite-link").value = "";
  const seed = $("seed").value.trim() === "" ? 0 : Number($("seed").value);
  act("/api/new", {game: g.name, scenario: $("scenario").value, seed, bots});
});
$("undo").addEventListener("click", () => act("/api/undo", {}));
$("invite").addEventListener("click", async () => {
  try {
    const answer = await api("/api/invite", {side: $("invite-side").value});
    $("invite-link").value = new URL(answer.invite, window.location.href).href;
    $("invite-box").hidden = false;
    showError("");
  } catch (e) { showError(e.message); }
});
$("save").addEventListener("click", async () => {
  const response = await fetch("/api/record");
  const text = await response.text();
  if (!response.ok) { showError(JSON.parse(text).error); return; }
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], {type: "application/json"}));
  a.download = `${current.game}-${current.scenario}-seed${current.seed}.json`;
  a.id = "download";
  document.body.appendChild(a); a.click(); a.remove();
});
$("load").addEventListener("change", async () => {
  const file = $("load").files[0];
  if (!file) return;
  await act("/api/load", {record: await file.text()});
  $("load").value = "";
});

(async () => {
  try {
    games = await api("/api/games");
    fillGames();
    const state = await api("/api/state");
    $("game").value = state.game;
    $("seed").value = state.seed;
    fillGameOptions(state.game, state);
    render(state);
  } catch (e) { showError(e.message); }
  setInterval(poll, 1000); // the other player's moves, in a game played by invitation
})();
