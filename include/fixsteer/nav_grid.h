/// @file nav_grid.h
/// The navigation grid: square cells laid over the world, each with an integer cost: 0 is
/// blocked, 1..254 is walkable with that weight (a step into a cell costs 10 x its weight
/// straight, 14 x diagonally: nav_path.h, nav_field.h). The cost array belongs to the caller.
///
/// Geometry (the same as the flow field's, flow_field.h): cell (cx, cy) covers the closed
/// square [origin.x + cx * cell_size, origin.x + (cx + 1) * cell_size] x [the same in y]; its
/// centre is origin + index * cell_size + cell_size / 2 (half a cell rounded down); cell
/// (cx, cy) is cost[cy * width + cx]. The whole grid lies inside the Q16.16 range.
///
/// Rasterization is exact and conservative: a wall (segment) blocks every cell whose square
/// comes within `radius` of it (distance <= radius, computed exactly in 128-bit integers),
/// an obstacle every cell whose square comes within its radius + `radius` of its centre. So
/// every point of a walkable cell is more than `radius` from every wall and obstacle it was
/// built from: a body of that radius anywhere on a walkable cell touches nothing, and a
/// straight line through walkable cells only (nav_path.h, line of sight) is clear for it.
///
/// Directions (used by paths and fields): 0 east (+x), 1 north (+y), 2 west, 3 south,
/// 4 north-east, 5 north-west, 6 south-west, 7 south-east; straight ones first. A diagonal
/// step is allowed only when both straight cells beside it are walkable (no corner cutting).
#ifndef FIXSTEER_NAV_GRID_H
#define FIXSTEER_NAV_GRID_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/avoidance.h"
#include "fixsteer/result.h"
#include "fixsteer/vec2.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Cost of a blocked cell.
#define FXS_NAV_BLOCKED 0u
/// Largest cost of a walkable cell (255 is refused, so a cost is never an in-band flag).
#define FXS_NAV_MAX_COST 254u
/// Most columns or rows of a navigation grid.
#define FXS_NAV_MAX_SIDE 32767u
/// Most cells of a navigation grid (2^20: 1024 x 1024). With it every path cost of
/// nav_path.h and nav_field.h (at most 14 x 254 a step, fewer steps than cells) fits in 32 bits.
#define FXS_NAV_MAX_CELLS 1048576u
/// Cost of a straight step into a cell of weight 1.
#define FXS_NAV_STRAIGHT 10u
/// Cost of a diagonal step into a cell of weight 1 (10 * sqrt(2) rounded down: 14).
#define FXS_NAV_DIAGONAL 14u
/// Number of directions; also "no direction" where a direction is stored.
#define FXS_NAV_DIRECTIONS 8u

/// A navigation grid. Fields are readable; change the costs through the functions below.
typedef struct fxs_nav_grid {
  fxs_vec2 origin;   ///< Corner of cell (0, 0) with the smallest x and y, units.
  fix16_t cell_size; ///< Side of a cell, units, > 0.
  uint32_t width;    ///< Cells along x, [1, FXS_NAV_MAX_SIDE].
  uint32_t height;   ///< Cells along y, [1, FXS_NAV_MAX_SIDE]; width * height <= FXS_NAV_MAX_CELLS.
  uint8_t *cost;     ///< width * height costs, row by row. Owned by the caller.
} fxs_nav_grid;

/// The step of direction `dir` (< 8): dx, dy in {-1, 0, 1}.
FXS_API void fxs_nav_direction_step(uint32_t dir, int32_t *dx, int32_t *dy);

/// FXS_OK when a grid of this shape is allowed: width and height in [1, FXS_NAV_MAX_SIDE],
/// cell_size > 0, the far corner origin + (width, height) * cell_size inside the Q16.16 range
/// (else FXS_ERR_BAD_VALUE); width * height <= FXS_NAV_MAX_CELLS (else FXS_ERR_LIMIT).
FXS_API fxs_result fxs_nav_grid_check(fxs_vec2 origin, fix16_t cell_size, uint32_t width,
                                      uint32_t height);

/// Sets *grid up over `cost` (capacity bytes) with every cell at `fill` (0..254). Errors of
/// fxs_nav_grid_check; FXS_ERR_BAD_VALUE for a NULL cost or fill > 254;
/// FXS_ERR_BUFFER_TOO_SMALL when width * height > capacity. Nothing changes on failure.
FXS_API fxs_result fxs_nav_grid_init(fxs_nav_grid *grid, uint8_t *cost, uint32_t capacity,
                                     uint32_t width, uint32_t height, fxs_vec2 origin,
                                     fix16_t cell_size, uint32_t fill);

/// width * height.
FXS_API uint32_t fxs_nav_grid_cells(const fxs_nav_grid *grid);

/// The cell holding `position` in *cx, *cy (a point on a shared edge belongs to the cell of
/// higher index). True when the position lies in the grid; otherwise each coordinate is
/// clamped to the nearest column and row and false is returned.
FXS_API bool fxs_nav_grid_cell_of(const fxs_nav_grid *grid, fxs_vec2 position, uint32_t *cx,
                                  uint32_t *cy);

/// The centre of cell (cx, cy), cx < width, cy < height (exact: the grid is in range).
FXS_API fxs_vec2 fxs_nav_grid_cell_center(const fxs_nav_grid *grid, uint32_t cx, uint32_t cy);

/// The cost of cell (cx, cy); FXS_NAV_BLOCKED outside the grid.
FXS_API uint32_t fxs_nav_grid_cost(const fxs_nav_grid *grid, int64_t cx, int64_t cy);

/// True when a step from (cx, cy) in direction `dir` lands on a walkable cell of the grid
/// and, diagonally, both straight cells beside the step are walkable. (cx, cy) itself may
/// be blocked (an agent standing in a blocked cell may leave it).
FXS_API bool fxs_nav_grid_can_step(const fxs_nav_grid *grid, uint32_t cx, uint32_t cy,
                                   uint32_t dir);

/// Sets the cells [x, x + w) x [y, y + h) to `cost`. FXS_ERR_BAD_VALUE for cost > 254 or an
/// empty block; FXS_ERR_OUTSIDE_GRID when the block does not lie wholly inside the grid.
/// Nothing changes on failure.
FXS_API fxs_result fxs_nav_grid_set_block(fxs_nav_grid *grid, int64_t x, int64_t y, int64_t w,
                                          int64_t h, uint32_t cost);

/// Clips the block [x, x + w) x [y, y + h) (w, h may be huge) to the grid, in place.
/// FXS_ERR_BAD_VALUE for an empty block (w or h <= 0); FXS_ERR_OUTSIDE_GRID when no cell of
/// it is inside the grid.
FXS_API fxs_result fxs_nav_grid_clip_block(const fxs_nav_grid *grid, int64_t *x, int64_t *y,
                                           int64_t *w, int64_t *h);

/// Blocks every cell whose square comes within `radius` (>= 0) of the wall segment, exactly;
/// the number of cells that changed goes to *changed when it is not NULL. Cells beyond the
/// grid are ignored. FXS_ERR_BAD_VALUE for a negative radius. Work: the cells within radius
/// + one cell of the segment (plus its length in cells when it is far steeper than a row).
FXS_API fxs_result fxs_nav_grid_block_wall(fxs_nav_grid *grid, const fxs_wall *wall, fix16_t radius,
                                           uint32_t *changed);

/// Blocks every cell whose square comes within obstacle radius + `radius` of the obstacle's
/// centre, exactly. FXS_ERR_BAD_VALUE for a negative radius or obstacle radius.
FXS_API fxs_result fxs_nav_grid_block_obstacle(fxs_nav_grid *grid, const fxs_obstacle *obstacle,
                                               fix16_t radius, uint32_t *changed);

#ifdef __cplusplus
}
#endif

#endif
