// Internal: the world's flow field. Its grid and cells are state, changed only by the field
// commands (command.h: set_field_grid, set_field_cells, fill_field), so they are in every
// replay; the snapshot and the state hash carry them when the world has a field capacity.
#ifndef FIXSTEER_WORLD_FIELD_H
#define FIXSTEER_WORLD_FIELD_H

#include <stdint.h>

#include "fixsteer/command.h"
#include "fixsteer/result.h"
#include "fixsteer/world.h"

/// Applies a field command. FXS_ERR_BAD_VALUE for a malformed one (any argument outside its
/// range, a non-zero unused argument, ref or agent, cells outside the grid, no grid yet),
/// FXS_ERR_CAPACITY for a grid of more cells than capacity.field_cells. Nothing changes on
/// failure.
fxs_result fxs_world_field_command(fxs_world *world, const fxs_command *command);

/// FXS_OK when (origin, cell_size, width, height) is a grid the world may hold: all zero (no
/// field), or cell_size > 0, width and height in [1, FXS_MAX_FIELD_SIDE] and width * height
/// <= capacity; else FXS_ERR_BAD_VALUE or, for too many cells, FXS_ERR_CAPACITY.
fxs_result fxs_world_field_grid_check(fxs_vec2 origin, fix16_t cell_size, uint32_t width,
                                      uint32_t height, uint32_t capacity);

/// Flow-field following of the world's field for `agent` (zero while the world has none).
fxs_vec2 fxs_world_field_steering(const fxs_world *world, const fxs_agent *agent,
                                  fix16_t look_ahead);

#endif
