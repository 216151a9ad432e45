// Internal: the world's obstacles of one tick in a uniform grid, by the cell of their centre,
// so that an agent's avoidance tests the few obstacles near it instead of all of them. The
// grid is scratch, rebuilt every tick from the live obstacles; it never changes a result
// (see avoidance_near.h). Not part of the API.
#ifndef FIXSTEER_WORLD_OBSTACLES_H
#define FIXSTEER_WORLD_OBSTACLES_H

#include <stdint.h>

#include "avoidance_near.h"
#include "fixsteer/world.h"

/// The obstacle grid of one tick: square cells of `size` raw units over the world's bounds
/// (centres outside them count in the nearest edge cell), coarsened until they fit in
/// obstacle_max_cells.
typedef struct fxs_obstacle_grid {
  int64_t size, min_x, min_y; ///< Cell size and lower corner, raw Q16.16.
  uint32_t w, h;              ///< Cells per row and rows.
  fix16_t max_radius;         ///< The largest radius of a live obstacle, >= 0.
} fxs_obstacle_grid;

/// Cells an obstacle grid may use for these capacities: max(16, 2 * obstacles).
uint32_t fxs_obstacle_grid_max_cells(const fxs_world_capacity *capacity);

/// Sorts the `live` obstacles of world->internal->live_obstacles into cells: fills
/// world->internal->obstacle_cell_start and world->internal->obstacle_order (live indices,
/// ascending in a cell).
fxs_obstacle_grid fxs_obstacle_grid_build(fxs_world *world, uint32_t live);

/// The live indices, ascending, of the obstacles whose centre's cell meets `box`, into out
/// (room for `room`); returns how many, or FXS_ALL_OBSTACLES when there are more than `room`.
uint32_t fxs_obstacle_grid_find(const fxs_world *world, const fxs_obstacle_grid *g,
                                const fxs_box *box, uint32_t *out, uint32_t room);

#endif
