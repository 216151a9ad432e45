// The playground's parameter sliders: an agent's limits and each behavior's weight and
// parameters (from the library's parameter table), for the agents the page's scope names.
// A change is sent as commands on the next tick: set_limits, or clear_behaviors and the
// agent's add_behavior commands again with the new value.
import { AGENT_STRIDE, ONE, PAGE_SOURCE, fromFix, toFix } from './fxs.mjs';

const $ = (id) => document.getElementById(id);
const fmt = (units) => (Math.abs(units) >= 100 ? units.toFixed(1) : units.toFixed(3)).replace(/\.?0+$/, '') || '0';

// ctx: { state (the page's), scopeSlots() (the slots a change applies to), queue(commands) }.
export function paramPanel({ state, scopeSlots, queue }) {
  // A slider's range in the table's units: the table's, narrowed to what is worth sliding.
  function sliderRange(row) {
    const def = Math.abs(fromFix(row.default));
    const top = { units: Math.max(4 * def, 200), ticks: Math.max(4 * def, 60), radians: 2 * Math.PI, force: Math.max(4 * def, 2),
      factor: Math.max(4 * def, 16), count: 16, choice: 1 }[row.unit] ?? Math.max(4 * def, 10);
    const max = Math.min(fromFix(row.max), top);
    const step = { count: 1, choice: 1, ticks: 1, radians: 0.01, force: 0.01, factor: 0.1 }[row.unit] ?? 0.5;
    const low = fromFix(row.min);
    const min = low < -max ? -max : low > 0 && low < step ? step : low;
    return { min, max, step };
  }

  function sliderRow(label, title, value, range, onChange) {
    const row = document.createElement('label');
    row.className = 'param';
    row.title = title;
    const name = document.createElement('span');
    name.textContent = label;
    const input = document.createElement('input');
    input.type = 'range';
    input.min = String(range.min);
    input.max = String(Math.max(range.max, value));
    input.step = String(range.step);
    input.value = String(value);
    input.dataset.param = label;
    const shown = document.createElement('output');
    shown.textContent = fmt(value);
    input.oninput = () => (shown.textContent = fmt(Number(input.value)));
    input.onchange = () => onChange(Number(input.value));
    input.onpointerdown = () => (state.sliding = true);
    input.onpointerup = () => (state.sliding = false);
    row.append(name, input, shown);
    return row;
  }

  // Rebuilds the sliders when the agents they apply to or their behavior sets changed. The
  // panel reads one agent of each behavior set (the selected one first); a change reads every
  // agent it applies to.
  function refreshParams(force) {
    if (!state.world || state.past || state.sliding) return;
    const slots = scopeSlots();
    const inScope = new Set(slots);
    const a = state.agents;
    const bySet = new Map(); // set id -> [slots]
    for (let i = 0; i < a.length; i += AGENT_STRIDE) {
      if (!inScope.has(a[i])) continue;
      if (!bySet.has(a[i + 11])) bySet.set(a[i + 11], []);
      bySet.get(a[i + 11]).push(a[i]);
    }
    const signature = `${$('scope').value}|${state.selected}|${slots.length}|${[...bySet].map(([k, v]) => `${k}:${v.length}`).join(',')}`;
    if (!force && signature === state.paramSignature) return;
    state.paramSignature = signature;
    const box = $('params');
    box.textContent = '';
    if (!slots.length) return;
    const samples = [...bySet.values()].map((list) => state.world.agent(list.includes(state.selected) ? state.selected : list[0]));
    const counts = new Map([...bySet].map(([, list], k) => [samples[k].slot, list.length]));
    const first = samples.find((d) => d.slot === state.selected) || samples[0];
    const limits = document.createElement('fieldset');
    limits.dataset.behavior = 'limits';
    limits.innerHTML = `<legend>limits (${slots.length} agent${slots.length > 1 ? 's' : ''})</legend>`;
    for (const [name, top] of [['max_speed', 10], ['max_force', 2]]) {
      const v = fromFix(first.limits[name]);
      limits.append(sliderRow(name, `set_limits: ${name}`, v, { min: 0, max: top, step: 0.05 }, (value) => changeLimits(name, value)));
    }
    box.append(limits);
    const kinds = [];
    for (const d of samples) for (const b of d.behaviors) if (!kinds.includes(b.kind)) kinds.push(b.kind);
    for (const kind of kinds) {
      const entry = state.fxs.params().find((e) => e.kind === kind);
      const having = samples.filter((d) => d.behaviors.some((b) => b.kind === kind));
      const count = having.reduce((n, d) => n + counts.get(d.slot), 0);
      const shown = having[0].behaviors.find((b) => b.kind === kind);
      const set = document.createElement('fieldset');
      set.dataset.behavior = entry.name;
      set.innerHTML = `<legend>${entry.name} (${count})</legend>`;
      set.append(sliderRow('weight', 'the manager\'s multiplier', fromFix(shown.weight), { min: 0, max: Math.max(4, 2 * fromFix(shown.weight)), step: 0.05 },
        (value) => changeBehavior(kind, 'weight', value)));
      entry.params.forEach((row, index) => {
        set.append(sliderRow(row.name, `${row.meaning} (${row.unit})`, fromFix(shown.params[index]), sliderRange(row),
          (value) => changeBehavior(kind, index, value)));
      });
      box.append(set);
    }
  }

  function clampRaw(value, row) {
    const raw = toFix(value);
    return Math.max(row.min, Math.min(row.max, row.unit === 'count' || row.unit === 'choice' ? Math.round(raw / ONE) * ONE : raw));
  }

  // A parameter change is the agent's whole set again: clear_behaviors, then add_behavior for
  // each behavior in order, with the new value where it belongs.
  function changeBehavior(kind, which, value) {
    const c = state.fxs.command;
    const entry = state.fxs.params().find((e) => e.kind === kind);
    const commands = [];
    for (const d of scopeSlots().map((slot) => state.world.agent(slot))) {
      if (!d.behaviors.some((b) => b.kind === kind)) continue;
      const source = d.owner >= 0 ? d.owner : PAGE_SOURCE;
      commands.push({ ...c.clearBehaviors(d.handle, d.combine_mode), source });
      for (const b of d.behaviors) {
        const raw = b.params.slice();
        let weight = fromFix(b.weight);
        if (b.kind === kind) {
          if (which === 'weight') weight = value;
          else raw[which] = clampRaw(value, entry.params[which]);
        }
        commands.push({ ...c.addBehavior(d.handle, { kind: b.kind, weight, priority: b.priority, rawParams: raw }), source });
      }
    }
    queue(commands);
  }

  function changeLimits(name, value) {
    const c = state.fxs.command;
    const details = scopeSlots().map((slot) => state.world.agent(slot));
    queue(details.map((d) => ({ ...c.setLimitsRaw(d.handle, d.limits, { [name]: value }), source: d.owner >= 0 ? d.owner : PAGE_SOURCE })));
  }

  return { refreshParams };
}
