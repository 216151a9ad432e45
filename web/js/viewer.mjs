// The replay viewer page: opens replays (sample list, file picker, ?replay=URL and
// ?compare=URL), verifies them with the library, plays and scrubs them, compares two
// recordings of one session, and records the built-in scenarios in the page.
import { AGENT_STRIDE, ONE, loadFixsteer } from './fxs.mjs';
import { AgentColours, WorldView } from './draw.mjs';

const $ = (id) => document.getElementById(id);
const TRAIL = 90; // ticks of trail behind each agent
const TRAIL_REBUILD_MAX_AGENTS = 2000;

const view = new WorldView($('world'));
const colours = new AgentColours();
const colourOf = (agents, i) => colours.colour(agents, i, $('colour-by').value);
const state = {
  fxs: null,
  a: null, // Replay
  b: null,
  bytesA: null,
  bytesB: null,
  verifyA: null,
  verifyB: null,
  diff: null,
  shown: -1,
  trails: new Map(),
  playing: false,
  clock: 0,
  lastRecording: null,
};

function showError(message) {
  $('error').hidden = !message;
  $('error').textContent = message || '';
}

const units = (raw) => (raw / ONE).toFixed(4);

// ------------------------------------------------------------------ verification and diff

function verifyText(v) {
  if (v.verified) return `verified, final hash ${v.final_hash} (${v.ticks} ticks re-simulated)`;
  if (!v.diverged) return `not verified: ${v.message} (byte ${v.error_offset})`;
  let text = `DIVERGED at tick ${v.first_bad_tick}: ${v.message}`;
  if (v.expected_hash) text += ` (recorded ${v.expected_hash}, re-simulated ${v.actual_hash})`;
  const d = v.difference;
  if (d) {
    const who = d.agent >= 0 ? `agent ${d.agent}, field ${d.field}` : d.field;
    text += `; at keyframe ${d.tick}: ${who}: recorded ${units(d.recorded)} (${d.recorded}), re-simulated ${units(d.resimulated)} (${d.resimulated})`;
  } else {
    text += '; no keyframe after the divergence to name the field';
  }
  return text;
}

function showVerify(which, replay) {
  const el = $(`verify-${which}`);
  el.textContent = 'verifying…';
  el.dataset.state = 'busy';
  const started = performance.now();
  const v = replay.verify();
  const ms = performance.now() - started;
  el.textContent = `${verifyText(v)} in ${ms.toFixed(0)} ms`;
  el.dataset.state = v.verified ? 'verified' : v.diverged ? 'diverged' : 'error';
  el.dataset.finalHash = v.verified ? v.final_hash : '';
  el.dataset.firstBadTick = v.diverged ? String(v.first_bad_tick) : '';
  return v;
}

function showDiff() {
  const el = $('diff-status');
  state.diff = state.a && state.b ? state.fxs.diff(state.a, state.b) : null;
  el.hidden = !state.diff;
  const d = state.diff;
  if (!d) return;
  if (!d.same_session) {
    el.dataset.state = 'error';
    el.textContent = `A and B are not recordings of one session: their inputs differ at tick ${d.inputs_differ_at}`;
  } else if (d.identical) {
    el.dataset.state = 'identical';
    el.textContent = `A and B are identical: ${d.ticks} ticks, final hash ${d.final_hash}`;
  } else if (d.lengths_differ) {
    el.dataset.state = 'diverged';
    el.textContent = `A and B agree while both run, but end at ticks ${d.lengths_differ[0]} and ${d.lengths_differ[1]}`;
  } else {
    el.dataset.state = 'diverged';
    let text = `A and B diverge at tick ${d.first_divergent_tick} (A ${d.hash_a}, B ${d.hash_b}); their recorded hashes differ on ${d.divergent_ticks} ticks`;
    const f = d.difference;
    if (f) {
      const who = f.agent >= 0 ? `agent ${f.agent}, field ${f.field}` : f.field;
      text += `; at keyframe ${f.tick}: ${who}: A ${units(f.a)} (${f.a}), B ${units(f.b)} (${f.b})`;
    }
    el.textContent = text;
  }
  el.dataset.firstDivergentTick = d.first_divergent_tick ?? '';
}

// ------------------------------------------------------------------ opening

function openReplay(which, bytes, name) {
  showError('');
  let replay;
  try {
    replay = state.fxs.open(bytes, name);
  } catch (error) {
    $(`name-${which}`).textContent = name;
    $(`verify-${which}`).textContent = error.message;
    $(`verify-${which}`).dataset.state = 'error';
    return false;
  }
  if (which === 'a') {
    if (state.a) state.a.close();
    state.a = replay;
    state.bytesA = bytes;
    offerDownload(bytes, name);
  } else {
    if (state.b) state.b.close();
    state.b = replay;
    state.bytesB = bytes;
    $('line-b').hidden = false;
    $('clear-b').disabled = false;
  }
  const i = replay.info;
  $(`name-${which}`).textContent = `${name}: ${i.ticks} ticks, ${i.capacity.agents} agent slots, keyframe every ${i.keyframe_interval}, ${i.bytes} bytes`;
  const v = showVerify(which, replay);
  if (which === 'a') state.verifyA = v;
  else state.verifyB = v;
  if (state.a) {
    const tl = $('timeline');
    tl.min = state.a.info.start_tick;
    tl.max = state.a.info.end_tick;
    tl.disabled = false;
  }
  showDiff();
  drawMarks();
  const start = state.a ? state.a.info.start_tick : 0;
  show(which === 'a' ? Math.min(start + 1, state.a.info.end_tick) : state.shown, true);
  return true;
}

function closeB() {
  if (state.b) state.b.close();
  state.b = null;
  state.bytesB = null;
  state.verifyB = null;
  state.diff = null;
  $('line-b').hidden = true;
  $('diff-status').hidden = true;
  $('clear-b').disabled = true;
  drawMarks();
  show(state.shown, true);
}

function offerDownload(bytes, name) {
  const link = $('download');
  if (link.href) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  link.download = name.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/(\.fxr)?$/, '.fxr');
  link.hidden = false;
}

async function fetchReplay(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function openUrl(which, url) {
  try {
    openReplay(which, await fetchReplay(url), url.split('/').pop());
  } catch (error) {
    showError(error.message);
  }
}

// ------------------------------------------------------------------ showing a tick

function positions(agents) {
  const map = new Map();
  for (let i = 0; i < agents.length; i += AGENT_STRIDE) map.set(agents[i], [agents[i + 1], agents[i + 2]]);
  return map;
}

function extendTrails(agents) {
  const now = positions(agents);
  for (const slot of state.trails.keys()) if (!now.has(slot)) state.trails.delete(slot);
  for (const [slot, p] of now) {
    const trail = state.trails.get(slot) || [];
    trail.push(p);
    if (trail.length > TRAIL) trail.shift();
    state.trails.set(slot, trail);
  }
}

// After a jump, the trail is rebuilt by showing the ticks before the target in order.
function rebuildTrails(tick) {
  state.trails = new Map();
  if (state.a.info.capacity.agents > TRAIL_REBUILD_MAX_AGENTS) return;
  for (let t = Math.max(state.a.info.start_tick, tick - TRAIL + 1); t < tick; ++t) {
    state.a.seek(t);
    extendTrails(state.a.agents());
  }
}

// Slots whose state differs between A and B at the shown tick.
function differingSlots(a, b) {
  const differs = new Set();
  const bAt = new Map();
  for (let i = 0; i < b.length; i += AGENT_STRIDE) bAt.set(b[i], i);
  for (let i = 0; i < a.length; i += AGENT_STRIDE) {
    const j = bAt.get(a[i]);
    if (j === undefined) {
      differs.add(a[i]);
      continue;
    }
    for (let k = 1; k < AGENT_STRIDE; ++k) if (a[i + k] !== b[j + k]) differs.add(a[i]);
    bAt.delete(a[i]);
  }
  for (const slot of bAt.keys()) differs.add(slot);
  return differs;
}

function show(tick, force = false) {
  if (!state.a || tick < 0) return;
  const wanted = Math.max(state.a.info.start_tick, Math.min(state.a.info.end_tick, Math.round(tick)));
  if (wanted === state.shown && !force) return;
  try {
    if (wanted === state.shown + 1 && !force) {
      state.a.seek(wanted);
    } else {
      rebuildTrails(wanted);
      state.a.seek(wanted);
    }
    const agents = state.a.agents();
    extendTrails(agents);
    const frame = state.a.frame();
    let other = null;
    let differs = null;
    if (state.b) {
      state.b.seek(wanted);
      other = state.b.agents();
      differs = differingSlots(agents, other);
    }
    state.shown = frame.tick;
    const fields = frame.nav && $('show-fields').checked ? state.a.navFields() : null;
    const mesh = frame.mesh && $('show-mesh').checked ? state.a.mesh() : null;
    view.draw(frame, agents, state.trails, other, differs,
      { colour: colourOf, blocked: $('show-blocked').checked, routes: $('show-routes').checked, fields, mesh });
    const canvas = $('world');
    canvas.dataset.tick = String(frame.tick);
    canvas.dataset.agentCount = String(agents.length / AGENT_STRIDE);
    canvas.dataset.diffAgents = String(differs ? differs.size : 0);
    $('timeline').value = String(frame.tick);
    showTickInfo(frame, agents, differs);
    showLegend(agents);
  } catch (error) {
    showError(error.message);
  }
}

function showTickInfo(frame, agents, differs) {
  const i = state.a.info;
  const from = frame.from_tick === i.start_tick ? 'the initial snapshot' : `the keyframe of tick ${frame.from_tick}`;
  let text = `tick ${frame.tick} of ${i.start_tick}–${i.end_tick}\nrestored from ${from}\n${agents.length / AGENT_STRIDE} agents\nhash ${frame.hash}\n`;
  if (frame.recorded_hash === null) text += 'initial state';
  else if (frame.matches) text += '= the recorded hash ✓';
  else text += `≠ recorded ${frame.recorded_hash} ✗`;
  if (frame.mesh) text += `\nnavigation mesh: ${frame.mesh.triangles} triangles, ${frame.mesh.vertices} vertices`;
  if (differs) text += `\n${differs.size} agents differ from B`;
  if (hashesDiffer(frame.tick)) text += '\nA and B recorded different hashes here';
  $('tick-info').textContent = text;
}

function showLegend(agents) {
  colours.legend($('legend'), agents, $('colour-by').value, { behavior: (k) => state.fxs.behaviorName(k) });
}

// True when A's and B's recorded hashes differ for the state after `tick` ticks (the hash
// of TICK tick - 1).
function hashesDiffer(tick) {
  const d = state.diff;
  return !!(d && d.ranges && d.ranges.some(([first, last]) => tick - 1 >= first && tick - 1 <= last));
}

// Keyframes (grey); A's and B's first bad ticks (red) and the ticks whose recorded hashes
// differ between A and B (a red band), each drawn where the state after it is shown.
function drawMarks() {
  const canvas = $('marks');
  const ctx = canvas.getContext('2d');
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (!state.a) return;
  const { start_tick: s, end_tick: e, keyframes } = state.a.info;
  const x = (t) => ((t - s) / Math.max(1, e - s)) * (canvas.width - 1);
  ctx.fillStyle = '#6b7483';
  for (const k of keyframes) ctx.fillRect(Math.round(x(k)), 0, 2, 6);
  ctx.fillStyle = 'rgba(255, 77, 77, 0.45)';
  for (const [first, last] of (state.diff && state.diff.ranges) || []) {
    ctx.fillRect(Math.round(x(first + 1)), 6, Math.max(2, Math.round(x(last + 1) - x(first + 1))), 4);
  }
  ctx.fillStyle = '#ff4d4d';
  const bad = [];
  if (state.verifyA && state.verifyA.diverged) bad.push(state.verifyA.first_bad_tick);
  if (state.verifyB && state.verifyB.diverged) bad.push(state.verifyB.first_bad_tick);
  if (state.diff && state.diff.first_divergent_tick !== undefined) bad.push(state.diff.first_divergent_tick);
  for (const t of bad) ctx.fillRect(Math.round(x(t + 1)), 0, 3, 10);
}

// ------------------------------------------------------------------ playing

function setPlaying(on) {
  state.playing = on && !!state.a;
  $('play').textContent = state.playing ? 'Pause' : 'Play';
  if (state.playing && state.shown >= state.a.info.end_tick) show(state.a.info.start_tick, true);
  state.clock = performance.now();
  if (state.playing) requestAnimationFrame(frameLoop);
}

// Ticks one animation frame may show at most: a machine slower than the chosen speed plays
// slower instead of falling further behind each frame (and jumping to the end).
const MAX_TICKS_PER_FRAME = 8;

function frameLoop(now) {
  if (!state.playing) return;
  const perSecond = Number($('speed').value);
  let due = Math.floor(((now - state.clock) * perSecond) / 1000);
  if (due > MAX_TICKS_PER_FRAME) {
    due = MAX_TICKS_PER_FRAME;
    state.clock = now;
  } else if (due > 0) {
    state.clock += (due * 1000) / perSecond;
  }
  if (due > 0) {
    for (let k = 0; k < due && state.shown < state.a.info.end_tick; ++k) show(state.shown + 1);
    if (state.shown >= state.a.info.end_tick) return setPlaying(false);
  }
  requestAnimationFrame(frameLoop);
}

// ------------------------------------------------------------------ recording

function record(faulty) {
  const fxs = state.fxs;
  try {
    if (!faulty) {
      const name = $('scenario').value;
      const ticks = Math.max(1, Number($('record-ticks').value) || 1);
      const rec = fxs.record(name, { ticks });
      state.lastRecording = { name, ticks };
      if (state.b) closeB();
      openReplay('a', rec.bytes, `${name}, recorded in the browser`);
      $('record-faulty').disabled = false;
    } else {
      const { name, ticks } = state.lastRecording;
      const tamperTick = Number($('tamper-tick').value) || 0;
      const tamperAgent = Number($('tamper-agent').value) || 0;
      const rec = fxs.record(name, { ticks, tamperTick, tamperAgent });
      openReplay('b', rec.bytes, `${name}, a faulty peer's copy (agent ${tamperAgent}, tick ${tamperTick})`);
    }
  } catch (error) {
    showError(error.message);
  }
}

// ------------------------------------------------------------------ start

async function loadSamples() {
  try {
    const response = await fetch('replays/index.json');
    if (!response.ok) return;
    for (const name of await response.json()) {
      const option = document.createElement('option');
      option.value = `replays/${name}`;
      option.textContent = name;
      $('sample').append(option);
    }
  } catch {
    // no sample list next to the page: the file picker and ?replay= still work
  }
}

function wire() {
  $('sample').onchange = (e) => e.target.value && openUrl('a', e.target.value);
  for (const which of ['a', 'b']) {
    $(`file-${which}`).onchange = async (e) => {
      const file = e.target.files[0];
      if (file) openReplay(which, new Uint8Array(await file.arrayBuffer()), file.name);
      e.target.value = '';
    };
  }
  $('clear-b').onclick = closeB;
  $('record').onclick = () => record(false);
  $('record-faulty').onclick = () => record(true);
  $('play').onclick = () => setPlaying(!state.playing);
  $('step').onclick = () => (setPlaying(false), show(state.shown + 1));
  $('step-back').onclick = () => (setPlaying(false), show(state.shown - 1));
  $('timeline').oninput = (e) => show(Number(e.target.value));
  $('colour-by').onchange = () => show(state.shown, true);
  $('show-blocked').onchange = () => show(state.shown, true);
  $('show-routes').onchange = () => show(state.shown, true);
  $('show-fields').onchange = () => show(state.shown, true);
  $('show-mesh').onchange = () => show(state.shown, true);
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
    if (e.key === ' ') (e.preventDefault(), setPlaying(!state.playing));
    else if (e.key === 'ArrowRight') show(state.shown + 1);
    else if (e.key === 'ArrowLeft') show(state.shown - 1);
  });
}

async function main() {
  state.fxs = await loadFixsteer(new URL('../fxs_web.wasm', import.meta.url));
  const v = state.fxs.version();
  $('library').textContent = `fixsteer ${v.version} in WebAssembly (wasm32, ${(state.fxs.moduleBytes / 1024).toFixed(0)} KiB module) · replay format ${v.replay_format} · math fingerprint ${v.fingerprint}`;
  for (const s of state.fxs.scenarios()) {
    const option = document.createElement('option');
    option.value = s.name;
    option.textContent = s.name;
    option.title = s.summary;
    $('scenario').append(option);
  }
  $('scenario').onchange = () => {
    const s = state.fxs.scenarios().find((x) => x.name === $('scenario').value);
    if (s) $('record-ticks').value = s.ticks;
  };
  wire();
  await loadSamples();
  const params = new URLSearchParams(location.search);
  if (params.get('replay')) await openUrl('a', params.get('replay'));
  if (params.get('compare')) await openUrl('b', params.get('compare'));
  document.body.dataset.ready = 'true';
}

main().catch((error) => {
  showError(`the fixsteer module did not load: ${error.message}`);
  document.body.dataset.ready = 'error';
});

// For the browser test and the console: the page's state.
window.fixsteerViewer = { state, show, openReplay, record };
