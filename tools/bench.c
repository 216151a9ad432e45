// fxs-bench: time per world step for flocks of growing size (separation, alignment,
// cohesion, wander and a weak arrive), and the world's memory. Prints a table.
//
//   make bench
#define _POSIX_C_SOURCE 199309L // clock_gettime

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/snapshot.h"
#include "fixsteer/world.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static fxs_command behavior(uint32_t agent, fxs_behavior kind, fix16_t weight, uint16_t seq) {
  fxs_behavior_slot b = fxs_behavior_slot_default(kind);
  fxs_command c = fxs_command_make(FXS_CMD_ADD_BEHAVIOR, 1, seq);
  c.agent = agent, c.ref = kind, c.arg[0] = weight;
  for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) c.arg[1 + i] = b.p[i];
  return c;
}

static void run(uint16_t agents, int ticks) {
  fxs_world_capacity cap = {agents, 0, 0, 0, 0};
  fxs_world_def def = fxs_default_world_def();
  def.neighbor_radius = FXS_INT(60);
  size_t size = fxs_world_memory_size(&cap);
  void *memory = malloc(size);
  fxs_world w;
  fxs_world_init(&w, &def, &cap, memory, size);
  fxs_command *setup = malloc(sizeof *setup * agents * 6u);
  uint32_t n = 0;
  uint16_t seq = 0;
  for (uint16_t i = 0; i < agents; ++i) {
    fxs_command s = fxs_command_make(FXS_CMD_SPAWN, 0, i);
    s.arg[0] = FXS_INT(200 + (i % 64) * 55), s.arg[1] = FXS_INT(200 + (i / 64) * 55);
    s.arg[4] = FXS_INT(3), s.arg[5] = FXS_RATIO(1, 5), s.arg[6] = FXS_ONE, s.arg[7] = FXS_INT(8);
    setup[n++] = s;
    setup[n++] = behavior(i + 1u, FXS_BEHAVIOR_SEPARATION, FXS_INT(3), seq++);
    setup[n++] = behavior(i + 1u, FXS_BEHAVIOR_ALIGNMENT, FXS_ONE, seq++);
    setup[n++] = behavior(i + 1u, FXS_BEHAVIOR_COHESION, FXS_RATIO(1, 2), seq++);
    setup[n++] = behavior(i + 1u, FXS_BEHAVIOR_WANDER, FXS_RATIO(1, 4), seq++);
  }
  fxs_world_step(&w, setup, n, 0);
  double t0 = now_seconds();
  for (int t = 0; t < ticks; ++t) fxs_world_step(&w, 0, 0, 0);
  double per_tick = (now_seconds() - t0) / ticks;
  double t1 = now_seconds();
  uint64_t h = 0;
  for (int t = 0; t < ticks; ++t) h ^= fxs_world_hash(&w);
  double per_hash = (now_seconds() - t1) / ticks;
  printf("%6u agents  %9.1f us/step  %7.2f us/agent  %8.1f us/hash  world %7zu bytes  snapshot %7zu bytes  (%016llx)\n",
         agents, per_tick * 1e6, per_tick * 1e6 / agents, per_hash * 1e6, size, fxs_world_snapshot_size(&w),
         (unsigned long long)(h ^ fxs_world_hash(&w)));
  free(setup);
  free(memory);
}

int main(void) {
  run(100, 400);
  run(500, 100);
  run(1000, 50);
  run(2000, 20);
  return 0;
}
