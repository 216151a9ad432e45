// A small game: four agents chase the player's cursor round an obstacle for 600 ticks. Every
// tick the game turns its input into commands, steps the world and records the tick; at the
// end the replay is verified by re-simulating it (docs/getting-started.md walks through it).
//
//   cc -std=c99 game_loop.c $(pkg-config --cflags --libs fixsteer) -o game_loop && ./game_loop
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fixsteer/fixsteer.h"

enum { AGENTS = 4, TICKS = 600, MAX_COMMANDS = 32 };

// Every buffer is the caller's, sized here with room to spare and checked against the size
// queries before use; the figures are what this program prints. The world and the verifier
// need 8-byte aligned blocks (uint64_t arrays).
static uint64_t world_memory[768];     // fxs_world_memory_size(&capacity): 4,968 bytes
static uint8_t snapshot_scratch[2048]; // the largest fxs_world_snapshot_size(): 772 bytes
static uint8_t replay_bytes[1 << 16];  // the recording: 34,220 bytes for 600 ticks
static uint64_t verify_memory[2048];   // fxs_replay_verify_memory_size(): 10,060 bytes
static size_t replay_size;

// The replay writer streams its bytes here (a file or a socket would do as well).
static bool append(void *user, const uint8_t *bytes, size_t size) {
  (void)user;
  if (size > sizeof replay_bytes - replay_size) return false; // the writer reports the failure
  memcpy(replay_bytes + replay_size, bytes, size);
  replay_size += size;
  return true;
}

// The player's input of one tick: the cursor moves round a circle of radius 300.
static fxs_vec2 cursor_at(uint32_t tick) {
  fix16_t angle = fxs_mul(FXS_RATIO(1, 100), FXS_INT((int32_t)tick));
  fxs_vec2 offset = fxs_vec2_scale(fxs_vec2_from_angle(angle), FXS_INT(300));
  return fxs_vec2_add(fxs_vec2_make(FXS_INT(500), FXS_INT(500)), offset);
}

int main(void) {
  fxs_world_capacity capacity = {.agents = AGENTS, .obstacles = 1};
  fxs_world_def def = fxs_default_world_def();
  def.bounds_max = fxs_vec2_make(FXS_INT(1000), FXS_INT(1000));
  def.clamp_to_bounds = 1; // contained: steered off the bounds, never through them
  size_t world_size = fxs_world_memory_size(&capacity);
  fxs_world world;
  if (world_size == 0 || world_size > sizeof world_memory) return 1;
  if (fxs_world_init(&world, &def, &capacity, world_memory, sizeof world_memory) != FXS_OK) {
    return 1;
  }

  // Recording starts at tick 0, before anything is spawned: the spawns are recorded commands.
  fxs_replay_writer writer;
  if (fxs_replay_writer_begin(&writer, append, NULL, &world, 100, snapshot_scratch,
                              sizeof snapshot_scratch) != FXS_OK) {
    return 1;
  }
  fxs_agent_handle agents[AGENTS];
  fxs_world_next_spawn_handles(&world, AGENTS, agents); // the handles tick 0's spawns get
  size_t largest_snapshot = 0;

  for (uint32_t tick = 0; tick < TICKS; ++tick) {
    fxs_command commands[MAX_COMMANDS];
    uint32_t n = 0;
    if (tick == 0) { // the set-up is input too: every peer and the replay see it
      fxs_obstacle rock = {fxs_vec2_make(FXS_INT(500), FXS_INT(500)), FXS_INT(60)};
      commands[n++] = fxs_command_add_obstacle(rock);
      for (int i = 0; i < AGENTS; ++i) {
        fxs_spawn_def body = fxs_default_spawn_def();
        body.position = fxs_vec2_make(FXS_INT(100 + 250 * i), FXS_INT(100));
        commands[n++] = fxs_command_spawn(&body);
      }
      for (int i = 0; i < AGENTS; ++i) { // a spawned agent's set is empty, a weighted sum
        fxs_avoidance_def avoid = fxs_default_avoidance_def();
        // The prioritized sum spends the force budget on avoidance before arrival.
        commands[n++] = fxs_command_clear_behaviors(agents[i], FXS_COMBINE_PRIORITIZED_SUM);
        commands[n++] = fxs_command_add_avoidance(agents[i], fxs_default_blend(), &avoid);
        commands[n++] = fxs_command_add_arrive(agents[i], fxs_default_blend(), FXS_INT(50));
      }
    }
    if (tick % 10 == 0) { // the cursor is sampled every 10 ticks
      for (int i = 0; i < AGENTS; ++i) {
        commands[n++] = fxs_command_set_target_point(agents[i], cursor_at(tick));
      }
    }
    // One issuer (source 0): the issue order is the sequence, so the step applies the
    // commands in this order on every machine.
    for (uint32_t i = 0; i < n; ++i) commands[i].sequence = (uint16_t)i;
    if (fxs_world_step(&world, commands, n, NULL) != FXS_OK) return 1;
    if (fxs_replay_writer_tick(&writer, &world, commands, n) != FXS_OK) return 1;
    size_t snapshot = fxs_world_snapshot_size(&world);
    if (snapshot > largest_snapshot) largest_snapshot = snapshot;
    if ((tick + 1) % 200 == 0) {
      printf("tick %3" PRIu32 ": hash 0x%016" PRIx64 "\n", world.tick, fxs_world_hash(&world));
    }
  }
  if (fxs_replay_writer_end(&writer, &world) != FXS_OK) return 1;

  // What an agent is doing, read by its handle: its targets and its behavior set.
  fxs_agent_targets targets;
  fxs_agent_behaviors set;
  if (fxs_world_agent_targets(&world, agents[0], &targets) != FXS_OK ||
      fxs_world_agent_behaviors(&world, agents[0], &set) != FXS_OK) {
    return 1;
  }
  printf("agent 0: target point (%" PRId32 ", %" PRId32 "), %" PRIu32 " behaviors, the first %s\n",
         targets.target_point.x / FXS_ONE, targets.target_point.y / FXS_ONE, set.count,
         fxs_behavior_name((fxs_behavior)set.slots[0].kind));

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
  return r == FXS_OK && report.final_hash == fxs_world_hash(&world) ? 0 : 1;
}
