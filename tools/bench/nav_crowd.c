// The navigate crowd section of fxs-bench: 1,000 agents in eight groups of 125 cross a
// 4000 x 2400 field split by a wall with three gaps toward eight shared goals (the scene of
// scenarios/nav_crowd.yaml), once with `navigate` (a navigation grid of 16-unit cells, eight
// integration fields shared by the groups) and once, the same agents and walls, with ORCA
// arriving straight at the targets (`arrive` + `orca`: the orca behavior with a slowing
// radius). Both worlds are warmed up (the fields built), saved, then timed from the save
// by turns, so a machine whose speed drifts slows both alike. Desktop only.
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "fixsteer/command_build.h"
#include "fixsteer/snapshot.h"

#define GROUPS 8u
#define PER_GROUP 125u
#define AGENTS (GROUPS * PER_GROUP)
#define SIDE_X 4000
#define SIDE_Y 2400
#define CELL 16
#define COLUMNS (SIDE_X / CELL)
#define ROWS (SIDE_Y / CELL)

static const int walls[5][4] = {{1600, 0, 1600, 250},
                                {1600, 550, 1600, 1050},
                                {1600, 1350, 1600, 1850},
                                {1600, 2150, 1600, 2400},
                                {2800, 900, 2800, 1500}};

static fxs_vec2 at(int x, int y) { return fxs_vec2_make(FXS_INT(x), FXS_INT(y)); }

static fxs_world_capacity capacity(int navigate) {
  fxs_world_capacity c = {0};
  c.agents = AGENTS, c.walls = 5;
  if (navigate) {
    c.nav_cells = COLUMNS * ROWS, c.nav_searches = 1, c.nav_open = 4096;
    c.nav_waypoints = 64, c.nav_fields = GROUPS;
  }
  return c;
}

// The scene in `memory` (malloc'd, returned; NULL on failure).
static void *open_scene(fxs_world *w, int navigate) {
  fxs_world_capacity c = capacity(navigate);
  size_t size = fxs_world_memory_size(&c);
  void *memory = malloc(size);
  fxs_world_def def = fxs_default_world_def();
  def.seed = 7, def.bounds_max = at(SIDE_X, SIDE_Y), def.clamp_to_bounds = 1;
  def.neighbor_radius = FXS_INT(40);
  if (!memory || fxs_world_init(w, &def, &c, memory, size) != FXS_OK) {
    free(memory);
    return 0;
  }
  fxs_command cmd;
  for (int i = 0; i < 5; ++i) {
    fxs_wall wall = {at(walls[i][0], walls[i][1]), at(walls[i][2], walls[i][3])};
    cmd = fxs_command_add_wall(wall);
    fxs_world_apply(w, &cmd, 0);
  }
  if (navigate) {
    cmd = fxs_command_set_nav_grid(at(0, 0), FXS_INT(CELL), COLUMNS, ROWS, FXS_INT(5), 16384);
    fxs_world_apply(w, &cmd, 0);
  }
  fxs_orca_def orca = fxs_default_orca_def();
  orca.neighbor_radius = FXS_INT(7);
  for (uint32_t g = 0; g < GROUPS; ++g) {
    for (uint32_t k = 0; k < PER_GROUP; ++k) {
      fxs_spawn_def s = fxs_default_spawn_def();
      s.position = at(60 + (int)(k % 25u) * 26, 60 + (int)g * 290 + (int)(k / 25u) * 26);
      s.max_speed = FXS_INT(3), s.radius = FXS_INT(5);
      fxs_agent_handle h = {0};
      cmd = fxs_command_spawn(&s);
      fxs_world_apply(w, &cmd, &h);
      cmd = navigate ? fxs_command_add_navigate(h, fxs_default_blend(), FXS_INT(40), &orca)
                     : fxs_command_add_orca(h, fxs_default_blend(), &orca, FXS_INT(40));
      fxs_world_apply(w, &cmd, 0);
      cmd = fxs_command_set_target_point(h, at(3200 + (int)(g % 2u) * 450, 200 + (int)g * 285));
      fxs_world_apply(w, &cmd, 0);
    }
  }
  return memory;
}

// Out of line, so that callgrind can collect inside it alone.
#if defined(__GNUC__)
__attribute__((noinline))
#endif
void bench_nav_crowd_run(fxs_world *world, uint32_t ticks) {
  for (uint32_t t = 0; t < ticks; ++t) fxs_world_step(world, 0, 0, 0);
}

// Warm-up: the first WARM ticks (every field built at 16384 cells a tick).
#define WARM 60u
// Timed ticks per repetition, and repetitions.
#define TICKS 20u
#define REPS 5

typedef struct side {
  fxs_world world;
  void *memory;
  uint8_t *saved;
  size_t size;
  double seconds[REPS];
} side;

static int open_side(side *s, int navigate, double (*now)(void), double *warm) {
  s->memory = open_scene(&s->world, navigate);
  if (!s->memory) return 0;
  double t0 = now();
  bench_nav_crowd_run(&s->world, WARM);
  *warm = now() - t0;
  s->size = 0;
  fxs_world_save(&s->world, 0, 0, &s->size);
  s->saved = malloc(s->size);
  return s->saved && fxs_world_save(&s->world, s->saved, s->size, &s->size) == FXS_OK;
}

static double timed(side *s, double (*now)(void)) {
  fxs_world_restore(&s->world, s->saved, s->size, 0);
  double t0 = now();
  bench_nav_crowd_run(&s->world, TICKS);
  return now() - t0;
}

static double median5(double *v) {
  for (int i = 0; i < REPS; ++i) {
    for (int j = i + 1; j < REPS; ++j) {
      if (v[j] < v[i]) {
        double t = v[i];
        v[i] = v[j], v[j] = t;
      }
    }
  }
  return v[REPS / 2];
}

void bench_nav_crowd_report(double (*now)(void)) {
  side nav, orca;
  double warm_nav = 0, warm_orca = 0;
  if (!open_side(&nav, 1, now, &warm_nav) || !open_side(&orca, 0, now, &warm_orca)) {
    printf("\n== navigate crowd: out of memory\n");
    return;
  }
  for (int r = 0; r < REPS; ++r) { // by turns, the first side alternating
    if (r % 2 == 0) {
      nav.seconds[r] = timed(&nav, now), orca.seconds[r] = timed(&orca, now);
    } else {
      orca.seconds[r] = timed(&orca, now), nav.seconds[r] = timed(&nav, now);
    }
  }
  double n = median5(nav.seconds) / TICKS, o = median5(orca.seconds) / TICKS;
  printf("\n== navigate crowd: %u agents, 8 groups to 8 shared goals across a split field\n",
         (unsigned)AGENTS);
  printf(
      "  ticks %u..%u, median of %d runs of %u ticks from a save (the first %u ticks "
      "build the fields)\n",
      (unsigned)WARM + 1u, (unsigned)(WARM + TICKS), REPS, (unsigned)TICKS, (unsigned)WARM);
  printf("  navigate (8 fields, %u x %u grid)  %8.3f ms a tick  %7.0f ns an agent\n",
         (unsigned)COLUMNS, (unsigned)ROWS, n * 1e3, n * 1e9 / AGENTS);
  printf("  arrive + orca (same agents, walls) %8.3f ms a tick  %7.0f ns an agent\n", o * 1e3,
         o * 1e9 / AGENTS);
  printf(
      "  navigate / (arrive + orca): %.2fx (target <= 2.0x); first %u ticks: %.1f ms "
      "against %.1f ms\n",
      n / o, (unsigned)WARM, warm_nav * 1e3, warm_orca * 1e3);
  free(nav.memory), free(nav.saved), free(orca.memory), free(orca.saved);
}

int bench_nav_crowd_kernel(int navigate, uint32_t ticks) {
  fxs_world w;
  void *memory = open_scene(&w, navigate);
  if (!memory) return 1;
  for (uint32_t t = 0; t < WARM; ++t) fxs_world_step(&w, 0, 0, 0);
  bench_nav_crowd_run(&w, ticks);
  printf("nav-crowd-%s: %u agents x %u ticks after %u = %llu agent-steps, hash %016llx\n",
         navigate ? "navigate" : "orca", (unsigned)AGENTS, (unsigned)ticks, (unsigned)WARM,
         (unsigned long long)AGENTS * ticks, (unsigned long long)fxs_world_hash(&w));
  free(memory);
  return 0;
}
