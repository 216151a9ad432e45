// fxs-bench: world step and spawn times (prints tables; doubles only for printing).
//
//   fxs-bench                        step time and memory for grid flocks of 100 to 2000
//   fxs-bench flock N TICKS [W]      a uniform flock of N agents with about 10 neighbors
//                                    each: ms per tick inline, or on W pool workers
//   fxs-bench spawn N                time to apply N spawn commands to an empty world
//
//   make bench
#define _POSIX_C_SOURCE 199309L // clock_gettime

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/snapshot.h"
#include "fixsteer/world.h"
#include "task_pool.h"
#include "uniform_flock.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// CPU time of the whole process (all workers), for a machine shared with other jobs.
static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void run(uint32_t agents, int ticks) {
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
  for (uint32_t i = 0; i < agents; ++i) {
    fxs_command s = fxs_command_make(FXS_CMD_SPAWN, 0, (uint16_t)i);
    s.arg[0] = FXS_INT(200 + (i % 64) * 55), s.arg[1] = FXS_INT(200 + (i / 64) * 55);
    s.arg[4] = FXS_INT(3), s.arg[5] = FXS_RATIO(1, 5), s.arg[6] = FXS_ONE, s.arg[7] = FXS_INT(8);
    setup[n++] = s;
    n += flock_behaviors(&setup[n], i + 1u, &seq);
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

static int flock(uint32_t agents, int ticks, uint32_t workers) {
  uniform u;
  task_pool pool;
  if (uniform_make(&u, agents) != 0) return fprintf(stderr, "fxs-bench: no memory\n"), 1;
  uniform_spawns(&u);
  double t0 = now_seconds();
  for (uint32_t i = 0; i < agents; ++i) fxs_world_apply(&u.world, &u.commands[i], 0);
  double spawn = now_seconds() - t0;
  uniform_behaviors(&u);
  if (workers > 0) {
    if (task_pool_start(&pool, workers) != 0) return fprintf(stderr, "fxs-bench: no threads\n"), 1;
    fxs_task_system tasks = task_pool_system(&pool);
    fxs_world_set_tasks(&u.world, &tasks);
  }
  fxs_world_step(&u.world, 0, 0, 0); // warm-up tick
  t0 = now_seconds();
  double c0 = cpu_seconds();
  for (int t = 0; t < ticks; ++t) fxs_world_step(&u.world, 0, 0, 0);
  double per_tick = (now_seconds() - t0) / ticks, cpu_per_tick = (cpu_seconds() - c0) / ticks;
  printf("%8u agents  side %5u  %s%2u  %9.3f ms/tick (cpu %9.3f)  spawn %8.2f ms  hash %016llx\n",
         agents, u.side >> 16, workers ? "workers " : "inline  ", workers, per_tick * 1e3,
         cpu_per_tick * 1e3, spawn * 1e3, (unsigned long long)fxs_world_hash(&u.world));
  if (workers > 0) task_pool_stop(&pool);
  uniform_free(&u);
  return 0;
}

static int spawn_only(uint32_t agents) {
  uniform u;
  if (uniform_make(&u, agents) != 0) return fprintf(stderr, "fxs-bench: no memory\n"), 1;
  uniform_spawns(&u);
  double t0 = now_seconds();
  for (uint32_t i = 0; i < agents; ++i) fxs_world_apply(&u.world, &u.commands[i], 0);
  double spawn = now_seconds() - t0;
  printf("%8u agents spawned in %.2f ms (%.1f ns per spawn), %u live, world %zu bytes\n", agents,
         spawn * 1e3, spawn * 1e9 / agents, fxs_world_agent_count(&u.world),
         fxs_world_memory_size(&u.world.capacity));
  uniform_free(&u);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 4 && strcmp(argv[1], "flock") == 0) {
    uint32_t workers = argc >= 5 ? (uint32_t)atoi(argv[4]) : 0;
    if (workers > FXS_MAX_WORKERS) return fprintf(stderr, "fxs-bench: at most 16 workers\n"), 2;
    return flock((uint32_t)atoi(argv[2]), atoi(argv[3]), workers);
  }
  if (argc >= 3 && strcmp(argv[1], "spawn") == 0) return spawn_only((uint32_t)atoi(argv[2]));
  if (argc > 1) return fprintf(stderr, "usage: fxs-bench [flock N TICKS [WORKERS] | spawn N]\n"), 2;
  run(100, 400);
  run(500, 100);
  run(1000, 50);
  run(2000, 20);
  return 0;
}
