// The navigation mesh's build: N seeded random walls (1 to 64 units long) on a map 8,192
// units across, triangulated from scratch; time per wall and the block's size.
#include "bench.h"

#include "fixsteer/nav_mesh.h"

#include <stdio.h>
#include <stdlib.h>

#define MESH_MAP_HALF FXS_INT(4096)
// Builds timed per row (the median is printed), and the most a kernel run may ask for.
#define MESH_REPS 5
#define MESH_MAX_REPS 25

static void random_walls(fxs_wall *walls, uint32_t count) {
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
    random_walls(walls, count);
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

void bench_nav_mesh_report(double (*now)(void)) {
  static const uint32_t counts[] = {100u, 500u, 2000u};
  printf(
      "\n== navigation mesh build (fxs_nav_mesh_build): N random walls, 1-64 units long,\n"
      "   on a map 8,192 units across, from scratch\n");
  printf("  %6s  %8s  %9s  %10s  %10s  %11s\n", "walls", "vertices", "triangles", "build ms",
         "us/wall", "block bytes");
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
  }
  bench_nav_mesh_route_report(now);
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
  return 0;
}
