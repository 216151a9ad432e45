// The fixsteer library in the browser: loads fxs_web.wasm (the library, the built-in
// scenarios and the scenario-file reader compiled to wasm32, web/glue/) and wraps its
// exports. Nothing here simulates: every state shown comes from the library itself. Runs in
// a browser and in Node. docs/browser.md documents this API.
//
//   const fxs = await loadFixsteer('fxs_web.wasm');
//   const world = fxs.loadScene('flock');                 // or fxs.loadSceneFile(yamlText)
//   const [a] = world.agentList();
//   world.step([fxs.command.setTargetPoint(a.handle, 300, 200)]);
//   world.hash();                                         // '0x…', as fixsteer verify prints it
//   const { bytes } = world.replay();                     // a .fxr that fixsteer verify accepts

// Int32 values per agent in agents() (web/glue/fxs_web.h, FXS_WEB_AGENT_STRIDE).
export const AGENT_STRIDE = 16;
export const AGENT_FIELDS = ['slot', 'x', 'y', 'vx', 'vy', 'orientation', 'radius', 'kind', 'behaviors', 'target',
  'owner', 'set', 'maxSpeed', 'maxForce', 'mass', 'handle'];
export const ONE = 65536; // Q16.16 raw value of 1.0
// The source the page's commands come from unless a command names its own (the built-in
// scenes use sources 0 to 2); a command on an agent owned by a source must come from it.
export const PAGE_SOURCE = 8;
// How an agent's manager combines its behaviors (manager.h, fxs_combine_mode).
export const COMBINE = { weighted_sum: 0, prioritized_sum: 1, priority_groups: 2 };
// How the integrator turns an agent (agent.h, fxs_orientation_mode).
export const ORIENTATION = { fixed: 0, look_where_going: 1, steered: 2 };

// World units (a JS number) to raw Q16.16, rounded to nearest and saturated; and back.
export function toFix(units) {
  const raw = Math.round(Number(units) * ONE);
  if (!Number.isFinite(raw)) throw new RangeError(`not a number: ${units}`);
  return Math.max(-0x80000000, Math.min(0x7fffffff, raw));
}
export const fromFix = (raw) => raw / ONE;

// The module was built against wasi-libc; it imports four WASI functions and uses them only
// to print (a scenario's own error message) and to stop. This is all of the WASI it needs.
class ModuleExit extends Error {
  constructor(code) {
    super(`the fixsteer module stopped with exit code ${code}`);
    this.code = code;
  }
}

function wasiImports(state) {
  const EBADF = 8, ESPIPE = 70;
  return {
    fd_write(fd, iovs, iovsLength, writtenPtr) {
      if (fd !== 1 && fd !== 2) return EBADF;
      const view = new DataView(state.memory.buffer);
      let total = 0;
      for (let i = 0; i < iovsLength; ++i) {
        const ptr = view.getUint32(iovs + 8 * i, true);
        const len = view.getUint32(iovs + 8 * i + 4, true);
        state.output += new TextDecoder().decode(new Uint8Array(state.memory.buffer, ptr, len));
        total += len;
      }
      let newline;
      while ((newline = state.output.indexOf('\n')) >= 0) {
        (fd === 2 ? console.warn : console.log)(`fixsteer: ${state.output.slice(0, newline)}`);
        state.output = state.output.slice(newline + 1);
      }
      view.setUint32(writtenPtr, total, true);
      return 0;
    },
    fd_close() {
      return 0;
    },
    fd_seek() {
      return ESPIPE;
    },
    proc_exit(code) {
      throw new ModuleExit(code);
    },
  };
}

// Loads the module from a URL (browser: fetch; Node: a file path or file: URL) or bytes.
export async function loadFixsteer(source) {
  let bytes = source;
  if (typeof source === 'string' || source instanceof URL) {
    if (typeof process !== 'undefined' && process.versions && process.versions.node) {
      const { readFile } = await import('node:fs/promises');
      bytes = await readFile(source);
    } else {
      const response = await fetch(source);
      if (!response.ok) throw new Error(`${source}: HTTP ${response.status}`);
      bytes = await response.arrayBuffer();
    }
  }
  const state = { memory: null, output: '' };
  const { instance } = await WebAssembly.instantiate(bytes, { wasi_snapshot_preview1: wasiImports(state) });
  state.memory = instance.exports.memory;
  instance.exports._initialize();
  return new Fixsteer(instance.exports, bytes.byteLength);
}

// Builds commands (command.h) from typed values in world units, radians and ticks; handles
// are agent handles (agentList()[i].handle, agent(slot).handle). A command is a plain object
// { type: name, agent, ref, args: [8 raw Q16.16], source?, sequence? }: LiveWorld.step
// encodes it, giving it PAGE_SOURCE and the next sequence number when it has none. Every
// builder takes world units; raw Q16.16 integers (65536 = 1.0) go in only through the calls
// named so: makeRaw, setLimitsRaw and addBehavior's rawParams.
// A command's agent handle or ref (a group tag, an index, a target handle) as its uint32: a
// whole number of the int32 or uint32 range (a handle read from agents() may be negative as
// an int32), anything else a RangeError rather than a silent truncation.
function word(type, name, v) {
  if (!Number.isInteger(v) || v < -0x80000000 || v > 0xffffffff) {
    throw new RangeError(`${type}: ${name} must be a whole number (a handle, tag or index), not ${v}`);
  }
  return v >>> 0;
}

export class CommandBuilder {
  constructor(params) {
    this.params = params; // fxs.params(): the behavior parameter table
  }

  // Any command type by name, its args in world units (up to 8 numbers; counts such as a
  // grid's columns are whole units, as command.h encodes them).
  make(type, { agent = 0, ref = 0, args = [] } = {}) {
    if (args.length > 8) throw new RangeError(`${type}: at most 8 args, not ${args.length}`);
    return this.makeRaw(type, { agent, ref, args: args.map(toFix) });
  }

  // The same with args already raw Q16.16: integers of the int32 range, passed as given.
  makeRaw(type, { agent = 0, ref = 0, args = [] } = {}) {
    if (args.length > 8) throw new RangeError(`${type}: at most 8 args, not ${args.length}`);
    args.forEach((v, i) => {
      if (!Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff) {
        throw new RangeError(`${type}: raw arg ${i} must be an int32 (Q16.16, 65536 = 1.0), not ${v}`);
      }
    });
    const raw = args.slice();
    while (raw.length < 8) raw.push(0);
    return { type, agent: word(type, 'agent', agent), ref: word(type, 'ref', ref), args: raw };
  }

  spawn({ x = 0, y = 0, vx = 0, vy = 0, maxSpeed = 4, maxForce = 0.25, mass = 1, radius = 8, owned = false } = {}) {
    return this.make('spawn', { ref: owned ? 1 : 0, args: [x, y, vx, vy, maxSpeed, maxForce, mass, radius] });
  }
  despawn(agent) { return this.make('despawn', { agent }); }
  setTargetPoint(agent, x, y) { return this.make('set_target_point', { agent, args: [x, y] }); }
  setTargetAgent(agent, target) { return this.make('set_target_agent', { agent, ref: target }); }
  setSecondTarget(agent, target) { return this.make('set_second_target', { agent, ref: target }); }
  setPath(agent, path) { return this.make('set_path', { agent, ref: path }); }
  applyForce(agent, fx, fy) { return this.make('apply_force', { agent, args: [fx, fy] }); }
  setOwner(agent, owner) { return this.make('set_owner', { agent, ref: owner }); }
  addObstacle(x, y, radius) { return this.make('add_obstacle', { args: [x, y, radius] }); }
  removeObstacle(index) { return this.make('remove_obstacle', { ref: index }); }
  addWall(ax, ay, bx, by) { return this.make('add_wall', { args: [ax, ay, bx, by] }); }
  removeWall(index) { return this.make('remove_wall', { ref: index }); }

  // The RTS click (fxs_command_move): the agent goes to its own spot round (x, y). The moves
  // of a tick with the same source, group tag, point and gap (units between resting bodies,
  // 0..1024) form one group; moveGroup gives a whole selection one.
  move(agent, group, x, y, gap) { return this.make('move', { agent, ref: group, args: [x, y, gap] }); }
  moveGroup(agents, group, x, y, gap) { return agents.map((agent) => this.move(agent, group, x, y, gap)); }

  // The navigation grid (fxs_command_set_nav_grid): columns x rows cells of cellSize units
  // from (originX, originY); walls and obstacles block the cells within `radius` units of
  // them; A* expands at most `budget` cells a tick. removeNavGrid() drops it.
  setNavGrid({ originX = 0, originY = 0, cellSize, columns, rows, radius, budget }) {
    for (const [name, v] of Object.entries({ cellSize, columns, rows, radius, budget })) {
      if (typeof v !== 'number') throw new RangeError(`setNavGrid: ${name} is needed`);
    }
    for (const [name, v] of Object.entries({ columns, rows, budget })) {
      if (!Number.isInteger(v) || v < 0) throw new RangeError(`setNavGrid: ${name} must be a whole number, not ${v}`);
    }
    return this.make('set_nav_grid', { ref: budget, args: [originX, originY, cellSize, Math.min(columns, 32768), Math.min(rows, 32768), radius] });
  }
  removeNavGrid() { return this.make('set_nav_grid'); }
  // Base cost of a block of cells: 0 blocked, 1..254 the weight (whole numbers).
  setNavCosts(column, row, columns, rows, cost) {
    const v = [column, row, columns, rows, cost];
    if (!v.every((n) => Number.isInteger(n) && n >= 0)) throw new RangeError(`setNavCosts: whole numbers, not ${v}`);
    return this.make('set_nav_costs', { args: v.map((n) => Math.min(n, 32768)) });
  }
  // The navigate behavior: A* on the world's grid to the agent's target, arriving with
  // slowingRadius (units), ORCA among neighbours; params: the table's other names
  // (time_horizon, neighbor_distance, ...), in their units.
  addNavigate(agent, { slowingRadius, weight = 1, priority = 0, params = {} } = {}) {
    const all = slowingRadius === undefined ? params : { ...params, slowing_radius: slowingRadius };
    return this.addBehavior(agent, { kind: 'navigate', weight, priority, params: all });
  }

  // The flow field: its grid, a block of cells, and the fills (flow_field.h).
  setFieldGrid({ originX = 0, originY = 0, cellSize, columns, rows }) {
    if (!Number.isInteger(columns) || !Number.isInteger(rows)) throw new RangeError('setFieldGrid: columns and rows are whole numbers');
    return this.make('set_field_grid', { args: [originX, originY, cellSize, Math.min(columns, 32768), Math.min(rows, 32768)] });
  }
  removeField() { return this.make('set_field_grid'); }
  setFieldCells(column, row, columns, rows, flowX, flowY) {
    const v = [column, row, columns, rows];
    if (!v.every((n) => Number.isInteger(n) && n >= 0)) throw new RangeError(`setFieldCells: whole numbers, not ${v}`);
    return this.make('set_field_cells', { args: [...v.map((n) => Math.min(n, 32768)), flowX, flowY] });
  }
  fillFieldUniform(dx, dy) { return this.make('fill_field', { ref: 0, args: [dx, dy] }); }
  fillFieldToward(x, y) { return this.make('fill_field', { ref: 1, args: [x, y] }); }
  fillFieldVortex(x, y, swirl, inward) { return this.make('fill_field', { ref: 2, args: [x, y, swirl, inward] }); }
  fillFieldGoal(x, y) { return this.make('fill_field', { ref: 3, args: [x, y] }); }

  // mode: 'weighted_sum', 'prioritized_sum', 'priority_groups' or its number.
  clearBehaviors(agent, mode = 'weighted_sum') {
    return this.make('clear_behaviors', { agent, ref: typeof mode === 'number' ? mode : COMBINE[mode] });
  }

  // kind: a behavior name ('arrive') or number; params: { slowing_radius: 60 } in the
  // table's units, the others at their defaults; or rawParams: [6 raw Q16.16 values] as given.
  addBehavior(agent, { kind, weight = 1, priority = 0, params = {}, rawParams = null, raw = null }) {
    const entry = this.params.find((b) => b.name === kind || b.kind === kind);
    if (!entry) throw new RangeError(`no behavior ${kind}`);
    const given = rawParams ?? raw;
    const p = given ? given.slice(0, 6) : entry.params.map((row) => (row.name in params ? toFix(params[row.name]) : row.default));
    for (const name of Object.keys(params)) {
      if (!given && !entry.params.some((row) => row.name === name)) throw new RangeError(`${entry.name} has no parameter ${name}`);
    }
    return this.makeRaw('add_behavior', { agent, ref: entry.kind | (priority << 8), args: [toFix(weight), ...p] });
  }

  // The agent's limits in world units, radians and ticks, each at fxs_default_agent()'s value
  // when left out; orientation: 'fixed', 'look_where_going' or 'steered' (or its number).
  setLimits(agent, { max_speed = 4, max_force = 0.25, mass = 1, radius = 8, max_rotation = 0.2,
    max_angular_acceleration = 0.05, max_turn_rate = 0, orientation = 'look_where_going' } = {}) {
    const mode = typeof orientation === 'number' ? orientation : ORIENTATION[orientation];
    if (mode === undefined) throw new RangeError(`no orientation ${orientation}`);
    return this.make('set_limits', {
      agent,
      ref: mode,
      args: [max_speed, max_force, mass, radius, max_rotation, max_angular_acceleration, max_turn_rate],
    });
  }

  // limits: agent(slot).limits (raw Q16.16, as the world holds them), with any of its fields
  // replaced by world units through `change` ({ max_speed: 3 }).
  setLimitsRaw(agent, limits, change = {}) {
    const l = { ...limits };
    for (const [k, v] of Object.entries(change)) l[k] = toFix(v);
    return this.makeRaw('set_limits', {
      agent,
      ref: l.orientation_mode,
      args: [l.max_speed, l.max_force, l.mass, l.radius, l.max_rotation, l.max_angular_acceleration, l.max_turn_rate],
    });
  }
}

export class Fixsteer {
  constructor(exports, moduleBytes) {
    this.x = exports;
    this.moduleBytes = moduleBytes;
    this.commandTable = this.json(exports.fxs_web_commands());
    this.commandType = new Map(this.commandTable.types.map((t) => [t.name, t.type]));
    this.paramTable = this.json(exports.fxs_web_params());
    this.command = new CommandBuilder(this.paramTable);
  }

  // The behavior parameter table: [{ kind, name, kinematic, params: [{ name, unit, min, max,
  // default, meaning }] }] (raw Q16.16), from behavior_params.h.
  params() {
    return this.paramTable;
  }

  // The message of an fxs_result value.
  resultMessage(result) {
    return this.commandTable.results[result] ?? `result ${result}`;
  }

  // Encodes commands (CommandBuilder objects) as the module reads them: FXS_COMMAND_BYTES
  // each, little-endian (command.h).
  encode(commands) {
    const size = this.commandTable.bytes;
    const out = new Uint8Array(commands.length * size);
    const view = new DataView(out.buffer);
    commands.forEach((c, i) => {
      const type = typeof c.type === 'number' ? c.type : this.commandType.get(c.type);
      if (type === undefined) throw new RangeError(`no command type ${c.type}`);
      const at = i * size;
      view.setUint8(at, type);
      view.setUint8(at + 1, c.source ?? PAGE_SOURCE);
      view.setUint16(at + 2, c.sequence ?? 0, true);
      view.setUint32(at + 4, c.agent >>> 0, true);
      view.setUint32(at + 8, c.ref >>> 0, true);
      for (let k = 0; k < this.commandTable.args; ++k) view.setInt32(at + 12 + 4 * k, c.args[k] | 0, true);
    });
    return out;
  }

  // A live world running a built-in scene (fxs.scenarios() names them), recorded as it goes.
  // room: slots added for what the page adds ({ agents, obstacles, walls }); keyframe: the
  // replay's keyframe interval (ticks). Throws with the module's reason.
  loadScene(name, { room = {}, keyframe = 50 } = {}) {
    return this.openLive(name, null, room, keyframe);
  }

  // The same from a scenario file (YAML text or bytes); errors name the file and line.
  loadSceneFile(yaml, name = 'scene.yaml', { room = {}, keyframe = 50 } = {}) {
    const bytes = typeof yaml === 'string' ? new TextEncoder().encode(yaml) : yaml;
    if (!bytes.length) throw new Error(`${name}: the file is empty`);
    return this.openLive(name, bytes, room, keyframe);
  }

  openLive(name, bytes, room, keyframe) {
    const namePtr = this.copyIn(new TextEncoder().encode(`${name}\0`));
    const dataPtr = bytes ? this.copyIn(bytes) : 0;
    let handle;
    try {
      handle = this.x.fxs_web_live_new(namePtr, dataPtr, bytes ? bytes.length : 0, room.agents ?? 0,
        room.obstacles ?? 0, room.walls ?? 0, keyframe);
    } finally {
      this.x.fxs_web_free(namePtr);
      if (dataPtr) this.x.fxs_web_free(dataPtr);
    }
    if (!handle) throw new Error(this.text(this.x.fxs_web_last_error()));
    return new LiveWorld(this, handle);
  }

  // A NUL-terminated string at `ptr` in the module's memory.
  text(ptr) {
    const bytes = new Uint8Array(this.x.memory.buffer);
    let end = ptr;
    while (bytes[end] !== 0) ++end;
    return new TextDecoder().decode(bytes.subarray(ptr, end));
  }

  json(ptr) {
    return JSON.parse(this.text(ptr));
  }

  // Copies bytes into new module memory; returns its offset.
  copyIn(bytes) {
    const ptr = this.x.fxs_web_alloc(bytes.length);
    new Uint8Array(this.x.memory.buffer, ptr, bytes.length).set(bytes);
    return ptr;
  }

  version() {
    return this.json(this.x.fxs_web_version());
  }

  scenarios() {
    return this.json(this.x.fxs_web_scenarios());
  }

  behaviorName(kind) {
    return this.text(this.x.fxs_web_behavior_name(kind));
  }

  // Opens a replay (Uint8Array); throws with the library's reason (byte offset, what).
  open(bytes, name = 'replay') {
    const handle = this.x.fxs_web_open(this.copyIn(bytes), bytes.length);
    if (!handle) throw new Error(`${name}: ${this.text(this.x.fxs_web_last_error())}`);
    return new Replay(this, handle, name, bytes.length);
  }

  // Records a built-in scenario with the library's replay writer, in the page.
  // tamperTick >= 0 records a faulty peer (one bit of tamperAgent's x flips after that tick).
  record(name, { ticks = 0, keyframe = 250, tamperTick = -1, tamperAgent = 0 } = {}) {
    const namePtr = this.copyIn(new TextEncoder().encode(`${name}\0`));
    let answer;
    try {
      answer = this.json(this.x.fxs_web_record(namePtr, ticks, keyframe, tamperTick, tamperAgent));
    } finally {
      this.x.fxs_web_free(namePtr);
    }
    if (answer.error) throw new Error(`record ${name}: ${answer.error}`);
    const bytes = new Uint8Array(this.x.memory.buffer, answer.data, answer.size).slice();
    this.x.fxs_web_free(answer.data);
    return { bytes, scenario: answer.scenario, ticks: answer.ticks, finalHash: answer.final_hash };
  }

  // Two recordings of one session: identical, or where they diverge.
  diff(a, b) {
    return this.json(this.x.fxs_web_diff(a.handle, b.handle));
  }
}

// Reads the agent table (AGENT_STRIDE int32 each) as objects in world units.
export function agentObjects(table) {
  const list = [];
  for (let i = 0; i < table.length; i += AGENT_STRIDE) {
    list.push({
      slot: table[i],
      handle: table[i + 15] >>> 0,
      x: table[i + 1] / ONE,
      y: table[i + 2] / ONE,
      vx: table[i + 3] / ONE,
      vy: table[i + 4] / ONE,
      orientation: table[i + 5] / ONE,
      radius: table[i + 6] / ONE,
      firstBehavior: table[i + 7] === 255 ? null : table[i + 7],
      behaviorCount: table[i + 8],
      targetSlot: table[i + 9] < 0 ? null : table[i + 9],
      owner: table[i + 10] < 0 ? null : table[i + 10],
      set: table[i + 11],
      maxSpeed: table[i + 12] / ONE,
      maxForce: table[i + 13] / ONE,
      mass: table[i + 14] / ONE,
    });
  }
  return list;
}

// A navigation mesh answer of the module (fxs_web_mesh, fxs_web_live_mesh) read out of its
// memory: null for a grid world, else { vertices: Int32Array (x, y raw per vertex),
// triangles: Uint32Array (MESH_TRIANGLE_STRIDE per triangle: its vertex indices
// counter-clockwise, then flags: bit i side i (opposite vertex i) constrained, bit 3 + i a
// triangle across side i), vertexCapacity, triangleCapacity, version (the map version),
// digest, canonicalDigest }.
export const MESH_TRIANGLE_STRIDE = 4;
function readMesh(fxs, ptr, name) {
  const answer = fxs.json(ptr);
  if (answer.error) throw new Error(`${name}: ${answer.error}`);
  if (!answer.mesh) return null;
  const words = new Int32Array(fxs.x.memory.buffer, answer.data, 2 * answer.vertices + MESH_TRIANGLE_STRIDE * answer.triangles);
  return {
    vertices: words.slice(0, 2 * answer.vertices),
    triangles: new Uint32Array(words.slice(2 * answer.vertices).buffer),
    vertexCapacity: answer.vertex_capacity,
    triangleCapacity: answer.triangle_capacity,
    version: answer.version,
    digest: answer.digest,
    canonicalDigest: answer.canonical_digest,
  };
}

// The sides of a mesh (readMesh's answer), each once: [a, b, constrained] per side, a and b
// vertex indices (a side shared by two triangles is listed from the one where a < b).
export function meshEdges(mesh) {
  const t = mesh.triangles;
  const edges = [];
  for (let i = 0; i < t.length; i += MESH_TRIANGLE_STRIDE) {
    const flags = t[i + 3];
    for (let k = 0; k < 3; ++k) {
      const a = t[i + ((k + 1) % 3)], b = t[i + ((k + 2) % 3)];
      if ((flags & (8 << k)) && a > b) continue; // listed by the triangle across it
      edges.push([a, b, (flags >> k) & 1]);
    }
  }
  return edges;
}

function hex64(value) {
  return `0x${BigInt.asUintN(64, BigInt(value)).toString(16).padStart(16, '0')}`;
}

// A world the page steps: a scene's world and game logic, with the page's commands on top,
// recorded tick by tick with the library's replay writer.
export class LiveWorld {
  constructor(fxs, handle) {
    this.fxs = fxs;
    this.handle = handle;
    this.info = fxs.json(fxs.x.fxs_web_live_info(handle));
  }

  get tick() {
    const info = this.fxs.json(this.fxs.x.fxs_web_live_info(this.handle));
    if (info.error) throw new Error(info.error);
    return info.tick;
  }

  // Steps one tick with `commands` (CommandBuilder objects, applied at its start in
  // canonical order after the scene's own) and, with logic, the scene's game logic.
  // Returns { tick, hash, results: [{ result, message }] per command, in the order given }.
  step(commands = [], { logic = true } = {}) {
    const next = new Map();
    const numbered = commands.map((c) => {
      const source = c.source ?? PAGE_SOURCE;
      const sequence = c.sequence ?? next.get(source) ?? 0;
      next.set(source, sequence + 1);
      return { ...c, source, sequence };
    });
    const bytes = this.fxs.encode(numbered);
    const ptr = this.fxs.copyIn(bytes);
    let answer;
    try {
      answer = this.fxs.json(this.fxs.x.fxs_web_live_step(this.handle, ptr, numbered.length, logic ? 1 : 0));
    } finally {
      this.fxs.x.fxs_web_free(ptr);
    }
    if (answer.error) throw new Error(answer.error);
    answer.results = answer.results.map((result) => ({ result, message: this.fxs.resultMessage(result) }));
    return answer;
  }

  // Goes back to the state after `tick`: later ticks are forgotten (world and recording).
  rewind(tick) {
    const shown = this.fxs.x.fxs_web_live_rewind(this.handle, Math.max(0, Math.floor(tick)));
    if (shown < 0) throw new Error(this.fxs.text(this.fxs.x.fxs_web_last_error()));
    return shown;
  }

  // The state hash of the current tick, as '0x' and 16 hex digits.
  hash() {
    return hex64(this.fxs.x.fxs_web_live_hash(this.handle));
  }

  // tick, hash, bounds, obstacles [x, y, r, index], walls [ax, ay, bx, by, index], paths (raw).
  frame() {
    const answer = this.fxs.json(this.fxs.x.fxs_web_live_frame(this.handle));
    if (answer.error) throw new Error(answer.error);
    return answer;
  }

  // The navigation mesh of a mesh world (navigation: {kind: mesh}) as it stands now, or null
  // for a grid world: { vertices, triangles, version, digest, ... } (readMesh above).
  mesh() {
    return readMesh(this.fxs, this.fxs.x.fxs_web_live_mesh(this.handle), 'mesh');
  }

  // The live agents: Int32Array, AGENT_STRIDE values each (raw Q16.16), in slot order.
  agents() {
    const n = this.fxs.x.fxs_web_live_agents(this.handle);
    const ptr = this.fxs.x.fxs_web_live_agent_data(this.handle);
    return new Int32Array(this.fxs.x.memory.buffer, ptr, n * AGENT_STRIDE).slice();
  }

  // The same as objects in world units.
  agentList() {
    return agentObjects(this.agents());
  }

  // One agent slot in full: handle, owner, combine_mode, targets, limits and behavior set (raw).
  agent(slot) {
    const answer = this.fxs.json(this.fxs.x.fxs_web_live_agent(this.handle, slot));
    if (answer.error) throw new Error(`slot ${slot}: ${answer.error}`);
    return answer;
  }

  // The recording so far as a replay file: { bytes, ticks, finalHash }.
  replay() {
    const answer = this.fxs.json(this.fxs.x.fxs_web_live_replay(this.handle));
    if (answer.error) throw new Error(`replay: ${answer.error}`);
    const bytes = new Uint8Array(this.fxs.x.memory.buffer, answer.data, answer.size).slice();
    this.fxs.x.fxs_web_free(answer.data);
    return { bytes, ticks: answer.ticks, finalHash: answer.final_hash };
  }

  close() {
    if (this.handle) this.fxs.x.fxs_web_live_close(this.handle);
    this.handle = 0;
  }
}

// One packed cell of navFields().cells: { slot (-1: no field), direction (0..7, the step
// FIELD_STEPS[direction] in cells, nav_grid.h; 8: none), value (the integration cost,
// saturated at 2^21 - 1) }.
export const FIELD_NONE = 127;
export const FIELD_STEPS = [[1, 0], [0, 1], [-1, 0], [0, -1], [1, 1], [-1, 1], [-1, -1], [1, -1]];
export function unpackFieldCell(c) {
  const slot = c >>> 25;
  return { slot: slot === FIELD_NONE ? -1 : slot, direction: (c >>> 21) & 15, value: c & 0x1fffff };
}

export class Replay {
  constructor(fxs, handle, name, size) {
    this.fxs = fxs;
    this.handle = handle;
    this.name = name;
    this.size = size;
    this.info = fxs.json(fxs.x.fxs_web_info(handle));
  }

  // Re-simulates the whole replay: {verified, final_hash} or {diverged, first_bad_tick, difference}.
  verify() {
    return this.fxs.json(this.fxs.x.fxs_web_verify(this.handle));
  }

  // Shows the state after `tick`; returns the tick shown.
  seek(tick) {
    const shown = this.fxs.x.fxs_web_seek(this.handle, Math.max(0, Math.floor(tick)));
    if (shown < 0) throw new Error(`${this.name}: ${this.fxs.text(this.fxs.x.fxs_web_last_error())}`);
    return shown;
  }

  // The shown tick: hash, recorded hash, bounds, obstacles, walls, paths (raw Q16.16).
  frame() {
    return this.fxs.json(this.fxs.x.fxs_web_frame(this.handle));
  }

  // The integration fields of navigate groups in the shown tick: every live one (which < 0)
  // or the one in field slot `which` (web/glue/fxs_web.h, fxs_web_nav_fields): { origin,
  // cell (raw), columns, rows, fields: [{ slot, goal: [cx, cy], ready }], cells }, cells a
  // Uint32Array with per cell the slot of its cheapest field << 25 (127: none), its
  // direction << 21 (8: none) and its value (see unpackFieldCell).
  navFields(which = -1) {
    const answer = this.fxs.json(this.fxs.x.fxs_web_nav_fields(this.handle, which));
    if (answer.error) throw new Error(`${this.name}: ${answer.error}`);
    const n = answer.fields.length ? answer.columns * answer.rows : 0;
    answer.cells = new Uint32Array(this.fxs.x.memory.buffer, answer.cells, n).slice();
    return answer;
  }

  // The navigation mesh of a mesh world in the shown tick, or null (LiveWorld.mesh).
  mesh() {
    return readMesh(this.fxs, this.fxs.x.fxs_web_mesh(this.handle), this.name);
  }

  // The live agents of the shown tick: Int32Array, AGENT_STRIDE values each.
  agents() {
    const n = this.fxs.x.fxs_web_agents(this.handle);
    const ptr = this.fxs.x.fxs_web_agent_data(this.handle);
    return new Int32Array(this.fxs.x.memory.buffer, ptr, n * AGENT_STRIDE).slice();
  }

  // The same as objects in world units.
  agentList() {
    return agentObjects(this.agents());
  }

  close() {
    if (this.handle) this.fxs.x.fxs_web_close(this.handle);
    this.handle = 0;
  }
}
