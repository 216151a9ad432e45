// The typed reference of the JavaScript API, web/js/fxs.mjs (the fixsteer library compiled to
// WebAssembly, in a browser or Node 20). Every export, class, method and getter of fxs.mjs is
// declared here with its doc comment; the web test (web/test/api-checks.mjs) fails when one
// is missing, has no comment, or is declared here but no longer exists. docs/js-api.md shows
// this file. Numbers: "units" are world units, radians and ticks as JS numbers (rounded to
// Q16.16 on the way in); "raw" values are Q16.16 integers (65536 = 1.0).

/** A command as the builders make it and LiveWorld.step takes it (command.h, fxs_command). */
export interface Command {
  /** The command type's name (`'move'`) or number. */
  type: string | number;
  /** The agent handle it acts on (0: none). */
  agent: number;
  /** The second reference: a group tag, an index, a mode (per type). */
  ref: number;
  /** Eight raw Q16.16 arguments. */
  args: number[];
  /** Who issues it (0..255); LiveWorld.step gives PAGE_SOURCE when absent. */
  source?: number;
  /** Issue order within its source and tick; LiveWorld.step numbers them when absent. */
  sequence?: number;
}

/** The result of one command of a step: the library's code (0 = ok) and its message. */
export interface CommandResult {
  result: number;
  message: string;
}

/** One row of the behavior parameter table (behavior_params.h), values raw. */
export interface ParamRow {
  name: string;
  unit: string;
  min: number;
  max: number;
  default: number;
  meaning: string;
}

/** One behavior of the parameter table. */
export interface BehaviorEntry {
  kind: number;
  name: string;
  kinematic: boolean;
  params: ParamRow[];
}

/** An agent of agentList() in world units. */
export interface AgentObject {
  slot: number;
  handle: number;
  x: number;
  y: number;
  vx: number;
  vy: number;
  orientation: number;
  radius: number;
  firstBehavior: number | null;
  behaviorCount: number;
  targetSlot: number | null;
  owner: number | null;
  set: number;
  maxSpeed: number;
  maxForce: number;
  mass: number;
}

/** One agent slot in full (LiveWorld.agent), values raw. */
export interface AgentDetail {
  slot: number;
  handle: number;
  /** The owning source, -1 when shared. */
  owner: number;
  combine_mode: number;
  target_point: [number, number];
  target_agent: number;
  second_target: number;
  path: number;
  limits: Record<string, number>;
  behaviors: { kind: number; name: string; priority: number; weight: number; params: number[] }[];
}

/** One tick drawn: obstacles [x, y, r, index], walls [ax, ay, bx, by, index], raw; mesh: a mesh world's counts (mesh() gives its arrays), else null. */
export interface Frame {
  tick: number;
  hash: string;
  bounds: number[];
  obstacles: number[][];
  walls: number[][];
  paths: number[][];
  mesh?: { vertices: number; triangles: number; version: number } | null;
  [field: string]: unknown;
}

/**
 * A mesh world's navigation mesh (mesh()): vertices as raw x, y pairs; per triangle
 * MESH_TRIANGLE_STRIDE values: its three vertex indices counter-clockwise, then flags (bit i:
 * side i, opposite vertex i, is constrained: a wall, an obstacle's side or the bounds; bit
 * 3 + i: a triangle lies across side i). digest and canonicalDigest are nav_mesh.h's.
 */
export interface NavMesh {
  vertices: Int32Array;
  triangles: Uint32Array;
  vertexCapacity: number;
  triangleCapacity: number;
  version: number;
  digest: string;
  canonicalDigest: string;
}

/** A replay file made in the page: its bytes, ticks and final state hash. */
export interface Recording {
  bytes: Uint8Array;
  ticks: number;
  finalHash: string;
}

/** The options of loadScene and loadSceneFile. */
export interface SceneOptions {
  /** Slots added to the scene's capacities, at most 4096 each (default 0). */
  room?: { agents?: number; obstacles?: number; walls?: number };
  /** The recording's keyframe interval in ticks (default 50). */
  keyframe?: number;
}

/** Int32 values per agent in agents(). */
export const AGENT_STRIDE: 16;
/** The names of the AGENT_STRIDE values of one agent, in order. */
export const AGENT_FIELDS: string[];
/** Q16.16's 1.0: 65536. */
export const ONE: 65536;
/** The source of the page's commands unless a command names its own: 8. */
export const PAGE_SOURCE: 8;
/** How a manager combines behaviors (manager.h): weighted_sum 0, prioritized_sum 1, priority_groups 2. */
export const COMBINE: { weighted_sum: 0; prioritized_sum: 1; priority_groups: 2 };
/** How the integrator turns an agent (agent.h): fixed 0, look_where_going 1, steered 2. */
export const ORIENTATION: { fixed: 0; look_where_going: 1; steered: 2 };
/** The slot value of a navFields cell no field reaches. */
export const FIELD_NONE: 127;
/** The step in cells of each of a field cell's 8 directions. */
export const FIELD_STEPS: [number, number][];

/** World units to raw Q16.16, rounded to nearest, saturated; a RangeError for NaN or infinity. */
export function toFix(units: number): number;
/** Raw Q16.16 to world units. */
export function fromFix(raw: number): number;
/** Loads and starts the module: a URL (browser), a file path or file: URL (Node), or its bytes. */
export function loadFixsteer(source: string | URL | ArrayBuffer | Uint8Array): Promise<Fixsteer>;
/** Reads an agents() table as objects in world units. */
export function agentObjects(table: Int32Array): AgentObject[];
/** Values per triangle in NavMesh.triangles: 4. */
export const MESH_TRIANGLE_STRIDE: 4;
/** The sides of a NavMesh, each once: [a, b, constrained] (vertex indices; 1 for a constrained side). */
export function meshEdges(mesh: NavMesh): [number, number, number][];
/** Unpacks one navFields() cell: its field's slot (-1: none), direction (8: none) and cost. */
export function unpackFieldCell(cell: number): { slot: number; direction: number; value: number };

/**
 * Builds commands (command_build.h) from world units, radians and ticks; `agent` is an agent
 * handle (agentList()[i].handle). Raw Q16.16 goes in only through makeRaw, setLimitsRaw and
 * addBehavior's rawParams. A value a builder cannot encode throws a RangeError naming it.
 */
export class CommandBuilder {
  /** A builder over the behavior parameter table (fxs.params()); fxs.command is one. */
  constructor(params: BehaviorEntry[]);
  /** Any command type by name, up to 8 args in world units; agent and ref whole numbers (int32 or uint32), else a RangeError. */
  make(type: string, fields?: { agent?: number; ref?: number; args?: number[] }): Command;
  /** The same with args raw: int32 values passed as given, anything else a RangeError. */
  makeRaw(type: string, fields?: { agent?: number; ref?: number; args?: number[] }): Command;
  /** A new agent at (x, y); owned: owned by the command's source. Defaults as fxs_default_spawn_def(). */
  spawn(def?: { x?: number; y?: number; vx?: number; vy?: number; maxSpeed?: number; maxForce?: number; mass?: number; radius?: number; owned?: boolean }): Command;
  /** Removes the agent. */
  despawn(agent: number): Command;
  /** The agent's target point (units). */
  setTargetPoint(agent: number, x: number, y: number): Command;
  /** The agent's target agent (a handle; 0 clears it). */
  setTargetAgent(agent: number, target: number): Command;
  /** The agent's second target agent (interpose, hide). */
  setSecondTarget(agent: number, target: number): Command;
  /** The path (world path index) the agent follows. */
  setPath(agent: number, path: number): Command;
  /** A one-tick force on the agent (force units). */
  applyForce(agent: number, fx: number, fy: number): Command;
  /** Gives the agent to a source (0xFFFF: shared). */
  setOwner(agent: number, owner: number): Command;
  /** A round obstacle of radius r at (x, y). */
  addObstacle(x: number, y: number, radius: number): Command;
  /** Removes obstacle `index`. */
  removeObstacle(index: number): Command;
  /** A wall from (ax, ay) to (bx, by). */
  addWall(ax: number, ay: number, bx: number, by: number): Command;
  /** Removes wall `index`. */
  removeWall(index: number): Command;
  /** The RTS click for one agent: the tick's moves with one source, group tag, point and gap (0..1024 units) form a group, each member its own spot round (x, y). */
  move(agent: number, group: number, x: number, y: number, gap: number): Command;
  /** One move per agent, all in one group. */
  moveGroup(agents: number[], group: number, x: number, y: number, gap: number): Command[];
  /** The navigation grid: columns x rows cells of cellSize units; cells within radius of a wall or obstacle blocked; budget cells expanded a tick. */
  setNavGrid(grid: { originX?: number; originY?: number; cellSize: number; columns: number; rows: number; radius: number; budget: number }): Command;
  /** Removes the navigation grid. */
  removeNavGrid(): Command;
  /** The base cost of a block of cells: 0 blocked, 1..254 the weight (whole numbers). */
  setNavCosts(column: number, row: number, columns: number, rows: number, cost: number): Command;
  /** The navigate behavior (A* on the grid to the target, ORCA among neighbours); params by the table's names, in units. */
  addNavigate(agent: number, options?: { slowingRadius?: number; weight?: number; priority?: number; params?: Record<string, number> }): Command;
  /** The flow field's grid. */
  setFieldGrid(grid: { originX?: number; originY?: number; cellSize: number; columns: number; rows: number }): Command;
  /** Removes the flow field. */
  removeField(): Command;
  /** One flow (flowX, flowY) for a block of field cells. */
  setFieldCells(column: number, row: number, columns: number, rows: number, flowX: number, flowY: number): Command;
  /** Fills the field with one direction. */
  fillFieldUniform(dx: number, dy: number): Command;
  /** Fills the field toward a point. */
  fillFieldToward(x: number, y: number): Command;
  /** Fills the field with a vortex round a point: swirl and inward weights. */
  fillFieldVortex(x: number, y: number, swirl: number, inward: number): Command;
  /** Fills the field with the way to a goal round walls and obstacles. */
  fillFieldGoal(x: number, y: number): Command;
  /** Empties the agent's behavior set and sets how it combines: a COMBINE name or number. */
  clearBehaviors(agent: number, mode?: keyof typeof COMBINE | number): Command;
  /** Adds a behavior by name or kind; params in the table's units (the others at their defaults), or rawParams: 6 raw values. */
  addBehavior(agent: number, behavior: { kind: string | number; weight?: number; priority?: number; params?: Record<string, number>; rawParams?: number[] | null; raw?: number[] | null }): Command;
  /** The agent's limits in units, each left out at fxs_default_agent()'s value; orientation an ORIENTATION name or number. */
  setLimits(agent: number, limits?: { max_speed?: number; max_force?: number; mass?: number; radius?: number; max_rotation?: number; max_angular_acceleration?: number; max_turn_rate?: number; orientation?: keyof typeof ORIENTATION | number }): Command;
  /** The limits as agent(slot).limits holds them (raw), with fields of `change` replaced by units. */
  setLimitsRaw(agent: number, limits: Record<string, number>, change?: Record<string, number>): Command;
}

/** The loaded module: scenes, replays, the tables. */
export class Fixsteer {
  /** Wraps an instantiated module's exports (loadFixsteer makes it). */
  constructor(exports: WebAssembly.Exports, moduleBytes: number);
  /** The module's size in bytes. */
  moduleBytes: number;
  /** The command builders. */
  command: CommandBuilder;
  /** The command table: { types: [{ type, name }], results: [message], bytes, args }. */
  commandTable: { types: { type: number; name: string }[]; results: string[]; bytes: number; args: number };
  /** The behavior parameter table (behavior_params.h). */
  params(): BehaviorEntry[];
  /** The message of an fxs_result code. */
  resultMessage(result: number): string;
  /** Encodes commands as the module reads them (FXS_COMMAND_BYTES each, little-endian). */
  encode(commands: Command[]): Uint8Array;
  /** A live world running a built-in scene (scenarios() names them); throws with the module's reason. */
  loadScene(name: string, options?: SceneOptions): LiveWorld;
  /** The same from a scene file's YAML (text or bytes); errors read NAME:LINE: problem. */
  loadSceneFile(yaml: string | Uint8Array, name?: string, options?: SceneOptions): LiveWorld;
  /** Internal: opens a live world from a name and optional file bytes. */
  openLive(name: string, bytes: Uint8Array | null, room: SceneOptions['room'], keyframe: number): LiveWorld;
  /** Internal: the NUL-terminated string at a module address. */
  text(ptr: number): string;
  /** Internal: the JSON text at a module address, parsed. */
  json(ptr: number): any;
  /** Internal: copies bytes into new module memory and returns the address. */
  copyIn(bytes: Uint8Array): number;
  /** The library's version, replay and snapshot formats and math fingerprint. */
  version(): { version: string; replay_format: number; snapshot_format: number; fingerprint: string };
  /** The built-in scenes. */
  scenarios(): { name: string; ticks: number; agents: number; summary: string }[];
  /** A behavior kind's name. */
  behaviorName(kind: number): string;
  /** Opens a replay file; throws with the library's reason (byte offset, what). */
  open(bytes: Uint8Array, name?: string): Replay;
  /** Records a built-in scene in the page; tamperTick >= 0 records a faulty peer's copy. */
  record(name: string, options?: { ticks?: number; keyframe?: number; tamperTick?: number; tamperAgent?: number }): Recording & { scenario: string };
  /** Two recordings of one session: identical, or the first tick, agent and field that differ. */
  diff(a: Replay, b: Replay): Record<string, unknown>;
}

/** A world the page steps, recorded tick by tick with the library's replay writer. */
export class LiveWorld {
  /** Wraps a live world handle (loadScene makes it). */
  constructor(fxs: Fixsteer, handle: number);
  /** The scene's name, summary and capacities. */
  info: { name: string; summary: string; [field: string]: unknown };
  /** The current tick. */
  get tick(): number;
  /** One tick: the scene's own commands (unless logic is false), then these at its start in canonical order. */
  step(commands?: Command[], options?: { logic?: boolean }): { tick: number; hash: string; results: CommandResult[] };
  /** Back to the state after `tick`: later ticks are forgotten, in the world and the recording. */
  rewind(tick: number): number;
  /** The state hash: '0x' and 16 hex digits, as fixsteer verify prints it. */
  hash(): string;
  /** The current tick drawn. */
  frame(): Frame;
  /** The navigation mesh as it stands now (a mesh world), or null (a grid world). */
  mesh(): NavMesh | null;
  /** The live agents, AGENT_STRIDE raw values each, in slot order. */
  agents(): Int32Array;
  /** The same as objects in world units. */
  agentList(): AgentObject[];
  /** One agent slot in full; throws when no agent lives there. */
  agent(slot: number): AgentDetail;
  /** The recording so far as a replay file that fixsteer verify accepts. */
  replay(): Recording;
  /** Frees the world; later calls throw. */
  close(): void;
}

/** A replay file opened in the page (the viewer's). */
export class Replay {
  /** Wraps a replay handle (fxs.open makes it). */
  constructor(fxs: Fixsteer, handle: number, name: string, size: number);
  /** The header: bytes, version, fingerprint, keyframe interval, ticks, scene. */
  info: Record<string, unknown>;
  /** Re-simulates the whole replay: verified and the final hash, or where it diverged. */
  verify(): { verified: boolean; diverged: boolean; result: number; message: string; [field: string]: unknown };
  /** Shows the state after `tick`; returns the tick shown. */
  seek(tick: number): number;
  /** The shown tick, with its hash and the recorded hash. */
  frame(): Frame & { matches?: boolean };
  /** The integration fields of navigate groups in the shown tick (which < 0: all). */
  navFields(which?: number): { origin: number[]; cell: number; columns: number; rows: number; fields: { slot: number; goal: [number, number]; ready: boolean }[]; cells: Uint32Array };
  /** The navigation mesh in the shown tick (a mesh world), or null (a grid world). */
  mesh(): NavMesh | null;
  /** The live agents of the shown tick, AGENT_STRIDE raw values each. */
  agents(): Int32Array;
  /** The same as objects in world units. */
  agentList(): AgentObject[];
  /** Frees the replay. */
  close(): void;
}
