// The RTS section of fxs-bench (`--kernel rts`): navigate agents on a large map, stepped on
// 1 and 2 workers (the world's task system on tools/task_pool.h), the hash compared after
// the same ticks on both. The map (8 x 8 rooms with doors and clutter, 32 groups to 32 shared
// goals) is tools/rts_map.h's, with 316 walls by default.
//
// For each count of agents and of walls: the world's memory, the first tick (fields start),
// the warm-up (the fields built), the snapshot's size, then on 1 worker (inline) and on 2
// workers, two worlds of the same map stepped by turns: the mean and median of `ticks` ticks
// and the hashes after them, then a rollback: a snapshot, RTS_AHEAD more ticks, the restore of
// the snapshot and the tick after it (its hash compared on both). Desktop only; wall-clock times.
// `--kernel rts-mesh`: the same map and agents in a mesh world (the navigation mesh of the walls,
// 32 group fields as trees over its triangles) instead of on the grid.
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "fixsteer/command_build.h"
#include "fixsteer/snapshot.h"
#include "rts_map.h"
#include "task_pool.h"

// Ticks the worlds run on past the snapshot before restoring it (a rollback).
#define RTS_AHEAD 4u
// Ticks of the warm-up after the first: the 32 fields built at the largest budget.
#define RTS_WARM 40u

static double wall_clock(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// 1 for `--kernel rts-mesh`: a mesh world instead of the grid.
static int rts_mesh;

// The bench's map: 2 workers; on a mesh for `--kernel rts-mesh` or FXS_BENCH_MESH=1 (rts-move);
// FXS_BENCH_RULES=V: stepped by simulation version V's rules, to compare a rule's cost.
static int rts_bench_open(rts_world *r, uint32_t agents, uint32_t walls) {
  rts_options o = {.workers = 2u, .mesh = rts_mesh || getenv("FXS_BENCH_MESH")};
  const char *rules = getenv("FXS_BENCH_RULES");
  if (rules) {
    char *end = 0;
    unsigned long v = strtoul(rules, &end, 10);
    if (*rules < '0' || *rules > '9' || *end != '\0' || v == 0 || v > FXS_SIMULATION_VERSION) {
      printf("  FXS_BENCH_RULES=%s: not a simulation version (1..%u)\n", rules,
             (unsigned)FXS_SIMULATION_VERSION);
      r->memory = 0;
      return 0;
    }
    o.rules = (uint32_t)v;
  }
  return rts_open(r, agents, walls, &o);
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

// One side (inline or on the pool): its world, and its ticks' times.
typedef struct rts_side {
  rts_world r;
  double *each, restore, after, mean, median;
  uint64_t hash;
} rts_side;

static void use_pool(rts_side *s, task_pool *pool) {
  fxs_task_system tasks;
  if (pool) tasks = task_pool_system(pool);
  fxs_world_set_tasks(&s->r.world, pool ? &tasks : 0);
}

static double timed_step(rts_side *s) {
  double a = wall_clock();
  fxs_world_step(&s->r.world, 0, 0, 0);
  return wall_clock() - a;
}

static void summarize(rts_side *s, uint32_t ticks) {
  double sum = 0;
  for (uint32_t t = 0; t < ticks; ++t) sum += s->each[t];
  qsort(s->each, ticks, sizeof(double), by_value);
  s->mean = ticks ? sum / ticks : 0, s->median = ticks ? s->each[ticks / 2] : 0;
  s->hash = fxs_world_hash(&s->r.world);
}

// The snapshot restored into the side's world, and the tick after it.
static int restore_then_step(rts_side *s, const uint8_t *saved, size_t size) {
  double t0 = wall_clock();
  if (fxs_world_restore(&s->r.world, saved, size, 0) != FXS_OK) return 0;
  s->restore = wall_clock() - t0;
  s->after = timed_step(s);
  return 1;
}

// Two worlds of the same map, one stepped inline and one on the pool, warmed up, then their
// ticks timed by turns (a machine whose speed drifts slows both alike); then a snapshot of the
// first, RTS_AHEAD more ticks, the snapshot restored into both (a rollback), and the tick after.
static void rts_row(uint32_t agents, uint32_t walls, uint32_t ticks, task_pool *pool,
                    double *means) {
  static rts_side one, two;
  double t0 = wall_clock();
  if (!rts_bench_open(&one.r, agents, walls)) {
    printf("  %7u agents %5u walls: could not build the world (memory or a command)\n",
           (unsigned)agents, (unsigned)walls);
    return;
  }
  double t1 = wall_clock();
  if (!rts_bench_open(&two.r, agents, walls)) {
    printf("  %7u agents %5u walls: could not build the second world\n", (unsigned)agents,
           (unsigned)walls);
    free(one.r.memory);
    return;
  }
  use_pool(&one, 0), use_pool(&two, pool);
  double first = timed_step(&one), warm = 0;
  timed_step(&two);
  for (uint32_t t = 0; t < RTS_WARM; ++t) warm += timed_step(&one), timed_step(&two);
  one.each = malloc(sizeof(double) * (ticks + 1u)),
  two.each = malloc(sizeof(double) * (ticks + 1u));
  size_t size = 0;
  uint8_t *saved = 0;
  int ok = one.each && two.each;
  // The timed ticks' phases (fixsteer/step_profile.h), not the rollback's.
  static bench_phases phases_one, phases_two;
  bench_phases_attach(&phases_one, &one.r.world, wall_clock);
  bench_phases_attach(&phases_two, &two.r.world, wall_clock);
  for (uint32_t t = 0; ok && t < ticks; ++t) {
    if (t % 2u == 0) one.each[t] = timed_step(&one), two.each[t] = timed_step(&two);
    else two.each[t] = timed_step(&two), one.each[t] = timed_step(&one);
  }
  bench_phases_detach(&one.r.world), bench_phases_detach(&two.r.world);
  if (ok) summarize(&one, ticks), summarize(&two, ticks);
  if (ok) fxs_world_save(&one.r.world, 0, 0, &size); // the size query
  ok = ok && (saved = malloc(size)) != 0 &&
       fxs_world_save(&one.r.world, saved, size, &size) == FXS_OK;
  // A rollback: both worlds run on RTS_AHEAD ticks over the same map, then go back.
  for (uint32_t t = 0; ok && t < RTS_AHEAD; ++t) timed_step(&one), timed_step(&two);
  ok = ok && restore_then_step(&one, saved, size) && restore_then_step(&two, saved, size);
  if (!ok) {
    printf("  %7u agents %5u walls: the run failed\n", (unsigned)one.r.agents, (unsigned)walls);
  } else {
    printf(
        "  %7u %5u %8.1f %8.1f %8.1f %8.1f %8.1f | %7.2f %7.2f %7.1f %6.1f | %7.2f %7.2f %7.1f "
        "%6.1f %s\n",
        (unsigned)one.r.agents, (unsigned)one.r.walls, (double)one.r.bytes / 1048576.0,
        (double)size / 1048576.0, first * 1e3, warm * 1e3, (t1 - t0) * 1e3, one.mean * 1e3,
        one.median * 1e3, one.restore * 1e3, one.after * 1e3, two.mean * 1e3, two.median * 1e3,
        two.restore * 1e3, two.after * 1e3, one.hash == two.hash ? "equal" : "HASH DIFFERS");
    uint64_t back = fxs_world_hash(&one.r.world);
    printf("          hash after the timed ticks %016llx; after the rollback's tick %016llx (%s)\n",
           (unsigned long long)one.hash, (unsigned long long)back,
           back == fxs_world_hash(&two.r.world) ? "equal on both" : "DIFFERS");
    // Agents off their group's field: with a route of their own (A*), at the end.
    uint32_t routed = 0;
    for (uint32_t i = 0; i < one.r.world.capacity.agents; ++i)
      routed += one.r.world.agents[i].alive && one.r.world.nav.routes[i].status != FXS_ROUTE_NONE;
    printf("          agents on a route of their own (A*, off their field): %u of %u\n",
           (unsigned)routed, (unsigned)one.r.agents);
    bench_phases_print(&phases_one, &phases_two);
    means[0] = one.mean, means[1] = two.mean;
  }
  fflush(stdout);
  free(saved), free(one.each), free(two.each);
  use_pool(&two, 0);
  free(one.r.memory), free(two.r.memory);
}

void bench_rts_report(const uint32_t *sizes, unsigned size_count, const uint32_t *walls,
                      unsigned wall_count, uint32_t ticks, int mesh) {
  task_pool pool;
  int pooled = task_pool_start(&pool, 2) == 0;
  rts_mesh = mesh;
  printf(
      "\n== rts: 8192 x 8192 map, %s, 8 x 8 rooms with "
      "doors + clutter,\n   navigate agents of radius 4-8 and speed 2-4 in 32 groups to 32 "
      "shared goals; wall clock, %u ticks\n   after %u warm-up ticks (+1 first); 1 worker = "
      "inline, 2 = task pool\n",
      mesh ? "a navigation mesh of the walls (group fields: trees)"
           : "1024 x 1024 nav grid of 8-unit cells",
      (unsigned)ticks, (unsigned)RTS_WARM);
  printf("  %7s %5s %8s %8s %8s %8s %8s | %-31s | %-31s\n", "agents", "walls", "MiB", "snapMiB",
         "first", "warm", "setup", "1 worker: mean med restore after",
         "2 workers: mean med restore after");
  if (!pooled) {
    task_pool_stop(&pool);
    printf("  could not start the task pool\n");
    return;
  }
  // [wall count][agent count][workers - 1]; 0: no row.
  static double means[BENCH_MAX_WALL_COUNTS][BENCH_MAX_SIZES][2];
  memset(means, 0, sizeof means);
  for (unsigned w = 0; w < wall_count; ++w) {
    for (unsigned k = 0; k < size_count; ++k)
      rts_row(sizes[k], walls[w], ticks, &pool, means[w][k]);
  }
  // The wall cost: each wall count's mean tick over the open map's (0 walls), where both ran.
  for (unsigned open = 0; open < wall_count; ++open) {
    if (walls[open] != 0) continue;
    for (unsigned w = 0; w < wall_count; ++w) {
      for (unsigned k = 0; k < size_count && walls[w] != 0; ++k) {
        const double *o = means[open][k], *m = means[w][k];
        if (o[0] > 0 && o[1] > 0 && m[0] > 0 && m[1] > 0)
          printf("  wall cost at %u agents: %u walls over 0, %.2fx on 1 worker, %.2fx on 2\n",
                 (unsigned)sizes[k], (unsigned)walls[w], m[0] / o[0], m[1] / o[1]);
      }
    }
    break;
  }
  printf(
      "  (ms; MiB: the world's block; setup: building the map and agents; first: the first "
      "tick; warm: the\n   next %u ticks in all (inline); mean and median of the %u timed "
      "ticks after them, each side\n   a world of its own, ticks by turns, the hashes "
      "compared after them; restore: fxs_world_restore\n   of a snapshot taken then, after %u "
      "more ticks (a rollback); after: the tick after the restore)\n",
      (unsigned)RTS_WARM, (unsigned)ticks, (unsigned)RTS_AHEAD);
  task_pool_stop(&pool);
}

// ------------------------------------------------------------------ a move of every unit

// One click: every agent of the map moved to the centre of room (3, 3) as one group (one
// `move` command each, gap 2), in the world's first tick, by simulation `version`'s rules,
// stepped inline (`pool` 0) or on the pool. Reports the ticks until every unit has moved
// (a non-zero velocity after a tick), at most `ticks`, and the mean ms a tick of those.
static void rts_move_side(uint32_t agents, uint32_t walls, uint32_t ticks, uint32_t version,
                          task_pool *pool, uint64_t *hash) {
  static rts_side s;
  if (!rts_bench_open(&s.r, agents, walls)) {
    printf("  %7u agents %5u walls: could not build the world\n", (unsigned)agents,
           (unsigned)walls);
    return;
  }
  fxs_world *w = &s.r.world;
  uint32_t n = w->capacity.agents;
  fxs_command *moves = malloc(sizeof(fxs_command) * (n ? n : 1u));
  uint8_t *moved = calloc(n ? n : 1u, 1);
  if (!moves || !moved || fxs_world_set_simulation_version(w, version) != FXS_OK) {
    printf("  the move run failed (memory or version)\n");
    free(moves), free(moved), free(s.r.memory);
    return;
  }
  use_pool(&s, pool);
  fxs_vec2 to = rts_at(3.5 * RTS_ROOM, 3.5 * RTS_ROOM);
  uint32_t count = 0;
  for (uint32_t i = 0; i < n; ++i) {
    fxs_agent_handle h = fxs_world_handle_at(w, i);
    if (fxs_world_agent(w, h)) moves[count++] = fxs_command_move(h, 7u, to, FXS_INT(2));
  }
  uint32_t moving = 0, all_at = 0, t = 0;
  double first = 0, spent = 0;
  for (; t < ticks; ++t) {
    double a = wall_clock();
    fxs_world_step(w, t == 0 ? moves : 0, t == 0 ? count : 0, 0);
    if (t == 0) first = wall_clock() - a;
    else spent += wall_clock() - a;
    for (uint32_t i = 0; i < n; ++i) {
      const fxs_agent *g = fxs_world_agent(w, fxs_world_handle_at(w, i));
      if (g && !moved[i] && (g->velocity.x != 0 || g->velocity.y != 0)) moved[i] = 1, moving++;
    }
    if (moving == count && all_at == 0) all_at = t + 1u;
  }
  *hash = fxs_world_hash(w);
  char when[16] = "never";
  if (all_at) snprintf(when, sizeof when, "%u", (unsigned)all_at);
  printf("  %7u %5u %7u %10s | %7u of %7u after %4u, all at %5s | %8.1f %8.2f | %016llx\n",
         (unsigned)count, (unsigned)s.r.walls, (unsigned)version, pool ? "2 (pool)" : "1 (inline)",
         (unsigned)moving, (unsigned)count, (unsigned)t, when, first * 1e3,
         t > 1 ? spent * 1e3 / (t - 1u) : 0.0, (unsigned long long)*hash);
  fflush(stdout);
  use_pool(&s, 0);
  free(moves), free(moved), free(s.r.memory);
}

void bench_rts_move_report(const uint32_t *sizes, unsigned size_count, const uint32_t *walls,
                           unsigned wall_count, uint32_t ticks) {
  task_pool pool;
  int pooled = task_pool_start(&pool, 2) == 0;
  printf(
      "\n== rts move: the RTS map (above), every agent clicked to the centre of room (3, 3) "
      "as one move\n   group in the first tick; ticks until every unit moves (at most %u), "
      "by simulation version\n   5's rules (7 on a mesh: each member searches its own spot) "
      "and the current one's (moves share fields)\n",
      (unsigned)ticks);
  printf("  %7s %5s %7s %10s | %-37s | %8s %8s | %s\n", "agents", "walls", "version", "workers",
         "units moving (ever) after T ticks", "first", "mean", "hash");
  if (!pooled) {
    task_pool_stop(&pool);
    printf("  could not start the task pool\n");
    return;
  }
  for (unsigned wl = 0; wl < wall_count; ++wl) {
    for (unsigned k = 0; k < size_count; ++k) {
      // On a mesh (FXS_BENCH_MESH=1) moves share trees from version 8 (7: each member searches).
      uint32_t versions[2] = {getenv("FXS_BENCH_MESH") ? 7u : 5u, FXS_SIMULATION_VERSION};
      for (unsigned v = 0; v < 2; ++v) {
        uint64_t one = 0, two = 0;
        rts_move_side(sizes[k], walls[wl], ticks, versions[v], 0, &one);
        rts_move_side(sizes[k], walls[wl], ticks, versions[v], &pool, &two);
        printf("          hashes on 1 and 2 workers %s\n", one == two ? "equal" : "DIFFER");
      }
    }
  }
  printf(
      "  (all at: the tick by which every unit had moved; first: ms of the first tick, the\n"
      "   moves applied; mean: ms a tick of the others; the hash after the last tick)\n");
  task_pool_stop(&pool);
}
