// Internal: the cells a wall or an obstacle blocks (nav_grid.h's exact rasterization), given
// row by row as runs of columns. A shape and a cell square are both convex, so the cells of
// one row that come within the radius form one run: only its two ends need the exact test,
// the cells between them are blocked without one. The runs cover exactly the cells
// fxs_nav_grid_block_wall / fxs_nav_grid_block_obstacle block (test_nav_raster.c compares
// them on many seeded shapes). Used by the world's incremental rasterization (world_nav_raster.c).
#ifndef FIXSTEER_NAV_GRID_SPANS_H
#define FIXSTEER_NAV_GRID_SPANS_H

#include <stdint.h>

#include "fixsteer/avoidance.h"
#include "fixsteer/nav_grid.h"

/// Receives the run of columns [c0, c1] (c0 <= c1 < width) of row cy (< height).
typedef void fxs_nav_span_fn(void *context, uint32_t cy, uint32_t c0, uint32_t c1);

/// Calls `fn` once for each row holding cells the wall blocks at `radius` (rows in increasing
/// order). Nothing for a negative radius. Work per row: from the previous row's run, 2 tests
/// and a gallop and bisection to each end; else at most 4 exact tests from each end of the
/// row's candidate columns, then 3 to find a blocked cell and a bisection to each end: at
/// most 4 log2(width) + 15 tests, plus the run's length. (When a cell is narrower than the
/// 2-unit error of the wall's x at a row, the search may fall back to one test a column.)
void fxs_nav_grid_wall_spans(const fxs_nav_grid *grid, const fxs_wall *wall, fix16_t radius,
                             fxs_nav_span_fn *fn, void *context);

/// The same for an obstacle: per row at most 2 log2(width) + 1 exact tests (the run's ends
/// are found by bisection on each side of the centre's column), plus the run's length.
/// Nothing for a negative radius or obstacle radius.
void fxs_nav_grid_obstacle_spans(const fxs_nav_grid *grid, const fxs_obstacle *obstacle,
                                 fix16_t radius, fxs_nav_span_fn *fn, void *context);

#endif
