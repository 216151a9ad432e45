// Internal: the cell that holds a point on a navigation grid (fxs_nav_grid_cell_of, nav_grid.h),
// inline for the step's passes over every navigate agent, which each ask it of the agent's
// position, several times a tick. One implementation: the API's function is this one. Not
// part of the API.
#ifndef FIXSTEER_NAV_GRID_CELL_H
#define FIXSTEER_NAV_GRID_CELL_H

#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/nav_grid.h"
#include "isqrt.h"

/// floor(a / b) for b > 0 and |a| < 2^62, by division (nav_grid.c).
int64_t fxs_nav_floor_div_any(int64_t a, fix16_t b);

// floor(a / b) for b > 0 and |a| < 2^62. A cell of 2^k raw units (1, 2, 4, 8 ... units: most
// grids; k <= 30) is a shift without a branch on the sign: a + 2^62 is not negative and
// 2^62 is a multiple of 2^k, so floor(a / 2^k) = ((a + 2^62) >> k) - 2^62 / 2^k, exactly.
static inline int64_t fxs_nav_floor_div(int64_t a, fix16_t b) {
  const uint64_t bias = UINT64_C(1) << 62;
  if ((b & (b - 1)) != 0) return fxs_nav_floor_div_any(a, b);
  unsigned k = 31u - fxs_clz32_nz((uint32_t)b);
  return (int64_t)(((uint64_t)a + bias) >> k) - (int64_t)(bias >> k);
}

// The column (row) of coordinate p, clamped into [0, n).
static inline uint32_t fxs_nav_clamped_index(fix16_t p, fix16_t origin, fix16_t size, uint32_t n,
                                             bool *inside) {
  int64_t i = fxs_nav_floor_div((int64_t)p - origin, size); // |p - origin| < 2^33
  *inside = i >= 0 && i < (int64_t)n;
  return i < 0 ? 0u : i >= (int64_t)n ? n - 1u : (uint32_t)i;
}

/// fxs_nav_grid_cell_of (nav_grid.h): the cell (cx, cy) that holds `position`, clamped into the
/// grid; true when it lies inside.
static inline bool fxs_nav_grid_cell_of_inline(const fxs_nav_grid *grid, fxs_vec2 position,
                                               uint32_t *cx, uint32_t *cy) {
  bool in_x, in_y;
  *cx = fxs_nav_clamped_index(position.x, grid->origin.x, grid->cell_size, grid->width, &in_x);
  *cy = fxs_nav_clamped_index(position.y, grid->origin.y, grid->cell_size, grid->height, &in_y);
  return in_x && in_y;
}

#endif
