// A small RTS match: two teams of 8 navigate agents face each other across a wall with a gap
// at each end. The navigation grid comes from the walls (cells within a body's radius of a
// wall or an obstacle are blocked); each click is one `move` per selected unit, all with one
// group tag, so each unit gets its own spot round the clicked point; at tick 150 a building
// (a round obstacle) goes up in the south gap and the routes follow it. The match is recorded,
// the replay verified by re-simulating it, and each unit's arrival printed.
// examples/rts/rts.yaml is the same scene as a scene file: `fixsteer record` gives it the same
// final hash, and the same replay byte for byte (docs/rts.md walks through both).
//
//   cc -std=c99 rts.c $(pkg-config --cflags --libs fixsteer) -o rts && ./rts [OUT.fxr]
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fixsteer/fixsteer.h"

enum { TEAM = 8, UNITS = 2 * TEAM, TICKS = 900, MAX_COMMANDS = 64 };

// The sources of a scene file's commands (docs/rts.md, "How a scene file becomes commands"): its
// spawns, the rest of its set-up, and its events. The agents are shared (spawned unowned),
// so either player's orders may come from any source; this program uses the file's.
enum { SOURCE_SPAWN = 0, SOURCE_SETUP = 1, SOURCE_ORDERS = 2 };

// Every buffer is the caller's; the figures are what this program prints. The world and the
// verifier need 8-byte aligned blocks (uint64_t arrays).
static uint64_t world_memory[44 * 1024];    // fxs_world_memory_size(&capacity): 354,520 bytes
static uint8_t snapshot_scratch[16 * 1024]; // the largest fxs_world_snapshot_size(): 14,674 bytes
static uint8_t replay_bytes[1 << 17];       // the recording: 59,156 bytes for 900 ticks
static uint64_t verify_memory[87 * 1024];   // fxs_replay_verify_memory_size(): 709,744 bytes
static size_t replay_size;

// The replay writer streams its bytes here (a file or a socket would do as well).
static bool append(void *user, const uint8_t *bytes, size_t size) {
  (void)user;
  if (size > sizeof replay_bytes - replay_size) return false; // the writer reports the failure
  memcpy(replay_bytes + replay_size, bytes, size);
  replay_size += size;
  return true;
}

static fxs_vec2 at(int32_t x, int32_t y) { return fxs_vec2_make(FXS_INT(x), FXS_INT(y)); }

// Where unit i stands at the start: red in two rows of 4 on the west, blue on the east.
static fxs_vec2 start_of(int i) {
  int k = i % TEAM;
  return at((i < TEAM ? 60 : 650) + 30 * (k % 4), 270 + 30 * (k / 4));
}

// The map and both armies as they stand when the match starts, applied before recording: the
// replay's initial snapshot holds them. Each unit is a spawn, then (set-up) its limits, its
// behavior set and its target (where it stands); then the wall and the navigation grid.
// Returns the number of commands applied, or -1.
static int set_up(fxs_world *world, fxs_agent_handle units[UNITS]) {
  fxs_command setup[UNITS * 4 + 2];
  int n = 0, count = 0;
  for (int i = 0; i < UNITS; ++i) {
    fxs_spawn_def body = fxs_default_spawn_def();
    body.position = start_of(i);
    body.radius = FXS_INT(8), body.max_speed = FXS_INT(2), body.max_force = FXS_RATIO(1, 2);
    fxs_command spawn = fxs_command_spawn(&body);
    spawn.source = SOURCE_SPAWN, spawn.sequence = (uint16_t)i;
    if (fxs_world_apply(world, &spawn, &units[i]) != FXS_OK) return -1;
    ++count;
  }
  for (int i = 0; i < UNITS; ++i) {
    fxs_agent_limits_def limits = fxs_default_agent_limits_def();
    limits.radius = FXS_INT(8), limits.max_speed = FXS_INT(2), limits.max_force = FXS_RATIO(1, 2);
    limits.max_turn_rate = FXS_RATIO(3, 10);
    limits.orientation = FXS_ORIENT_LOOK_WHERE_GOING;
    fxs_behavior_slot navigate = fxs_behavior_slot_default(FXS_BEHAVIOR_NAVIGATE);
    navigate.p[0] = FXS_INT(30); // slowing_radius; the rest is the parameter table's defaults
    setup[n++] = fxs_command_set_limits(units[i], &limits);
    setup[n++] = fxs_command_clear_behaviors(units[i], FXS_COMBINE_WEIGHTED_SUM);
    setup[n++] = fxs_command_add_behavior(units[i], &navigate);
    setup[n++] = fxs_command_set_target_point(units[i], start_of(i)); // stand still
  }
  setup[n++] = fxs_command_add_wall((fxs_wall){at(400, 100), at(400, 500)});
  // 80 x 60 cells of 10 units over the bounds; walls and obstacles block the cells within 8
  // units (a body's radius) of them; A* expands at most 2,000 cells a tick.
  setup[n++] = fxs_command_set_nav_grid(at(0, 0), FXS_INT(10), 80, 60, FXS_INT(8), 2000);
  for (int i = 0; i < n; ++i) {
    setup[i].source = SOURCE_SETUP, setup[i].sequence = (uint16_t)i;
    if (fxs_world_apply(world, &setup[i], NULL) != FXS_OK) return -1;
  }
  return count + n;
}

// One click: a move command per selected unit, all with the same tag, point and gap.
// `ordered` keeps the tick of each unit's last order.
static uint32_t click(fxs_command *out, const fxs_agent_handle *units, uint32_t tag, fxs_vec2 point,
                      uint32_t tick, uint32_t *ordered) {
  for (int i = 0; i < TEAM; ++i) {
    out[i] = fxs_command_move(units[i], tag, point, FXS_INT(10)); // gap: 10 units between bodies
    ordered[i] = tick;
  }
  return TEAM;
}

int main(int argc, char **argv) {
  fxs_world_def def = fxs_default_world_def();
  def.seed = 55;
  def.bounds_max = at(800, 600);
  def.clamp_to_bounds = 1;
  def.neighbor_radius = FXS_INT(40);
  // Every capacity is part of the state hash: the scene file's twin asks for the same.
  fxs_world_capacity capacity = {.agents = UNITS, .obstacles = 1, .walls = 1};
  capacity.nav_cells = 80 * 60; // the grid's cells
  capacity.nav_searches = 4;    // A* searches at once
  capacity.nav_open = 1200;     // open-list entries of each search
  capacity.nav_waypoints = 32;  // waypoints of one route
  size_t world_size = fxs_world_memory_size(&capacity);
  fxs_world world;
  if (world_size == 0 || world_size > sizeof world_memory ||
      fxs_world_init(&world, &def, &capacity, world_memory, sizeof world_memory) != FXS_OK) {
    return 1;
  }
  fxs_agent_handle units[UNITS];
  int issued = set_up(&world, units); // commands so far: the first group tag (below)
  if (issued < 0) return 1;
  fxs_replay_writer writer;
  if (fxs_replay_writer_begin(&writer, append, NULL, &world, 250, snapshot_scratch,
                              sizeof snapshot_scratch) != FXS_OK) {
    return 1;
  }

  uint32_t arrived[UNITS] = {0}, ordered[UNITS] = {0};
  size_t largest_snapshot = 0;
  for (uint32_t tick = 0; tick < TICKS; ++tick) {
    fxs_command commands[MAX_COMMANDS];
    uint32_t n = 0;
    // Group tags: any number the tick's other groups do not use; these are the ones the
    // scene file gives (the number of commands it made before the event).
    if (tick == 5) { // red clicks north-east of the wall, blue south-west
      n += click(commands + n, units, (uint32_t)issued, at(620, 160), tick, ordered);
      n += click(commands + n, units + TEAM, (uint32_t)issued + TEAM, at(180, 440), tick,
                 ordered + TEAM);
    }
    if (tick == 150) { // a building goes up in the south gap
      commands[n++] = fxs_command_add_obstacle((fxs_obstacle){at(400, 560), FXS_INT(20)});
    }
    if (tick == 450) { // red is called back to the west
      n += click(commands + n, units, (uint32_t)issued + 2 * TEAM + 1, at(200, 300), tick, ordered);
    }
    for (uint32_t i = 0; i < n; ++i)
      commands[i].source = SOURCE_ORDERS, commands[i].sequence = (uint16_t)i;
    if (fxs_world_step(&world, commands, n, NULL) != FXS_OK) return 1;
    if (fxs_replay_writer_tick(&writer, &world, commands, n) != FXS_OK) return 1;
    size_t snapshot = fxs_world_snapshot_size(&world);
    if (snapshot > largest_snapshot) largest_snapshot = snapshot;
    // A unit has arrived when it rests (velocity 0) within a quarter radius of its spot.
    for (int i = 0; i < UNITS; ++i) {
      const fxs_agent *body = fxs_world_agent(&world, units[i]);
      fxs_agent_targets targets;
      if (!body || fxs_world_agent_targets(&world, units[i], &targets) != FXS_OK) return 1;
      bool resting = body->velocity.x == 0 && body->velocity.y == 0;
      bool on_spot = fxs_vec2_distance(body->position, targets.target_point) <= body->radius / 4;
      if (resting && on_spot && arrived[i] <= ordered[i]) arrived[i] = world.tick;
      if (!(resting && on_spot)) arrived[i] = 0;
    }
  }
  if (fxs_replay_writer_end(&writer, &world) != FXS_OK) return 1;

  for (int i = 0; i < UNITS; ++i) {
    fxs_agent_targets targets;
    if (fxs_world_agent_targets(&world, units[i], &targets) != FXS_OK) return 1;
    printf("%s %d: spot (%" PRId32 ", %" PRId32 "), ", i < TEAM ? "red" : "blue", i % TEAM,
           targets.target_point.x / FXS_ONE, targets.target_point.y / FXS_ONE);
    if (arrived[i]) printf("at rest on it since tick %" PRIu32 "\n", arrived[i]);
    else printf("not there\n");
  }

  // Anyone holding the bytes can re-simulate them and compare every tick's hash.
  size_t verify_size = fxs_replay_verify_memory_size(replay_bytes, replay_size, NULL);
  if (verify_size == 0 || verify_size > sizeof verify_memory) return 1;
  fxs_verify_report report;
  fxs_result r = fxs_replay_verify(replay_bytes, replay_size, NULL, verify_memory,
                                   sizeof verify_memory, &report);
  printf("replay: %" PRIu32 " ticks, %s, final hash 0x%016" PRIx64 "\n", report.ticks,
         fxs_result_message(r), report.final_hash);
  printf("bytes: world %zu, largest snapshot %zu, replay %zu, verifier %zu\n", world_size,
         largest_snapshot, replay_size, verify_size);
  if (argc > 1) { // the replay, for `fixsteer verify` or a byte comparison with the file's
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(replay_bytes, 1, replay_size, f) != replay_size || fclose(f) != 0) return 1;
  }
  return r == FXS_OK && report.final_hash == fxs_world_hash(&world) ? 0 : 1;
}
