// Tarpon in the browser: the board, the game against Tarpon and the analysis, all through
// the server's JSON API (docs/serve.md). The server knows the rules: the page draws what
// it is told (legal moves, check, the end of the game) and sends what the person does.
"use strict";

// How often the running clock is redrawn, and below what it shows tenths.
const CLOCK_TICK_MS = 100;
const CLOCK_TENTHS_BELOW_MS = 20000;
// A new analysis waits this long after the last change of position (walking through moves
// quickly starts one search, not one per step).
const ANALYSIS_DELAY_MS = 150;
// The curve that turns centipawns into an expected score, as the server's reviews use.
const EXPECTED_SCORE_K = 0.00368208;
const FILES = "abcdefgh";
const PIECE_NAMES = { k: "K", q: "Q", r: "R", b: "B", n: "N", p: "P" };
const PROMOTION_PIECES = ["q", "r", "b", "n"];
// The ratings offered, one scale (the UCI `Skill Level`s 0-19 are the same ratings, 800 to
// 2700, so they are not offered twice): the server's range (ELO_MIN, ELO_MAX) by 100.
const STRENGTH_ELO_MIN = 800;
const STRENGTH_ELO_MAX = 2800;

const $ = (id) => document.getElementById(id);

const state = {
  mode: "play",
  games: { play: null, analysis: null },
  views: { play: 0, analysis: 0 }, // the ply shown, on each tab
  orientations: { play: false, analysis: false }, // whether Black is at the bottom
  selected: null, // a square name
  legalCache: new Map(), // FEN -> legal moves, for earlier positions
  busy: false, // a move or Tarpon's reply is on its way
  clockAt: 0, // performance.now() when the game's clocks were read
  flagAsked: false,
  analysis: null, // the running analysis: { controller, fen }
  analysisFen: null, // the position the shown lines, depth and bar belong to (null: none shown)
  analysisWanted: false, // the Analyse button is on
  analysisTimer: null,
  // How long one analysis runs: the server's longest, 30 minutes (it stops sooner when the
  // page goes away).
  analysisSeconds: 1800,
  review: null, // { points, moves } of the analysis game
  undo: null, // the last "Delete from here": { id, pgn, path } of the board before it
  drawOffered: false, // a draw offer made while Tarpon thinks, sent after its move
  learn: null, // learning from mistakes: { side, plies, index, solved, tries }
  recovering: null, // the promise of the recovery while the server is away
  premove: null, // { from, to }: the person's move set during Tarpon's turn
  looseShapes: null, // arrows and circles drawn where they are not kept: { fen, arrows, circles }
  shapeDrag: null, // { from }: a right-button drag under way
  premoveFrom: null, // the square of the piece picked up for a premove
  reviewController: null,
  drag: null,
};

// The ply shown and the orientation are those of the tab shown.
Object.defineProperty(state, "view", {
  get: () => state.views[state.mode],
  set: (ply) => {
    state.views[state.mode] = ply;
  },
});
Object.defineProperty(state, "flipped", {
  get: () => state.orientations[state.mode],
  set: (flipped) => {
    state.orientations[state.mode] = flipped;
  },
});

function game() {
  return state.games[state.mode];
}

// --- Talking to the server ----------------------------------------------------------------

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch("/api/" + path, options);
  } catch (error) {
    // No answer at all: the server stopped, or is restarting.
    throw serverLost(error);
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    // One of the page's own games unknown to the server: it was restarted meanwhile.
    if (response.status === 404 && ownGameIn(path)) throw serverLost(null);
    const error = new Error(data.error || `The server answered ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

// --- When the server goes away -------------------------------------------------------------

// A page outlives its server: the server may be stopped and started again (it then knows
// none of the page's games). The page then says what happened, tries again every few
// seconds, and once the server answers it opens its games again, or sets them up anew from
// their moves and clocks as a reload would, and goes on where it was.
const RECONNECT_MS = 2000;

function ownGameIn(path) {
  const id = Number((/^games\/(\d+)/.exec(path) || [])[1]);
  return Object.values(state.games).some((g) => g && g.id === id);
}

// Starts the recovery (once, however many requests failed) and returns the error for the
// request that found the server gone.
function serverLost(cause) {
  if (!state.recovering) state.recovering = recoverGames(cause === null);
  const error = new Error(
    cause === null
      ? "The server was restarted and no longer had this game: setting it up again."
      : "The server does not answer (stopped or restarting?): trying again every few seconds.",
  );
  error.quiet = true;
  return error;
}

async function recoverGames(restarted) {
  showMessage(
    restarted
      ? "The server was restarted and no longer had this game: setting it up again."
      : "The server does not answer (stopped or restarting?): trying again every few seconds.",
    "info",
  );
  stopAnalysis();
  state.busy = false;
  // Any answer of the server's, even a refusal, means it is back.
  for (;;) {
    try {
      await fetch("/api/games/0", { cache: "no-store" });
      break;
    } catch {
      await sleep(RECONNECT_MS);
    }
  }
  const kept = { play: keptGame(state.games.play), analysis: keptGame(state.games.analysis) };
  let setUpAgain = false;
  for (const mode of ["play", "analysis"]) {
    if (!kept[mode]) continue;
    const flipped = state.orientations[mode];
    const g = await reopen(kept[mode]);
    if (!g) continue;
    setUpAgain = setUpAgain || g.id !== kept[mode].id;
    state.games[mode] = g;
    state.views[mode] = Math.min(state.views[mode], g.ply);
    state.orientations[mode] = flipped;
  }
  state.recovering = null;
  saveState();
  render();
  showMessage(
    setUpAgain
      ? "The server is back; it had been restarted, so the games were set up again from their moves and clocks."
      : "The server answers again.",
    "info",
  );
  if (state.mode === "play") await tarponMovesIfItsTurn();
  else restartAnalysis();
}

// Reads a stream of server-sent events from a fetch response, calling onEvent(name, data).
async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message";
      let data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      if (data) onEvent(name, JSON.parse(data));
    }
  }
}

// Opens an event stream; a refusal (4xx) becomes an error with the server's message.
async function openStream(path, signal) {
  const response = await fetch("/api/" + path, { signal });
  if (!response.ok) {
    if (response.status === 404 && ownGameIn(path)) throw serverLost(null);
    const data = await response.json().catch(() => ({}));
    throw new Error(data.error || `The server answered ${response.status}`);
  }
  return response;
}

function showMessage(text, kind) {
  // While the server is away, what fails says nothing new: the recovery's message stays.
  if (state.recovering && kind !== "info") return;
  const box = $("message");
  box.textContent = text;
  box.className = "message" + (kind === "info" ? " info" : "");
  box.hidden = !text;
}

// --- Games -----------------------------------------------------------------------------------

function setGame(mode, data, keepView) {
  const old = state.games[mode];
  state.games[mode] = data;
  announce(mode, old, data);
  // In a game against Tarpon a move just made (by either side) or the end is heard (on an
  // analysis board, `sendMove` and the steps forward make the sounds).
  if (old && old.id === data.id && mode === "play" && state.mode === "play") {
    if (data.ply > old.ply) playSound(soundOfMove(data, data.ply));
    else if (old.status === "playing" && data.status === "over") playSound("end");
  }
  if (mode === "play" && data.status === "over" && (!old || old.id !== data.id || old.status !== "over")) {
    keepPastGame(data);
  }
  // Each game is shown as it starts: a new one does not keep the last one's orientation.
  if (!old || old.id !== data.id) state.orientations[mode] = data.human === "black";
  // A review stays with its game (it is shown while the line it reviewed is).
  if (mode === "analysis" && (!old || old.id !== data.id)) state.review = null;
  if (mode === state.mode) {
    if (!keepView || state.view > data.ply) state.view = data.ply;
    state.clockAt = performance.now();
    state.flagAsked = false;
    state.selected = null;
    render();
  }
  saveState();
}

// --- Tabs in step ------------------------------------------------------------------------------

// Every tab of the page in this browser shares the games kept in its storage (below). A tab
// that changes a game (a move, Tarpon's reply, a new game) tells the others, which show the
// change too, so that no tab goes on showing a position the game has left. (The server
// refuses a move made in a position the game has left, should a tab miss the news.)
const tabChannel = "BroadcastChannel" in window ? new BroadcastChannel("tarpon-games") : null;

// What identifies a game's state: the same for two answers about the same moment of it.
function gameStamp(g) {
  return g ? [g.id, g.status, g.pgn, (g.line || []).join(","), g.searching].join("|") : "";
}

function announce(mode, old, data) {
  if (!tabChannel || gameStamp(old) === gameStamp(data)) return;
  const replaced = old && old.id !== data.id ? old.id : null;
  tabChannel.postMessage({ mode, id: data.id, stamp: gameStamp(data), replaced });
}

async function onTabNews(event) {
  const news = event.data || {};
  const mine = state.games[news.mode];
  if (!mine || gameStamp(mine) === news.stamp) return;
  const replacedHere = news.replaced !== null && mine.id === news.replaced;
  if (mine.id !== news.id && !replacedHere) return;
  let data;
  try {
    data = await api("GET", `games/${news.id}`);
  } catch {
    return; // Gone again already: the next news or a reload will tell.
  }
  if (replacedHere) {
    if (news.mode === "analysis") stopAnalysis();
    showMessage(
      news.mode === "play"
        ? "A new game was started in another tab: this one shows it too."
        : "Another tab set up a new analysis board: this one shows it too.",
      "info",
    );
  }
  setGame(news.mode, data, !replacedHere);
}

if (tabChannel) tabChannel.onmessage = guarded(onTabNews);

// --- Keeping the games over a reload ------------------------------------------------------

// The page keeps, in the browser's storage, each game's number on the server and enough to
// set it up again (its PGN, the person's colour, the clocks), the tab shown, the ply shown
// and the boards' orientations. A reload opens the server's games again, or, where the
// server has dropped them (restarted, or made room), sets them up anew from what was kept.
const STORAGE_KEY = "tarpon-games";

function keptGame(g) {
  if (!g) return null;
  return {
    id: g.id,
    mode: g.mode,
    pgn: g.pgn,
    human: g.human,
    status: g.status,
    clock: g.clock,
    movetime_ms: g.movetime_ms,
    elo: g.elo,
  };
}

function saveState() {
  try {
    const kept = {
      mode: state.mode,
      play: keptGame(state.games.play),
      analysis: keptGame(state.games.analysis),
      views: state.views,
      orientations: state.orientations,
    };
    localStorage.setItem(STORAGE_KEY, JSON.stringify(kept));
  } catch {
    // No storage (a private window may refuse it): a reload starts afresh.
  }
}

function loadKept() {
  try {
    return JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
  } catch {
    return null;
  }
}

// The server's game `kept.id`, or a new one set up from what was kept; null if neither.
async function reopen(kept) {
  if (!kept) return null;
  try {
    return await api("GET", `games/${kept.id}`);
  } catch {
    // Dropped by the server: set up again below.
  }
  if (kept.mode === "analysis") {
    return api("POST", "games", { mode: "analysis", pgn: kept.pgn }).catch(() => null);
  }
  if (kept.status !== "playing") return null;
  const body = { mode: "play", color: kept.human, pgn: kept.pgn };
  if (kept.clock) {
    // The clocks as last seen: the running one's time while the page was away is not
    // known, so that side gets the time it had.
    body.clock = {
      minutes: kept.clock.base_ms / 60000,
      increment: kept.clock.increment_ms / 1000,
      white_ms: Math.round(kept.clock.white_ms),
      black_ms: Math.round(kept.clock.black_ms),
    };
  } else {
    body.movetime_ms = kept.movetime_ms;
  }
  if (kept.elo) body.elo = kept.elo;
  return api("POST", "games", body).catch(() => null);
}

// On load: the kept games, tab, plies shown and orientations, or a new game.
async function restore() {
  const kept = loadKept();
  if (!kept) return newPlayGame();
  const [play, analysis] = await Promise.all([reopen(kept.play), reopen(kept.analysis)]);
  const views = kept.views || {};
  const orientations = kept.orientations || {};
  for (const [mode, g] of [["play", play], ["analysis", analysis]]) {
    if (!g) continue;
    state.games[mode] = g;
    state.views[mode] = Math.min(g.ply, Number.isInteger(views[mode]) ? views[mode] : g.ply);
    state.orientations[mode] = Boolean(orientations[mode]);
  }
  if (play) state.views.play = play.ply;
  showGameSettings(play);
  if (kept.mode === "analysis" && analysis) await setMode("analysis");
  if (!play) return newPlayGame();
  render();
  saveState();
  if (state.mode === "play") await tarponMovesIfItsTurn();
}
// Whether the game against Tarpon is under way: a new game would leave it.
function gameInProgress() {
  const g = state.games.play;
  return Boolean(g && g.status === "playing" && g.ply > 0);
}

// The "New game" button: asks first when a game is under way.
async function askNewPlayGame() {
  if (gameInProgress()) {
    $("new-game-confirm").hidden = false;
    return;
  }
  await newPlayGame();
}

async function newPlayGame() {
  $("new-game-confirm").hidden = true;
  state.drawOffered = false;
  const body = { mode: "play", color: $("color").value };
  // "Play from here": the position it was asked from, once.
  if (state.startFen) body.fen = state.startFen;
  state.startFen = null;
  const [kind, value] = $("time").value.split(":");
  if (kind === "move") {
    body.movetime_ms = Number(value);
  } else {
    const [minutes, increment] = value.split("+").map(Number);
    body.clock = { minutes, increment };
  }
  const [strengthKind, strength] = $("strength").value.split(":");
  if (strengthKind === "elo") body.elo = Number(strength);
  if (strengthKind === "level") body.level = Number(strength);
  const previous = state.games.play;
  const data = await api("POST", "games", body);
  if (previous) api("DELETE", `games/${previous.id}`).catch(() => {});
  setGame("play", data);
  showMessage("");
  await tarponMovesIfItsTurn();
}

async function newAnalysisGame(body) {
  stopAnalysis();
  state.undo = null;
  const previous = state.games.analysis;
  const data = await api("POST", "games", Object.assign({ mode: "analysis" }, body));
  if (previous) api("DELETE", `games/${previous.id}`).catch(() => {});
  setGame("analysis", data);
  showMessage("");
  restartAnalysis();
}

// The largest request the server takes (its MAX_BODY_BYTES), less room for the JSON around.
const MAX_PGN_BYTES = 64 * 1024 - 256;

// Loads the pasted PGN's first game (a file of many games is cut to its first).
async function loadPgn() {
  const text = $("pgn-input").value;
  // A game ends where a tag follows its moves after an empty line.
  const games = text.split(/\r?\n\s*\r?\n(?=\s*\[)/).filter((part) => part.trim());
  const first = games.length > 1 ? games[0] : text;
  if (new Blob([first]).size > MAX_PGN_BYTES) {
    throw new Error("This game's PGN is over 64 KiB, more than Tarpon takes: shorten it.");
  }
  await newAnalysisGame({ pgn: first });
  if (games.length > 1) {
    showMessage(`The PGN holds ${games.length} games: the first one is loaded.`, "info");
  }
}

function tarponToMove(g) {
  return g && g.mode === "play" && g.status === "playing" && g.turn !== g.human;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function tarponMovesIfItsTurn() {
  let g = state.games.play;
  if (!tarponToMove(g)) return;
  state.busy = true;
  render();
  // Already thinking (asked before the page was reloaded): its move is awaited, not asked
  // for again, which would cut its thinking short.
  while (g.searching && tarponToMove(g)) {
    await sleep(300);
    try {
      g = await api("GET", `games/${g.id}`);
    } catch {
      break;
    }
    if (state.games.play && state.games.play.id !== g.id) return;
  }
  if (!tarponToMove(g)) {
    state.busy = false;
    setGame("play", g);
    return;
  }
  try {
    const data = await api("POST", `games/${g.id}/reply`);
    state.busy = false;
    setGame("play", data);
    if (state.premove) {
      await playPremove();
      return;
    }
    state.premoveFrom = null;
  } catch (error) {
    state.busy = false;
    await refresh();
    // A game resigned, aborted or replaced while Tarpon thought has no move to wait for:
    // that is no error.
    const now = state.games.play;
    if (now && now.id === g.id && now.status === "playing") showMessage(error.message);
  }
  if (state.drawOffered) await sendDrawOffer();
}

// Sends the person's draw offer; Tarpon answers at once (it is the person's turn).
async function sendDrawOffer() {
  const g = state.games.play;
  // Still Tarpon's turn (a premove was played): the offer waits for its next move.
  if (g && g.status === "playing" && tarponToMove(g)) return render();
  state.drawOffered = false;
  if (!g || g.status !== "playing") return render();
  state.busy = true;
  render();
  try {
    const answer = await api("POST", `games/${g.id}/draw`);
    state.busy = false;
    setGame("play", answer.game, true);
    showMessage(answer.accepted ? "" : "Tarpon declines the draw: play on.", "info");
  } finally {
    state.busy = false;
    render();
  }
}

async function refresh() {
  const g = game();
  if (!g) return;
  try {
    setGame(state.mode, await api("GET", `games/${g.id}`), true);
  } catch (error) {
    showMessage(error.message);
  }
}

// Sends the person's move (UCI); the server judges it, and a refusal is shown as it says.
async function sendMove(uci) {
  // Learning from a mistake: the move is an answer, not a move of the board.
  if (state.learn && state.mode === "analysis" && learnItem() && state.view === learnItem().ply - 1) {
    return checkLearnMove(uci);
  }
  const g = game();
  // The position the move was made in: on an analysis board the ply shown, against Tarpon
  // the game's end as this tab knows it (refused if the game went on elsewhere).
  const body = { move: uci, at: g.mode === "analysis" ? state.view : g.ply };
  if (g.mode === "analysis") state.undo = null;
  state.busy = true;
  state.selected = null;
  try {
    const data = await api("POST", `games/${g.id}/move`, body);
    state.busy = false;
    showMessage("");
    // On an analysis board the move may join a line that goes on after it: the board
    // shows the position after the move, not the line's end.
    if (g.mode === "analysis") state.view = body.at + 1;
    setGame(state.mode, data, g.mode === "analysis");
    if (g.mode === "analysis") playSound(soundOfMove(data, state.view));
    if (state.mode === "play") await tarponMovesIfItsTurn();
    else restartAnalysis();
  } catch (error) {
    state.busy = false;
    showMessage(error.message);
    // Refused because the game is not what this tab showed: show it as it is.
    if (error.status === 409) await refresh();
    render();
  }
}

// --- The board ---------------------------------------------------------------------------------

// The pieces of a FEN's first field, by square name.
function piecesOf(fen) {
  const pieces = {};
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, i) => {
    const rank = 8 - i;
    let file = 0;
    for (const c of row) {
      if (c >= "1" && c <= "8") {
        file += Number(c);
      } else {
        const color = c === c.toUpperCase() ? "w" : "b";
        pieces[FILES[file] + rank] = color + PIECE_NAMES[c.toLowerCase()];
        file += 1;
      }
    }
  });
  return pieces;
}

function shownFen() {
  const g = game();
  return g.fens[state.view];
}

function turnOf(fen) {
  return fen.split(" ")[1] === "w" ? "white" : "black";
}

// The legal moves of the position shown: the game's own at its end, otherwise asked for.
function shownLegal() {
  const g = game();
  if (!g) return [];
  if (state.view === g.ply) return g.status === "playing" || g.mode === "analysis" ? g.legal : [];
  const fen = shownFen();
  const cached = state.legalCache.get(fen);
  if (cached) return cached;
  state.legalCache.set(fen, []);
  api("POST", "position", { fen })
    .then((data) => {
      state.legalCache.set(fen, data.legal);
      render();
    })
    .catch((error) => showMessage(error.message));
  return [];
}

// Whether the person may move on the board now.
function canMove() {
  const g = game();
  if (!g || state.busy || state.editor) return false;
  if (g.mode === "analysis") return true;
  return g.status === "playing" && state.view === g.ply && g.turn === g.human;
}

function squareAt(row, col) {
  const file = state.flipped ? 7 - col : col;
  const rank = state.flipped ? row + 1 : 8 - row;
  return FILES[file] + rank;
}

function renderBoard() {
  const g = game();
  const board = $("board");
  board.textContent = "";
  if (!g) return;
  const fen = state.editor ? editorFen() : shownFen();
  const pieces = piecesOf(fen);
  const legal = canMove() ? shownLegal() : [];
  const mover = turnOf(fen) === "white" ? "w" : "b";
  const targets = new Set(
    legal.filter((m) => m.from === state.selected).map((m) => m.to),
  );
  if (state.selected) {
    for (const [square, piece] of Object.entries(pieces)) {
      if (piece[1] === "R" && castlingOnto(legal, state.selected, square)) targets.add(square);
    }
  }
  const movable = new Set(legal.map((m) => m.from));
  const last = state.view > 0 && !state.editor ? g.moves[state.view - 1] : null;
  const inCheck = state.editor ? null : g.checks[state.view];
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const name = squareAt(row, col);
      const square = document.createElement("div");
      const fileIndex = FILES.indexOf(name[0]);
      const light = (fileIndex + Number(name[1])) % 2 === 1;
      square.className = "square " + (light ? "light" : "dark");
      square.dataset.square = name;
      if (last && (last.from === name || last.to === name)) square.classList.add("last");
      if (state.selected === name) square.classList.add("selected");
      if (state.premoveFrom === name) square.classList.add("premove-from");
      if (state.premove && (state.premove.from === name || state.premove.to === name)) {
        square.classList.add("premove");
      }
      if (inCheck === name) square.classList.add("check");
      if (targets.has(name)) square.classList.add("target");
      const piece = pieces[name];
      if (piece) {
        square.classList.add("occupied");
        square.dataset.piece = piece;
        if (piece[0] === mover && movable.has(name)) square.classList.add("movable");
        const img = document.createElement("img");
        img.src = `/pieces/${piece}.svg`;
        img.alt = piece;
        img.draggable = false;
        square.appendChild(img);
      }
      if (row === 7) addCoord(square, "file", name[0]);
      if (col === 0) addCoord(square, "rank", name[1]);
      board.appendChild(square);
    }
  }
}

function addCoord(square, kind, text) {
  const span = document.createElement("span");
  span.className = "coord " + kind;
  span.textContent = text;
  square.appendChild(span);
}

function squareFromPoint(x, y) {
  const element = document.elementFromPoint(x, y);
  const square = element && element.closest(".square");
  return square ? square.dataset.square : null;
}

// A click (or a drop) on `name`: select a piece, or move the selected one there.
// --- Premoves ----------------------------------------------------------------------------

// During Tarpon's turn the person may pick up a piece and set its move (as on lichess): it is
// played the moment Tarpon has moved, if it is legal then, and dropped otherwise. A click
// anywhere while one is set (or a right click, or Escape) cancels it.
function canPremove() {
  const g = game();
  return Boolean(
    g && g.mode === "play" && g.status === "playing" && !state.editor && state.view === g.ply && g.turn !== g.human,
  );
}

function choosePremove(name) {
  const g = game();
  const pieces = piecesOf(g.fen);
  const own = (square) => Boolean(pieces[square]) && pieces[square][0] === g.human[0];
  if (state.premove) {
    cancelPremove();
    return;
  }
  const from = state.premoveFrom;
  if (from && from !== name && !own(name)) {
    state.premove = { from, to: name };
    state.premoveFrom = null;
  } else {
    state.premoveFrom = own(name) && from !== name ? name : null;
  }
  render();
}

function cancelPremove() {
  state.premove = null;
  state.premoveFrom = null;
  render();
}

// After Tarpon's move: the premove set, if it is a legal move now (a pawn reaching the last
// rank becomes a queen).
async function playPremove() {
  const premove = state.premove;
  state.premove = null;
  state.premoveFrom = null;
  const g = state.games.play;
  if (!premove || !g || g.status !== "playing" || g.turn !== g.human) return render();
  const castle = castlingOnto(g.legal, premove.from, premove.to);
  const move =
    castle ||
    g.legal.find((m) => m.from === premove.from && m.to === premove.to && (m.uci.length === 4 || m.uci.endsWith("q")));
  if (!move) return render();
  await sendMove(move.uci);
}

function chooseSquare(name) {
  if (canPremove()) return choosePremove(name);
  if (!canMove()) return;
  const legal = shownLegal();
  const from = state.selected;
  if (from && from !== name) {
    const castle = castlingOnto(legal, from, name);
    if (castle) return sendMove(castle.uci);
    const moves = legal.filter((m) => m.from === from && m.to === name);
    if (moves.length > 1 || (moves.length === 1 && moves[0].promotion)) {
      return askPromotion(moves);
    }
    if (moves.length === 1) return sendMove(moves[0].uci);
    if (legal.some((m) => m.from === name)) {
      state.selected = name;
      return render();
    }
    // No legal move goes there: the piece is put down where it was, and nothing is sent.
    state.selected = null;
    return render();
  }
  state.selected = from === name ? null : legal.some((m) => m.from === name) ? name : null;
  render();
}

// The castling move of the king on `from` onto its own rook on `to`, as people also
// castle (the king's destination square works too).
function castlingOnto(legal, from, to) {
  const pieces = piecesOf(shownFen());
  const king = pieces[from];
  const rook = pieces[to];
  if (!king || !rook || king[1] !== "K" || rook !== king[0] + "R") return null;
  const kingSide = to[0] > from[0];
  return (
    legal.find(
      (m) => m.from === from && (kingSide ? /^O-O(?!-O)/.test(m.san) : /^O-O-O/.test(m.san)),
    ) || null
  );
}

function askPromotion(moves) {
  const box = $("promotion");
  box.textContent = "";
  const color = turnOf(shownFen()) === "white" ? "w" : "b";
  for (const piece of PROMOTION_PIECES) {
    const move = moves.find((m) => m.promotion === piece);
    if (!move) continue;
    const button = document.createElement("button");
    button.dataset.promotion = piece;
    button.title = { q: "Queen", r: "Rook", b: "Bishop", n: "Knight" }[piece];
    const img = document.createElement("img");
    img.src = `/pieces/${color}${PIECE_NAMES[piece]}.svg`;
    img.alt = button.title;
    button.appendChild(img);
    button.addEventListener("click", () => {
      box.hidden = true;
      sendMove(move.uci);
    });
    box.appendChild(button);
  }
  box.hidden = false;
}

// A click beside the promotion pieces takes the pawn back to where it was.
function onPromotionClick(event) {
  if (event.target === $("promotion")) closePromotion();
}

// Closes the promotion chooser (a click beside it, Escape): the pawn stays where it was.
function closePromotion() {
  if ($("promotion").hidden) return;
  $("promotion").hidden = true;
  state.selected = null;
  render();
}

// Drag and drop with pointer events (mouse, pen and touch alike).
function onPointerDown(event) {
  const square = event.target.closest(".square");
  if (square && state.editor && event.button <= 0) {
    event.preventDefault();
    editSquare(square.dataset.square);
    return;
  }
  if (square && event.button === 2 && (state.premove || state.premoveFrom)) {
    event.preventDefault();
    cancelPremove();
    return;
  }
  if (square && event.button === 2 && !state.editor) {
    event.preventDefault();
    state.shapeDrag = { from: square.dataset.square };
    return;
  }
  if (square && canPremove() && event.button <= 0) {
    event.preventDefault();
    choosePremove(square.dataset.square);
    // A premove can be dragged too: where the pointer is let go sets it.
    if (state.premoveFrom) state.premoveDrag = { from: state.premoveFrom };
    return;
  }
  if (!square || !canMove() || event.button > 0) return;
  const name = square.dataset.square;
  const castling = state.selected && castlingOnto(shownLegal(), state.selected, name);
  if (!square.classList.contains("movable") || castling) {
    chooseSquare(name);
    return;
  }
  event.preventDefault();
  const wasSelected = state.selected === name;
  if (!wasSelected) {
    state.selected = name;
    render();
  }
  const ghost = document.createElement("img");
  ghost.src = `/pieces/${square.dataset.piece}.svg`;
  ghost.className = "dragging";
  ghost.style.left = event.clientX + "px";
  ghost.style.top = event.clientY + "px";
  document.body.appendChild(ghost);
  const shown = $("board").querySelector(`[data-square="${name}"] img`);
  if (shown) shown.style.opacity = "0.3";
  state.drag = { from: name, ghost, moved: false, wasSelected, x: event.clientX, y: event.clientY };
}

function onPointerMove(event) {
  const drag = state.drag;
  if (!drag) return;
  drag.ghost.style.left = event.clientX + "px";
  drag.ghost.style.top = event.clientY + "px";
  if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > 4) drag.moved = true;
}

function onPointerUp(event) {
  const shapeDrag = state.shapeDrag;
  state.shapeDrag = null;
  if (shapeDrag && event.button === 2) {
    const to = squareFromPoint(event.clientX, event.clientY);
    if (to) {
      const item = shapeColour(event) + shapeDrag.from + (to === shapeDrag.from ? "" : to);
      guarded(() => toggleShape(item))();
    }
    return;
  }
  const premoveDrag = state.premoveDrag;
  state.premoveDrag = null;
  if (premoveDrag) {
    const to = squareFromPoint(event.clientX, event.clientY);
    if (to && to !== premoveDrag.from && state.premoveFrom === premoveDrag.from) choosePremove(to);
    return;
  }
  const drag = state.drag;
  if (!drag) return;
  state.drag = null;
  drag.ghost.remove();
  const to = squareFromPoint(event.clientX, event.clientY);
  if (!drag.moved || !to || to === drag.from) {
    // A click on a piece selects it; a second click puts it down again.
    if (!drag.moved && drag.wasSelected) state.selected = null;
    render();
    return;
  }
  chooseSquare(to);
}

// --- Clocks, names, status ---------------------------------------------------------------

function clockText(ms) {
  if (ms < CLOCK_TENTHS_BELOW_MS) {
    return `0:${(ms / 1000).toFixed(1).padStart(4, "0")}`;
  }
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// --- The board's size and coordinates ---------------------------------------------------------

// The size the person chose by dragging the board's corner, and whether the coordinates are
// shown, are kept in the browser's storage.
const BOARD_SIZE_KEY = "tarpon-board-size";
const COORDS_KEY = "tarpon-coordinates";
const MIN_BOARD_PX = 240;

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // No storage: the choice lasts until the page is left.
  }
}

function applyBoardSettings() {
  const size = Number(stored(BOARD_SIZE_KEY));
  if (size >= MIN_BOARD_PX) document.documentElement.style.setProperty("--board-chosen", `${size}px`);
  else document.documentElement.style.removeProperty("--board-chosen");
  const coords = stored(COORDS_KEY) !== "off";
  document.body.classList.toggle("no-coords", !coords);
  $("coords").setAttribute("aria-pressed", String(coords));
}

function toggleCoordinates() {
  store(COORDS_KEY, stored(COORDS_KEY) === "off" ? "on" : "off");
  applyBoardSettings();
}

// Dragging the corner: the board's new size is the distance from its top left corner to
// the pointer (the larger of the two), within what fits the window.
function onResizeStart(event) {
  event.preventDefault();
  const box = document.querySelector(".board-box").getBoundingClientRect();
  const move = (e) => {
    const size = Math.max(MIN_BOARD_PX, Math.round(Math.max(e.clientX - box.left, e.clientY - box.top)));
    document.documentElement.style.setProperty("--board-chosen", `${size}px`);
  };
  const up = () => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    const shown = Math.round(document.querySelector(".board-box").getBoundingClientRect().width);
    store(BOARD_SIZE_KEY, String(shown));
    applyBoardSettings();
    render();
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
}

function resetBoardSize() {
  store(BOARD_SIZE_KEY, null);
  applyBoardSettings();
  render();
}

// --- Material and sounds ----------------------------------------------------------------------

const MATERIAL_ORDER = ["q", "r", "b", "n", "p"];
const MATERIAL_VALUES = { q: 9, r: 5, b: 3, n: 3, p: 1 };
// The pieces a side is up, drawn as the other side's pieces it has taken (as on lichess).
const TAKEN_GLYPHS = { white: { q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" }, black: { q: "♕", r: "♖", b: "♗", n: "♘", p: "♙" } };

// Beside each player: the pieces it is up, type by type, and by how much in pawns.
function renderMaterial(box, color) {
  box.textContent = "";
  const g = game();
  if (!g) return;
  const placement = (state.editor ? editorFen() : shownFen()).split(" ")[0];
  const count = { white: {}, black: {} };
  for (const c of placement) {
    const kind = c.toLowerCase();
    if (!(kind in MATERIAL_VALUES)) continue;
    const side = c === kind ? "black" : "white";
    count[side][kind] = (count[side][kind] || 0) + 1;
  }
  const other = color === "white" ? "black" : "white";
  let text = "";
  let score = 0;
  for (const kind of MATERIAL_ORDER) {
    const up = (count[color][kind] || 0) - (count[other][kind] || 0);
    score += up * MATERIAL_VALUES[kind];
    if (up > 0) text += TAKEN_GLYPHS[color][kind].repeat(up);
  }
  box.textContent = text;
  if (score > 0) {
    const ahead = document.createElement("span");
    ahead.className = "ahead";
    ahead.textContent = `+${score}`;
    box.appendChild(ahead);
  }
  box.dataset.score = String(score);
}

// Move sounds, made by the browser (no file to download): a short knock for a move, a
// lower and louder one for a capture, two quick high notes for a check, a chord at the end
// of a game. Off with the Sound button (kept in the browser's storage).
const SOUND_KEY = "tarpon-sound";
let audio = null;
window.soundsPlayed = [];

function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) !== "off";
  } catch {
    return true;
  }
}

function toggleSound() {
  try {
    localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
  } catch {
    // No storage: the setting lasts until the page is left.
  }
  renderSoundButton();
}

function renderSoundButton() {
  const on = soundOn();
  $("sound").textContent = on ? "Sound on" : "Sound off";
  $("sound").setAttribute("aria-pressed", String(on));
}

function playSound(name) {
  if (!soundOn()) return;
  window.soundsPlayed.push(name);
  try {
    audio = audio || new AudioContext();
  } catch {
    return;
  }
  const notes = {
    move: [[420, 0, 0.06, 0.25]],
    capture: [[260, 0, 0.09, 0.4]],
    check: [[880, 0, 0.07, 0.25], [1175, 0.08, 0.08, 0.25]],
    end: [[523, 0, 0.35, 0.2], [659, 0, 0.35, 0.2], [784, 0, 0.35, 0.2]],
  }[name];
  const start = audio.currentTime;
  for (const [frequency, at, length, volume] of notes) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = name === "end" ? "sine" : "triangle";
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(volume, start + at);
    gain.gain.exponentialRampToValueAtTime(0.001, start + at + length);
    tone.connect(gain).connect(audio.destination);
    tone.start(start + at);
    tone.stop(start + at + length);
  }
}

// The sound of the move that led to ply `ply` of `g` (or of its end).
function soundOfMove(g, ply) {
  if (ply === g.ply && g.status === "over" && g.mode === "play") return "end";
  if (g.checks[ply]) return "check";
  const move = g.moves[ply - 1];
  const before = piecesOf(g.fens[ply - 1]);
  const capture = move && (before[move.to] || (move.san && move.san.includes("x")));
  return capture ? "capture" : "move";
}

// The opening of the position shown: the last position of the line up to it that the
// server's table names (as on lichess, the name stays once the game leaves the book), or
// else the one a PGN's tags give.
function renderOpening() {
  const g = game();
  const box = $("opening");
  box.textContent = "";
  let named = null;
  if (g && !state.editor) {
    for (let ply = Math.min(state.view, (g.openings || []).length - 1); ply >= 0 && !named; ply--) {
      named = g.openings[ply];
    }
  }
  if (named) {
    const eco = document.createElement("span");
    eco.className = "eco";
    eco.textContent = named.eco;
    box.append(eco, named.name);
  } else if (g && g.opening_tag && !state.editor) {
    box.textContent = g.opening_tag;
  }
  box.hidden = box.textContent === "";
}

function renderPlayers() {
  const g = game();
  const bottomColor = state.flipped ? "black" : "white";
  for (const [id, color] of [
    ["player-bottom", bottomColor],
    ["player-top", bottomColor === "white" ? "black" : "white"],
  ]) {
    const box = $(id);
    let name = color === "white" ? "White" : "Black";
    // A game read from PGN shows its players' names.
    if (g && g[color]) name = g[color];
    if (g && g.mode === "play") {
      name = g.human === color ? "You" : g.elo ? `Tarpon (Elo ${g.elo})` : "Tarpon";
    }
    box.querySelector(".name").textContent = name;
    renderMaterial(box.querySelector(".material"), color);
    const clock = box.querySelector(".clock");
    clock.className = "clock";
    if (g && g.clock) {
      const left = clockLeft(g, color);
      clock.textContent = clockText(left);
      if (g.clock.running === color) clock.classList.add("running");
      if (left < CLOCK_TENTHS_BELOW_MS && g.status === "playing") clock.classList.add("low");
    } else {
      clock.textContent = "";
    }
  }
}

function clockLeft(g, color) {
  const stored = g.clock[color + "_ms"];
  if (g.clock.running !== color) return stored;
  return Math.max(0, stored - (performance.now() - state.clockAt));
}

// Every tick: redraw the clocks; when the running one reaches zero, ask the server, which
// judges the flag.
function tick() {
  const g = game();
  if (!g || !g.clock) return;
  renderPlayers();
  const running = g.clock.running;
  if (running && clockLeft(g, running) <= 0 && !state.flagAsked && !state.busy) {
    state.flagAsked = true;
    refresh();
  }
}

function renderStatus() {
  const g = game();
  const status = $("status");
  status.className = "status";
  if (!g) {
    status.textContent = "";
    return;
  }
  const atEnd = state.view === g.ply;
  if (g.status === "over" && (atEnd || g.mode === "play")) {
    status.textContent = `${g.result} — ${g.reason}`;
    status.classList.add("over");
  } else if (state.busy && g.mode === "play" && tarponToMove(g)) {
    status.textContent = "Tarpon is thinking…";
  } else if (g.mode === "play") {
    status.textContent = g.turn === g.human ? "Your move" : "Tarpon to move";
  } else {
    status.textContent = `${turnOf(shownFen()) === "white" ? "White" : "Black"} to move`;
  }
}

// --- Moves and PGN --------------------------------------------------------------------------

const MARK_WORDS = { "?!": "Inaccuracy", "?": "Mistake", "??": "Blunder" };

function markClass(mark) {
  return { "?!": "mark-inaccuracy", "?": "mark-mistake", "??": "mark-blunder" }[mark] || "";
}

// NAGs as people read them; others are written as `$n`.
const NAG_GLYPHS = {
  1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!", 10: "=", 13: "∞",
  14: "⩲", 15: "⩱", 16: "±", 17: "∓", 18: "+−", 19: "−+",
};

function nagText(nags) {
  return (nags || []).map((n) => NAG_GLYPHS[n] || ` $${n}`).join("");
}

// A comment as shown: the PGN's commands ([%clk ...], [%eval ...]) stay in the PGN only.
function commentText(comments) {
  return (comments || [])
    .map((c) => c.replace(/\[%[^\]]*\]/g, "").trim())
    .filter(Boolean)
    .join(" ");
}

// The review's mark and evaluation of each move of the line it reviewed, by ply; only while
// the line shown is that line.
function reviewOf(g) {
  const review = state.review;
  if (state.mode !== "analysis" || !review || review.line !== lineKey(g)) return null;
  return review;
}

function lineKey(g) {
  return g.moves.map((m) => m.uci).join(" ");
}

// Move number and side of the move that makes ply `ply` (1 for the first move).
function moveNumber(g, ply) {
  const fields = g.start_fen.split(" ");
  const offset = fields[1] === "b" ? 1 : 0;
  const first = Number(fields[5]) || 1;
  const index = ply - 1 + offset;
  return { number: first + Math.floor(index / 2), white: index % 2 === 0 };
}

// The move list: the main line in columns; comments and variations (nested, in
// parentheses) in rows between its moves. Every move is a button that shows its position.
function renderMoves() {
  const g = game();
  const box = $("moves");
  const review = g ? reviewOf(g) : null;
  const current = g && state.view > 0 ? g.line[state.view - 1] : 0;
  // A step through the same game changes only which move is current: the list is kept and
  // only the mark moves (rebuilding a long annotated game's list at every step is slow).
  const built = state.movesBuilt;
  if (g && built && built.g === g && built.review === review) {
    const previous = box.querySelector(".current");
    const now = box.querySelector(`button[data-node="${current}"]`);
    if (previous !== now) {
      if (previous) previous.classList.remove("current");
      if (now) now.classList.add("current");
    }
    renderVariationTools(g, built.nodes, current);
    if (now) scrollIntoBox(box, now);
    return;
  }
  box.textContent = "";
  state.movesBuilt = null;
  if (!g) return;
  const nodes = new Map(g.tree.map((n) => [n.id, n]));
  state.movesBuilt = { g, review, nodes };
  const onLine = new Map(g.line.map((id, i) => [id, i + 1]));
  const moveButton = (node) => {
    const button = document.createElement("button");
    button.dataset.node = node.id;
    let text = node.san + nagText(node.nags);
    const ply = onLine.get(node.id);
    const judged = review && ply ? review.moves[ply - 1] : null;
    if (judged && judged.mark) {
      text = node.san + judged.mark;
      button.classList.add(markClass(judged.mark));
    }
    button.textContent = text;
    // The evaluation after the move, drawn by the style sheet beside it.
    if (review && ply && review.points[ply]) button.dataset.eval = evalText(review.points[ply].eval);
    if (ply) button.dataset.ply = ply;
    if (node.id === current) button.classList.add("current");
    button.addEventListener("click", guarded(() => selectNode(node.id)));
    return button;
  };
  const numberText = (ply, forced) => {
    const { number, white } = moveNumber(g, ply);
    return white ? `${number}.` : forced ? `${number}…` : "";
  };
  // A variation: the moves from `parent`'s child number `index` on, with their own
  // comments and variations.
  const renderLine = (into, parent, index) => {
    let before = parent;
    let at = nodes.get(parent).children[index];
    let first = true;
    let numberNeeded = true;
    for (;;) {
      const node = nodes.get(at);
      const number = numberText(node.ply, numberNeeded);
      if (number) into.appendChild(document.createTextNode(number + " "));
      const before_ = commentText(node.before);
      if (before_ && first) appendComment(into, before_);
      into.appendChild(moveButton(node));
      into.appendChild(document.createTextNode(" "));
      numberNeeded = false;
      const comment = commentText(node.comments);
      if (comment) {
        appendComment(into, comment);
        numberNeeded = true;
      }
      if (!(first && index > 0)) {
        const siblings = nodes.get(before).children;
        for (let i = 1; i < siblings.length; i++) {
          appendVariation(into, (inner) => renderLine(inner, before, i));
          numberNeeded = true;
        }
      }
      first = false;
      if (node.children.length === 0) return;
      before = at;
      at = node.children[0];
    }
  };
  // The main line, a row per move number, broken where something is written between.
  let at = 0;
  let column = 0; // 0: a row is to start; 1: White's move is in, Black's cell is next
  const start = nodes.get(0);
  if (start.children.length > 0) {
    const opening = commentText(nodes.get(start.children[0]).before);
    if (opening) appendBranch(box, (row) => appendComment(row, opening));
  }
  while (nodes.get(at).children.length > 0) {
    const node = nodes.get(nodes.get(at).children[0]);
    const { number, white } = moveNumber(g, node.ply);
    if (white || column === 0) {
      if (column === 1) box.appendChild(document.createElement("span"));
      const numberCell = document.createElement("span");
      numberCell.className = "number";
      numberCell.textContent = `${number}.`;
      box.appendChild(numberCell);
      if (!white) box.appendChild(ellipsis());
    }
    box.appendChild(moveButton(node));
    column = white ? 1 : 0;
    const comment = commentText(node.comments);
    const siblings = nodes.get(at).children;
    // A marked move of a reviewed game says what was better, in the list itself (a phone
    // has no pointer to hover with).
    const judged = review ? review.moves[onLine.get(node.id) - 1] : null;
    const better = judged && judged.mark && judged.best ? judged : null;
    if (comment || siblings.length > 1 || better) {
      if (column === 1) box.appendChild(ellipsis());
      column = 0;
      appendBranch(box, (row) => {
        if (better) {
          const note = document.createElement("span");
          note.className = `best-note ${markClass(better.mark)}`;
          note.textContent = `${MARK_WORDS[better.mark]}: best was ${better.best}. `;
          row.appendChild(note);
        }
        if (comment) appendComment(row, comment);
        for (let i = 1; i < siblings.length; i++) {
          appendVariation(row, (inner) => renderLine(inner, at, i));
        }
      });
    }
    at = node.id;
  }
  if (column === 1) box.appendChild(document.createElement("span"));
  if (g.status === "over" || (g.mode === "analysis" && g.result !== "*")) {
    const result = document.createElement("div");
    result.className = "result";
    result.textContent = g.result;
    box.appendChild(result);
  }
  renderVariationTools(g, nodes, current);
  const shown = box.querySelector(".current");
  if (shown) scrollIntoBox(box, shown);
}

function ellipsis() {
  const cell = document.createElement("span");
  cell.className = "ellipsis";
  cell.textContent = "…";
  return cell;
}

function appendComment(into, text) {
  const span = document.createElement("span");
  span.className = "comment";
  span.textContent = text + " ";
  into.appendChild(span);
}

function appendBranch(box, fill) {
  const row = document.createElement("div");
  row.className = "branch";
  fill(row);
  box.appendChild(row);
}

function appendVariation(into, fill) {
  const span = document.createElement("span");
  span.className = "variation";
  fill(span);
  into.appendChild(span);
}

// Promote and delete act on the move shown: promote where it lies in a variation.
function renderVariationTools(g, nodes, current) {
  const analysis = g.mode === "analysis";
  let inVariation = false;
  for (let id = current; id !== 0; id = nodes.get(id).parent) {
    if (nodes.get(nodes.get(id).parent).children[0] !== id) inVariation = true;
  }
  $("variation-tools").hidden = !analysis;
  $("promote-variation").disabled = !analysis || !inVariation;
  $("delete-variation").disabled = !analysis || current === 0;
  $("undo-delete").hidden = !analysis || !state.undo || state.undo.id !== g.id;
}

// Shows the position after node `id`: on the line shown, a step; elsewhere in the tree,
// the line through it, asked of the server.
async function selectNode(id) {
  const g = game();
  const index = g.line.indexOf(id);
  if (id === 0) return goTo(0);
  if (index >= 0) return goTo(index + 1);
  const node = g.tree.find((n) => n.id === id);
  const data = await api("POST", `games/${g.id}/line`, { node: id });
  state.view = node.ply;
  setGame(g.mode, data, true);
  restartAnalysis();
}

async function changeVariation(action) {
  const g = state.games.analysis;
  const current = state.view > 0 ? g.line[state.view - 1] : 0;
  if (!current) return;
  // A deletion can be undone: the board before it is its PGN (moves, variations,
  // comments, tags), and the moves to the deleted one find the place again.
  const before = action === "delete" ? { id: g.id, pgn: g.pgn, path: sanPath(g, state.view) } : null;
  const data = await api("POST", `games/${g.id}/variation`, { node: current, action });
  if (action === "delete") state.view = state.view - 1;
  state.undo = before;
  setGame("analysis", data, true);
  restartAnalysis();
}

// The moves (SAN) of the line shown, up to ply `plies`.
function sanPath(g, plies) {
  const nodes = new Map(g.tree.map((n) => [n.id, n]));
  return g.line.slice(0, plies).map((id) => nodes.get(id).san);
}

// Brings back what "Delete from here" deleted: the board as it was, set up again from its
// PGN, showing the deleted move.
async function undoDelete() {
  const undo = state.undo;
  const g = state.games.analysis;
  if (!undo || !g || g.id !== undo.id) return;
  stopAnalysis();
  let data = await api("POST", "games", { mode: "analysis", pgn: undo.pgn });
  const nodes = new Map(data.tree.map((n) => [n.id, n]));
  let node = 0;
  for (const san of undo.path) {
    const next = nodes.get(node).children.find((c) => nodes.get(c).san === san);
    if (next === undefined) break;
    node = next;
  }
  if (node !== 0) data = await api("POST", `games/${data.id}/line`, { node });
  state.undo = null;
  api("DELETE", `games/${g.id}`).catch(() => {});
  const flipped = state.orientations.analysis;
  state.views.analysis = nodes.get(node).ply;
  setGame("analysis", data, true);
  state.orientations.analysis = flipped;
  render();
  restartAnalysis();
}

// Scrolls `box` (not the page) so that `element` inside it is seen.
function scrollIntoBox(box, element) {
  const boxRect = box.getBoundingClientRect();
  const rect = element.getBoundingClientRect();
  if (rect.top < boxRect.top) box.scrollTop -= boxRect.top - rect.top;
  else if (rect.bottom > boxRect.bottom) box.scrollTop += rect.bottom - boxRect.bottom;
}

function renderPgn() {
  const g = game();
  const pgn = g ? g.pgn : "";
  if ($("pgn-output").value !== pgn) $("pgn-output").value = pgn;
  $("download-pgn").href = g ? `/api/games/${g.id}/pgn` : "#";
}

// --- The FEN, the board editor, playing from a position -----------------------------------

async function copyFen() {
  const text = $("fen-shown").value;
  try {
    await navigator.clipboard.writeText(text);
    showMessage("The FEN is copied.", "info");
  } catch {
    $("fen-shown").select();
    showMessage("Press Ctrl+C to copy the selected FEN.", "info");
  }
}

const EDITOR_PIECES = ["wK", "wQ", "wR", "wB", "wN", "wP", "bK", "bQ", "bR", "bB", "bN", "bP"];
const START_PLACEMENT = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

// Opens the editor on the position shown.
function openEditor() {
  stopAnalysis();
  clearAnalysisPanel();
  const fields = (game() ? shownFen() : START_PLACEMENT + " w KQkq - 0 1").split(" ");
  state.editor = { pieces: piecesOf(fields[0]), brush: "wP" };
  $("editor-turn").value = fields[1] === "b" ? "b" : "w";
  for (const right of "KQkq") $(`castle-${right}`).checked = fields[2].includes(right);
  state.editorEp = fields[3] || "-";
  showEditorMessage("");
  $("editor").hidden = false;
  $("edit-board").hidden = true;
  renderPalette();
  render();
}

function closeEditor() {
  state.editor = null;
  showEditorMessage("");
  closePlaySide("editor-play-side", "editor-play");
  $("editor").hidden = true;
  $("edit-board").hidden = false;
  render();
}

function renderPalette() {
  const palette = $("editor-palette");
  palette.textContent = "";
  for (const piece of [...EDITOR_PIECES, ""]) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.piece = piece;
    button.title = piece ? `Put ${piece[0] === "w" ? "a white" : "a black"} ${PIECE_WORDS[piece[1]]}` : "Remove pieces";
    if (piece) {
      const img = document.createElement("img");
      img.src = `/pieces/${piece}.svg`;
      img.alt = piece;
      button.appendChild(img);
    } else {
      button.textContent = "✕";
    }
    if (state.editor.brush === piece) button.classList.add("chosen");
    button.addEventListener("click", () => {
      state.editor.brush = piece;
      renderPalette();
    });
    palette.appendChild(button);
  }
}

const PIECE_WORDS = { K: "king", Q: "queen", R: "rook", B: "bishop", N: "knight", P: "pawn" };

// A click on a square: the chosen piece goes there (the same piece again removes it).
function editSquare(name) {
  const editor = state.editor;
  if (!editor.brush || editor.pieces[name] === editor.brush) delete editor.pieces[name];
  else editor.pieces[name] = editor.brush;
  render();
}

// The editor's position as a FEN; castling rights only where king and rook stand ready.
function editorFen() {
  const editor = state.editor;
  const rows = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = "";
    let empty = 0;
    for (const file of FILES) {
      const piece = editor.pieces[file + rank];
      if (!piece) {
        empty += 1;
        continue;
      }
      if (empty) row += empty;
      empty = 0;
      const letter = piece[1] === "P" ? "p" : piece[1].toLowerCase();
      row += piece[0] === "w" ? letter.toUpperCase() : letter;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  let castling = "";
  for (const right of "KQkq") {
    const [kingAt, king, rookAt, rook] = CASTLING_HOMES[right];
    if ($(`castle-${right}`).checked && editor.pieces[kingAt] === king && editor.pieces[rookAt] === rook) {
      castling += right;
    }
  }
  const ep = editorEnPassant().includes($("editor-ep").value) ? $("editor-ep").value : "-";
  return `${rows.join("/")} ${$("editor-turn").value} ${castling || "-"} ${ep} 0 1`;
}

// The castling rights whose king and rook stand on their squares.
const CASTLING_HOMES = { K: ["e1", "wK", "h1", "wR"], Q: ["e1", "wK", "a1", "wR"], k: ["e8", "bK", "h8", "bR"], q: ["e8", "bK", "a8", "bR"] };

// The squares a pawn of the side not to move may just have passed over with a double step:
// its pawn stands in front of that square, and the square and the one it came from are
// empty.
function editorEnPassant() {
  const pieces = state.editor.pieces;
  const white = $("editor-turn").value === "w";
  const [pawn, at, over, from] = white ? ["bP", 5, 6, 7] : ["wP", 4, 3, 2];
  return [...FILES]
    .filter((f) => pieces[f + at] === pawn && !pieces[f + over] && !pieces[f + from])
    .map((f) => f + over);
}

// The editor's side controls as the board allows: castling boxes only where king and rook
// are home (unticked otherwise), en passant only on squares where it could be.
function renderEditorRights() {
  const pieces = state.editor.pieces;
  for (const right of "KQkq") {
    const [kingAt, king, rookAt, rook] = CASTLING_HOMES[right];
    const box = $(`castle-${right}`);
    box.disabled = !(pieces[kingAt] === king && pieces[rookAt] === rook);
    if (box.disabled) box.checked = false;
  }
  const select = $("editor-ep");
  const chosen = select.value;
  const squares = editorEnPassant();
  const options = ["-", ...squares];
  if ([...select.options].map((o) => o.value).join() !== options.join()) {
    select.textContent = "";
    for (const square of options) {
      const option = document.createElement("option");
      option.value = square;
      option.textContent = square === "-" ? "–" : square;
      select.appendChild(option);
    }
  }
  const wanted = state.editorEp || chosen;
  state.editorEp = null;
  select.value = options.includes(wanted) ? wanted : "-";
  select.disabled = squares.length === 0;
}

// An error of the editor's position, shown inside the editor and scrolled into view.
function showEditorMessage(text) {
  const box = $("editor-message");
  box.textContent = text;
  box.hidden = !text;
  if (text) box.scrollIntoView({ block: "nearest" });
}

function setEditorPlacement(placement) {
  state.editor.pieces = piecesOf(placement + " w - - 0 1");
  render();
}

// The editor's position on a new analysis board; the server judges it (a king missing, a
// pawn on the last rank: refused with its reason, and the editor stays open).
async function analyseEdited() {
  const fen = editorFen();
  try {
    await newAnalysisGame({ fen });
  } catch (error) {
    showEditorMessage(error.message);
    return;
  }
  closeEditor();
}

// "Play from here": first the side the person takes (the side to move is offered first).
function askPlaySide(chooser, button) {
  const fen = state.editor ? editorFen() : shownFen();
  const toMove = turnOf(fen);
  const buttons = [...$(chooser).querySelectorAll("button[data-side]")];
  // The side to move first, then the other, then Cancel.
  buttons.sort((a, b) => rank(a) - rank(b));
  function rank(b) {
    return b.dataset.side === toMove ? 0 : b.dataset.side ? 1 : 2;
  }
  for (const b of buttons) $(chooser).appendChild(b);
  $(chooser).hidden = false;
  $(button).hidden = true;
}

function closePlaySide(chooser, button) {
  $(chooser).hidden = true;
  $(button).hidden = false;
}

// A game against Tarpon from the position shown (or the editor's), the person taking
// `side`, with the time and strength chosen in the Play tab. The server judges an edited
// position first (a king missing: refused, and the editor stays open with the reason).
async function playFromHere(side) {
  const fen = state.editor ? editorFen() : shownFen();
  if (state.editor) {
    try {
      await api("POST", "position", { fen });
    } catch (error) {
      showEditorMessage(error.message);
      return;
    }
    closeEditor();
  }
  state.startFen = fen;
  $("color").value = side;
  await setMode("play");
  await askNewPlayGame();
}

async function copyPgn() {
  const text = $("pgn-output").value;
  try {
    await navigator.clipboard.writeText(text);
    showMessage("The PGN is copied.", "info");
  } catch {
    $("pgn-output").select();
    showMessage("Press Ctrl+C to copy the selected PGN.", "info");
  }
}

// --- Analysis ---------------------------------------------------------------------------------

function expectedScore(eval_) {
  if ("mate" in eval_) return eval_.mate > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-EXPECTED_SCORE_K * eval_.cp));
}

function evalText(eval_) {
  if ("mate" in eval_) return `#${eval_.mate}`;
  const pawns = eval_.cp / 100;
  return (pawns > 0 ? "+" : "") + pawns.toFixed(2);
}

function setEvalBar(eval_) {
  const bar = $("evalbar");
  const white = expectedScore(eval_);
  bar.querySelector(".evalbar-black").style.height = `${(1 - white) * 100}%`;
  bar.classList.toggle("black-better", white < 0.5);
  $("eval-text").textContent = evalText(eval_);
  bar.dataset.white = white.toFixed(3);
}

// The position whose analysis the panel may show: the one on the board in analysis mode.
function analysedFen() {
  const g = state.games.analysis;
  return state.mode === "analysis" && g ? g.fens[state.view] : null;
}

// Empties the lines, depth, speed and bar: what they said was about another position, and
// an evaluation of the wrong position reads as if it were right. The bar goes back to even
// with no number until the new position's analysis speaks.
function clearAnalysisPanel() {
  state.analysisFen = null;
  state.threatShown = false;
  $("analysis").classList.remove("threat");
  $("arrows").classList.remove("threat");
  drawArrows([]);
  $("lines").textContent = "";
  $("depth").textContent = "depth –";
  $("nps").textContent = "– kn/s";
  const bar = $("evalbar");
  bar.querySelector(".evalbar-black").style.height = "50%";
  bar.classList.remove("black-better");
  $("eval-text").textContent = "";
  delete bar.dataset.white;
}

function stopAnalysis() {
  clearTimeout(state.analysisTimer);
  if (state.analysis) {
    state.analysis.controller.abort();
    state.analysis = null;
  }
  renderAnalysisButton();
}

function restartAnalysis() {
  if (!state.analysisWanted || state.mode !== "analysis" || state.reviewing) return;
  stopAnalysis();
  state.analysisTimer = setTimeout(startAnalysis, ANALYSIS_DELAY_MS);
}

async function startAnalysis() {
  const g = state.games.analysis;
  if (!g || state.reviewing) return;
  clearAnalysisPanel();
  // A position without a legal move has nothing to search: the panel says why, and the
  // analysis stays on for the next position shown.
  // (An earlier position of the line has one: the line's next move.)
  if (state.view === g.ply && g.legal.length === 0) {
    state.analysisFen = analysedFen();
    $("depth").textContent = g.checks[state.view] ? "Checkmate" : "Stalemate";
    return;
  }
  const controller = new AbortController();
  const run = { controller, fen: analysedFen() };
  state.analysis = run;
  renderAnalysisButton();
  const lines = $("lines-count").value;
  try {
    const threat = state.threat && !g.checks[state.view] ? "&threat=1" : "";
    run.threat = Boolean(threat);
    const response = await openStream(
      `games/${g.id}/analysis?ply=${state.view}&lines=${lines}&seconds=${state.analysisSeconds}${threat}`,
      controller.signal,
    );
    await readEvents(response, (name, data) => {
      // Events of a search that was stopped or replaced, or of a position no longer shown,
      // can still arrive (they were on their way): they are dropped.
      if (state.analysis !== run || run.fen !== analysedFen()) return;
      if (name === "info") showInfo(data, run.fen, run.threat);
      if (name === "done") {
        state.analysisFen = run.fen;
        $("depth").textContent += data.limit ? " (time limit reached)" : " (finished)";
        // At its time limit the analysis is over: the button says so, and a change of
        // position no longer starts one until asked.
        if (data.limit) state.analysisWanted = false;
        state.analysis = null;
        controller.abort();
        renderAnalysisButton();
      }
    });
  } catch (error) {
    if (error.name !== "AbortError" && state.analysis === run) {
      // A stream cut off (TypeError) is the server going away.
      showMessage(error instanceof TypeError ? serverLost(error).message : error.message);
    }
  }
  if (state.analysis === run) {
    state.analysis = null;
    renderAnalysisButton();
  }
}

function showInfo(data, fen, threat) {
  state.analysisFen = fen;
  state.threatShown = Boolean(threat);
  $("depth").textContent = (threat ? "Threat: " : "") + `depth ${data.depth}`;
  $("analysis").classList.toggle("threat", Boolean(threat));
  $("arrows").classList.toggle("threat", Boolean(threat));
  $("nps").textContent = `${Math.round(data.nps / 1000)} kn/s`;
  const list = $("lines");
  list.textContent = "";
  for (const line of data.lines) {
    const item = document.createElement("li");
    // The row shows what fits; the whole line is under the pointer.
    item.title = `${evalText(line.eval)} ${line.san}`;
    const value = document.createElement("span");
    value.className = "eval";
    value.textContent = evalText(line.eval);
    item.appendChild(value);
    // Each move of the line is a button: a click plays the line up to it on the board.
    let index = 0;
    line.san.split(" ").forEach((word, i) => {
      if (i > 0) item.appendChild(document.createTextNode(" "));
      if (/^\d+\.(\.\.)?$/.test(word)) {
        item.appendChild(document.createTextNode(word));
        return;
      }
      const moves = line.moves.slice(0, index + 1);
      const move = document.createElement("span");
      move.className = "line-move";
      move.textContent = word;
      move.dataset.index = index;
      move.title = "Play the line up to here";
      move.addEventListener("click", guarded(() => playLine(fen, moves)));
      item.appendChild(move);
      index += 1;
    });
    list.appendChild(item);
  }
  // The bar is the position's own evaluation: a threat's lines leave it as it is.
  if (data.lines.length > 0 && !threat) setEvalBar(data.lines[0].eval);
  drawArrows(data.lines.map((line) => line.moves[0]).filter(Boolean));
}

// Plays `moves` (UCI) from the position `fen` shown, one after another, as the person's
// moves on the analysis board (a new variation where the game went otherwise).
async function playLine(fen, moves) {
  const g = state.games.analysis;
  if (!g || analysedFen() !== fen) return;
  let data = g;
  let at = state.view;
  for (const uci of moves) {
    data = await api("POST", `games/${g.id}/move`, { move: uci, at });
    at += 1;
  }
  state.view = at;
  setGame("analysis", data, true);
  restartAnalysis();
}

// The engine lines' first moves as arrows on the board, the best line's boldest.
function drawArrows(ucis) {
  state.arrows = ucis;
  const svg = $("arrows");
  svg.textContent = "";
  const centre = (square) => {
    const file = FILES.indexOf(square[0]);
    const rank = Number(square[1]);
    const x = state.flipped ? 7 - file : file;
    const y = state.flipped ? rank - 1 : 8 - rank;
    return [x + 0.5, y + 0.5];
  };
  const defs = svgElement("defs", {});
  ucis.forEach((uci, i) => {
    const marker = svgElement("marker", {
      id: `arrow-head-${i}`, markerWidth: 4, markerHeight: 4, refX: 2.2, refY: 2, orient: "auto",
      markerUnits: "strokeWidth",
    });
    marker.appendChild(svgElement("path", { d: "M0,0 L4,2 L0,4 z", class: `arrow-head-${i}` }));
    defs.appendChild(marker);
  });
  svg.appendChild(defs);
  ucis.forEach((uci, i) => {
    const [x1, y1] = centre(uci.slice(0, 2));
    const [x2, y2] = centre(uci.slice(2, 4));
    // The line stops short of the target's centre so that the head ends there.
    const length = Math.hypot(x2 - x1, y2 - y1);
    const cut = Math.min(0.35, length / 2);
    const ex = x2 - ((x2 - x1) / length) * cut;
    const ey = y2 - ((y2 - y1) / length) * cut;
    const arrow = svgElement("line", {
      x1, y1, x2: ex, y2: ey, class: `arrow arrow-${i}`, "marker-end": `url(#arrow-head-${i})`,
    });
    arrow.dataset.uci = uci;
    svg.appendChild(arrow);
  });
  drawShapes(svg, centre);
}

// --- Arrows and circles drawn on the board -------------------------------------------------

// A right-button drag draws an arrow, a right click on a square a circle (again: it goes),
// green, or red with Shift, blue with Alt, yellow with both, as on lichess. On an analysis
// board they belong to the move shown and are kept in its comments as PGN's [%cal] and
// [%csl] commands (those of a pasted PGN are shown too); elsewhere they last until a move.
const SHAPE_COLOURS = { G: "#15781b", R: "#882020", B: "#003088", Y: "#e68f00" };

// The node whose shapes are shown: the move shown on an analysis board (none at the start).
function shapeNode() {
  const g = game();
  if (!g || g.mode !== "analysis" || state.view === 0 || state.editor) return null;
  return g.tree.find((n) => n.id === g.line[state.view - 1]) || null;
}

// The shapes shown: { arrows: ["Ge2e4", ...], circles: ["Rd4", ...] }.
function currentShapes() {
  const node = shapeNode();
  if (!node) return state.looseShapes && state.looseShapes.fen === shownFen() ? state.looseShapes : { arrows: [], circles: [] };
  const shapes = { arrows: [], circles: [] };
  for (const comment of node.comments || []) {
    for (const [, kind, list] of comment.matchAll(/\[%(cal|csl)\s+([^\]]*)\]/g)) {
      const items = list.split(",").map((x) => x.trim()).filter((x) => /^[GRYB][a-h][1-8]([a-h][1-8])?$/.test(x));
      shapes[kind === "cal" ? "arrows" : "circles"].push(...items);
    }
  }
  return shapes;
}

function drawShapes(svg, centre) {
  const { arrows, circles } = currentShapes();
  for (const item of circles) {
    const [x, y] = centre(item.slice(1, 3));
    svg.appendChild(
      svgElement("circle", { cx: x, cy: y, r: 0.45, class: "shape-circle", stroke: SHAPE_COLOURS[item[0]] }),
    );
  }
  for (const item of arrows) {
    const colour = SHAPE_COLOURS[item[0]];
    const id = `shape-head-${item[0]}`;
    if (!svg.querySelector(`#${id}`)) {
      const marker = svgElement("marker", {
        id, markerWidth: 4, markerHeight: 4, refX: 2.2, refY: 2, orient: "auto", markerUnits: "strokeWidth",
      });
      marker.appendChild(svgElement("path", { d: "M0,0 L4,2 L0,4 z", fill: colour }));
      svg.appendChild(marker);
    }
    const [x1, y1] = centre(item.slice(1, 3));
    const [x2, y2] = centre(item.slice(3, 5));
    const length = Math.hypot(x2 - x1, y2 - y1);
    const cut = Math.min(0.35, length / 2);
    svg.appendChild(
      svgElement("line", {
        x1, y1, x2: x2 - ((x2 - x1) / length) * cut, y2: y2 - ((y2 - y1) / length) * cut,
        class: "shape-arrow", stroke: colour, "marker-end": `url(#${id})`,
      }),
    );
  }
}

function shapeColour(event) {
  if (event.shiftKey && event.altKey) return "Y";
  if (event.shiftKey) return "R";
  if (event.altKey) return "B";
  return "G";
}

// Adds `item` (an arrow or a circle), or takes it away when it is there already (in any
// colour it is replaced), and keeps the result.
async function toggleShape(item) {
  const shapes = currentShapes();
  const list = item.length === 5 ? shapes.arrows : shapes.circles;
  const at = list.findIndex((x) => x.slice(1) === item.slice(1));
  if (at >= 0 && list[at] === item) list.splice(at, 1);
  else if (at >= 0) list[at] = item;
  else list.push(item);
  const node = shapeNode();
  if (!node) {
    state.looseShapes = Object.assign(shapes, { fen: shownFen() });
    return drawArrows(state.arrows || []);
  }
  const g = game();
  const data = await api("POST", `games/${g.id}/shapes`, {
    node: node.id,
    cal: shapes.arrows.join(","),
    csl: shapes.circles.join(","),
  });
  setGame("analysis", data, true);
}

function renderAnalysisButton() {
  const button = $("analyse-toggle");
  button.textContent = state.analysisWanted ? "Stop" : "Analyse";
  button.classList.toggle("primary", !state.analysisWanted);
}

// The threat (x): the analysis shows what the other side would play if it were its move;
// it turns the analysis on if it was off.
async function toggleThreat() {
  state.threat = !state.threat;
  $("threat-toggle").setAttribute("aria-pressed", String(state.threat));
  $("threat-toggle").textContent = state.threat ? "Hide threat" : "Show threat";
  if (!state.analysisWanted) await toggleAnalysis();
  else restartAnalysis();
}

// Turning the analysis off also stops the server's search. The promise settles once the
// server has answered, so that a caller who starts another search (a review) after it is
// not stopped by this stop arriving late.
async function toggleAnalysis() {
  state.analysisWanted = !state.analysisWanted;
  let stopped = Promise.resolve();
  if (state.analysisWanted) {
    restartAnalysis();
  } else {
    stopAnalysis();
    // Stopped analysis says nothing more: its lines, arrows and number go (as on lichess).
    clearAnalysisPanel();
    const g = state.games.analysis;
    if (g) stopped = api("POST", `games/${g.id}/stop`).catch(() => {});
  }
  renderAnalysisButton();
  $("evalbar").hidden = state.mode !== "analysis";
  await stopped;
}

// --- Review: the evaluation graph ---------------------------------------------------------

async function reviewGame() {
  const g = state.games.analysis;
  if (!g) return;
  if (state.reviewController) state.reviewController.abort();
  const controller = new AbortController();
  state.reviewController = controller;
  $("review-progress").textContent = "Reviewing…";
  // The review and the live analysis share the game's engine: the analysis pauses while
  // the review runs, and goes on after it.
  state.reviewing = true;
  const reviewedLine = lineKey(g);
  // Also a restart still waiting on its timer: it would take the engine from the review.
  const analysing = state.analysis !== null;
  stopAnalysis();
  if (analysing) await api("POST", `games/${g.id}/stop`).catch(() => {});
  try {
    const response = await openStream(`games/${g.id}/review`, controller.signal);
    let ended = false;
    await readEvents(response, (name, data) => {
      if (name === "progress") {
        $("review-progress").textContent = `Reviewing: position ${data.ply + 1} of ${data.of + 1}`;
      } else if (name === "review") {
        ended = true;
        state.review = Object.assign(data, { line: reviewedLine });
        $("review-progress").textContent = "";
        render();
      } else if (name === "done" && data.stopped) {
        ended = true;
        $("review-progress").textContent = "Review stopped";
      }
    });
    // A stream cut off before its last event (the server stopped, the connection broke)
    // must not leave "Reviewing…" on screen as if it went on.
    if (!ended && !controller.signal.aborted) {
      $("review-progress").textContent = "Review cut off";
      showMessage("The review ended before it finished: ask for the graph again");
    }
  } catch (error) {
    if (error.name !== "AbortError") showMessage(error.message);
    $("review-progress").textContent = "";
  }
  state.reviewController = null;
  state.reviewing = false;
  restartAnalysis();
}

function svgElement(name, attributes) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

function renderGraph() {
  const graph = $("graph");
  const review = state.review;
  const g = state.games.analysis;
  graph.textContent = "";
  const shown = Boolean(state.mode === "analysis" && g && reviewOf(g));
  // An <svg> has no `hidden` property: the attribute itself is set.
  graph.toggleAttribute("hidden", !shown);
  const summary = $("review-summary");
  summary.textContent = "";
  if (!shown) return;
  const width = 300;
  const height = 100;
  const last = Math.max(1, review.points.length - 1);
  const x = (ply) => (ply / last) * width;
  const y = (white) => (1 - white) * height;
  const line = review.points.map((p) => `${x(p.ply).toFixed(1)},${y(p.white).toFixed(1)}`);
  graph.appendChild(
    svgElement("polygon", {
      points: `0,${height} ${line.join(" ")} ${width},${height}`,
      fill: "#e8e6e3",
    }),
  );
  graph.appendChild(
    svgElement("line", { x1: 0, y1: height / 2, x2: width, y2: height / 2, stroke: "#888", "stroke-width": 0.5 }),
  );
  graph.appendChild(
    svgElement("line", { x1: x(state.view), y1: 0, x2: x(state.view), y2: height, stroke: "#6a9d3a", "stroke-width": 1.5 }),
  );
  const colors = { "?!": "#e6c84a", "?": "#f08a3a", "??": "#ff3b30" };
  for (const move of review.moves) {
    if (!move.mark) continue;
    const point = review.points[move.ply];
    const dot = svgElement("circle", {
      cx: x(move.ply),
      cy: y(point.white),
      r: 3.5,
      fill: colors[move.mark],
      stroke: "#222",
      "stroke-width": 0.8,
      class: "mark",
    });
    dot.dataset.mark = move.mark;
    dot.appendChild(svgElement("title", {})).textContent = `${move.san}${move.mark}`;
    graph.appendChild(dot);
  }
  const marks = (counts) =>
    `${count(counts.inaccuracies, "inaccuracy", "inaccuracies")} (?!), ` +
    `${count(counts.mistakes, "mistake", "mistakes")} (?), ${count(counts.blunders, "blunder", "blunders")} (??)`;
  summary.textContent = "";
  for (const [name, counts] of [["White", review.summary.white], ["Black", review.summary.black]]) {
    const line = document.createElement("div");
    line.className = "summary-side";
    const figures = counts.moves
      ? `accuracy ${counts.accuracy.toFixed(1)}%, average centipawn loss ${counts.acpl}; `
      : "";
    line.textContent = `${name}: ${figures}${marks(counts)}.`;
    summary.appendChild(line);
  }
}

// "1 blunder", "2 blunders", "0 blunders".
function count(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

// The ply under the pointer on the graph.
function graphPly(event) {
  const box = $("graph").getBoundingClientRect();
  const last = state.review.points.length - 1;
  return Math.max(0, Math.min(last, Math.round(((event.clientX - box.left) / box.width) * last)));
}

// Hovering the graph: the move there and its evaluation, in a tip above the pointer.
function onGraphHover(event) {
  const tip = $("graph-tip");
  const g = state.games.analysis;
  if (!state.review || !g) return;
  const ply = graphPly(event);
  const point = state.review.points[ply];
  const judged = ply > 0 ? state.review.moves[ply - 1] : null;
  let text = "Start";
  if (judged) {
    const { number, white } = moveNumber(g, ply);
    text = `${number}${white ? "." : "…"} ${judged.san}${judged.mark || ""}`;
    if (judged.best) text += ` (best ${judged.best})`;
  }
  tip.textContent = `${text}  ${evalText(point.eval)}`;
  const box = $("graph").getBoundingClientRect();
  const holder = tip.parentElement.getBoundingClientRect();
  tip.style.left = `${event.clientX - holder.left}px`;
  tip.style.top = `${box.top - holder.top}px`;
  tip.hidden = false;
}

function onGraphClick(event) {
  const review = state.review;
  if (!review) return;
  const box = $("graph").getBoundingClientRect();
  const last = review.points.length - 1;
  goTo(Math.round(((event.clientX - box.left) / box.width) * last));
}

// --- Navigation, modes, strength choices ------------------------------------------------------

function goTo(ply) {
  const g = game();
  if (!g) return;
  const clamped = Math.max(0, Math.min(g.ply, ply));
  if (clamped === state.view) return;
  if (clamped === state.view + 1) playSound(soundOfMove(g, clamped));
  state.view = clamped;
  state.selected = null;
  saveState();
  $("promotion").hidden = true;
  render();
  restartAnalysis();
}

async function setMode(mode) {
  if (mode === state.mode) return;
  if (state.editor) closeEditor();
  if (state.mode === "analysis") stopAnalysis();
  state.mode = mode;
  $("tab-play").setAttribute("aria-selected", String(mode === "play"));
  $("tab-analyse").setAttribute("aria-selected", String(mode === "analysis"));
  $("play-panel").hidden = $("play-forms").hidden = mode !== "play";
  $("analyse-panel").hidden = $("analyse-forms").hidden = mode !== "analysis";
  $("evalbar").hidden = mode !== "analysis";
  showMessage("");
  if (mode === "analysis" && !state.games.analysis) {
    await newAnalysisGame({});
  }
  const g = game();
  if (g) state.view = Math.min(state.view, g.ply);
  render();
  saveState();
  restartAnalysis();
}

// --- Learn from your mistakes --------------------------------------------------------------

// After a review, one side's marked moves one after another, as on lichess: the board shows
// the position before the mistake, and the person looks for the better move there. A move
// made then is only compared with Tarpon's best (nothing is added to the board); a wrong one
// may be tried again, the answer shown, or the mistake skipped.
function learnSide(g, review) {
  // A game against Tarpon (its PGN names the person "Player"): the person's side; otherwise
  // the side with more marked moves.
  if (g.white === "Player") return "white";
  if (g.black === "Player") return "black";
  const count = (c) => review.moves.filter((m) => m.color === c && m.mark && m.best).length;
  return count("black") > count("white") ? "black" : "white";
}

function startLearning() {
  const g = state.games.analysis;
  const review = reviewOf(g);
  if (!g || !review) return;
  const side = learnSide(g, review);
  const plies = review.moves.filter((m) => m.color === side && m.mark && m.best).map((m) => m.ply);
  if (plies.length === 0) {
    showMessage(`No mistake of ${side === "white" ? "White" : "Black"}'s to learn from.`, "info");
    return;
  }
  state.learn = { side, plies, index: 0, solved: false, tries: 0 };
  showLearnPosition();
}

function learnItem() {
  const learn = state.learn;
  const review = reviewOf(state.games.analysis);
  if (!learn || !review) return null;
  return review.moves.find((m) => m.ply === learn.plies[learn.index]) || null;
}

function showLearnPosition() {
  const item = learnItem();
  if (!item) return stopLearning();
  state.analysisWanted = false;
  stopAnalysis();
  clearAnalysisPanel();
  renderAnalysisButton();
  state.learn.solved = false;
  state.learn.tries = 0;
  goTo(item.ply - 1);
  const { number } = moveNumber(state.games.analysis, item.ply);
  const name = state.learn.side === "white" ? "White" : "Black";
  setLearnText(
    `${state.learn.index + 1} of ${state.learn.plies.length}: ${number}${state.learn.side === "white" ? "." : "…"} ` +
      `${item.san}${item.mark} was played. Find a better move for ${name}.`,
    false,
  );
}

function setLearnText(text, solved) {
  $("learn-text").textContent = text;
  $("learn").classList.toggle("solved", solved);
  renderLearn();
}

function renderLearn() {
  const g = state.games.analysis;
  const review = g && state.mode === "analysis" ? reviewOf(g) : null;
  $("learn").hidden = !state.learn || !review;
  $("learn-start").hidden = !review || Boolean(state.learn) || !review.moves.some((m) => m.mark && m.best);
  if (state.learn) {
    $("learn-show").disabled = state.learn.solved;
    $("learn-next").textContent = state.learn.index + 1 < state.learn.plies.length ? "Next mistake" : "Finish";
  }
}

// The person's move while learning: compared with Tarpon's best, not played.
function checkLearnMove(uci) {
  const item = learnItem();
  const legal = shownLegal();
  const played = legal.find((m) => m.uci === uci);
  const best = legal.find((m) => m.san === item.best);
  state.selected = null;
  if (played && best && played.uci === best.uci) {
    state.learn.solved = true;
    setLearnText(`Yes: ${item.best} is Tarpon's move here.`, true);
  } else {
    state.learn.tries += 1;
    setLearnText(`${played ? played.san : uci} is not the best move here: try another one.`, false);
  }
  render();
}

function showLearnAnswer() {
  const item = learnItem();
  if (!item) return;
  state.learn.solved = true;
  setLearnText(`Tarpon's move here: ${item.best}.`, true);
}

function nextLearnItem() {
  if (!state.learn) return;
  state.learn.index += 1;
  if (state.learn.index >= state.learn.plies.length) {
    const done = state.learn.plies.length;
    stopLearning();
    showMessage(`That was all ${done} of them.`, "info");
    return;
  }
  showLearnPosition();
}

function stopLearning() {
  state.learn = null;
  renderLearn();
  render();
}

// --- Rematch and past games ----------------------------------------------------------------

// Another game like the one that ended, the colours swapped, from the same start.
async function rematch() {
  const g = state.games.play;
  if (!g || g.status !== "over") return;
  const body = { mode: "play", color: g.human === "white" ? "black" : "white" };
  if (!g.from_start) body.fen = g.start_fen;
  if (g.clock) body.clock = { minutes: g.clock.base_ms / 60000, increment: g.clock.increment_ms / 1000 };
  else body.movetime_ms = g.movetime_ms;
  if (g.elo) body.elo = g.elo;
  state.drawOffered = false;
  const data = await api("POST", "games", body);
  api("DELETE", `games/${g.id}`).catch(() => {});
  setGame("play", data);
  showMessage("");
  await tarponMovesIfItsTurn();
}

// Finished games against Tarpon are kept in the browser's storage (the last 50, newest
// first), to be opened again on the analysis board.
const PAST_KEY = "tarpon-past-games";
const PAST_MAX = 50;

function pastGames() {
  try {
    const list = JSON.parse(localStorage.getItem(PAST_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function keepPastGame(g) {
  if (!g || g.mode !== "play" || g.status !== "over" || g.result === "*") return;
  const list = pastGames().filter((p) => p.id !== g.id);
  list.unshift({
    id: g.id,
    date: new Date().toISOString().slice(0, 10),
    human: g.human,
    opponent: g.elo ? `Tarpon (Elo ${g.elo})` : "Tarpon",
    result: g.result,
    plies: g.ply,
    pgn: g.pgn,
  });
  try {
    localStorage.setItem(PAST_KEY, JSON.stringify(list.slice(0, PAST_MAX)));
  } catch {
    // No storage: the game is not kept.
  }
  renderPastGames();
}

function renderPastGames() {
  const list = $("past-games-list");
  list.textContent = "";
  const games = pastGames();
  $("past-games").hidden = games.length === 0;
  games.forEach((p, i) => {
    const item = document.createElement("li");
    const won = (p.result === "1-0" && p.human === "white") || (p.result === "0-1" && p.human === "black");
    const outcome = p.result === "1/2-1/2" ? "drawn" : won ? "won" : "lost";
    item.textContent = `${p.date}: ${p.human === "white" ? "White" : "Black"} against ${p.opponent}, ${p.result} (${outcome}, ${Math.ceil(p.plies / 2)} moves)`;
    const open = document.createElement("button");
    open.textContent = "Open";
    open.className = "open-past";
    open.addEventListener(
      "click",
      guarded(async () => {
        await setMode("analysis");
        await newAnalysisGame({ pgn: p.pgn });
      }),
    );
    const remove = document.createElement("button");
    remove.textContent = "Delete";
    remove.className = "delete-past";
    remove.addEventListener("click", () => {
      const rest = pastGames();
      rest.splice(i, 1);
      try {
        localStorage.setItem(PAST_KEY, JSON.stringify(rest));
      } catch {
        // Nothing to do.
      }
      renderPastGames();
    });
    item.append(open, remove);
    list.appendChild(item);
  });
}

async function analysePlayedGame() {
  const g = state.games.play;
  await setMode("analysis");
  if (g) await newAnalysisGame({ pgn: g.pgn });
}

function fillStrengths() {
  const select = $("strength");
  select.appendChild(new Option("Full strength", "full"));
  const elos = document.createElement("optgroup");
  elos.label = "A player rated";
  for (let elo = STRENGTH_ELO_MIN; elo <= STRENGTH_ELO_MAX; elo += 100) {
    elos.appendChild(new Option(`Elo ${elo}`, `elo:${elo}`));
  }
  select.appendChild(elos);
}

// Sets `select` to `value`, adding the option (labelled `label`) if the menu lacks it: a
// game set up by a script or an older page may have settings the menu does not list.
function chooseOption(select, value, label) {
  if (![...select.options].some((o) => o.value === value)) select.appendChild(new Option(label, value));
  select.value = value;
}

// After a reload the new-game menus show the settings of the game against Tarpon that was
// kept, as they were when it began, so that "New game" plays another game like it.
function showGameSettings(g) {
  if (!g || g.mode !== "play") return;
  $("color").value = g.human;
  if (g.clock) {
    const minutes = g.clock.base_ms / 60000;
    const increment = g.clock.increment_ms / 1000;
    chooseOption($("time"), `clock:${minutes}+${increment}`, `${minutes} + ${increment}`);
  } else {
    chooseOption($("time"), `move:${g.movetime_ms}`, `${g.movetime_ms / 1000} s per move`);
  }
  if (g.elo) chooseOption($("strength"), `elo:${g.elo}`, `Elo ${g.elo}`);
  else $("strength").value = "full";
}

function render() {
  const g = game();
  // Whatever changed the position shown (a move, a step through the game, a new FEN or
  // PGN, a takeback, the other tab), the analysis of the old one goes with it.
  if (state.analysisFen !== null && state.analysisFen !== analysedFen()) clearAnalysisPanel();
  renderBoard();
  renderPlayers();
  renderOpening();
  renderStatus();
  renderMoves();
  renderPgn();
  renderGraph();
  renderLearn();
  if (state.editor) renderEditorRights();
  $("fen-shown").value = g ? (state.editor ? editorFen() : shownFen()) : "";
  $("evalbar").classList.toggle("flipped", state.flipped);
  drawArrows(state.arrows || []);
  const playing = g && g.mode === "play" && g.status === "playing";
  // Resigning and offering a draw are for any moment of the game, Tarpon's turn included
  // (an offer made then is answered after its move).
  $("resign").disabled = !playing;
  // A finished game stays finished (the server refuses its takeback too), and there must
  // be a move of the person's to take back.
  const personMoved = playing && (g.ply >= 2 || (g.ply === 1 && turnOf(g.start_fen) === g.human));
  $("takeback").disabled = !personMoved || state.busy;
  if (!playing) $("resign-confirm").hidden = true;
  $("abort").hidden = !(playing && g.can_abort);
  $("rematch").hidden = !(g && g.mode === "play" && g.status === "over");
  $("offer-draw").disabled = !playing || state.drawOffered;
  if ($("offer-draw").disabled) $("draw-confirm").hidden = true;
  $("offer-draw").hidden = !$("draw-confirm").hidden;
  $("resign").hidden = !$("resign-confirm").hidden;
  $("first").disabled = $("back").disabled = !g || state.view === 0;
  $("forward").disabled = $("last").disabled = !g || state.view === g.ply;
}

// The keys lichess players know (the list is in the page: `?` shows it).
function onKey(event) {
  if (event.target.matches("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "Escape") {
    closePromotion();
    $("shortcuts").hidden = true;
    if (state.premove || state.premoveFrom) cancelPremove();
    return;
  }
  const g = game();
  if (!g) return;
  const analysis = state.mode === "analysis";
  const keys = {
    ArrowLeft: () => goTo(state.view - 1),
    ArrowRight: () => goTo(state.view + 1),
    ArrowUp: () => otherVariation(-1),
    ArrowDown: () => otherVariation(1),
    Home: () => goTo(0),
    End: () => goTo(g.ply),
    f: () => flip(),
    l: () => analysis && toggleAnalysis(),
    x: () => analysis && toggleThreat(),
    " ": () => analysis && playBestMove(),
    "?": () => {
      $("shortcuts").hidden = !$("shortcuts").hidden;
    },
  };
  if (keys[event.key]) {
    event.preventDefault();
    guarded(keys[event.key])();
  }
}

// Up and Down: the move shown changes to the previous or next one played at the same point
// (its siblings in the tree), as in lichess's analysis board.
async function otherVariation(step) {
  const g = game();
  if (!g || state.view === 0) return;
  const nodes = new Map(g.tree.map((n) => [n.id, n]));
  const current = g.line[state.view - 1];
  const siblings = nodes.get(nodes.get(current).parent).children;
  const next = siblings[siblings.indexOf(current) + step];
  if (next !== undefined) await selectNode(next);
}

// Space: Tarpon's best move in the position shown, from the analysis running (or shown).
async function playBestMove() {
  const best = state.analysisFen === analysedFen() && !state.threatShown && state.arrows && state.arrows[0];
  if (best && !state.busy) await sendMove(best);
}

// The mouse wheel over the board steps through the moves, a move a notch.
let wheelAt = 0;
function onWheel(event) {
  if (!game() || state.editor) return;
  event.preventDefault();
  const now = performance.now();
  if (now - wheelAt < 60) return;
  wheelAt = now;
  goTo(state.view + (event.deltaY > 0 ? 1 : -1));
}

function flip() {
  state.flipped = !state.flipped;
  render();
  saveState();
}

// Runs an action of a button or form, showing any error it ends with.
function guarded(action) {
  return async (event) => {
    if (event) event.preventDefault();
    try {
      await action(event);
    } catch (error) {
      showMessage(error.message);
    }
  };
}

function init() {
  fillStrengths();
  $("board").addEventListener("pointerdown", onPointerDown);
  $("promotion").addEventListener("click", onPromotionClick);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("keydown", onKey);
  $("sound").addEventListener("click", toggleSound);
  renderSoundButton();
  $("coords").addEventListener("click", toggleCoordinates);
  $("resize").addEventListener("pointerdown", onResizeStart);
  $("resize").addEventListener("dblclick", resetBoardSize);
  applyBoardSettings();
  $("board").addEventListener("wheel", onWheel, { passive: false });
  // A right click on the board cancels a premove, not opens the browser's menu.
  $("board").addEventListener("contextmenu", (event) => event.preventDefault());
  $("tab-play").addEventListener("click", guarded(() => setMode("play")));
  $("tab-analyse").addEventListener("click", guarded(() => setMode("analysis")));
  $("new-game").addEventListener("submit", guarded(askNewPlayGame));
  $("new-game-yes").addEventListener("click", guarded(newPlayGame));
  $("new-game-no").addEventListener("click", () => {
    $("new-game-confirm").hidden = true;
    state.startFen = null;
  });
  $("takeback").addEventListener(
    "click",
    guarded(async () => setGame("play", await api("POST", `games/${state.games.play.id}/takeback`))),
  );
  // Resigning asks first, in the page: "Resign? Yes / No".
  $("resign").addEventListener("click", () => {
    $("resign-confirm").hidden = false;
    render();
  });
  $("abort").addEventListener(
    "click",
    guarded(async () => setGame("play", await api("POST", `games/${state.games.play.id}/abort`))),
  );
  // A draw offer asks first too: one click must not end a won game.
  $("offer-draw").addEventListener("click", () => {
    $("draw-confirm").hidden = false;
    render();
  });
  $("draw-no").addEventListener("click", () => {
    $("draw-confirm").hidden = true;
    render();
  });
  $("draw-yes").addEventListener(
    "click",
    guarded(async () => {
      $("draw-confirm").hidden = true;
      state.drawOffered = true;
      if (tarponToMove(state.games.play)) {
        showMessage("Draw offered: Tarpon answers after its move.", "info");
        render();
        return;
      }
      await sendDrawOffer();
    }),
  );
  $("resign-no").addEventListener("click", () => {
    $("resign-confirm").hidden = true;
    render();
  });
  $("resign-yes").addEventListener(
    "click",
    guarded(async () => {
      $("resign-confirm").hidden = true;
      setGame("play", await api("POST", `games/${state.games.play.id}/resign`));
    }),
  );
  $("analyse-game").addEventListener("click", guarded(analysePlayedGame));
  $("rematch").addEventListener("click", guarded(rematch));
  $("threat-toggle").addEventListener("click", guarded(toggleThreat));
  $("learn-start").addEventListener("click", startLearning);
  $("learn-show").addEventListener("click", showLearnAnswer);
  $("learn-next").addEventListener("click", nextLearnItem);
  $("learn-stop").addEventListener("click", stopLearning);
  renderPastGames();
  $("fen-form").addEventListener("submit", guarded(() => newAnalysisGame({ fen: $("fen-input").value.trim() })));
  $("pgn-form").addEventListener("submit", guarded(loadPgn));
  $("analyse-toggle").addEventListener("click", guarded(toggleAnalysis));
  $("lines-count").addEventListener("change", () => restartAnalysis());
  $("review").addEventListener("click", guarded(reviewGame));
  $("graph").addEventListener("click", onGraphClick);
  $("graph").addEventListener("mousemove", onGraphHover);
  $("graph").addEventListener("mouseleave", () => {
    $("graph-tip").hidden = true;
  });
  $("copy-pgn").addEventListener("click", guarded(copyPgn));
  $("copy-fen").addEventListener("click", guarded(copyFen));
  $("edit-board").addEventListener("click", openEditor);
  $("editor-cancel").addEventListener("click", closeEditor);
  $("editor-start").addEventListener("click", () => setEditorPlacement(START_PLACEMENT));
  $("editor-clear").addEventListener("click", () => setEditorPlacement("8/8/8/8/8/8/8/8"));
  $("editor-analyse").addEventListener("click", guarded(analyseEdited));
  for (const [chooser, button] of [["editor-play-side", "editor-play"], ["play-side", "play-from-here"]]) {
    $(button).addEventListener("click", () => askPlaySide(chooser, button));
    $(chooser).addEventListener(
      "click",
      guarded(async (event) => {
        const side = event.target.dataset.side;
        if (side === undefined) return;
        closePlaySide(chooser, button);
        if (side) await playFromHere(side);
      }),
    );
  }
  for (const id of ["editor-turn", "castle-K", "castle-Q", "castle-k", "castle-q", "editor-ep"]) {
    $(id).addEventListener("change", render);
  }
  $("promote-variation").addEventListener("click", guarded(() => changeVariation("promote")));
  $("delete-variation").addEventListener("click", guarded(() => changeVariation("delete")));
  $("undo-delete").addEventListener("click", guarded(undoDelete));
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(state.view - 1));
  $("forward").addEventListener("click", () => goTo(state.view + 1));
  $("last").addEventListener("click", () => goTo(game() ? game().ply : 0));
  $("flip").addEventListener("click", flip);
  setInterval(tick, CLOCK_TICK_MS);
  guarded(restore)();
}

document.addEventListener("DOMContentLoaded", init);
