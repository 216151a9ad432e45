// The map-change section of fxs-bench: what a map change costs on a 1024 x 1024 navigation
// grid (4-unit cells, agents' radius 2) with 256 large obstacles standing (radius
// MAP_LARGE_RADIUS units, a 16 x 16 lattice 256 units apart, jittered, overlapping): one tick
// that adds a small obstacle (radius 8), one that removes it, a restore to the tick before the
// removal and the tick after it (a rollback), and the first tick of a world restored from
// nothing (every shape rasterized). Then the hostile tick: 65,535 add_wall commands of long
// walls between random points of the grid in one tick, of which a world of 4,096 wall slots
// accepts 4,096, at radius 2 and at radius 256 (fat walls), and 65,535 set_nav_costs of the
// whole grid in one tick. No agents: the figures are the map's work. Desktop only.
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "fixsteer/command_build.h"
#include "fixsteer/snapshot.h"

#define MAP_SIDE 1024u
#define MAP_CELL 4
#define MAP_LARGE 256u
#define MAP_LARGE_RADIUS 3072
#define MAP_WALLS 4096u
#define MAP_HOSTILE_COMMANDS 65535u
#define MAP_REPS 5
// The agents' radius of the second hostile tick, units (64 cells): fat walls.
#define MAP_HOSTILE_RADIUS 256

static fxs_vec2 at(int32_t x, int32_t y) { return fxs_vec2_make(FXS_INT(x), FXS_INT(y)); }

static uint32_t lcg(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

static fxs_world_capacity map_capacity(void) {
  fxs_world_capacity c = {0};
  c.obstacles = MAP_LARGE + 8u, c.walls = MAP_WALLS;
  c.nav_cells = MAP_SIDE * MAP_SIDE, c.nav_searches = 1, c.nav_open = 1024, c.nav_waypoints = 2;
  return c;
}

// An empty world with the grid set at this radius (malloc'd memory, returned; NULL on failure).
static void *open_map_radius(fxs_world *w, int32_t radius) {
  fxs_world_capacity c = map_capacity();
  size_t size = fxs_world_memory_size(&c);
  void *memory = size ? malloc(size) : 0;
  fxs_world_def def = fxs_default_world_def();
  def.bounds_max = at(MAP_SIDE * MAP_CELL, MAP_SIDE * MAP_CELL);
  if (!memory || fxs_world_init(w, &def, &c, memory, size) != FXS_OK) {
    free(memory);
    return 0;
  }
  fxs_command cmd = fxs_command_set_nav_grid(at(0, 0), FXS_INT(MAP_CELL), MAP_SIDE, MAP_SIDE,
                                             FXS_INT(radius), 1024);
  fxs_world_apply(w, &cmd, 0);
  return memory;
}

static void *open_map(fxs_world *w) { return open_map_radius(w, 2); }

static void add_large(fxs_world *w) {
  uint32_t s = 99;
  for (uint32_t i = 0; i < MAP_LARGE; ++i) {
    int32_t x = (int32_t)(i % 16u) * 256 + 128 + (int32_t)(lcg(&s) % 129u) - 64;
    int32_t y = (int32_t)(i / 16u) * 256 + 128 + (int32_t)(lcg(&s) % 129u) - 64;
    fxs_obstacle o = {at(x, y), FXS_INT(MAP_LARGE_RADIUS)};
    fxs_command cmd = fxs_command_add_obstacle(o);
    fxs_world_apply(w, &cmd, 0);
  }
}

static double timed_step(fxs_world *w, fxs_command *list, uint32_t n, double (*now)(void)) {
  double t0 = now();
  fxs_world_step(w, list, n, 0);
  return now() - t0;
}

// The median of `n` (sorted in place).
static double median(double *v, int n) {
  for (int i = 1; i < n; ++i) {
    for (int j = i; j > 0 && v[j - 1] > v[j]; --j) {
      double t = v[j];
      v[j] = v[j - 1], v[j - 1] = t;
    }
  }
  return v[n / 2];
}

static void change_rows(double (*now)(void)) {
  fxs_world w, fresh;
  void *memory = open_map(&w), *memory2 = open_map(&fresh);
  fxs_world_capacity c = map_capacity();
  size_t bound = fxs_world_snapshot_bound(&c);
  uint8_t *snap = malloc(bound);
  if (!memory || !memory2 || !snap) {
    free(memory), free(memory2), free(snap);
    return;
  }
  add_large(&w);
  double first = timed_step(&w, 0, 0, now); // every large obstacle rasterized once
  double add[MAP_REPS], rem[MAP_REPS], restore[MAP_REPS], after[MAP_REPS], full[MAP_REPS];
  int reps = first > 2.0 ? 1 : MAP_REPS; // a whole-map rasterization of seconds: one of each
  fxs_obstacle small = {at(1000, 1000), FXS_INT(8)};
  for (int r = 0; r < reps; ++r) {
    fxs_command cmd = fxs_command_add_obstacle(small);
    add[r] = timed_step(&w, &cmd, 1, now);
    size_t size = 0;
    fxs_world_save(&w, snap, bound, &size);
    cmd = fxs_command_remove_obstacle(MAP_LARGE); // the slot after the large ones
    rem[r] = timed_step(&w, &cmd, 1, now);
    double t0 = now();
    fxs_world_restore(&w, snap, size, 0); // back to the small obstacle standing
    restore[r] = now() - t0;
    after[r] = timed_step(&w, 0, 0, now);
    cmd = fxs_command_remove_obstacle(MAP_LARGE);
    fxs_world_step(&w, &cmd, 1, 0);
    fxs_world_restore(&fresh, snap, size, 0);
    full[r] = timed_step(&fresh, 0, 0, now);
    fxs_command clear = fxs_command_remove_nav_grid(); // forget: the next restore is anew
    fxs_world_apply(&fresh, &clear, 0);
  }
  // The largest single change: one obstacle blocking every cell, added then removed.
  fxs_obstacle whole = {at(2048, 2048), FXS_INT(3000)};
  fxs_command cmd = fxs_command_add_obstacle(whole);
  double whole_add = timed_step(&w, &cmd, 1, now);
  cmd = fxs_command_remove_obstacle(MAP_LARGE);
  double whole_remove = timed_step(&w, &cmd, 1, now);
  printf("\n== map changes, %u x %u navigation grid, %u obstacles of radius %d standing\n",
         MAP_SIDE, MAP_SIDE, MAP_LARGE, MAP_LARGE_RADIUS);
  printf("  first tick with them (all rasterized)   %9.2f ms\n", first * 1e3);
  printf("  tick adding one small obstacle          %9.3f ms\n", median(add, reps) * 1e3);
  printf("  tick removing it                        %9.3f ms\n", median(rem, reps) * 1e3);
  printf("  restore to the tick before the removal  %9.3f ms\n", median(restore, reps) * 1e3);
  printf("  the tick after that restore             %9.3f ms\n", median(after, reps) * 1e3);
  printf("  first tick after a restore into a fresh world %9.2f ms\n", median(full, reps) * 1e3);
  printf("  tick adding an obstacle over every cell  %9.3f ms, removing it %9.3f ms\n",
         whole_add * 1e3, whole_remove * 1e3);
  free(memory), free(memory2), free(snap);
}

// 65,535 add_wall commands of walls between random points of the grid in one tick, on a
// grid of this radius: the tick's time and the walls it accepted.
static void hostile_row(double (*now)(void), int32_t radius) {
  fxs_world w;
  void *memory = open_map_radius(&w, radius);
  fxs_command *list = malloc(MAP_HOSTILE_COMMANDS * sizeof *list);
  if (!memory || !list) {
    free(memory), free(list);
    return;
  }
  fxs_world_step(&w, 0, 0, 0);
  uint32_t s = 4242, span = MAP_SIDE * MAP_CELL;
  for (uint32_t i = 0; i < MAP_HOSTILE_COMMANDS; ++i) {
    fxs_wall wall = {at((int32_t)(lcg(&s) % span), (int32_t)(lcg(&s) % span)),
                     at((int32_t)(lcg(&s) % span), (int32_t)(lcg(&s) % span))};
    list[i] = fxs_command_add_wall(wall);
  }
  double t = timed_step(&w, list, MAP_HOSTILE_COMMANDS, now);
  uint32_t standing = 0;
  for (uint32_t i = 0; i < w.capacity.walls; ++i) standing += w.wall_alive[i];
  printf("  hostile tick, radius %4d: %u add_wall, %u accepted %9.2f ms\n", (int)radius,
         MAP_HOSTILE_COMMANDS, standing, t * 1e3);
  free(memory), free(list);
}

// 65,535 set_nav_costs of the whole grid in one tick (each writes every base cost).
static void hostile_costs_row(double (*now)(void)) {
  fxs_world w;
  void *memory = open_map(&w);
  fxs_command *list = malloc(MAP_HOSTILE_COMMANDS * sizeof *list);
  if (!memory || !list) {
    free(memory), free(list);
    return;
  }
  add_large(&w);
  fxs_world_step(&w, 0, 0, 0);
  for (uint32_t i = 0; i < MAP_HOSTILE_COMMANDS; ++i) {
    list[i] = fxs_command_set_nav_costs(0, 0, MAP_SIDE, MAP_SIDE, 1u + i % 254u);
  }
  double t = timed_step(&w, list, MAP_HOSTILE_COMMANDS, now);
  printf("  hostile tick: %u set_nav_costs of the whole grid %9.2f ms\n", MAP_HOSTILE_COMMANDS,
         t * 1e3);
  free(memory), free(list);
}

void bench_nav_map_report(double (*now)(void)) {
  change_rows(now);
  hostile_row(now, 2);
  hostile_row(now, MAP_HOSTILE_RADIUS);
  hostile_costs_row(now);
}
