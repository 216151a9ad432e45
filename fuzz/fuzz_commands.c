// Input commands from other players, as a lockstep peer receives them: the input is cut into
// FXS_COMMAND_BYTES records, decoded and applied to a small world (agents with behaviors, a
// path, obstacles, walls, free slots) through fxs_world_step. A record whose type is not a
// command ends the tick. Every tick re-simulated from the initial snapshot with the sorted
// commands must give the same hash, every tick's snapshot must restore (as a rollback session
// restores its own saves), and the final state must survive a snapshot round trip and step on
// identically from it. In the worlds with group fields, every tick is also rolled back: the
// snapshot of the tick before it restored into a world that has just restored this tick's
// (so its fields are ahead of that snapshot, and behind this tick's) and stepped with the
// tick's commands must give the tick's hash, as a rollback session's resimulation does.
//
// Grid, mesh or fields: the first byte after the last whole record, when the input has one,
// chooses the world. 1 modulo 4: a mesh world (capacity.nav_kind FXS_NAV_KIND_MESH,
// docs/navigation-mesh.md), whose add/remove wall and obstacle commands re-triangulate its mesh
// and whose two navigate agents route on it from the first tick. 3 modulo 4: that mesh world
// with 2 group fields and four navigate agents sent to one point, so from the first tick they
// share a tree over the triangles, built a few triangles a tick, that every map change drops
// and the next tick takes again (snapshot layout 9; layout 10 once a move command sends the
// four as a group). 2 modulo 4: a grid world with group fields
// (capacity.nav_fields, docs/navigation.md "Shared fields") whose four navigate agents were
// moved as one group before the session, so every snapshot holds their move cells (layout 8)
// until the commands forget them (a new target, a despawn, a grid set or removed, a smaller
// move). Otherwise (0 modulo 4, or no such byte, as in every extracted seed) the grid world, set
// up as before.
//
// Handles: a record whose agent field (or a set_target_agent / set_second_target ref) has the top
// bit set names a slot instead, low byte modulo the capacity, and gets that slot's live handle (0
// when the slot is free), so commands reach existing agents whatever their generation.
#include "fuzz_common.h"

#define MAX_TICKS 32u
// Most commands one fuzzed tick carries (a tick ends early when it is full).
#define TICK_COMMANDS 512u
#define MAX_RECORDS 2048u
#define SLOT_FLAG 0x80000000u

// With navigation: a grid of up to 64 cells, 2 searches of 32 open entries, routes of 8.
static const fxs_world_capacity grid_capacity = {8, 4, 2, 12, 4, 0, 24, 64, 2, 32, 8, 0, 0, 0};
// On a mesh of 40 vertices (the default for 4 walls and 4 obstacles would be 84): the set-up's
// walls and obstacles take 24, so two more obstacles, or walls crossing, run it out and the
// world takes the item back and rebuilds its mesh. 2 searches of 64 open entries (of up to 74
// triangles), routes of 8.
static const fxs_world_capacity mesh_capacity = {
    8, 4, 2, 12, 4, 0, 24, 0, 2, 64, 8, 0, FXS_NAV_KIND_MESH, 40};

// The grid world's capacities with 2 group fields and 10 agents: the set-up's 4, 4 navigate
// agents in slots 4-7, slots 8 and 9 free.
static const fxs_world_capacity fields_capacity = {10, 4, 2, 12, 4, 0, 24, 64, 2, 32, 8, 2, 0, 0};

// The mesh world's capacities with 2 group fields and 10 agents (as the grid's above).
static const fxs_world_capacity mesh_fields_capacity = {
    10, 4, 2, 12, 4, 0, 24, 0, 2, 64, 8, 2, FXS_NAV_KIND_MESH, 40};

enum { WORLD_GRID, WORLD_MESH, WORLD_FIELDS, WORLD_MESH_FIELDS, WORLD_KINDS };

static fxs_result apply(fxs_world *w, fxs_command c) { return fxs_world_apply(w, &c, 0); }

static fxs_command command(fxs_command_type type, uint32_t agent) {
  fxs_command c = fxs_command_make(type, 9, 0);
  c.agent = agent;
  return c;
}

static void spawn(fxs_world *w, fix16_t x, fix16_t y, fix16_t vx, fix16_t max_speed) {
  fxs_command c = command(FXS_CMD_SPAWN, 0);
  c.arg[0] = x, c.arg[1] = y, c.arg[2] = vx, c.arg[3] = -vx;
  c.arg[4] = max_speed, c.arg[5] = FXS_RATIO(1, 4), c.arg[6] = FXS_ONE, c.arg[7] = FXS_INT(8);
  FUZZ_CHECK(apply(w, c) == FXS_OK, "set-up spawn failed");
}

static void behavior(fxs_world *w, uint32_t agent, fxs_behavior kind, uint8_t priority) {
  fxs_behavior_slot b = fxs_behavior_slot_default(kind);
  fxs_command c = command(FXS_CMD_ADD_BEHAVIOR, agent);
  c.ref = (uint32_t)kind | ((uint32_t)priority << 8);
  c.arg[0] = b.weight;
  for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) c.arg[1 + i] = b.p[i];
  FUZZ_CHECK(apply(w, c) == FXS_OK, "set-up behavior %d failed", (int)kind);
}

static void set_ref(fxs_world *w, fxs_command_type type, uint32_t agent, uint32_t ref) {
  fxs_command c = command(type, agent);
  c.ref = ref;
  FUZZ_CHECK(apply(w, c) == FXS_OK, "set-up command %s failed", fxs_command_name((uint8_t)type));
}

static void obstacle(fxs_world *w, int x, int y, int radius) {
  fxs_command c = command(FXS_CMD_ADD_OBSTACLE, 0);
  c.arg[0] = FXS_INT(x), c.arg[1] = FXS_INT(y), c.arg[2] = FXS_INT(radius);
  FUZZ_CHECK(apply(w, c) == FXS_OK, "set-up obstacle failed");
}

static void wall(fxs_world *w, int ax, int ay, int bx, int by) {
  fxs_command c = command(FXS_CMD_ADD_WALL, 0);
  c.arg[0] = FXS_INT(ax), c.arg[1] = FXS_INT(ay), c.arg[2] = FXS_INT(bx), c.arg[3] = FXS_INT(by);
  FUZZ_CHECK(apply(w, c) == FXS_OK, "set-up wall failed");
}

// Four agents in slots 0-3 (handles 1-4), slots 4-7 free; two of four obstacles and walls; a
// 6 x 4 flow field (of 24 cells) that agent 3 follows, so the field commands reach the step.
static void set_up(fxs_world *w) {
  static const fxs_vec2 patrol[4] = {{FXS_INT(100), FXS_INT(100)},
                                     {FXS_INT(900), FXS_INT(100)},
                                     {FXS_INT(900), FXS_INT(700)},
                                     {FXS_INT(100), FXS_INT(700)}};
  static const fxs_vec2 loop[3] = {
      {FXS_INT(400), FXS_INT(400)}, {FXS_INT(600), FXS_INT(300)}, {FXS_INT(500), FXS_INT(600)}};
  uint16_t index;
  FUZZ_CHECK(fxs_world_add_path(w, patrol, 4, FXS_PATH_PATROL, FXS_INT(20), &index) == FXS_OK,
             "path");
  FUZZ_CHECK(fxs_world_add_path(w, loop, 3, FXS_PATH_LOOP, FXS_INT(10), &index) == FXS_OK, "path");
  spawn(w, FXS_INT(100), FXS_INT(100), FXS_INT(1), FXS_INT(3));
  spawn(w, FXS_INT(500), FXS_INT(500), FXS_RATIO(1, 2), FXS_INT(4));
  spawn(w, FXS_INT(520), FXS_INT(480), 0, FXS_RATIO(5, 2));
  spawn(w, FXS_INT(300), FXS_INT(650), FXS_INT(-1), FXS_INT(2));
  set_ref(w, FXS_CMD_CLEAR_BEHAVIORS, 1, FXS_COMBINE_PRIORITIZED_SUM);
  behavior(w, 1, FXS_BEHAVIOR_AVOID, 0);
  behavior(w, 1, FXS_BEHAVIOR_PATH, 1);
  set_ref(w, FXS_CMD_SET_PATH, 1, 0);
  set_ref(w, FXS_CMD_SET_TARGET_AGENT, 2, 1);
  behavior(w, 2, FXS_BEHAVIOR_PURSUIT, 0);
  behavior(w, 2, FXS_BEHAVIOR_SEPARATION, 0);
  behavior(w, 2, FXS_BEHAVIOR_FACE, 0);
  behavior(w, 3, FXS_BEHAVIOR_WANDER, 0);
  behavior(w, 3, FXS_BEHAVIOR_WALKER, 0);
  set_ref(w, FXS_CMD_SET_TARGET_AGENT, 4, 1);
  set_ref(w, FXS_CMD_CLEAR_BEHAVIORS, 4, FXS_COMBINE_PRIORITY_GROUPS);
  behavior(w, 4, FXS_BEHAVIOR_LEADER, 0);
  behavior(w, 4, FXS_BEHAVIOR_QUEUE, 1);
  behavior(w, 4, FXS_BEHAVIOR_COHESION, 1);
  obstacle(w, 300, 300, 40);
  obstacle(w, 700, 500, 60);
  wall(w, 200, 800, 800, 800);
  wall(w, 950, 50, 950, 750);
  fxs_command c = fxs_command_set_field_grid(fxs_vec2_make(FXS_INT(-100), 0), FXS_INT(200), 6, 4);
  FUZZ_CHECK(apply(w, c) == FXS_OK, "set-up field grid failed");
  c = fxs_command_fill_field_vortex(fxs_vec2_make(FXS_INT(500), FXS_INT(400)), FXS_ONE,
                                    FXS_RATIO(1, 8));
  FUZZ_CHECK(apply(w, c) == FXS_OK, "set-up field fill failed");
  behavior(w, 3, FXS_BEHAVIOR_FLOW_FIELD, 0);
}

// The mesh world's routing: set_nav_grid turns it on (radius 8, 4 steps a tick, so searches
// last several ticks and the snapshots restored every tick hold them half done; the grid
// fields are checked, not used), and two more agents in slots 4 and 5 (handles 5 and 6; slots
// 6 and 7 free) navigate to targets behind the set-up's walls and obstacles.
static void set_up_mesh(fxs_world *w) {
  fxs_command c = fxs_command_set_nav_grid(fxs_vec2_zero(), FXS_INT(32), 32, 32, FXS_INT(8), 4);
  FUZZ_CHECK(apply(w, c) == FXS_OK, "set-up mesh routing failed");
  static const int at[2][4] = {{500, 900, 500, 600}, {980, 400, 100, 200}};
  for (uint32_t i = 0; i < 2; ++i) {
    spawn(w, FXS_INT(at[i][0]), FXS_INT(at[i][1]), 0, FXS_INT(3));
    uint32_t agent = 5 + i;
    behavior(w, agent, FXS_BEHAVIOR_NAVIGATE, 0);
    c = command(FXS_CMD_SET_TARGET_POINT, agent);
    c.arg[0] = FXS_INT(at[i][2]), c.arg[1] = FXS_INT(at[i][3]);
    FUZZ_CHECK(apply(w, c) == FXS_OK, "set-up navigate target failed");
  }
}

// The mesh world's group: routing as set_up_mesh's (4 triangles a tick: the tree takes many
// ticks), four navigate agents in slots 4-7 (handles 5-8) south-west of the first obstacle, all
// sent to one point east of it (a tree toward a point; a move of the four, as the command seeds
// cut from tools/fuzz.sh's mesh_moves.yaml make at their second tick, shares one toward its
// destination by simulation version 8's rules, and the snapshots hold each member's
// destination: layout 10).
static void set_up_mesh_fields(fxs_world *w) {
  fxs_command c = fxs_command_set_nav_grid(fxs_vec2_zero(), FXS_INT(32), 32, 32, FXS_INT(8), 4);
  FUZZ_CHECK(apply(w, c) == FXS_OK, "set-up mesh routing failed");
  for (uint32_t i = 0; i < 4; ++i) {
    spawn(w, FXS_INT(100 + 40 * (int)(i % 2)), FXS_INT(160 + 40 * (int)(i / 2)), 0, FXS_INT(3));
    uint32_t agent = 5 + i;
    behavior(w, agent, FXS_BEHAVIOR_NAVIGATE, 0);
    c = command(FXS_CMD_SET_TARGET_POINT, agent);
    c.arg[0] = FXS_INT(800), c.arg[1] = FXS_INT(250);
    FUZZ_CHECK(apply(w, c) == FXS_OK, "set-up navigate target failed");
  }
}

// The fields world's moving group: an 8 x 8 grid of 128-unit cells over the bounds (radius
// 8, 16 cells of field a tick, so the group's field takes several ticks and the snapshots hold
// it half built), four navigate agents in slots 4-7 (handles 5-8) south-west of the first
// obstacle, and one tick stepped with a move of all four (one group) to a point east of it, so
// they share one field toward its cell.
static void set_up_fields(fxs_world *w) {
  fxs_command c = fxs_command_set_nav_grid(fxs_vec2_zero(), FXS_INT(128), 8, 8, FXS_INT(8), 16);
  FUZZ_CHECK(apply(w, c) == FXS_OK, "set-up navigation grid failed");
  fxs_command moves[4];
  for (uint32_t i = 0; i < 4; ++i) {
    spawn(w, FXS_INT(100 + 40 * (int)(i % 2)), FXS_INT(160 + 40 * (int)(i / 2)), 0, FXS_INT(3));
    uint32_t agent = 5 + i;
    behavior(w, agent, FXS_BEHAVIOR_NAVIGATE, 0);
    moves[i] = fxs_command_move((fxs_agent_handle){agent}, 1,
                                fxs_vec2_make(FXS_INT(800), FXS_INT(250)), FXS_INT(8));
    moves[i].sequence = i;
  }
  fxs_result results[4];
  FUZZ_CHECK(fxs_world_step(w, moves, 4, results) == FXS_OK, "set-up move failed");
}

// A handle field with SLOT_FLAG becomes the handle of the slot its low byte names.
static uint32_t resolve(const fxs_world *w, uint32_t value) {
  if (!(value & SLOT_FLAG)) return value;
  return fxs_world_handle_at(w, (uint16_t)((value & 0xFFu) % w->capacity.agents)).value;
}

// The session as a replay would hold it: each tick's commands in the order the step sorted
// them, and the hash after it.
typedef struct session_log {
  fxs_command commands[MAX_TICKS + 1][TICK_COMMANDS];
  uint32_t count[MAX_TICKS + 1];
  uint64_t hash[MAX_TICKS + 1];
  uint32_t ticks;
} session_log;

static session_log session;

// A world of the same capacity that every tick's snapshot is restored into, as a rollback
// session restores its own saves: any state a step leaves must be one the reader accepts.
// One for each world (grid, mesh, fields, mesh with fields).
static fuzz_world spares[WORLD_KINDS];
static fuzz_world *spare;
// The worlds with group fields: the snapshot before the tick, rolled back to after each tick
// (a restore keeps, builds on or rebuilds each field).
static bool roll_back;
static uint8_t *before;
static size_t before_size;

static void check_tick_restores(const fxs_world *w, uint32_t tick) {
  size_t size, at = 0;
  uint8_t *snap = fuzz_world_save(w, &size);
  fxs_result r = fxs_world_restore(&spare->world, snap, size, &at);
  FUZZ_CHECK(r == FXS_OK, "tick %u: the world's snapshot does not restore: %s at byte %zu of %zu",
             tick, fxs_result_message(r), at, size);
  FUZZ_CHECK(fxs_world_hash(&spare->world) == fxs_world_hash(w), "tick %u: restored, another hash",
             tick);
  if (!roll_back) {
    free(snap);
    return;
  }
  if (before) { // the spare, at this tick, rolled back one and stepped again
    r = fxs_world_restore(&spare->world, before, before_size, &at);
    FUZZ_CHECK(r == FXS_OK, "tick %u: the snapshot before it does not restore again: %s", tick,
               fxs_result_message(r));
    fxs_world_step(&spare->world, session.commands[tick], session.count[tick], 0);
    FUZZ_CHECK(fxs_world_hash(&spare->world) == session.hash[tick],
               "tick %u: rolled back one tick and stepped again, another hash", tick);
  }
  free(before);
  before = snap, before_size = size;
}

// Steps one tick with its commands, logs it and restores its snapshot.
static void step(fxs_world *w, fxs_command *commands, uint32_t count) {
  fxs_result results[TICK_COMMANDS];
  fxs_result r = fxs_world_step(w, commands, count, results);
  fxs_result first = FXS_OK;
  for (uint32_t i = 0; i < count && first == FXS_OK; ++i) first = results[i];
  FUZZ_CHECK(r == first, "step returned %s, its first rejection was %s", fxs_result_message(r),
             fxs_result_message(first));
  for (uint32_t i = 1; i < count; ++i) {
    FUZZ_CHECK(fxs_command_compare(&commands[i - 1], &commands[i]) <= 0,
               "step left commands unsorted");
  }
  uint32_t t = session.ticks++;
  memcpy(session.commands[t], commands, count * sizeof *commands);
  session.count[t] = count;
  session.hash[t] = fxs_world_hash(w);
  check_tick_restores(w, t);
}

// Re-simulates the log from the initial snapshot, as fxs_replay_verify would (without the
// replay file, whose writer and verifier the replay and scenario targets cover), then
// checks that a snapshot of the final state steps on identically.
static void check_replay(fxs_world *w, const uint8_t *initial, size_t initial_size) {
  fuzz_world copy;
  FUZZ_CHECK(fuzz_world_make(&copy, &w->def, &w->capacity), "second world");
  fxs_world *c = &copy.world;
  size_t at = 0;
  fxs_result r = fxs_world_restore(c, initial, initial_size, &at);
  FUZZ_CHECK(r == FXS_OK, "the initial snapshot does not restore: %s at %zu", fxs_result_message(r),
             at);
  for (uint32_t t = 0; t < session.ticks; ++t) {
    fxs_world_step(c, session.commands[t], session.count[t], 0);
    FUZZ_CHECK(fxs_world_hash(c) == session.hash[t], "tick %u re-simulates to another hash", t);
  }
  size_t size;
  uint8_t *snap = fuzz_world_save(w, &size);
  r = fxs_world_restore(c, snap, size, &at);
  FUZZ_CHECK(r == FXS_OK, "the world's own snapshot does not restore: %s at %zu",
             fxs_result_message(r), at);
  free(snap);
  for (int t = 0; t < 2; ++t) {
    fxs_world_step(w, 0, 0, 0);
    fxs_world_step(c, 0, 0, 0);
    FUZZ_CHECK(fxs_world_hash(w) == fxs_world_hash(c), "a restored copy diverges");
  }
  fuzz_world_free(&copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fxs_world_def def = fxs_default_world_def();
  def.seed = 0x5EED;
  def.bounds_max = fxs_vec2_make(FXS_INT(1024), FXS_INT(1024));
  size_t records = size / FXS_COMMAND_BYTES;
  uint8_t choice = records * FXS_COMMAND_BYTES < size ? data[records * FXS_COMMAND_BYTES] : 0;
  static const int kinds[4] = {WORLD_GRID, WORLD_MESH, WORLD_FIELDS, WORLD_MESH_FIELDS};
  static const fxs_world_capacity *const capacities[WORLD_KINDS] = {
      &grid_capacity, &mesh_capacity, &fields_capacity, &mesh_fields_capacity};
  int kind = kinds[choice & 3u];
  const fxs_world_capacity *capacity = capacities[kind];
  fuzz_world fw;
  FUZZ_CHECK(fuzz_world_make(&fw, &def, capacity), "world");
  fxs_world *w = &fw.world;
  spare = &spares[kind];
  if (!spare->memory) FUZZ_CHECK(fuzz_world_make(spare, &def, capacity), "spare world");
  set_up(w);
  if (kind == WORLD_MESH) set_up_mesh(w);
  if (kind == WORLD_FIELDS) set_up_fields(w);
  if (kind == WORLD_MESH_FIELDS) set_up_mesh_fields(w);
  roll_back = kind == WORLD_FIELDS || kind == WORLD_MESH_FIELDS;
  size_t initial_size;
  uint8_t *initial = fuzz_world_save(w, &initial_size);
  before = roll_back ? fuzz_world_save(w, &before_size) : 0; // tick 0 rolls back to the set-up
  uint32_t layout = (uint32_t)initial[4] | (uint32_t)initial[5] << 8; // after the u32 magic
  FUZZ_CHECK(kind != WORLD_FIELDS || layout == FXS_SNAPSHOT_VERSION_NAV_MOVES,
             "the set-up's move of four navigate agents left no moves (snapshot layout %u)",
             layout);
  FUZZ_CHECK(kind != WORLD_MESH_FIELDS || layout == FXS_SNAPSHOT_VERSION_NAV_MESH_FIELDS,
             "the mesh world with fields saves snapshot layout %u", layout);
  static fxs_command commands[TICK_COMMANDS];
  uint32_t count = 0;
  session.ticks = 0;
  for (size_t i = 0; i < records && i < MAX_RECORDS && session.ticks < MAX_TICKS; ++i) {
    const uint8_t *in = data + i * FXS_COMMAND_BYTES;
    fxs_command c;
    uint8_t again[FXS_COMMAND_BYTES];
    fxs_result r = fxs_command_decode(in, &c);
    fxs_command_encode(&c, again);
    FUZZ_CHECK(memcmp(in, again, FXS_COMMAND_BYTES) == 0, "record %zu does not re-encode", i);
    if (r != FXS_OK || count == TICK_COMMANDS) {
      step(w, commands, count);
      count = 0;
      if (r != FXS_OK) continue;
    }
    c.agent = resolve(w, c.agent);
    if (c.type == FXS_CMD_SET_TARGET_AGENT || c.type == FXS_CMD_SET_SECOND_TARGET)
      c.ref = resolve(w, c.ref);
    commands[count++] = c;
  }
  step(w, commands, count);
  free(before);
  before = 0;
  check_replay(w, initial, initial_size);
  free(initial);
  fuzz_world_free(&fw);
  return 0;
}
