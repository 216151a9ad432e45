/// @file flow_field.h
/// Flow-field following (Reynolds): a grid of vectors laid over the world, each cell saying
/// which way to go there. The agent's desired velocity is the vector of the cell under it
/// (or under the point look_ahead ticks ahead), scaled to max_speed; the steering is
/// desired - velocity. The grid and its cells belong to the caller; nothing is allocated.
/// Positions outside the grid read the nearest cell (each coordinate clamped to the first or
/// last column or row), so an agent that drifts out keeps following the border's flow.
/// A zero cell is a sink: there the desired velocity is zero and the agent brakes.
#ifndef FIXSTEER_FLOW_FIELD_H
#define FIXSTEER_FLOW_FIELD_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/agent.h"
#include "fixsteer/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A grid of square cells. Cell (cx, cy) covers [origin.x + cx * cell_size, origin.x +
/// (cx + 1) * cell_size) along x, the same along y.
typedef struct fxs_flow_field {
  fxs_vec2 origin;   ///< Corner of cell (0, 0) with the smallest x and y, units.
  fix16_t cell_size; ///< Side of a cell, units, > 0.
  uint32_t width;    ///< Cells along x, >= 1.
  uint32_t height;   ///< Cells along y, >= 1; width * height <= the cells' capacity.
  /// width * height vectors, row by row: cell (cx, cy) is cells[cy * width + cx]. Any
  /// length; only the direction is used. Owned by the caller.
  fxs_vec2 *cells;
} fxs_flow_field;

/// The fills a world's field can be given by command (FXS_CMD_FILL_FIELD), each computed by
/// the fxs_flow_field_fill_* function of the same name.
typedef enum fxs_flow_fill {
  FXS_FLOW_FILL_UNIFORM, ///< args: direction x, y.
  FXS_FLOW_FILL_TOWARD,  ///< args: point x, y.
  FXS_FLOW_FILL_VORTEX,  ///< args: centre x, y, swirl, inward.
  FXS_FLOW_FILL_GOAL     ///< args: goal x, y: the direction field toward the goal over the
                         ///< world's navigation grid (nav_field.h), which must have the
                         ///< field's origin, cell size, columns and rows (world.h).
} fxs_flow_fill;

/// Flow-field following parameters.
typedef struct fxs_flow_field_def {
  /// The field is read at position + velocity * look_ahead, ticks, >= 0. 0 (the default)
  /// reads it under the agent; a few ticks let it turn before it enters a cell.
  fix16_t look_ahead;
} fxs_flow_field_def;

/// The defaults listed on each field.
FXS_API fxs_flow_field_def fxs_default_flow_field_def(void);

/// Sets up *field over `cells` (capacity vectors) and zeroes the width * height cells.
/// FXS_ERR_BAD_VALUE when width or height is 0, cell_size <= 0 or cells is NULL;
/// FXS_ERR_BUFFER_TOO_SMALL when width * height > capacity (computed without overflow).
/// On failure *field is left unchanged.
FXS_API fxs_result fxs_flow_field_init(fxs_flow_field *field, fxs_vec2 *cells, uint32_t capacity,
                                       uint32_t width, uint32_t height, fxs_vec2 origin,
                                       fix16_t cell_size);

/// The cell under `position`, each coordinate clamped into the grid. Exact for any position.
FXS_API void fxs_flow_field_cell_of(const fxs_flow_field *field, fxs_vec2 position, uint32_t *cx,
                                    uint32_t *cy);

/// The centre of cell (cx, cy) (half a cell rounded down), saturating. cx < width, cy < height.
FXS_API fxs_vec2 fxs_flow_field_cell_center(const fxs_flow_field *field, uint32_t cx, uint32_t cy);

/// The vector of the cell under `position` (clamped as fxs_flow_field_cell_of).
FXS_API fxs_vec2 fxs_flow_field_sample(const fxs_flow_field *field, fxs_vec2 position);

/// Flow-field following: set_length(sample(position + velocity * look_ahead), max_speed) -
/// velocity. An invalid field (see fxs_flow_field_init) trips FXS_ASSERT and gives zero.
FXS_API fxs_vec2 fxs_follow_flow_field(const fxs_agent *self, const fxs_flow_field *field,
                                       const fxs_flow_field_def *def);

/// Fills every cell with `direction` scaled to length 1 (zero stays zero).
FXS_API void fxs_flow_field_fill_uniform(fxs_flow_field *field, fxs_vec2 direction);

/// Fills every cell with the unit vector from its centre toward `point`; the cell whose
/// centre is exactly `point` gets zero. Agents following it gather at the point.
FXS_API void fxs_flow_field_fill_toward(fxs_flow_field *field, fxs_vec2 point);

/// Fills every cell with a vortex around `center`: swirl * t + inward * n scaled to length
/// 1, where n is the unit vector from the cell centre toward `center` and t is n turned by
/// -pi/2 (counter-clockwise flow around the centre, y up, for swirl > 0). swirl and inward
/// are Q16.16 weights, typically in [-1, 1]; inward > 0 spirals in, < 0 out. A cell whose
/// centre is `center`, or whose weighted sum is zero, gets zero. Following a pure swirl
/// (inward 0) drifts outward, as any tick-by-tick step along a tangent does (200 -> 285
/// units in 2000 ticks at speed 4); inward 1/64 holds that orbit within 2 units.
FXS_API void fxs_flow_field_fill_vortex(fxs_flow_field *field, fxs_vec2 center, fix16_t swirl,
                                        fix16_t inward);

#ifdef __cplusplus
}
#endif

#endif
