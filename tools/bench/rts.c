// The RTS section of fxs-bench (`--kernel rts`): navigate agents on a large map, stepped on
// 1 and 2 workers (the world's task system on tools/task_pool.h), the hash compared after
// the same ticks on both.
//
// The map: 8192 x 8192 units, a navigation grid of 1024 x 1024 cells of 8 units (the grid's
// largest), 8 x 8 rooms of 1024 units whose inner sides are walls with a door of 64 units in
// the middle (224 walls), then clutter: short walls inside the rooms, away from the doors and
// the rooms' centres, up to the wall count asked (316 by default; 0: no walls at all; below
// 224, the first walls of the rooms only). Agents of radius 4-8 and speed 2-4 stand on a
// jittered lattice clear of the walls, in 32 groups (agent i in group i % 32) going to 32
// shared goals (the centres of the odd rooms): 32 integration fields.
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
#include "task_pool.h"

#define RTS_SIDE 8192
#define RTS_CELL 8
#define RTS_CELLS (RTS_SIDE / RTS_CELL)
#define RTS_ROOMS 8
#define RTS_ROOM (RTS_SIDE / RTS_ROOMS)
#define RTS_DOOR 64
#define RTS_GROUPS 32u
#define RTS_ROOM_WALLS (2 * (RTS_ROOMS - 1) * RTS_ROOMS * 2)
// Ticks the worlds run on past the snapshot before restoring it (a rollback).
#define RTS_AHEAD 4u
// Ticks of the warm-up after the first: the 32 fields built at the largest budget.
#define RTS_WARM 40u

typedef struct rts_wall {
  int ax, ay, bx, by;
} rts_wall;

static double wall_clock(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint32_t mix(uint32_t x) {
  x ^= x >> 16, x *= 0x7feb352dU, x ^= x >> 15, x *= 0x846ca68bU, x ^= x >> 16;
  return x;
}

// The map's walls, `count` of them (the rooms' first), into out; returns how many.
static uint32_t rts_walls(rts_wall *out, uint32_t count) {
  uint32_t n = 0;
  for (int line = 1; line < RTS_ROOMS; ++line) {
    for (int j = 0; j < RTS_ROOMS; ++j) {
      int c = line * RTS_ROOM, lo = j * RTS_ROOM, mid = lo + RTS_ROOM / 2;
      rts_wall v[4] = {{c, lo, c, mid - RTS_DOOR / 2},
                       {c, mid + RTS_DOOR / 2, c, lo + RTS_ROOM},
                       {lo, c, mid - RTS_DOOR / 2, c},
                       {mid + RTS_DOOR / 2, c, lo + RTS_ROOM, c}};
      for (int k = 0; k < 4 && n < count; ++k) out[n++] = v[k];
    }
  }
  for (uint32_t k = 0; n < count; ++k) {
    uint32_t h = mix(k * 2654435761u + 12345u);
    int room = (int)(h % (RTS_ROOMS * RTS_ROOMS));
    int ox = 96 + (int)((h >> 8) % 832u), oy = 96 + (int)(mix(h) % 832u);
    int len = 32 + (int)((h >> 20) % 129u);
    if (abs(ox - RTS_ROOM / 2) < 160 && abs(oy - RTS_ROOM / 2) < 160) continue;
    if (ox + len > RTS_ROOM - 96 || oy + len > RTS_ROOM - 96) continue;
    int x = (room % RTS_ROOMS) * RTS_ROOM + ox, y = (room / RTS_ROOMS) * RTS_ROOM + oy;
    rts_wall w = (h & 1u) ? (rts_wall){x, y, x + len, y} : (rts_wall){x, y, x, y + len};
    out[n++] = w;
  }
  return n;
}

// Whether a body of radius r at (x, y) keeps `r + 4` units off every (axis-aligned) wall.
static int clear_of(const rts_wall *walls, uint32_t count, double x, double y, double r) {
  for (uint32_t i = 0; i < count; ++i) {
    const rts_wall *w = &walls[i];
    double lx = w->ax < w->bx ? w->ax : w->bx, hx = w->ax < w->bx ? w->bx : w->ax;
    double ly = w->ay < w->by ? w->ay : w->by, hy = w->ay < w->by ? w->by : w->ay;
    if (x > lx - r - 4 && x < hx + r + 4 && y > ly - r - 4 && y < hy + r + 4) return 0;
  }
  return 1;
}

static fxs_vec2 at(double x, double y) {
  return fxs_vec2_make((fix16_t)(x * 65536.0), (fix16_t)(y * 65536.0));
}

typedef struct rts_world {
  fxs_world world;
  void *memory;
  size_t bytes;
  uint32_t agents, walls;
} rts_world;

// 1 for `--kernel rts-mesh`: a mesh world instead of the grid.
static int rts_mesh;

static fxs_world_capacity rts_capacity(uint32_t agents, uint32_t walls) {
  fxs_world_capacity c = {0};
  c.agents = agents, c.walls = walls, c.workers = 2;
  c.nav_cells = RTS_CELLS * RTS_CELLS, c.nav_searches = 4, c.nav_open = 1u << 18;
  c.nav_waypoints = 64, c.nav_fields = RTS_GROUPS;
  // The mesh kernels (rts-mesh), or FXS_BENCH_MESH=1 (rts-move): the same map on a navigation
  // mesh (its default vertex capacity, the open lists at most its triangles: 2 v - 6).
  if (rts_mesh || getenv("FXS_BENCH_MESH")) {
    uint32_t triangles = 2u * (uint32_t)FXS_NAV_MESH_DEFAULT_VERTICES(walls, 0) - 6u;
    c.nav_kind = FXS_NAV_KIND_MESH, c.nav_cells = 0;
    c.nav_open = c.nav_open < triangles ? c.nav_open : triangles;
  }
  return c;
}

static int apply(fxs_world *w, fxs_command cmd, fxs_agent_handle *h) {
  return fxs_world_apply(w, &cmd, h) == FXS_OK;
}

// The map with `agents` agents and `walls` walls; 0 when memory or a command fails.
static int rts_open(rts_world *r, uint32_t agents, uint32_t walls) {
  rts_wall *list = malloc(sizeof(rts_wall) * (walls ? walls : 1u));
  if (!list) return 0;
  walls = rts_walls(list, walls);
  fxs_world_capacity c = rts_capacity(agents, walls);
  r->bytes = fxs_world_memory_size(&c);
  r->memory = r->bytes ? malloc(r->bytes) : 0;
  fxs_world_def def = fxs_default_world_def();
  def.seed = 7, def.bounds_max = at(RTS_SIDE, RTS_SIDE), def.clamp_to_bounds = 1;
  def.neighbor_radius = FXS_INT(40);
  int ok = r->memory && fxs_world_init(&r->world, &def, &c, r->memory, r->bytes) == FXS_OK;
  // FXS_BENCH_RULES=V: step by simulation version V's rules, to compare a rule's cost.
  const char *rules = getenv("FXS_BENCH_RULES");
  if (ok && rules)
    ok = fxs_world_set_simulation_version(&r->world, (uint32_t)atoi(rules)) == FXS_OK;
  for (uint32_t i = 0; ok && i < walls; ++i) {
    fxs_wall w = {at(list[i].ax, list[i].ay), at(list[i].bx, list[i].by)};
    ok = apply(&r->world, fxs_command_add_wall(w), 0);
  }
  ok = ok && apply(&r->world,
                   fxs_command_set_nav_grid(at(0, 0), FXS_INT(RTS_CELL), RTS_CELLS, RTS_CELLS,
                                            FXS_INT(8), FXS_NAV_MAX_BUDGET),
                   0);
  fxs_orca_def orca = fxs_default_orca_def(); // each neighbor's own radius
  // A lattice a little denser than the agents need, so that the spots near walls can be left.
  uint32_t per_row = 1, placed = 0;
  while ((double)per_row * per_row < agents * 1.25) per_row++;
  double spacing = (double)RTS_SIDE / per_row;
  for (uint32_t k = 0; ok && placed < agents && k < per_row * per_row; ++k) {
    uint32_t h = mix(k + 1u);
    double radius = 4 + (double)(h % 5u), speed = 2 + (double)((h >> 4) % 3u);
    double jitter = spacing / 2 - radius - 1 > 0 ? spacing / 2 - radius - 1 : 0;
    double x = (k % per_row + 0.5) * spacing + jitter * ((double)((h >> 8) % 1001u) / 500.0 - 1);
    double y = (k / per_row + 0.5) * spacing + jitter * ((double)((h >> 18) % 1001u) / 500.0 - 1);
    if (x < radius + 1 || y < radius + 1 || x > RTS_SIDE - radius - 1 || y > RTS_SIDE - radius - 1)
      continue;
    if (!clear_of(list, walls, x, y, radius)) continue;
    uint32_t g = placed % RTS_GROUPS, goal = 2u * g + 1u;
    fxs_spawn_def s = fxs_default_spawn_def();
    s.position = at(x, y), s.max_speed = FXS_INT((int)speed), s.radius = FXS_INT((int)radius);
    fxs_agent_handle handle = {0};
    ok = apply(&r->world, fxs_command_spawn(&s), &handle) &&
         apply(&r->world, fxs_command_add_navigate(handle, fxs_default_blend(), FXS_INT(40), &orca),
               0) &&
         apply(&r->world,
               fxs_command_set_target_point(handle, at((goal % RTS_ROOMS + 0.5) * RTS_ROOM,
                                                       (goal / RTS_ROOMS + 0.5) * RTS_ROOM)),
               0);
    placed++;
  }
  free(list);
  r->agents = placed, r->walls = walls;
  if (!ok) free(r->memory), r->memory = 0;
  return ok;
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
static void rts_row(uint32_t agents, uint32_t walls, uint32_t ticks, task_pool *pool) {
  static rts_side one, two;
  double t0 = wall_clock();
  if (!rts_open(&one.r, agents, walls)) {
    printf("  %7u agents %5u walls: could not build the world (memory or a command)\n",
           (unsigned)agents, (unsigned)walls);
    return;
  }
  double t1 = wall_clock();
  if (!rts_open(&two.r, agents, walls)) {
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
  for (unsigned w = 0; w < wall_count; ++w) {
    for (unsigned k = 0; k < size_count; ++k) rts_row(sizes[k], walls[w], ticks, &pool);
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
  if (!rts_open(&s.r, agents, walls)) {
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
  fxs_vec2 to = at(3.5 * RTS_ROOM, 3.5 * RTS_ROOM);
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
