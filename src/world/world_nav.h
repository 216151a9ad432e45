// Internal: the world's navigation (world.h's fxs_world_nav, docs/navigation.md). The grid
// is set and its base costs changed by commands; walls and obstacles are rasterized into the
// effective costs by the grid's radius whenever the map changed; once a tick, before the
// agents steer, every navigate agent whose route is missing or stale gets a search slot
// (lowest agent slot first) and the searches share the tick's budget; the navigate behavior
// then follows the route's waypoints with ORCA among its neighbors.
#ifndef FIXSTEER_WORLD_NAV_H
#define FIXSTEER_WORLD_NAV_H

#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "fixsteer/command.h"
#include "fixsteer/nav_path.h"
#include "fixsteer/world.h"

/// True when the navigation capacities are consistent (all 0, or within their ranges).
bool fxs_world_nav_capacity_valid(const fxs_world_capacity *capacity);

/// Bytes of one search's memory for these capacities (0 without navigation).
size_t fxs_world_nav_search_bytes(const fxs_world_capacity *capacity);

/// Sets up the searches over their memory (world init): every search idle and free.
void fxs_world_nav_init(fxs_world *world);

/// Applies set_nav_grid or set_nav_costs. FXS_ERR_BAD_VALUE for a malformed one,
/// FXS_ERR_CAPACITY for a grid of more cells than capacity.nav_cells (or a world without
/// navigation), FXS_ERR_OUTSIDE_GRID for costs outside the grid. Nothing changes on failure.
fxs_result fxs_world_nav_command(fxs_world *world, const fxs_command *command);

/// Fills the world's flow field with the direction field toward `goal` over the navigation
/// grid (an integration field built whole, O(cells), in the world's scratch): each cell
/// the unit vector of its direction, zero where there is none (the goal's cell, blocked or
/// cut-off cells). FXS_ERR_BAD_VALUE unless the world has a navigation grid and a flow field
/// of the same origin, cell size, columns and rows; nothing changes then.
fxs_result fxs_world_nav_fill_field(fxs_world *world, fxs_vec2 goal);

/// Entries of the integration-field scratch for these capacities (0 without navigation).
uint32_t fxs_world_nav_field_entries(const fxs_world_capacity *capacity);

/// The map changed (a wall or obstacle added or removed): a new map version.
void fxs_world_nav_map_changed(fxs_world *world);

/// Drops the route of agent slot `index` and frees its search (despawn).
void fxs_world_nav_release(fxs_world *world, uint32_t index);

struct fxs_wall_grid;

/// The tick's planning phase (before the agents steer): rebuilds the effective costs when
/// the map changed, marks stale routes, gives free searches to waiting routes, spends the
/// budget, turns finished searches into routes. `walls`: the step's wall grid over the live
/// walls (world_walls.h), which the fields' edge steps look up.
void fxs_world_nav_plan(fxs_world *world, const struct fxs_wall_grid *walls);

/// What the navigate behavior asks of an agent this tick (fxs_world_nav_move).
typedef struct fxs_nav_move {
  fxs_vec2 velocity; ///< Preferred velocity (ORCA's input), or the exact landing velocity.
  fxs_vec2 to;       ///< The point sought: a waypoint, or the target itself.
  uint8_t last;      ///< 1 on the route's last waypoint.
  uint8_t land;      ///< 1: within the landing radius of the last point: take `velocity`
                     ///< as it is (no avoidance), so the agent ends exactly on it.
} fxs_nav_move;

// Landing: within its touching distance (agent.h), or max_force if larger, of its last point
// an agent steers straight onto the point at most max_force a tick, and rests on it exactly.

/// The navigate behavior's move for the agent in slot `index` toward `target` (its target
/// agent's position or target point): along its route (seek to each waypoint, arrive with
/// `slowing_radius` on the last, land on it), zero while it has no route yet, arrival straight
/// at the target in a world without a grid. Advances the route's next waypoint (the agent's
/// own state): a waypoint within half a cell is passed, as is one whose successor is in sight.
fxs_nav_move fxs_world_nav_move(const fxs_world *world, uint32_t index, fxs_vec2 target,
                                fix16_t slowing_radius);

/// For route followers other than the navigate behavior (formation members): moves the
/// route of agent `index` past its passed waypoints (the navigate behavior's rule) and writes
/// the centre of the waypoint it seeks to *to, *last true on the last one. False (nothing
/// written) when the agent has no route with waypoints or the world no grid.
bool fxs_world_nav_waypoint(const fxs_world *world, uint32_t index, fxs_vec2 *to, bool *last);

/// The move onto a route's last point `to` (arrival, then landing exactly on it).
fxs_nav_move fxs_world_nav_last_move(const fxs_agent *a, fxs_vec2 to, fix16_t slowing_radius);

/// The point agent slot `index` navigates to: its live target agent's position, else its
/// target point.
fxs_vec2 fxs_world_nav_target(const fxs_world *world, uint32_t index);

/// True when the agent in this slot has a navigate behavior.
bool fxs_world_nav_navigates(const fxs_agent_slot *slot);

/// Writes the navigation section of the snapshot (a world with navigation).
void fxs_world_nav_write(const fxs_world *world, fxs_writer *w);

/// The most bytes fxs_world_nav_write can write for a world of these capacities.
uint64_t fxs_world_nav_write_bound(const fxs_world_capacity *c);

/// Reads the navigation section into `world`, or, when `world` is NULL (the dry pass), only
/// checks it, using `shape`'s scratch search; with `moves` (layout
/// FXS_SNAPSHOT_VERSION_NAV_MOVES) the moves section follows the fields'. FXS_OK or the first
/// error, its offset in *at.
fxs_result fxs_world_nav_read(fxs_world *world, fxs_world *shape, fxs_reader *r, bool moves,
                              size_t *at);

#endif
