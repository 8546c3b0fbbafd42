"use strict";
// omaha serve: the page talks only to its own server (no CDN, no other network).
const $ = (id) => document.getElementById(id);
let games = [];
let current = null;
let picked = null; // {kind: "cell"|"piece", id}

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

function mentions(choice) {
  if (!picked) return true;
  return picked.kind === "cell" ? choice.cells.includes(picked.id) : choice.pieces.includes(picked.id);
}

function renderChoices() {
  const box = $("choices");
  box.innerHTML = "";
  if (!current) return;
  const shown = current.choices.filter(mentions);
  for (const c of shown) {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = c.text; b.dataset.n = c.n; b.title = `#${c.n}`;
    if (c.plan) b.classList.add("plan");
    b.addEventListener("click", () => choose(c.n));
    box.appendChild(b);
  }
  const f = $("filter");
  f.innerHTML = "";
  if (picked) {
    f.textContent = `${shown.length} of ${current.choices.length} choices name ${picked.id} `;
    const all = document.createElement("button");
    all.type = "button"; all.id = "show-all"; all.textContent = "show all";
    all.addEventListener("click", () => { pick(null); });
    f.appendChild(all);
  } else if (current.choices.length) {
    f.textContent = `${current.choices.length} choices — click a hex or counter to narrow them`;
  }
}

function pick(target) {
  picked = target;
  for (const el of $("board").querySelectorAll(".picked")) el.classList.remove("picked");
  if (picked) {
    const sel = picked.kind === "cell" ? `polygon[data-cell="${CSS.escape(picked.id)}"]` : `g.piece[data-id="${CSS.escape(picked.id)}"]`;
    for (const el of $("board").querySelectorAll(sel)) el.classList.add("picked");
  }
  renderChoices();
}

let renders = 0;
function render(state) {
  if (state.unchanged) return;
  current = state;
  renders += 1;
  $("title").textContent = state.title;
  if (state.svg !== undefined) { $("board").innerHTML = state.svg; svgEtag = state.svg_etag; }
  const status = $("status");
  status.innerHTML = "";
  const line = document.createElement("div");
  line.textContent = `${state.turn} · ${state.phase}`;
  status.appendChild(line);
  const who = document.createElement("div");
  if (state.result) {
    who.className = "result"; who.id = "result"; who.textContent = `Game over: ${state.result}`;
  } else if (state.you) {
    who.textContent = `${state.you}: ${state.prompt}`;
  } else if (state.waiting_for) {
    who.id = "waiting"; who.textContent = `waiting for ${state.waiting_for}`;
  }
  status.appendChild(who);
  const sides = document.createElement("div");
  sides.id = "sides"; sides.textContent = state.sides.length ? `you play ${state.sides.join(", ")}` : "you watch";
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
  log.lastElementChild && log.lastElementChild.scrollIntoView({block: "nearest"});
  picked = null;
  renderChoices();
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
  if (busy || !current || document.hidden || !shared(current)) return;
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

$("board").addEventListener("click", (event) => {
  const piece = event.target.closest("g.piece[data-id]");
  if (piece) { pick({kind: "piece", id: piece.dataset.id}); return; }
  const cell = event.target.closest("[data-cell]");
  if (cell) { pick({kind: "cell", id: cell.dataset.cell}); return; }
  pick(null);
});
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
