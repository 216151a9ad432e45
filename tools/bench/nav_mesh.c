// The navigation mesh's build: N seeded random walls (1 to 64 units long) on a map 8,192
// units across, triangulated from scratch; time per wall and the block's size. Then the
// run-time changes on the built map: one wall removed (fxs_nav_mesh_remove_wall) and added
// back (fxs_nav_mesh_add_wall), for MESH_CHANGES walls spread over the array: median times
// against a full build, and the triangle slots each change rewrote.
#include "bench.h"

#include "fixsteer/nav_mesh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MESH_MAP_HALF BENCH_MESH_MAP_HALF
// Builds timed per row (the median is printed), and the most a kernel run may ask for.
#define MESH_REPS 5
#define MESH_MAX_REPS 25
// Walls removed and added back, one at a time, to time a change.
#define MESH_CHANGES 25

void bench_mesh_random_walls(fxs_wall *walls, uint32_t count) {
  uint32_t s = 2463534242u;
  for (uint32_t k = 0; k < count; ++k) {
    int32_t v[4];
    for (int i = 0; i < 4; ++i) {
      s ^= s << 13, s ^= s >> 17, s ^= s << 5;
      v[i] = (int32_t)(s >> 1);
    }
    int32_t ax = v[0] % (MESH_MAP_HALF - FXS_INT(64)), ay = v[1] % (MESH_MAP_HALF - FXS_INT(64));
    int32_t dx = v[2] % FXS_INT(64), dy = v[3] % FXS_INT(64);
    walls[k].a = fxs_vec2_make(ax, ay);
    walls[k].b = fxs_vec2_make(ax + dx, ay + dy);
  }
}

// Builds a mesh of `count` walls `reps` times; the median seconds of one build, or a
// negative value when the build fails. *mesh_out keeps the last mesh's counts.
static double build_median(uint32_t count, int reps, double (*now)(void), fxs_nav_mesh *mesh,
                           size_t *bytes) {
  fxs_wall *walls = malloc(sizeof *walls * (count ? count : 1));
  fxs_nav_mesh_capacity cap = {4u + 3u * count, 0};
  *bytes = fxs_nav_mesh_memory_size(&cap);
  void *memory = malloc(*bytes);
  double times[MESH_MAX_REPS], result = -1.0;
  fxs_vec2 lo = fxs_vec2_make(-MESH_MAP_HALF, -MESH_MAP_HALF);
  fxs_vec2 hi = fxs_vec2_make(MESH_MAP_HALF, MESH_MAP_HALF);
  if (walls && memory && reps <= MESH_MAX_REPS &&
      fxs_nav_mesh_init(mesh, &cap, lo, hi, memory, *bytes) == FXS_OK) {
    bench_mesh_random_walls(walls, count);
    int r = 0;
    for (; r < reps; ++r) {
      double t0 = now();
      if (fxs_nav_mesh_build(mesh, walls, count, NULL, 0, NULL) != FXS_OK) break;
      times[r] = now() - t0;
    }
    if (r == reps) result = bench_median(times, reps);
  }
  free(walls);
  free(memory);
  return result;
}

// Triangle slots whose bytes differ from the copy taken before a change (slots past the
// shorter array count too).
static uint32_t touched(const fxs_nav_mesh *mesh, const fxs_nav_triangle *before,
                        uint32_t before_count) {
  uint32_t n = 0,
           common = before_count < mesh->triangle_count ? before_count : mesh->triangle_count;
  for (uint32_t t = 0; t < common; ++t)
    n += memcmp(&before[t], &mesh->triangles[t], sizeof before[t]) != 0;
  return n + (before_count > common ? before_count - common : mesh->triangle_count - common);
}

static uint32_t median_u32(uint32_t *v, int n) {
  double d[MESH_CHANGES];
  for (int k = 0; k < n; ++k) d[k] = v[k];
  return (uint32_t)bench_median(d, n);
}

// On a built mesh of `count` walls: removes wall k and adds it back, for MESH_CHANGES walls.
// 0 on success.
int bench_mesh_changes(fxs_nav_mesh *mesh, const fxs_wall *walls, uint32_t count,
                       double (*now)(void), bench_mesh_change *out) {
  fxs_wall *rest = malloc(sizeof *rest * count);
  fxs_nav_triangle *copy = malloc(sizeof *copy * mesh->triangle_capacity);
  double rs[MESH_CHANGES], as[MESH_CHANGES];
  uint32_t rt[MESH_CHANGES], at[MESH_CHANGES], rsteps[MESH_CHANGES], asteps[MESH_CHANGES];
  int ok = rest && copy && count >= MESH_CHANGES;
  out->most_tri = 0;
  for (int c = 0; ok && c < MESH_CHANGES; ++c) {
    uint32_t k = (uint32_t)c * (count / MESH_CHANGES);
    memcpy(rest, walls, sizeof *rest * k);
    memcpy(rest + k, walls + k + 1, sizeof *rest * (count - k - 1));
    uint32_t before = mesh->triangle_count;
    memcpy(copy, mesh->triangles, sizeof *copy * before);
    double t0 = now();
    ok = fxs_nav_mesh_remove_wall(mesh, &walls[k], rest, count - 1, NULL, 0) == FXS_OK;
    rs[c] = now() - t0;
    rt[c] = touched(mesh, copy, before);
    rsteps[c] = mesh->last_steps;
    before = mesh->triangle_count;
    memcpy(copy, mesh->triangles, sizeof *copy * before);
    t0 = now();
    ok = ok && fxs_nav_mesh_add_wall(mesh, &walls[k]) == FXS_OK;
    as[c] = now() - t0;
    at[c] = touched(mesh, copy, before);
    asteps[c] = mesh->last_steps;
    if (rt[c] > out->most_tri) out->most_tri = rt[c];
    if (at[c] > out->most_tri) out->most_tri = at[c];
  }
  if (ok) {
    out->remove_s = bench_median(rs, MESH_CHANGES);
    out->add_s = bench_median(as, MESH_CHANGES);
    out->remove_tri = median_u32(rt, MESH_CHANGES);
    out->add_tri = median_u32(at, MESH_CHANGES);
    out->remove_steps = median_u32(rsteps, MESH_CHANGES);
    out->add_steps = median_u32(asteps, MESH_CHANGES);
  }
  free(rest);
  free(copy);
  return ok ? 0 : 1;
}

// Builds the map of `count` walls once and measures its changes against build_s.
static void report_changes(uint32_t count, double build_s, double (*now)(void)) {
  fxs_wall *walls = malloc(sizeof *walls * count);
  fxs_nav_mesh_capacity cap = {4u + 3u * count, 0};
  size_t bytes = fxs_nav_mesh_memory_size(&cap);
  void *memory = malloc(bytes);
  fxs_nav_mesh mesh;
  bench_mesh_change st;
  fxs_vec2 lo = fxs_vec2_make(-MESH_MAP_HALF, -MESH_MAP_HALF);
  fxs_vec2 hi = fxs_vec2_make(MESH_MAP_HALF, MESH_MAP_HALF);
  if (walls && memory && fxs_nav_mesh_init(&mesh, &cap, lo, hi, memory, bytes) == FXS_OK &&
      (bench_mesh_random_walls(walls, count), 1) &&
      fxs_nav_mesh_build(&mesh, walls, count, NULL, 0, NULL) == FXS_OK &&
      bench_mesh_changes(&mesh, walls, count, now, &st) == 0) {
    printf("  %6u  remove %8.2f us (%5.2f %% of a build, %4u triangles, %5u steps)\n",
           (unsigned)count, st.remove_s * 1e6, 100.0 * st.remove_s / build_s,
           (unsigned)st.remove_tri, (unsigned)st.remove_steps);
    printf(
        "  %6s  add    %8.2f us (%5.2f %% of a build, %4u triangles, %5u steps); "
        "most triangles one change touched: %u\n",
        "", st.add_s * 1e6, 100.0 * st.add_s / build_s, (unsigned)st.add_tri,
        (unsigned)st.add_steps, (unsigned)st.most_tri);
  } else {
    printf("  %6u  change failed\n", (unsigned)count);
  }
  free(walls);
  free(memory);
}

void bench_nav_mesh_report(double (*now)(void)) {
  static const uint32_t counts[] = {100u, 500u, 2000u};
  printf(
      "\n== navigation mesh build (fxs_nav_mesh_build): N random walls, 1-64 units long,\n"
      "   on a map 8,192 units across, from scratch\n");
  printf("  %6s  %8s  %9s  %10s  %10s  %11s\n", "walls", "vertices", "triangles", "build ms",
         "us/wall", "block bytes");
  double builds[sizeof counts / sizeof counts[0]] = {0};
  for (unsigned k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
    fxs_nav_mesh mesh;
    size_t bytes;
    double s = build_median(counts[k], MESH_REPS, now, &mesh, &bytes);
    if (s < 0) {
      printf("  %6u  build failed\n", (unsigned)counts[k]);
      continue;
    }
    printf("  %6u  %8u  %9u  %10.2f  %10.2f  %11zu\n", (unsigned)counts[k],
           (unsigned)mesh.vertex_count, (unsigned)mesh.triangle_count, s * 1e3, s * 1e6 / counts[k],
           bytes);
    builds[k] = s;
  }
  printf(
      "\n== navigation mesh change: one wall removed (fxs_nav_mesh_remove_wall) and added back\n"
      "   (fxs_nav_mesh_add_wall), median of %d walls of the map above; triangles: slots "
      "rewritten\n",
      MESH_CHANGES);
  for (unsigned k = 0; k < sizeof counts / sizeof counts[0]; ++k)
    if (builds[k] > 0) report_changes(counts[k], builds[k], now);
  bench_nav_mesh_route_report(now);
  bench_nav_mesh_grid_report(now);
}

int bench_nav_mesh_kernel(uint32_t walls, uint32_t runs, double (*now)(void)) {
  fxs_nav_mesh mesh;
  size_t bytes;
  double s = build_median(walls,
                          runs < 1               ? 1
                          : runs > MESH_MAX_REPS ? MESH_MAX_REPS
                                                 : (int)runs,
                          now, &mesh, &bytes);
  if (s < 0) return 1;
  const char *svg = getenv("FXS_BENCH_MESH_SVG"); // draw the mesh and routes, then stop
  if (svg) return bench_nav_mesh_route_svg(svg);
  bench_nav_mesh_route_report(now);
  printf("nav-mesh: %u walls, %u vertices, %u triangles, %zu bytes, %.2f ms a build\n",
         (unsigned)walls, (unsigned)mesh.vertex_count, (unsigned)mesh.triangle_count, bytes,
         s * 1e3);
  if (walls >= MESH_CHANGES) report_changes(walls, s, now);
  return 0;
}
