// Internal: where the followers of ready group fields aim (world_nav_fields.h, "The move"),
// found once a tick for every follower, through the world's task system.
//
// The aim of a follower in cell `here` of ready field k is a pure function of the grid, the
// field and `here` (fxs_world_nav_aim_of): its code, and for AIM_STEP + i the cell it seeks,
// i + 1 steps along the direction field. Two caches keep it from being found again, neither of
// them state:
// - the high four bits of the field's packed byte of the cell (field_packed): the code, for
//   every follower that comes to the cell later;
// - per agent slot, the aim last found for it (fxs_nav_aim: its cell, its field, the code and
//   the cell sought). Most followers stand in the cell they stood in a tick before, and reading
//   their own entry, in slot order, saves the packed byte and the walk to the cell sought: on a
//   large map each is a cache miss (the walk's cells lie a row of the grid apart).
//
// An agent's entry is taken only when it names the agent's cell and field and no aim has been
// forgotten since the pass that wrote it (fxs_world_nav_aims_forget: every change of a field's
// values or of the grid's costs calls it); the pass writes every agent's entry, found or marked
// none, so an entry never outlives a change. The pass runs on the task system: each agent
// writes only its own entry, and the codes it found new go to the packed bytes after it, in
// slot order (a pure function's values: any order gives the same bytes).
#ifndef FIXSTEER_WORLD_NAV_AIMS_H
#define FIXSTEER_WORLD_NAV_AIMS_H

#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/world.h"

/// Aim codes (the high four bits of a packed cell): not found yet; the goal in sight; no
/// direction; FXS_NAV_AIM_STEP + i: cell i (0 the next) of the direction field's path.
#define FXS_NAV_AIM_UNKNOWN 0u
#define FXS_NAV_AIM_GOAL 1u
#define FXS_NAV_AIM_NONE 2u
#define FXS_NAV_AIM_STEP 3u

/// The aim found for one agent slot (not state).
typedef struct fxs_nav_aim {
  uint32_t here;   ///< The cell it was found for.
  uint32_t field;  ///< The field slot it was found on; FXS_NAV_NO_FIELD: no entry.
  uint32_t to;     ///< The cell sought (codes FXS_NAV_AIM_STEP + i; else `here`).
  uint8_t code;    ///< The aim code.
  uint8_t fresh;   ///< 1: the packed byte did not hold it (written there after the pass).
  uint8_t reaches; ///< 1: the field leads somewhere from `here` (a value or a direction).
  uint8_t unused;
  /// A hint: the cell that blocked the agent's last sight line to its goal that was not clear
  /// (any value: tried first and checked, fxs_world_nav_goal_in_sight).
  uint32_t blocker;
} fxs_nav_aim;

/// 32-bit words an agent slot's entry takes (world.c lays the entries out after agent_field,
/// in its block, in a grid world with fields).
#define FXS_NAV_AIM_WORDS (sizeof(fxs_nav_aim) / sizeof(uint32_t))

/// Whether cells `from` and `to` (indices on the world's grid) see each other: the answer of
/// fxs_nav_line_of_sight, without its walk when the raster's blocked counts show every cell it
/// could touch walkable (world_nav_raster.h).
bool fxs_world_nav_cells_in_sight(const fxs_world *world, uint32_t from, uint32_t to);

/// Whether cell `goal` is in sight of cell `here` (fxs_world_nav_cells_in_sight's answer),
/// trying first the cells round *blocker (a cell that blocked a line near this one): a line
/// that touches a blocked cell there is not clear, without the walk. A walk that finds the
/// line blocked puts the cell that blocked it into *blocker.
bool fxs_world_nav_goal_in_sight(const fxs_world *world, uint32_t here, uint32_t goal,
                                 uint32_t *blocker);

/// The aim code of ready field k's followers in cell `here` (see above); with `to`, the cell it
/// seeks there too (fxs_world_nav_aim_cell's, without its walk; `here` for the other codes).
uint32_t fxs_world_nav_aim_of(const fxs_world *world, uint32_t k, uint32_t here, uint32_t *to);

/// The cell of aim code FXS_NAV_AIM_STEP + i from `here`: i + 1 steps along ready field k.
uint32_t fxs_world_nav_aim_cell(const fxs_world *world, uint32_t k, uint32_t here, uint32_t code);

/// Every agent's entry is out of date (a field begun, packed or dropped, the costs rasterized
/// again, a restore, the world's init).
void fxs_world_nav_aims_forget(fxs_world *world);

/// The aims of every follower of a ready field this tick (planning, once the fields are
/// given): their entries, and the codes found new in the packed bytes. A field made ready
/// later in the tick has none: its followers find theirs as they steer (aims forgotten).
void fxs_world_nav_aims_find(fxs_world *world);

/// Agent slot `index`'s entry when it holds the aim on field k from cell `here`, else NULL.
const fxs_nav_aim *fxs_world_nav_aim_known(const fxs_world *world, uint32_t index, uint32_t k,
                                           uint32_t here);

#endif
