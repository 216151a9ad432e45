// Navigation kernels: the integration field and A* on a 512 x 512 grid (integer-only).
#include "bench.h"

#include "fixsteer/nav_field.h"
#include "fixsteer/nav_path.h"

#include <stdlib.h>

// Cost 1 everywhere, vertical walls every 32 columns with a 16-cell door every 128 rows
// (offset by the column, so routes zig-zag), and mud (cost 4) in every other 64 x 64 block
// of the lower half.
void bench_nav_grid_fill(fxs_nav_grid *grid) {
  uint32_t side = BENCH_NAV_SIDE;
  for (uint32_t y = 0; y < side; ++y) {
    for (uint32_t x = 0; x < side; ++x) {
      uint8_t c = 1;
      if (y < side / 2 && ((x / 64u) + (y / 64u)) % 2u == 1u) c = 4;
      if (x % 32u == 16u && (y + x * 3u) % 128u >= 16u) c = FXS_NAV_BLOCKED;
      grid->cost[y * side + x] = c;
    }
  }
}

uint32_t bench_nav_field_run(fxs_nav_field *field, const fxs_nav_grid *grid, uint32_t goal,
                             uint32_t runs) {
  uint32_t settled = 0;
  for (uint32_t r = 0; r < runs; ++r) {
    fxs_nav_field_begin(field, grid, &goal, 1);
    fxs_nav_field_step(field, UINT32_MAX);
    settled += field->settled;
  }
  return settled;
}

// Searches between `count` seeded pairs of walkable cells; returns the cells expanded.
uint64_t bench_nav_astar_run(fxs_nav_search *search, const fxs_nav_grid *grid, uint32_t count) {
  uint64_t expanded = 0;
  uint32_t s = 12345u, side = BENCH_NAV_SIDE;
  for (uint32_t k = 0; k < count; ++k) {
    uint32_t a, b;
    do {
      s = s * 1664525u + 1013904223u;
      a = (s >> 8) % (side * side);
    } while (grid->cost[a] == FXS_NAV_BLOCKED);
    do {
      s = s * 1664525u + 1013904223u;
      b = (s >> 8) % (side * side);
    } while (grid->cost[b] == FXS_NAV_BLOCKED);
    fxs_nav_search_begin(search, grid, a % side, a / side, b % side, b / side);
    fxs_nav_search_step(search, grid, UINT32_MAX);
    expanded += search->expanded;
  }
  return expanded;
}

void bench_nav_free(bench_nav_box *b) {
  free(b->cost), free(b->field_memory), free(b->search_memory);
}

int bench_nav_open(bench_nav_box *b, int walls) {
  uint32_t side = BENCH_NAV_SIDE, cells = side * side;
  uint32_t field_cells = fxs_nav_field_cells(side, side);
  size_t fsize = fxs_nav_field_memory_size(field_cells);
  size_t ssize = fxs_nav_search_memory_size(cells, cells);
  b->cost = malloc(cells), b->field_memory = malloc(fsize), b->search_memory = malloc(ssize);
  if (!b->cost || !b->field_memory || !b->search_memory ||
      fxs_nav_grid_init(&b->grid, b->cost, cells, side, side, fxs_vec2_zero(), FXS_INT(8), 1) !=
          FXS_OK ||
      fxs_nav_field_init(&b->field, b->field_memory, fsize, field_cells) != FXS_OK ||
      fxs_nav_search_init(&b->search, b->search_memory, ssize, cells, cells) != FXS_OK) {
    bench_nav_free(b);
    return 0;
  }
  if (walls) bench_nav_grid_fill(&b->grid);
  return 1;
}
