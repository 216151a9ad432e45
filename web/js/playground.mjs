// The playground page: a scene runs live in the library (fxs.mjs's LiveWorld); clicks,
// drags and sliders become world commands applied at the start of the next tick, recorded
// with the scene's own, so the session downloads as a replay that fixsteer verify checks.
// RTS controls: units are selected by a click or a box, a right-click sends the selection
// with one `move` command each (one group: every member its own spot round the point), and
// buildings (four walls) and obstacles go up while the scene plays.
import { AGENT_STRIDE, ONE, PAGE_SOURCE, fromFix, loadFixsteer, toFix } from './fxs.mjs';
import { AgentColours, WorldView } from './draw.mjs';
import { paramPanel } from './playground-params.mjs';

const $ = (id) => document.getElementById(id);
const TRAIL = 90;
const TRAIL_MAX_AGENTS = 2000;
// Room for what the page adds: obstacles and walls drawn by the user.
const ROOM = { agents: 0, obstacles: 32, walls: 64 };
// A press that moves less than this (screen pixels) is a click, not a drag.
const CLICK_PIXELS = 4;

const view = new WorldView($('world'));
const colours = new AgentColours();
const state = {
  fxs: null,
  world: null, // LiveWorld
  source: null, // { name } for a built-in scene, { name, bytes } for a scenario file
  pending: [], // commands for the next tick
  ghosts: [], // what they will do, drawn until then
  selected: null, // slot: the unit whose details and sliders are shown (the first selected)
  selection: new Set(), // slots of the selected units
  moveTag: 0, // the group tag of the last right-click move
  trails: new Map(),
  playing: false,
  clock: 0,
  past: null, // { replay, tick, ticks } while the timeline shows an earlier tick
  frame: null,
  agents: new Int32Array(0),
  setNames: new Map(), // behavior-set id -> "separation + pursuit"
  drag: null,
  lastReplay: null,
  paramSignature: '',
  sliding: false,
};

function showError(message) {
  $('error').hidden = !message;
  $('error').textContent = message || '';
}

const fmt = (units) => (Math.abs(units) >= 100 ? units.toFixed(1) : units.toFixed(3)).replace(/\.?0+$/, '') || '0';

// ------------------------------------------------------------------ loading a scene

function loadScene(source) {
  showError('');
  setPlaying(false);
  let world;
  try {
    world = source.bytes
      ? state.fxs.loadSceneFile(source.bytes, source.name, { room: ROOM })
      : state.fxs.loadScene(source.name, { room: ROOM });
  } catch (error) {
    // The scene shown so far stays.
    showError(error.message.startsWith(source.name) ? error.message : `${source.name}: ${error.message}`);
    return false;
  }
  closePast();
  if (state.world) state.world.close();
  state.world = world;
  state.source = source;
  state.pending = [];
  state.ghosts = [];
  state.selected = null;
  state.selection = new Set();
  state.moveTag = 0;
  state.trails = new Map();
  colours.reset();
  state.paramSignature = '';
  $('last-result').textContent = '';
  const i = state.world.info;
  $('scene-info').textContent = `${i.summary} · room for ${ROOM.obstacles} more obstacles and ${ROOM.walls / 4} buildings`;
  document.title = `fixsteer playground: ${i.name}`;
  step(); // tick 0: the scene spawns its agents
  return true;
}

async function loadSceneUrl(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return loadScene({ name: url.split('/').pop(), bytes: new Uint8Array(await response.arrayBuffer()) });
}

// ------------------------------------------------------------------ stepping

// The agent's owner speaks for it; shared agents take the page's own source.
function sourceFor(slot) {
  for (let i = 0; i < state.agents.length; i += AGENT_STRIDE) {
    if (state.agents[i] === slot) return state.agents[i + 10] >= 0 ? state.agents[i + 10] : PAGE_SOURCE;
  }
  return PAGE_SOURCE;
}

function step({ draw = true } = {}) {
  if (!state.world) return;
  if (state.past) continueFromPast();
  const commands = state.pending;
  state.pending = [];
  state.ghosts = [];
  let answer;
  try {
    answer = state.world.step(commands, { logic: $('logic').checked });
  } catch (error) {
    showError(error.message);
    setPlaying(false);
    return;
  }
  const refused = answer.results
    .map((r, k) => (r.result ? `${commands[k].type}: ${r.message}` : null))
    .filter(Boolean);
  if (commands.length) {
    $('last-result').textContent = refused.length
      ? `tick ${answer.tick - 1}: ${refused.length} of ${commands.length} commands refused (${[...new Set(refused)].join('; ')})`
      : `tick ${answer.tick - 1}: ${commands.length} commands applied`;
    $('last-result').dataset.refused = String(refused.length);
  }
  readWorld();
  extendTrails();
  if (commands.length) state.paramSignature = '';
  if (draw) render();
}

function readWorld() {
  state.frame = state.world.frame();
  state.agents = state.world.agents();
}

function extendTrails() {
  if (state.agents.length / AGENT_STRIDE > TRAIL_MAX_AGENTS) return state.trails.clear();
  const seen = new Set();
  for (let i = 0; i < state.agents.length; i += AGENT_STRIDE) {
    const slot = state.agents[i];
    seen.add(slot);
    const trail = state.trails.get(slot) || [];
    trail.push([state.agents[i + 1], state.agents[i + 2]]);
    if (trail.length > TRAIL) trail.shift();
    state.trails.set(slot, trail);
  }
  for (const slot of state.trails.keys()) if (!seen.has(slot)) state.trails.delete(slot);
}

function setPlaying(on) {
  state.playing = on && !!state.world;
  $('play').textContent = state.playing ? 'Pause' : 'Play';
  state.clock = performance.now();
  if (state.playing) requestAnimationFrame(frameLoop);
}

function frameLoop(now) {
  if (!state.playing) return;
  const perSecond = Number($('speed').value);
  const due = Math.min(8, Math.floor(((now - state.clock) * perSecond) / 1000));
  if (due > 0) {
    state.clock = now;
    for (let k = 0; k < due && state.playing; ++k) step({ draw: false });
    render();
  }
  requestAnimationFrame(frameLoop);
}

// ------------------------------------------------------------------ the timeline

function showPast(tick) {
  if (!state.world) return;
  const live = state.frame.tick;
  if (tick >= live) {
    closePast();
    render();
    return;
  }
  setPlaying(false);
  if (!state.past || state.past.ticks !== live) {
    closePast();
    state.past = { replay: state.fxs.open(state.world.replay().bytes, 'session'), tick, ticks: live };
  }
  state.past.tick = state.past.replay.seek(tick);
  render();
}

function closePast() {
  if (state.past) state.past.replay.close();
  state.past = null;
}

// Acting while an earlier tick is shown continues from it: the later ticks are dropped.
function continueFromPast() {
  const tick = state.past.tick;
  closePast();
  state.world.rewind(tick);
  state.trails = new Map();
  readWorld();
}

// ------------------------------------------------------------------ colours and legend

const groupKey = (agents, i, mode) => colours.key(agents, i, mode);
const colourOf = (agents, i) => colours.colour(agents, i, $('colour-by').value);

function setName(agents, i) {
  const id = agents[i + 11];
  if (!state.setNames.has(id) && !state.past) {
    const detail = state.world.agent(agents[i]);
    state.setNames.set(id, detail.behaviors.map((b) => b.name).join(' + '));
  }
  return state.setNames.get(id);
}

function showLegend(agents) {
  colours.legend($('legend'), agents, $('colour-by').value, { behavior: (k) => state.fxs.behaviorName(k), set: setName });
}

// ------------------------------------------------------------------ drawing

function overlay(ctx, v) {
  const px = (x) => v.px(toFix(x));
  const py = (y) => v.py(toFix(y));
  ctx.save();
  ctx.setLineDash([5, 4]);
  ctx.lineWidth = 2;
  for (const g of state.ghosts) {
    ctx.strokeStyle = '#ffd84d';
    if (g.kind === 'target') {
      ctx.beginPath();
      ctx.moveTo(px(g.x) - 8, py(g.y) - 8), ctx.lineTo(px(g.x) + 8, py(g.y) + 8);
      ctx.moveTo(px(g.x) + 8, py(g.y) - 8), ctx.lineTo(px(g.x) - 8, py(g.y) + 8);
      ctx.stroke();
    } else if (g.kind === 'obstacle') {
      ctx.beginPath();
      ctx.arc(px(g.x), py(g.y), v.len(toFix(g.r)), 0, 2 * Math.PI);
      ctx.stroke();
    } else if (g.kind === 'wall') {
      ctx.beginPath();
      ctx.moveTo(px(g.ax), py(g.ay)), ctx.lineTo(px(g.bx), py(g.by));
      ctx.stroke();
    } else if (g.kind === 'move') {
      ctx.strokeStyle = '#6fcf7f';
      ctx.beginPath();
      ctx.arc(px(g.x), py(g.y), 9, 0, 2 * Math.PI);
      ctx.moveTo(px(g.x), py(g.y) - 14), ctx.lineTo(px(g.x), py(g.y) + 14);
      ctx.moveTo(px(g.x) - 14, py(g.y)), ctx.lineTo(px(g.x) + 14, py(g.y));
      ctx.stroke();
    } else if (g.kind === 'building') {
      ctx.strokeRect(px(g.x0), py(g.y0), px(g.x1) - px(g.x0), py(g.y1) - py(g.y0));
    } else if (g.kind === 'erase') {
      ctx.strokeStyle = '#ff4d4d';
      ctx.beginPath();
      ctx.arc(px(g.x), py(g.y), 10, 0, 2 * Math.PI);
      ctx.stroke();
    }
  }
  const d = state.drag;
  if (d && d.kind === 'obstacle' && d.moved) {
    ctx.strokeStyle = '#ffd84d';
    ctx.beginPath();
    ctx.arc(px(d.to[0]), py(d.to[1]), v.len(toFix(d.r)), 0, 2 * Math.PI);
    ctx.stroke();
  } else if (d && (d.kind === 'box' || d.kind === 'building') && d.moved) {
    ctx.strokeStyle = d.kind === 'box' ? '#6fcf7f' : '#ffd84d';
    ctx.strokeRect(px(d.from[0]), py(d.from[1]), px(d.to[0]) - px(d.from[0]), py(d.to[1]) - py(d.from[1]));
  } else if (d && d.kind === 'wall') {
    ctx.strokeStyle = '#ffd84d';
    ctx.beginPath();
    ctx.moveTo(px(d.from[0]), py(d.from[1])), ctx.lineTo(px(d.to[0]), py(d.to[1]));
    ctx.stroke();
  }
  ctx.setLineDash([]);
  // The selected agent's target point.
  if (state.selectedTarget) {
    const [tx, ty] = state.selectedTarget;
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.8)';
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.arc(v.px(tx), v.py(ty), 6, 0, 2 * Math.PI);
    ctx.moveTo(v.px(tx) - 10, v.py(ty)), ctx.lineTo(v.px(tx) + 10, v.py(ty));
    ctx.moveTo(v.px(tx), v.py(ty) - 10), ctx.lineTo(v.px(tx), v.py(ty) + 10);
    ctx.stroke();
  }
  ctx.restore();
}

function render() {
  const canvas = $('world');
  if (!state.world || !state.frame) {
    view.clear();
    return;
  }
  let frame = state.frame;
  let agents = state.agents;
  let trails = state.trails;
  const shown = state.past ? state.past.replay : state.world;
  if (state.past) {
    frame = state.past.replay.frame();
    agents = state.past.replay.agents();
    trails = new Map();
  }
  // A mesh world's triangles, read as they stand at the shown tick: a building placed on the
  // last tick is already in them.
  const mesh = frame.mesh ? shown.mesh() : null;
  showMeshInfo(frame, mesh);
  const selected = state.selection;
  state.selectedTarget = null;
  if (state.selected !== null && !state.past) {
    try {
      const detail = state.world.agent(state.selected);
      state.selectedTarget = detail.target_agent ? null : detail.target_point;
      showSelection(detail);
    } catch {
      state.selected = null;
      state.selection = new Set();
      showSelection(null);
    }
  }
  view.draw(frame, agents, trails, null, null, { colour: colourOf, selected, overlay, mesh: $('show-mesh').checked ? mesh : null });
  const n = agents.length / AGENT_STRIDE;
  canvas.dataset.tick = String(frame.tick);
  canvas.dataset.agentCount = String(n);
  $('tick').textContent = String(frame.tick);
  $('agent-count').textContent = String(n);
  $('hash').textContent = frame.hash;
  $('hash').dataset.hash = frame.hash;
  $('hash').dataset.tick = String(frame.tick);
  const live = state.frame.tick;
  const tl = $('timeline');
  tl.max = String(live);
  tl.value = String(frame.tick);
  $('past').hidden = !state.past;
  if (state.past) {
    $('past').textContent = `showing tick ${frame.tick} of ${live}: Play, Step or an edit continues from here and drops ticks ${frame.tick + 1}–${live}`;
  }
  $('pending').textContent = state.pending.length ? `${state.pending.length} commands wait for the next tick · ` : '';
  showLegend(agents);
  refreshParams(false);
}

function showMeshInfo(frame, mesh) {
  const info = $('mesh-info');
  info.dataset.triangles = String(mesh ? mesh.triangles.length / 4 : 0);
  info.dataset.version = String(mesh ? mesh.version : '');
  info.dataset.canonicalDigest = mesh ? mesh.canonicalDigest : '';
  if (!mesh) {
    info.textContent = 'no mesh: this scene navigates on a grid, or not at all (try nav_building_mesh.yaml)';
    return;
  }
  info.textContent = `${mesh.triangles.length / 4} triangles, ${mesh.vertices.length / 2} of ${mesh.vertexCapacity} vertices, ` +
    `map version ${mesh.version}: the Building, Wall and Obstacle tools re-triangulate it on the next tick`;
}

// ------------------------------------------------------------------ pointer tools

function worldPoint(event) {
  const canvas = $('world');
  const rect = canvas.getBoundingClientRect();
  const px = ((event.clientX - rect.left) * canvas.width) / rect.width;
  const py = ((event.clientY - rect.top) * canvas.height) / rect.height;
  const [x, y] = view.toWorld(px, py);
  return [Math.round(x * 16) / 16, Math.round(y * 16) / 16]; // 1/16 unit: short, exact numbers
}

// World units to page coordinates (for the browser test and for a game's own overlays).
function toScreen(x, y) {
  const canvas = $('world');
  const rect = canvas.getBoundingClientRect();
  return [rect.left + (view.px(toFix(x)) * rect.width) / canvas.width, rect.top + (view.py(toFix(y)) * rect.height) / canvas.height];
}

function agentAt([x, y]) {
  let best = null;
  let bestD = Infinity;
  const a = state.agents;
  for (let i = 0; i < a.length; i += AGENT_STRIDE) {
    const d = Math.hypot(a[i + 1] / ONE - x, a[i + 2] / ONE - y);
    const reach = Math.max(a[i + 6] / ONE, 6 / view.scale) + 2;
    if (d <= reach && d < bestD) best = a[i], bestD = d;
  }
  return best;
}

function obstacleAt([x, y]) {
  for (const [ox, oy, r, index] of state.frame.obstacles) {
    if (Math.hypot(ox / ONE - x, oy / ONE - y) <= Math.max(r / ONE, 6 / view.scale)) return { index, x: ox / ONE, y: oy / ONE, r: r / ONE };
  }
  return null;
}

function wallAt([x, y]) {
  const reach = 8 / view.scale;
  for (const [ax, ay, bx, by, index] of state.frame.walls) {
    const [x0, y0, x1, y1] = [ax, ay, bx, by].map(fromFix);
    const dx = x1 - x0, dy = y1 - y0;
    const t = Math.max(0, Math.min(1, ((x - x0) * dx + (y - y0) * dy) / Math.max(1e-9, dx * dx + dy * dy)));
    if (Math.hypot(x0 + t * dx - x, y0 + t * dy - y) <= reach) return index;
  }
  return null;
}

// The agents a target click or a slider changes (slots, in slot order).
function scopeSlots() {
  const a = state.agents;
  const all = [];
  for (let i = 0; i < a.length; i += AGENT_STRIDE) all.push(i);
  const scope = $('scope').value;
  const sel = all.find((i) => a[i] === state.selected);
  if (sel === undefined || scope === 'all') return all.map((i) => a[i]);
  if (scope === 'selected') return all.map((i) => a[i]).filter((slot) => state.selection.has(slot));
  const mode = $('colour-by').value;
  const key = groupKey(a, sel, mode);
  return all.filter((i) => groupKey(a, i, mode) === key).map((i) => a[i]);
}

function handleOf(slot) {
  for (let i = 0; i < state.agents.length; i += AGENT_STRIDE) if (state.agents[i] === slot) return state.agents[i + 15] >>> 0;
  return 0;
}

function queue(commands, ghost) {
  if (state.past) continueFromPast();
  state.pending.push(...commands);
  if (ghost) state.ghosts.push(ghost);
  render();
}

// The sliders (playground-params.mjs) change the agents scopeSlots() names, through queue().
const { refreshParams } = paramPanel({ state, scopeSlots, queue });

const TOOL_HELP = {
  select: 'click a unit: select it (Shift: add or drop it) · drag a box: select the units in it · click the ground: none · right-click: move the selection',
  target: 'click: the units it applies to get that target point · click a unit: select it · Esc: none',
  building: 'drag a rectangle: a building of four walls · click: a square building of side twice the size · paths go round it',
  obstacle: 'drag an obstacle to move it (remove + add) · click empty ground: add one',
  wall: 'drag: a wall from where you press to where you let go',
  erase: 'click an obstacle or a wall: remove it',
};

function tool() {
  return document.querySelector('input[name=tool]:checked').value;
}

// Screen pixels between two world points (how far a press has moved).
const pixelsApart = (p, q) => Math.hypot(p[0] - q[0], p[1] - q[1]) * view.scale;

function onPointerDown(event) {
  if (!state.world) return;
  if (event.button === 2) return moveSelection(worldPoint(event));
  if (event.button !== 0) return;
  if (state.past) continueFromPast();
  const p = worldPoint(event);
  const t = tool();
  $('world').setPointerCapture(event.pointerId);
  if (t === 'obstacle') {
    const o = obstacleAt(p);
    state.drag = o ? { kind: 'obstacle', index: o.index, r: o.r, from: p, to: p, offset: [o.x - p[0], o.y - p[1]], moved: false } : { kind: 'new-obstacle', from: p };
  } else if (t === 'wall') {
    state.drag = { kind: 'wall', from: p, to: p };
  } else if (t === 'select' || t === 'building') {
    state.drag = { kind: t === 'select' ? 'box' : 'building', from: p, to: p, moved: false, add: event.shiftKey };
  } else {
    state.drag = { kind: t, from: p };
  }
}

function onPointerMove(event) {
  const d = state.drag;
  if (!d) return;
  const p = worldPoint(event);
  if (d.kind === 'obstacle') {
    d.to = [p[0] + d.offset[0], p[1] + d.offset[1]];
    d.moved = d.moved || pixelsApart(p, d.from) > 3;
    render();
  } else if (d.kind === 'wall') {
    d.to = p;
    render();
  } else if (d.kind === 'box' || d.kind === 'building') {
    d.to = p;
    d.moved = d.moved || pixelsApart(p, d.from) > CLICK_PIXELS;
    render();
  }
}

// The selection becomes `slots` (with add: they are added, or a single clicked one that is
// already selected is dropped).
function select(slots, add) {
  if (!add) state.selection = new Set();
  if (add && slots.length === 1 && state.selection.has(slots[0])) state.selection.delete(slots[0]);
  else for (const slot of slots) state.selection.add(slot);
  state.selected = state.selection.size ? [...state.selection][0] : null;
  if (!state.selection.size) showSelection(null);
  state.paramSignature = '';
  render();
}

// The live units whose centres lie in the rectangle between two world points.
function slotsInBox([x0, y0], [x1, y1]) {
  const [lx, hx, ly, hy] = [Math.min(x0, x1), Math.max(x0, x1), Math.min(y0, y1), Math.max(y0, y1)];
  const a = state.agents;
  const slots = [];
  for (let i = 0; i < a.length; i += AGENT_STRIDE) {
    const [x, y] = [a[i + 1] / ONE, a[i + 2] / ONE];
    if (x >= lx && x <= hx && y >= ly && y <= hy) slots.push(a[i]);
  }
  return slots;
}

// The right-click: one move command per selected unit, all with one group tag, point and gap,
// so the library gives each its own spot round the point. The gap (units between resting
// bodies) is the largest selected radius: it scales with the scene's units.
function moveSelection(p) {
  if (state.past) continueFromPast();
  const a = state.agents;
  const members = [];
  let gap = 0;
  for (let i = 0; i < a.length; i += AGENT_STRIDE) {
    if (!state.selection.has(a[i])) continue;
    members.push(a[i]);
    gap = Math.max(gap, a[i + 6] / ONE);
  }
  if (!members.length) return;
  gap = Math.min(1024, Math.round(gap * 16) / 16);
  state.moveTag = (state.moveTag + 1) >>> 0;
  const c = state.fxs.command;
  const commands = members.map((s) => ({ ...c.move(handleOf(s), state.moveTag, p[0], p[1], gap), source: sourceFor(s) }));
  queue(commands, { kind: 'move', x: p[0], y: p[1] });
}

// A building: four walls round the rectangle, corner to corner (a closed outline).
function buildingWalls([x0, y0], [x1, y1]) {
  const c = state.fxs.command;
  const [lx, hx, ly, hy] = [Math.min(x0, x1), Math.max(x0, x1), Math.min(y0, y1), Math.max(y0, y1)];
  return [c.addWall(lx, ly, hx, ly), c.addWall(hx, ly, hx, hy), c.addWall(hx, hy, lx, hy), c.addWall(lx, hy, lx, ly)];
}

function onPointerUp(event) {
  const d = state.drag;
  state.drag = null;
  if (!d) return;
  const p = worldPoint(event);
  const c = state.fxs.command;
  if (d.kind === 'box') {
    if (d.moved) return select(slotsInBox(d.from, p), d.add);
    const slot = agentAt(p);
    select(slot === null ? [] : [slot], d.add);
  } else if (d.kind === 'building') {
    let [from, to] = [d.from, p];
    if (!d.moved) {
      const half = Math.max(1, Number($('obstacle-radius').value) || 30);
      [from, to] = [[p[0] - half, p[1] - half], [p[0] + half, p[1] + half]];
    }
    queue(buildingWalls(from, to), { kind: 'building', x0: from[0], y0: from[1], x1: to[0], y1: to[1] });
  } else if (d.kind === 'target') {
    const slot = agentAt(p);
    if (slot !== null) return select([slot], event.shiftKey);
    const commands = scopeSlots().map((s) => ({ ...c.setTargetPoint(handleOf(s), p[0], p[1]), source: sourceFor(s) }));
    queue(commands, { kind: 'target', x: p[0], y: p[1] });
  } else if (d.kind === 'obstacle') {
    if (!d.moved) return render();
    const [x, y] = [Math.round(d.to[0] * 16) / 16, Math.round(d.to[1] * 16) / 16];
    queue([c.removeObstacle(d.index), c.addObstacle(x, y, d.r)], { kind: 'obstacle', x, y, r: d.r });
  } else if (d.kind === 'new-obstacle') {
    const r = Math.max(1, Number($('obstacle-radius').value) || 30);
    queue([c.addObstacle(p[0], p[1], r)], { kind: 'obstacle', x: p[0], y: p[1], r });
  } else if (d.kind === 'wall') {
    if (Math.hypot(p[0] - d.from[0], p[1] - d.from[1]) < 4) return render();
    queue([c.addWall(d.from[0], d.from[1], p[0], p[1])], { kind: 'wall', ax: d.from[0], ay: d.from[1], bx: p[0], by: p[1] });
  } else if (d.kind === 'erase') {
    const o = obstacleAt(p);
    if (o) return queue([c.removeObstacle(o.index)], { kind: 'erase', x: o.x, y: o.y });
    const w = wallAt(p);
    if (w !== null) queue([c.removeWall(w)], { kind: 'erase', x: p[0], y: p[1] });
  }
}

// ------------------------------------------------------------------ the selected agent

function showSelection(detail) {
  const box = $('selection');
  if (!detail) {
    box.textContent = 'none: click a unit or drag a box round several';
    box.dataset.slot = '';
    return;
  }
  box.dataset.slot = String(detail.slot);
  const l = detail.limits;
  const names = detail.behaviors.map((b) => `${b.name}${b.weight !== ONE ? ` ×${fmt(fromFix(b.weight))}` : ''}`).join(', ') || 'none';
  const target = detail.target_agent ? `agent ${(detail.target_agent & 0x3fffff) - 1}` : `point (${fmt(fromFix(detail.target_point[0]))}, ${fmt(fromFix(detail.target_point[1]))})`;
  const more = state.selection.size > 1 ? `${state.selection.size} units selected; the first:\n` : '';
  box.dataset.count = String(state.selection.size);
  box.textContent = `${more}slot ${detail.slot}, handle ${detail.handle}, ${detail.owner < 0 ? 'shared' : `owned by source ${detail.owner}`}\n` +
    `behaviors: ${names}\ntarget: ${target}\nmax speed ${fmt(fromFix(l.max_speed))}, max force ${fmt(fromFix(l.max_force))}`;
}

// ------------------------------------------------------------------ downloads

function download(blob, name) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

function baseName() {
  return (state.world ? state.world.info.name : 'scene').replace(/[^A-Za-z0-9_.-]+/g, '_');
}

function downloadReplay() {
  if (!state.world) return;
  const r = state.world.replay();
  state.lastReplay = r;
  $('download-replay').dataset.finalHash = r.finalHash;
  download(new Blob([r.bytes], { type: 'application/octet-stream' }), `${baseName()}-playground.fxr`);
}

function exportPng() {
  const tick = $('world').dataset.tick;
  $('world').toBlob((blob) => download(blob, `${baseName()}-tick${tick}.png`), 'image/png');
}

// ------------------------------------------------------------------ start

function wire() {
  $('scene').onchange = () => {
    const v = $('scene').value;
    if (v.startsWith('scenes/')) loadSceneUrl(v).catch((e) => showError(e.message));
    else if (v.startsWith('opened:')) state.source && loadScene(state.source);
    else loadScene({ name: v });
  };
  $('scene-file').onchange = async (e) => {
    const file = e.target.files[0];
    e.target.value = '';
    if (!file || !loadScene({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) })) return;
    let opened = $('scene').querySelector('optgroup.opened');
    if (!opened) {
      opened = document.createElement('optgroup');
      opened.label = 'opened here';
      opened.className = 'opened';
      $('scene').append(opened);
    }
    opened.textContent = '';
    opened.append(new Option(file.name, `opened:${file.name}`));
    $('scene').value = `opened:${file.name}`;
  };
  $('restart').onclick = () => state.source && loadScene(state.source);
  $('play').onclick = () => setPlaying(!state.playing);
  $('step').onclick = () => (setPlaying(false), step());
  $('timeline').oninput = (e) => showPast(Number(e.target.value));
  $('download-replay').onclick = downloadReplay;
  $('export-png').onclick = exportPng;
  $('colour-by').onchange = () => ((state.paramSignature = ''), render());
  $('scope').onchange = () => ((state.paramSignature = ''), render());
  $('show-mesh').onchange = () => render();
  for (const input of document.querySelectorAll('input[name=tool]')) input.onchange = () => ($('tool-help').textContent = TOOL_HELP[tool()]);
  $('tool-help').textContent = TOOL_HELP.select;
  const canvas = $('world');
  canvas.addEventListener('pointerdown', onPointerDown);
  canvas.addEventListener('pointermove', onPointerMove);
  canvas.addEventListener('pointerup', onPointerUp);
  canvas.addEventListener('contextmenu', (e) => e.preventDefault()); // the right button moves units
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
    if (e.key === ' ') (e.preventDefault(), setPlaying(!state.playing));
    else if (e.key === 'ArrowRight') (setPlaying(false), step());
    else if (e.key === 'Escape') select([], false);
  });
}

async function listScenes() {
  const builtIn = document.createElement('optgroup');
  builtIn.label = 'built-in scenes';
  for (const s of state.fxs.scenarios()) {
    const option = new Option(s.name, s.name);
    option.title = s.summary;
    builtIn.append(option);
  }
  $('scene').append(builtIn);
  try {
    const response = await fetch('scenes/index.json');
    if (!response.ok) return;
    const files = document.createElement('optgroup');
    files.label = 'scenario files';
    for (const name of await response.json()) files.append(new Option(name, `scenes/${name}`));
    $('scene').append(files);
  } catch {
    // no sample files next to the page: the file picker still works
  }
}

async function main() {
  state.fxs = await loadFixsteer(new URL('../fxs_web.wasm', import.meta.url));
  const v = state.fxs.version();
  $('library').textContent = `fixsteer ${v.version}, running in your browser (${(state.fxs.moduleBytes / 1024).toFixed(0)} KiB download)`;
  $('library').title = `The library compiled to WebAssembly: the same results as on any other machine (file format ${v.replay_format}, build check ${v.fingerprint})`;
  await listScenes();
  wire();
  const params = new URLSearchParams(location.search);
  if (params.get('file')) {
    $('scene').value = params.get('file');
    await loadSceneUrl(params.get('file'));
  } else {
    const name = params.get('scene') || 'obstacle_field';
    $('scene').value = name;
    loadScene({ name });
  }
  // The scene plays at once; ?paused keeps it at tick 1 (the browser test steps by hand).
  if (!params.has('paused')) setPlaying(true);
  document.body.dataset.ready = 'true';
}

main().catch((error) => {
  showError(`the fixsteer module did not load: ${error.message}`);
  document.body.dataset.ready = 'error';
});

// For the browser test and the console: the page's state and a few of its actions.
window.fixsteerPlayground = { state, step, toScreen, loadScene, showPast, render, select, moveSelection };
