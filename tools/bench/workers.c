// The parallel step: a 100,000-agent uniform flock (tools/uniform_flock.h) stepped inline and
// on 2 workers (the world's task system on tools/task_pool.h), its speedup, and whether the
// two give the same hashes.
//
// Pairs of runs, inline and 2 workers, each of a fresh flock: one tick untimed (the pool's
// thread has just started), then WORKERS_TICKS timed on the wall clock. The two runs of a pair
// follow each other, so a machine whose speed drifts (a shared virtual machine) slows both
// alike, and which goes first alternates. The speedup is the median of the pairs' ratios;
// the fastest tick of each side is printed too. (Stepping the two flocks by turns, a tick
// each, was tried: each tick then starts with the other flock in the caches, which costs 2
// workers more than one, and printed 1.74-1.83x.)
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>

#include "bench.h"
#include "task_pool.h"
#include "uniform_flock.h"

enum { WORKERS_AGENTS = 100000, WORKERS_TICKS = 10, WORKERS_PAIRS = 11 };

// One flock and, when it runs on workers, its pool (which must not move while started).
typedef struct flock_run {
  uniform u;
  task_pool pool;
  int pooled;
} flock_run;

static double wall_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// A fresh flock of n agents on `workers` workers (0: inline), after its untimed first tick.
static int flock_open(flock_run *f, uint32_t n, uint32_t workers) {
  f->pooled = 0;
  if (uniform_make(&f->u, n) != 0) {
    uniform_free(&f->u);
    return -1;
  }
  uniform_spawns(&f->u);
  fxs_world_step(&f->u.world, f->u.commands, n, 0);
  uniform_behaviors(&f->u);
  if (workers > 0) {
    f->pooled = task_pool_start(&f->pool, workers) == 0;
    if (!f->pooled) {
      task_pool_stop(&f->pool);
      uniform_free(&f->u);
      return -1;
    }
    fxs_task_system tasks = task_pool_system(&f->pool);
    fxs_world_set_tasks(&f->u.world, &tasks);
  }
  fxs_world_step(&f->u.world, 0, 0, 0);
  return 0;
}

static double flock_tick(flock_run *f) {
  double a = wall_seconds();
  fxs_world_step(&f->u.world, 0, 0, 0);
  return wall_seconds() - a;
}

static void flock_close(flock_run *f) {
  if (f->pooled) task_pool_stop(&f->pool);
  uniform_free(&f->u);
}

// Seconds of `ticks` ticks of a fresh flock on `workers` workers (after its untimed first
// tick); *best receives the fastest tick if faster, *hash the flock's hash. Negative when it
// cannot be built.
static double flock_seconds(uint32_t workers, uint32_t ticks, double *best, uint64_t *hash) {
  static flock_run f;
  if (flock_open(&f, WORKERS_AGENTS, workers) != 0) return -1;
  double s = 0;
  for (uint32_t t = 0; t < ticks; ++t) {
    double d = flock_tick(&f);
    s += d;
    if (d < *best) *best = d;
  }
  *hash = fxs_world_hash(&f.u.world);
  flock_close(&f);
  return s;
}

void bench_print_workers(void) {
  enum { REPS = WORKERS_PAIRS };
  double one[REPS], two[REPS], ratio[REPS], best1 = 1e9, best2 = 1e9;
  uint64_t h1 = 0, h2 = 0;
  int equal = 1;
  printf(
      "\n== 1 vs 2 workers: %u-agent uniform flock, wall clock (%d pairs of runs of a fresh\n"
      "   flock, inline and 2 workers by turns, %d timed ticks each after one untimed; medians)\n",
      (unsigned)WORKERS_AGENTS, REPS, WORKERS_TICKS);
  for (int r = 0; r < REPS; ++r) {
    if (r % 2 == 0) {
      one[r] = flock_seconds(0, WORKERS_TICKS, &best1, &h1);
      two[r] = flock_seconds(2, WORKERS_TICKS, &best2, &h2);
    } else {
      two[r] = flock_seconds(2, WORKERS_TICKS, &best2, &h2);
      one[r] = flock_seconds(0, WORKERS_TICKS, &best1, &h1);
    }
    if (one[r] <= 0 || two[r] <= 0) {
      printf("  workers: could not build the flock\n");
      return;
    }
    ratio[r] = one[r] / two[r];
    equal &= h1 == h2;
  }
  double t1 = bench_median(one, REPS) / WORKERS_TICKS, t2 = bench_median(two, REPS) / WORKERS_TICKS;
  printf("  inline      %8.1f ms/tick  %6.1f ticks/s  hash %016llx\n", 1e3 * t1, 1 / t1,
         (unsigned long long)h1);
  printf("  2 workers   %8.1f ms/tick  %6.1f ticks/s  hash %016llx  speedup %.2fx  %s\n", 1e3 * t2,
         1 / t2, (unsigned long long)h2, bench_median(ratio, REPS),
         equal ? "hash equal" : "HASH DIFFERS");
  printf(
      "  fastest tick: inline %.1f ms, 2 workers %.1f ms, %.2fx (what the machine gives when\n"
      "  nothing else runs on it; the median above counts its noise)\n",
      1e3 * best1, 1e3 * best2, best1 / best2);
}
