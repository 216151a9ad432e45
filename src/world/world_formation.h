// Internal: formation steering in a world. The group is found from the start-of-tick agent
// slots (their behavior sets and bodies), which the steer phase never writes, so the result is
// the same for every worker split and after a restore.
//
// With a navigation grid (world_nav.h) and a live leader, a member's slot is made walkable:
// squeezed toward the leader along the segment leader -> slot to the last point the leader's
// cell sees on the grid (fxs_nav_line_of_sight over the effective costs, walls inflated by
// the grid's radius), so in a narrow passage the formation folds into the leader's corridor
// and spreads out again behind it. A member whose cell does not see its slot's cell is given
// a route to it by the planning phase (world_nav.c, the navigate agents' searches and route
// state) and follows the route's waypoints; one that sees it steers to it as without a grid.
//
// On a mesh world routing its agents (simulation version 8, FXS_RULES_MESH_FORMATIONS; before
// it a member steers straight to its slot), the same with the mesh's sight for a body of the
// routing radius (fxs_world_mesh_sees): the slot is squeezed toward the leader to the last
// sample of the segment the leader sees, and a member that does not see its slot follows a
// mesh route to it (world_nav_mesh_plan.c).
#ifndef FIXSTEER_WORLD_FORMATION_H
#define FIXSTEER_WORLD_FORMATION_H

#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/world.h"

/// Formation steering of the agent in slot `index`, whose behavior parameters are p (the
/// formation's row of behavior_params.h) and whose live target agent (or NULL) is `leader`.
/// Members: live agents, in slot order, holding a formation behavior of the same group, other
/// than the leader; at most FXS_FORMATION_MAX_MEMBERS take part. With the user's shape, the
/// offsets are the nodes of the agent's path (none without a path: no slot, no force).
/// With a grid and a leader: toward the squeezed slot, or along the agent's route (above).
fxs_vec2 fxs_world_formation_steering(const fxs_world *world, uint32_t index,
                                      const fxs_agent *leader, const fix16_t *p);

/// Where the planning phase sends the agent in slot `index` (a world with a navigation grid
/// whose costs are current): true, with the grid cell of its squeezed slot in *goal_cell, for
/// a formation member with a live leader (its first formation behavior) whose cell does not
/// see that cell; false otherwise (no route needed).
bool fxs_world_formation_route_goal(const fxs_world *world, uint32_t index, uint32_t *goal_cell);

/// The same on a mesh world routing its agents (simulation version 8, FXS_RULES_MESH_FORMATIONS):
/// true, with its squeezed slot in *slot, for a formation member with a live leader that does
/// not see that slot on the mesh (fxs_world_mesh_sees); false otherwise.
bool fxs_world_formation_mesh_goal(const fxs_world *world, uint32_t index, fxs_vec2 *slot);

/// The slot of the agent in slot `index` (its first formation behavior and its live target
/// agent as the leader), squeezed as above with a grid: true and *slot, or false for an agent
/// that holds no slot.
bool fxs_world_formation_slot_of(const fxs_world *world, uint32_t index, fxs_vec2 *slot);

#endif
