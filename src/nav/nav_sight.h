// Internal: the line of sight of nav_path.h (fxs_nav_line_of_sight) with its witness. A line
// that is not clear names the first blocked cell its walk met; whether a line touches a given
// cell is an exact test of its own. Together they let a caller that asks about many nearby
// lines (the aims of world_nav_aims.h) try the cells that blocked the last one first: a line
// that touches a blocked cell is not clear, without its walk.
#ifndef FIXSTEER_NAV_SIGHT_H
#define FIXSTEER_NAV_SIGHT_H

#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/nav_grid.h"

/// fxs_nav_sight_blocker's answers that name no cell: the line is clear; an end lies outside
/// the grid.
#define FXS_NAV_SIGHT_CLEAR UINT32_MAX
#define FXS_NAV_SIGHT_OFF_GRID (UINT32_MAX - 1u)

/// fxs_nav_line_of_sight's walk from cell (x0, y0) to (x1, y1): FXS_NAV_SIGHT_CLEAR when it
/// answers true, else the index (y * width + x) of the blocked cell at which the walk stopped,
/// or FXS_NAV_SIGHT_OFF_GRID when an end lies outside the grid.
uint32_t fxs_nav_sight_blocker(const fxs_nav_grid *grid, uint32_t x0, uint32_t y0, uint32_t x1,
                               uint32_t y1);

/// Whether the segment between the centres of cells (x0, y0) and (x1, y1) of a grid (sides of
/// at most FXS_NAV_MAX_SIDE cells) touches the closed square of cell (cx, cy): the cells
/// fxs_nav_line_of_sight requires walkable are exactly those, other than (x0, y0). Exact (integers,
/// in half-cell units: the centres at odd coordinates, the square's sides at even ones): the
/// segment's box meets the square's and the square's corners do not all lie strictly on one side of
/// the segment's line.
static inline bool fxs_nav_segment_touches_cell(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1,
                                                uint32_t cx, uint32_t cy) {
  uint32_t xmin = x0 < x1 ? x0 : x1, xmax = x0 < x1 ? x1 : x0;
  uint32_t ymin = y0 < y1 ? y0 : y1, ymax = y0 < y1 ? y1 : y0;
  // Centres lie at half cells: the square [cx, cx + 1] meets [xmin + 1/2, xmax + 1/2] when
  // cx <= xmax and cx + 1 >= xmin + 1/2, i.e. cx >= xmin (integers).
  if (cx > xmax || cx < xmin || cy > ymax || cy < ymin) return false;
  int64_t dx = (int64_t)x1 - x0, dy = (int64_t)y1 - y0;                     // |.| < 2^15
  int64_t ox = 2 * ((int64_t)cx - x0) - 1, oy = 2 * ((int64_t)cy - y0) - 1; // corner - centre
  // The cross product of (dx, dy) with each corner's offset (ox + 2 i, oy + 2 j).
  int64_t c00 = dx * oy - dy * ox; // |.| < 2^33: the cells lie on a grid
  int64_t c10 = c00 - 2 * dy, c01 = c00 + 2 * dx, c11 = c10 + 2 * dx;
  bool above = c00 > 0 && c10 > 0 && c01 > 0 && c11 > 0;
  bool below = c00 < 0 && c10 < 0 && c01 < 0 && c11 < 0;
  return !above && !below;
}

#endif
