// The navigation mesh against the grid on the same maps: the mesh section's N random walls
// (1 to 64 units long, 8,192 units across), as a mesh (fxs_nav_mesh) and as a grid world of
// 1,024 x 1,024 cells of 8 units covering the whole map, walls blocked at the agents' radius
// (GRID_RADIUS; the grid world's own rasterization, world_nav_raster.c). For each:
// - build: the mesh from scratch (fxs_nav_mesh_build); the grid: the tick after set_nav_grid,
//   every wall rasterized;
// - change: one wall removed, then added back, medians of 25 walls spread over the array
//   (the mesh: fxs_nav_mesh_remove_wall / add_wall; the grid: a tick with remove_wall, then one
//   with add_wall, the world updating only that wall's cells);
// - search: SEARCH_PAIRS random start and goal points, the same on both, for a body of radius
//   GRID_RADIUS, run to the end and turned into corners (fxs_mesh_route_step and
//   fxs_mesh_route_points; fxs_nav_search_step and fxs_nav_pull_string);
// - memory: the bytes navigation adds to a world of that kind with the map's wall slots and
//   one search (fxs_world_memory_size with and without it).
#include "bench.h"

#include "fixsteer/command_build.h"
#include "fixsteer/nav_mesh_route.h"
#include "fixsteer/nav_path.h"

#include <stdio.h>
#include <stdlib.h>

#define GRID_SIDE 1024u
#define GRID_CELL 8
#define GRID_RADIUS 4
#define GRID_REPS 5
#define GRID_CHANGES 25
#define SEARCH_PAIRS 50u
#define MAX_POINTS 4096u

typedef struct side_row {
  uint32_t nodes;                       // triangles or cells
  double build_s, remove_s, add_s;      // medians
  double search_s, expanded, waypoints; // means of a search
  size_t bytes;                         // navigation memory of a world
  double tick_s;                        // the grid world: the median tick with no command
} side_row;

static fxs_world_capacity no_nav(uint32_t walls) {
  fxs_world_capacity c = {0};
  c.walls = walls;
  return c;
}

static fxs_world_capacity grid_capacity(uint32_t walls) {
  fxs_world_capacity c = no_nav(walls);
  c.nav_cells = GRID_SIDE * GRID_SIDE, c.nav_searches = 1, c.nav_open = c.nav_cells;
  c.nav_waypoints = 2;
  return c;
}

static fxs_world_capacity mesh_capacity(uint32_t walls) {
  fxs_world_capacity c = no_nav(walls);
  c.nav_kind = FXS_NAV_KIND_MESH, c.nav_mesh_vertices = 4u + 3u * walls;
  c.nav_searches = 1, c.nav_open = 2u * c.nav_mesh_vertices - 6u, c.nav_waypoints = 2;
  return c;
}

static size_t nav_bytes(fxs_world_capacity with, uint32_t walls) {
  fxs_world_capacity without = no_nav(walls);
  return fxs_world_memory_size(&with) - fxs_world_memory_size(&without);
}

static double timed_step(fxs_world *w, fxs_command *list, uint32_t n, double (*now)(void)) {
  double t0 = now();
  fxs_world_step(w, list, n, 0);
  return now() - t0;
}

static fxs_command grid_command(void) {
  return fxs_command_set_nav_grid(fxs_vec2_make(-BENCH_MESH_MAP_HALF, -BENCH_MESH_MAP_HALF),
                                  FXS_INT(GRID_CELL), GRID_SIDE, GRID_SIDE, FXS_INT(GRID_RADIUS),
                                  1024);
}

// Random points on free grid cells (a body can stand there on both), the same every call.
static void search_pairs(const fxs_nav_grid *grid, fxs_vec2 *points) {
  uint32_t s = 88172645u;
  for (uint32_t k = 0; k < 2u * SEARCH_PAIRS; ++k) {
    uint32_t cx, cy;
    do {
      s ^= s << 13, s ^= s >> 17, s ^= s << 5;
      cx = (s >> 8) % GRID_SIDE;
      s ^= s << 13, s ^= s >> 17, s ^= s << 5;
      cy = (s >> 8) % GRID_SIDE;
    } while (fxs_nav_grid_cost(grid, cx, cy) == FXS_NAV_BLOCKED);
    points[k] = fxs_nav_grid_cell_center(grid, cx, cy);
  }
}

// The grid world of these walls: build, change and search. 0 on success; `points` receives
// the search pairs (chosen on its grid).
static int grid_side(const fxs_wall *walls, uint32_t count, double (*now)(void), side_row *row,
                     fxs_vec2 *points) {
  fxs_world_capacity c = grid_capacity(count);
  size_t size = fxs_world_memory_size(&c);
  void *memory = size ? malloc(size) : 0;
  size_t sbytes = fxs_nav_search_memory_size(c.nav_cells, c.nav_cells);
  void *smemory = malloc(sbytes);
  uint32_t *cells = malloc(sizeof *cells * c.nav_cells);
  fxs_world_def def = fxs_default_world_def();
  def.bounds_min = fxs_vec2_make(-BENCH_MESH_MAP_HALF, -BENCH_MESH_MAP_HALF);
  def.bounds_max = fxs_vec2_make(BENCH_MESH_MAP_HALF, BENCH_MESH_MAP_HALF);
  fxs_world w;
  fxs_nav_search search;
  int ok = memory && smemory && cells && fxs_world_init(&w, &def, &c, memory, size) == FXS_OK &&
           fxs_nav_search_init(&search, smemory, sbytes, c.nav_cells, c.nav_cells) == FXS_OK;
  for (uint32_t i = 0; ok && i < count; ++i) {
    fxs_command cmd = fxs_command_add_wall(walls[i]);
    ok = fxs_world_apply(&w, &cmd, 0) == FXS_OK;
  }
  double builds[GRID_REPS], removes[GRID_CHANGES], adds[GRID_CHANGES];
  for (int r = 0; ok && r < GRID_REPS; ++r) {
    fxs_command cmd = grid_command();
    double t0 = now();
    ok = fxs_world_apply(&w, &cmd, 0) == FXS_OK;
    fxs_world_step(&w, 0, 0, 0);
    builds[r] = now() - t0;
  }
  for (int k = 0; ok && k < GRID_CHANGES; ++k) {
    uint32_t slot = (uint32_t)k * (count / GRID_CHANGES);
    fxs_command cmd = fxs_command_remove_wall(slot);
    removes[k] = timed_step(&w, &cmd, 1, now);
    ok = !w.wall_alive[slot];
    cmd = fxs_command_add_wall(walls[slot]);
    adds[k] = timed_step(&w, &cmd, 1, now);
    ok = ok && w.wall_alive[slot]; // back in its slot: the next removal finds it
  }
  double ticks[GRID_CHANGES];
  for (int k = 0; ok && k < GRID_CHANGES; ++k) ticks[k] = timed_step(&w, 0, 0, now);
  if (ok) {
    row->nodes = c.nav_cells;
    row->build_s = bench_median(builds, GRID_REPS);
    row->remove_s = bench_median(removes, GRID_CHANGES);
    row->add_s = bench_median(adds, GRID_CHANGES);
    row->tick_s = bench_median(ticks, GRID_CHANGES);
    row->bytes = nav_bytes(c, count);
    search_pairs(&w.nav.grid, points);
    double total = 0, expanded = 0, corners = 0;
    for (uint32_t k = 0; k < SEARCH_PAIRS; ++k) {
      uint32_t sx, sy, gx, gy;
      fxs_nav_grid_cell_of(&w.nav.grid, points[2 * k], &sx, &sy);
      fxs_nav_grid_cell_of(&w.nav.grid, points[2 * k + 1], &gx, &gy);
      double t0 = now();
      fxs_nav_search_begin(&search, &w.nav.grid, sx, sy, gx, gy);
      fxs_nav_search_step(&search, &w.nav.grid, UINT32_MAX);
      uint32_t n = fxs_nav_search_path(&search, cells, c.nav_cells);
      n = fxs_nav_pull_string(&w.nav.grid, cells, n);
      total += now() - t0;
      expanded += search.expanded, corners += n;
    }
    row->search_s = total / SEARCH_PAIRS;
    row->expanded = expanded / SEARCH_PAIRS;
    row->waypoints = corners / SEARCH_PAIRS;
  }
  free(memory), free(smemory), free(cells);
  return ok ? 0 : 1;
}

// The mesh of these walls: build, change and search between the grid's points. 0 on success.
static int mesh_side(const fxs_wall *walls, uint32_t count, double (*now)(void), side_row *row,
                     const fxs_vec2 *points) {
  fxs_nav_mesh_capacity cap = {4u + 3u * count, 0};
  size_t bytes = fxs_nav_mesh_memory_size(&cap);
  void *memory = malloc(bytes);
  uint32_t tcap = 2u * cap.vertices;
  size_t rbytes = fxs_mesh_route_memory_size(tcap, tcap);
  void *rmemory = malloc(rbytes);
  static fxs_vec2 corners[MAX_POINTS];
  fxs_vec2 lo = fxs_vec2_make(-BENCH_MESH_MAP_HALF, -BENCH_MESH_MAP_HALF);
  fxs_vec2 hi = fxs_vec2_make(BENCH_MESH_MAP_HALF, BENCH_MESH_MAP_HALF);
  fxs_nav_mesh mesh;
  fxs_mesh_route route;
  bench_mesh_change change;
  double builds[GRID_REPS];
  int ok = memory && rmemory && fxs_nav_mesh_init(&mesh, &cap, lo, hi, memory, bytes) == FXS_OK &&
           fxs_mesh_route_init(&route, rmemory, rbytes, tcap, tcap) == FXS_OK;
  for (int r = 0; ok && r < GRID_REPS; ++r) {
    double t0 = now();
    ok = fxs_nav_mesh_build(&mesh, walls, count, NULL, 0, NULL) == FXS_OK;
    builds[r] = now() - t0;
  }
  ok = ok && bench_mesh_changes(&mesh, walls, count, now, &change) == 0;
  if (ok) {
    row->nodes = mesh.triangle_count;
    row->build_s = bench_median(builds, GRID_REPS);
    row->remove_s = change.remove_s, row->add_s = change.add_s;
    row->bytes = nav_bytes(mesh_capacity(count), count);
    double total = 0, expanded = 0, waypoints = 0;
    for (uint32_t k = 0; ok && k < SEARCH_PAIRS; ++k) {
      double t0 = now();
      ok = fxs_mesh_route_begin(&route, &mesh, points[2 * k], points[2 * k + 1],
                                FXS_INT(GRID_RADIUS)) == FXS_OK;
      fxs_mesh_route_step(&route, &mesh, UINT32_MAX);
      uint32_t n = fxs_mesh_route_points(&route, &mesh, corners, MAX_POINTS);
      total += now() - t0;
      expanded += route.expanded, waypoints += n;
    }
    row->search_s = total / SEARCH_PAIRS;
    row->expanded = expanded / SEARCH_PAIRS;
    row->waypoints = waypoints / SEARCH_PAIRS;
  }
  free(memory), free(rmemory);
  return ok ? 0 : 1;
}

static void print_row(uint32_t walls, const char *kind, const side_row *r) {
  double change = r->remove_s > r->add_s ? r->remove_s : r->add_s;
  char tick[16] = "-";
  if (r->tick_s > 0) snprintf(tick, sizeof tick, "%.2f", r->tick_s * 1e6);
  printf(
      "  %6u  %4s  %9u  %9.2f  %8.2f  %8.2f  %9.2f  %8.2f  %7s  %7.3f %%  %9.1f  %9.1f  %6.1f  "
      "%11zu\n",
      (unsigned)walls, kind, (unsigned)r->nodes, r->build_s * 1e3, r->build_s * 1e6 / walls,
      r->build_s * 1e9 / r->nodes, r->remove_s * 1e6, r->add_s * 1e6, tick,
      100.0 * change / r->build_s, r->search_s * 1e6, r->expanded, r->waypoints, r->bytes);
}

void bench_nav_mesh_grid_report(double (*now)(void)) {
  static const uint32_t counts[] = {100u, 500u, 2000u};
  printf(
      "\n== navigation mesh against the grid on the same maps (the N random walls above):\n"
      "   grid: a grid world of %u x %u cells of %d units (the whole map), walls blocked at\n"
      "   radius %d; build: the tick after set_nav_grid; change: a tick removing one wall, one\n"
      "   adding it back (median of %d walls; the mesh: remove_wall / add_wall; tick us: the\n"
      "   grid world's tick with no command, part of both); change %%: the larger against a\n"
      "   build; search: %u random start-goal pairs (the same on both), radius %d, to the\n"
      "   end, corners (expanded: triangles or cells); memory: the navigation bytes of a world\n"
      "   with these walls and one search\n",
      GRID_SIDE, GRID_SIDE, GRID_CELL, GRID_RADIUS, GRID_CHANGES, SEARCH_PAIRS, GRID_RADIUS);
  printf("  %6s  %4s  %9s  %9s  %8s  %8s  %9s  %8s  %7s  %9s  %9s  %9s  %6s  %11s\n", "walls",
         "kind", "nodes", "build ms", "us/wall", "ns/node", "remove us", "add us", "tick us",
         "change", "search us", "expanded", "points", "memory B");
  static fxs_vec2 points[2u * SEARCH_PAIRS];
  for (unsigned k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
    uint32_t n = counts[k];
    fxs_wall *walls = malloc(sizeof *walls * n);
    side_row grid = {0}, mesh = {0};
    if (!walls) return;
    bench_mesh_random_walls(walls, n);
    if (grid_side(walls, n, now, &grid, points) == 0 &&
        mesh_side(walls, n, now, &mesh, points) == 0) {
      print_row(n, "mesh", &mesh);
      print_row(n, "grid", &grid);
    } else {
      printf("  %6u  failed\n", (unsigned)n);
    }
    free(walls);
  }
}
