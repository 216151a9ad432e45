// Route searches on the navigation mesh against the grid's A* on the same map: a 128 x 128
// grid map in the style of the MovingAI benchmarks (a quarter of the cells blocked, cells
// touching only at a corner joined), as grid cells and as mesh walls round the blocked
// cells; the same random start and goal pairs on both. Also draws the mesh and a few routes
// as SVG (FXS_BENCH_MESH_SVG=file with the nav-mesh kernel).
#include "bench.h"

#include "fixsteer/nav_grid.h"
#include "fixsteer/nav_mesh.h"
#include "fixsteer/nav_mesh_route.h"
#include "fixsteer/nav_path.h"

#include <stdio.h>
#include <stdlib.h>

#define SIDE 128u
#define SEARCHES 200u
#define MAX_POINTS 4096u

typedef struct route_map {
  uint8_t cost[SIDE * SIDE];
  fxs_wall *walls;
  uint32_t wall_count;
  fxs_nav_grid grid;
  fxs_nav_mesh mesh;
  void *mesh_memory;
  size_t mesh_bytes;
} route_map;

static uint32_t rng = 2463534242u;
static uint32_t next(void) {
  rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
  return rng;
}

static int blocked(const route_map *m, int x, int y) { return m->cost[y * SIDE + x] == 0; }

static void add_wall(route_map *m, int x0, int y0, int x1, int y1) {
  fxs_wall *w = &m->walls[m->wall_count++];
  w->a = fxs_vec2_make(FXS_INT(x0), FXS_INT(y0));
  w->b = fxs_vec2_make(FXS_INT(x1), FXS_INT(y1));
}

// Cells kept free (the picture's route ends), -1 terminated pairs.
static const int *keep_free;

static int make_map(route_map *m, uint32_t side) {
  if (fxs_nav_grid_init(&m->grid, m->cost, SIDE * SIDE, side, side, fxs_vec2_zero(), FXS_INT(1),
                        1) != FXS_OK)
    return 0;
  for (uint32_t i = 0; i < side * side; i++) m->cost[i] = (next() % 4u) ? 1u : 0u;
  for (const int *k = keep_free; k && k[0] >= 0; k += 2) m->cost[k[1] * (int)side + k[0]] = 1;
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t y = 0; y + 1 < side; y++)
      for (uint32_t x = 0; x + 1 < side; x++) {
        uint8_t *c = m->cost;
        int a = !c[y * side + x], b = !c[y * side + x + 1], d = !c[(y + 1) * side + x],
            e = !c[(y + 1) * side + x + 1];
        if (a && e && !b && !d) c[y * side + x + 1] = 0, changed = 1;
        if (b && d && !a && !e) c[y * side + x] = 0, changed = 1;
      }
  }
  m->wall_count = 0;
  m->walls = malloc(sizeof *m->walls * 4u * side * side);
  if (!m->walls) return 0;
  for (int y = 0; y < (int)side; y++)
    for (int x = 0; x < (int)side; x++) {
      if (!(m->cost[y * side + x] == 0)) continue;
      if (x + 1 < (int)side && m->cost[y * side + x + 1]) add_wall(m, x + 1, y, x + 1, y + 1);
      if (x > 0 && m->cost[y * side + x - 1]) add_wall(m, x, y, x, y + 1);
      if (y + 1 < (int)side && m->cost[(y + 1) * side + x]) add_wall(m, x, y + 1, x + 1, y + 1);
      if (y > 0 && m->cost[(y - 1) * side + x]) add_wall(m, x, y, x + 1, y);
    }
  fxs_nav_mesh_capacity cap = {(side + 1u) * (side + 1u) + 8u, 0};
  m->mesh_bytes = fxs_nav_mesh_memory_size(&cap);
  m->mesh_memory = malloc(m->mesh_bytes);
  if (!m->mesh_memory || fxs_nav_mesh_init(&m->mesh, &cap, fxs_vec2_zero(),
                                           fxs_vec2_make(FXS_INT(side), FXS_INT(side)),
                                           m->mesh_memory, m->mesh_bytes) != FXS_OK)
    return 0;
  return fxs_nav_mesh_build(&m->mesh, m->walls, m->wall_count, NULL, 0, NULL) == FXS_OK;
}

static void free_map(route_map *m) {
  free(m->walls);
  free(m->mesh_memory);
}

static void free_cell(const route_map *m, uint32_t side, uint32_t *x, uint32_t *y) {
  do {
    *x = next() % side;
    *y = next() % side;
  } while (m->cost[*y * side + *x] == 0);
  (void)blocked;
}

void bench_nav_mesh_route_report(double (*now)(void)) {
  static route_map m;
  if (!make_map(&m, SIDE)) {
    printf("\n== mesh routes: map failed\n");
    free_map(&m);
    return;
  }
  uint32_t tc = m.mesh.triangle_count;
  size_t rbytes = fxs_mesh_route_memory_size(tc, tc);
  size_t gbytes = fxs_nav_search_memory_size(SIDE * SIDE, SIDE * SIDE);
  void *rmem = malloc(rbytes), *gmem = malloc(gbytes);
  fxs_mesh_route route;
  fxs_nav_search search;
  if (!rmem || !gmem || fxs_mesh_route_init(&route, rmem, rbytes, tc, tc) != FXS_OK ||
      fxs_nav_search_init(&search, gmem, gbytes, SIDE * SIDE, SIDE * SIDE) != FXS_OK) {
    printf("\n== mesh routes: memory failed\n");
    free(rmem), free(gmem), free_map(&m);
    return;
  }
  static fxs_vec2 points[MAX_POINTS];
  static uint32_t cells[SIDE * SIDE];
  double t_mesh = 0, t_grid = 0, t_point = 0;
  uint64_t tris = 0, expanded_cells = 0, point_expanded = 0;
  for (uint32_t k = 0; k < SEARCHES; k++) {
    uint32_t sx, sy, gx, gy;
    free_cell(&m, SIDE, &sx, &sy);
    free_cell(&m, SIDE, &gx, &gy);
    fxs_vec2 s = fxs_nav_grid_cell_center(&m.grid, sx, sy);
    fxs_vec2 g = fxs_nav_grid_cell_center(&m.grid, gx, gy);
    double t0 = now();
    fxs_mesh_route_begin(&route, &m.mesh, s, g, FXS_INT(1) / 4);
    fxs_mesh_route_step(&route, &m.mesh, UINT32_MAX);
    fxs_mesh_route_points(&route, &m.mesh, points, MAX_POINTS);
    double t1 = now();
    tris += route.expanded;
    fxs_nav_search_begin(&search, &m.grid, sx, sy, gx, gy);
    fxs_nav_search_step(&search, &m.grid, UINT32_MAX);
    uint32_t n = fxs_nav_search_path(&search, cells, SIDE * SIDE);
    fxs_nav_pull_string(&m.grid, cells, n < SIDE * SIDE ? n : SIDE * SIDE);
    double t2 = now();
    fxs_mesh_route_begin(&route, &m.mesh, s, g, 0); // a point body: the exact search too
    fxs_mesh_route_step(&route, &m.mesh, UINT32_MAX);
    fxs_mesh_route_points(&route, &m.mesh, points, MAX_POINTS);
    double t3 = now();
    t_point += t3 - t2;
    point_expanded += route.expanded;
    t_mesh += t1 - t0;
    t_grid += t2 - t1;
    expanded_cells += search.expanded;
  }
  printf(
      "\n== route searches, mesh (nav_mesh_route, radius 0.25; mesh0: radius 0, the exact search)\n"
      "   against grid (nav_path A* and string pulling) on the same %u x %u grid map, a quarter\n"
      "   blocked; %u searches (expanded: triangles, then corner sectors for mesh0)\n",
      SIDE, SIDE, SEARCHES);
  printf("  %5s  %9s  %9s  %12s  %12s  %11s\n", "kind", "nodes", "us/search", "expanded/srch",
         "ns/expanded", "block bytes");
  printf("  %5s  %9u  %9.1f  %12.1f  %12.1f  %11zu\n", "mesh", (unsigned)tc,
         t_mesh * 1e6 / SEARCHES, (double)tris / SEARCHES, t_mesh * 1e9 / (double)(tris ? tris : 1),
         m.mesh_bytes + rbytes);
  printf("  %5s  %9u  %9.1f  %12.1f  %12.1f  %11zu\n", "mesh0", (unsigned)tc,
         t_point * 1e6 / SEARCHES, (double)point_expanded / SEARCHES,
         t_point * 1e9 / (double)(point_expanded ? point_expanded : 1), m.mesh_bytes + rbytes);
  printf("  %5s  %9u  %9.1f  %12.1f  %12.1f  %11zu\n", "grid", SIDE * SIDE, t_grid * 1e6 / SEARCHES,
         (double)expanded_cells / SEARCHES,
         t_grid * 1e9 / (double)(expanded_cells ? expanded_cells : 1),
         (size_t)SIDE * SIDE + gbytes);
  free(rmem), free(gmem), free_map(&m);
}

// ---- The picture ------------------------------------------------------------------------

static double U(fix16_t v) { return v / 65536.0; }

int bench_nav_mesh_route_svg(const char *path) {
  static route_map m;
  const uint32_t side = 32u;
  static const int ends[] = {0, 0, 31, 31, 0, 31, 31, 0, 15, 0, 15, 31, -1};
  rng = 12345u;
  keep_free = ends;
  int ok = make_map(&m, side);
  keep_free = NULL;
  if (!ok) return 1;
  uint32_t tc = m.mesh.triangle_count;
  size_t rbytes = fxs_mesh_route_memory_size(tc, tc);
  void *rmem = malloc(rbytes);
  fxs_mesh_route route;
  FILE *f = fopen(path, "w");
  if (!rmem || !f || fxs_mesh_route_init(&route, rmem, rbytes, tc, tc) != FXS_OK) {
    free(rmem), free_map(&m);
    if (f) fclose(f);
    return 1;
  }
  const double k = 20.0, h = side * k;
  fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%u' height='%u'>\n",
          (unsigned)(side * k), (unsigned)(side * k));
  fprintf(f, "<rect width='100%%' height='100%%' fill='white'/>\n");
  for (uint32_t y = 0; y < side; y++)
    for (uint32_t x = 0; x < side; x++)
      if (m.cost[y * side + x] == 0)
        fprintf(f, "<rect x='%g' y='%g' width='%g' height='%g' fill='#bbb'/>\n", x * k,
                h - (y + 1) * k, k, k);
  for (uint32_t t = 0; t < tc; t++) {
    const fxs_nav_triangle *tr = &m.mesh.triangles[t];
    for (int i = 0; i < 3; i++) {
      fxs_vec2 a = m.mesh.vertices[tr->v[(i + 1) % 3]], b = m.mesh.vertices[tr->v[(i + 2) % 3]];
      int wall = (tr->constrained >> i) & 1;
      fprintf(f, "<line x1='%g' y1='%g' x2='%g' y2='%g' stroke='%s' stroke-width='%g'/>\n",
              U(a.x) * k, h - U(a.y) * k, U(b.x) * k, h - U(b.y) * k, wall ? "black" : "#8ac",
              wall ? 2.0 : 0.5);
    }
  }
  static const double starts[][4] = {
      {0.5, 0.5, 31.5, 31.5}, {0.5, 31.5, 31.5, 0.5}, {15.5, 0.5, 15.5, 31.5}};
  static const char *colors[] = {"#d22", "#2a2"};
  static fxs_vec2 points[MAX_POINTS];
  for (int q = 0; q < 3; q++)
    for (int ri = 0; ri < 2; ri++) {
      fix16_t r = ri ? FXS_INT(2) / 5 : 0;
      fxs_vec2 s = fxs_vec2_make(fix16_from_dbl(starts[q][0]), fix16_from_dbl(starts[q][1]));
      fxs_vec2 g = fxs_vec2_make(fix16_from_dbl(starts[q][2]), fix16_from_dbl(starts[q][3]));
      if (fxs_mesh_route_begin(&route, &m.mesh, s, g, r) != FXS_OK) continue;
      fxs_mesh_route_step(&route, &m.mesh, UINT32_MAX);
      uint32_t n = fxs_mesh_route_points(&route, &m.mesh, points, MAX_POINTS);
      fprintf(f,
              "<polyline fill='none' stroke='%s' stroke-width='%g' stroke-opacity='0.6' "
              "points='",
              colors[ri], ri ? U(r) * 2 * k : 2.0);
      for (uint32_t i = 0; i < n && i < MAX_POINTS; i++)
        fprintf(f, "%g,%g ", U(points[i].x) * k, h - U(points[i].y) * k);
      fprintf(f, "'/>\n");
      if (ri)
        for (uint32_t i = 0; i < n && i < MAX_POINTS; i++)
          fprintf(f, "<circle cx='%g' cy='%g' r='2' fill='black'/>\n", U(points[i].x) * k,
                  h - U(points[i].y) * k);
    }
  fprintf(f, "</svg>\n");
  fclose(f);
  free(rmem), free_map(&m);
  return 0;
}
