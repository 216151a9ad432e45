// Internal: the world's walls of one tick in a uniform grid, each wall listed in every cell
// its bounding box meets, so that an agent's wall work (contact, ORCA's wall lines and its
// sight test between neighbors; in the plan, a field's edge step's sight test) tests the walls
// near it instead of all of them. The grid is scratch, rebuilt every step from the live walls
// (state) after the commands and before the plan: it is neither hashed nor saved, and
// it never changes a result, because every caller asks for a box that holds the bounding box
// of every wall its own test could keep, and takes the walls in index order. Not part of the
// API.
#ifndef FIXSTEER_WORLD_WALLS_H
#define FIXSTEER_WORLD_WALLS_H

#include <stdbool.h>
#include <stdint.h>

#include "avoidance_near.h"
#include "fixsteer/orca.h"
#include "fixsteer/world.h"

/// Walls near an agent a worker gathers at a time; with more than these in its box the agent
/// tests every wall, in index order, as without the grid.
#define FXS_NEAR_WALLS 64u

/// No list: test every wall.
#define FXS_ALL_WALLS UINT32_MAX

/// The wall grid of one tick: square cells of `size` raw units over the world's bounds
/// (anything outside them counts in the nearest edge cell); w = h = 0 when it is not built
/// (a world without a grid, or no live wall).
typedef struct fxs_wall_grid {
  int64_t min_x, min_y; ///< Lower corner, raw Q16.16.
  unsigned shift;       ///< Cells of 2^shift raw (one unit, doubled): a point's cell is a shift.
  uint32_t w, h;        ///< Cells per row and rows.
} fxs_wall_grid;

/// Wall capacities below this have no wall grid (no memory for it; every wall is tested, as a
/// scan of a few walls costs less than the lookup), so small worlds keep their size.
#define FXS_WALL_GRID_MIN_WALLS 32u

/// Whether a world of these capacities keeps a wall grid: walls >= FXS_WALL_GRID_MIN_WALLS.
bool fxs_wall_grid_kept(const fxs_world_capacity *capacity);

/// Cells a wall grid may use for these capacities: max(64, 4 * walls); 0 without a grid.
uint32_t fxs_wall_grid_max_cells(const fxs_world_capacity *capacity);

/// Entries (a wall in a cell) a wall grid may hold: 16 * walls; 0 without a grid. A grid whose
/// walls' boxes meet more cells than that is coarsened until they do not (one cell always
/// fits).
uint32_t fxs_wall_grid_max_entries(const fxs_world_capacity *capacity);

/// Walls a world keeps in its wall grid's arrays of one wall each: capacity.walls with a
/// grid, else 0.
uint32_t fxs_wall_grid_walls(const fxs_world_capacity *capacity);

/// Sorts the `live` walls of world->internal->live_walls into the cells their bounding boxes meet:
/// fills world->internal->wall_cell_start, world->internal->wall_order (live indices, ascending in
/// a cell) and world->internal->wall_first. Time O(live + cells + entries).
fxs_wall_grid fxs_wall_grid_build(fxs_world *world, uint32_t live);

/// The live indices, ascending and each once, of the walls whose bounding box meets `box` (it
/// may list more: those of the cells the box meets), into out (room for `room`); returns how
/// many, or FXS_ALL_WALLS when there are more than `room` or the grid is not built.
uint32_t fxs_wall_grid_find(const fxs_world *world, const fxs_wall_grid *g, const fxs_box *box,
                            uint32_t *out, uint32_t room);

struct fxs_world_worker; // per-worker scratch of the step (world_grid.h)

/// Walls found near an agent for the tick: `count` walls, in index order, a superset of the
/// walls whose bounding box meets `box` (fxs_wall_grid_find's list for it, copied), or none
/// (walls NULL). A later lookup whose box lies inside `box` may take these instead of the
/// grid's: its walls are among them, in the same order, and the others' boxes miss its box.
typedef struct fxs_walls_found {
  const fxs_wall *walls;
  uint32_t count;
  fxs_box box;
} fxs_walls_found;

/// No walls found.
static inline fxs_walls_found fxs_walls_found_none(void) {
  fxs_walls_found f = {0, 0, {0, 0, 0, 0}};
  return f;
}

/// True when `box` lies inside the found walls' box (then they hold every wall it meets).
static inline bool fxs_walls_found_cover(const fxs_walls_found *f, const fxs_box *box) {
  return f->walls && box->lo_x >= f->box.lo_x && box->lo_y >= f->box.lo_y &&
         box->hi_x <= f->box.hi_x && box->hi_y <= f->box.hi_y;
}

/// Narrows ORCA's walls (st->walls, st->wall_count: the live walls) for agent `a` steered
/// on `worker` among its first `chosen` neighbors (worker->neighbors) to the walls whose
/// bounding box meets the box of the static lines' reach (obstacle_time_horizon * max_speed
/// beyond the radius) and of the segments to those neighbors (the side rule's sight test), in
/// index order, copied into the worker's near_walls; *found holds them and that box. Leaves
/// *st as it is (and *found none) without a grid or with more than FXS_NEAR_WALLS of them.
/// Uses worker->near_obstacles.
void fxs_walls_near_orca(const fxs_world *world, const fxs_wall_grid *g, const fxs_agent *a,
                         const fxs_orca_def *def, struct fxs_world_worker *worker, uint32_t chosen,
                         fxs_orca_statics *st, fxs_walls_found *found);

#endif
