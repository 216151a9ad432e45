/// @file behavior_params.h
/// The one table of every behavior parameter a world behavior slot holds: name, unit,
/// accepted range and default. The world's defaults, command validation, snapshot
/// validation, the fxs_default_*_def() functions, scenario-file keys and the parameter
/// documentation all come from it, so a parameter is defined exactly once.
#ifndef FIXSTEER_BEHAVIOR_PARAMS_H
#define FIXSTEER_BEHAVIOR_PARAMS_H

#include "fixsteer/api.h"
#include <stdint.h>

#include "fixsteer/agent.h"
#include "fixsteer/behavior.h"
#include "fixsteer/config.h"
#include "fixsteer/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Parameters per behavior slot.
#define FXS_BEHAVIOR_PARAMS 6

/// Largest max_neighbors of separation, alignment and cohesion: the world's neighbor search
/// returns at most this many (FXS_MAX_NEIGHBORS, world.h; FXS_NEIGHBORS_MAX_K, neighbors.h).
#define FXS_MAX_VIEW_NEIGHBORS 16

/// How a parameter's default follows the agent it steers (issue 52: no unit of length is
/// special). A length default is a number of the agent's body radii, a force default a number
/// of its max forces, so a scene written in any unit gets the same behavior; every other
/// default (ticks, radians, factors, choices, counts, and the lengths whose default 0 means
/// "none" or "derived when the behavior runs") is the value itself.
typedef enum fxs_param_basis {
  FXS_PARAM_ABSOLUTE = 0, ///< The default is the value itself.
  FXS_PARAM_RADII = 1,    ///< The default times the agent's radius.
  FXS_PARAM_FORCES = 2    ///< The default times the agent's max force.
} fxs_param_basis;

/// The agent the agent-free defaults are for: the library's default agent
/// (fxs_default_agent(): radius 8, max force 1/4). fxs_behavior_param_default(), the
/// fxs_default_*_def() functions and fxs_behavior_slot_default() give the defaults for it
/// (a max_see_ahead of 7.5 radii is 60 units); fxs_behavior_param_default_for() and
/// fxs_behavior_slot_default_for() derive them from any agent.
#define FXS_PARAM_REFERENCE_RADIUS FXS_DEFAULT_RADIUS
/// Max force of the reference agent (see FXS_PARAM_REFERENCE_RADIUS).
#define FXS_PARAM_REFERENCE_FORCE FXS_DEFAULT_MAX_FORCE

/// X-macro: X(behavior, index, name, unit, minimum, maximum, default, basis, meaning). The
/// rows of one behavior are its slot parameters p[0], p[1], ... in order, `index` naming the
/// slot (test_behavior_params checks it is the row's place among its behavior's rows). Ranges
/// are inclusive, raw Q16.16; a "count" is a whole number (raw multiple of FXS_ONE). `default`
/// is in the unit `basis` names (fxs_param_basis): FXS_PARAM_RADII rows give it in body radii
/// (max_see_ahead 7.5 radii: 60 units for radius 8), FXS_PARAM_FORCES rows in max forces.
/// Rows are only ever appended to a behavior, with a default that keeps what the behavior did
/// before them: recorded commands carry 0 in parameters that did not exist yet. Behaviors
/// without rows (seek, path following, kinematic seek) take none; a slot's unused parameters
/// must be 0.
#define FXS_BEHAVIOR_PARAM_LIST(X)                                                                 \
  X(FXS_BEHAVIOR_FLEE, 0, panic_radius, "units", 0, FXS_MAX, 0, FXS_PARAM_ABSOLUTE,                \
    "beyond this distance no force; 0 flees at any distance")                                      \
  X(FXS_BEHAVIOR_ARRIVE, 0, slowing_radius, "units", 0, FXS_MAX, FXS_RATIO(25, 2),                 \
    FXS_PARAM_RADII, "desired speed falls linearly to 0 inside it; 0 is plain seek")               \
  X(FXS_BEHAVIOR_WANDER, 0, circle_distance, "units", 0, FXS_MAX, FXS_RATIO(3, 4),                 \
    FXS_PARAM_RADII, "distance of the wander circle ahead of the agent")                           \
  X(FXS_BEHAVIOR_WANDER, 1, circle_radius, "units", 0, FXS_MAX, FXS_ONE, FXS_PARAM_RADII,          \
    "radius of the wander circle")                                                                 \
  X(FXS_BEHAVIOR_WANDER, 2, angle_change, "radians", 0, FXS_TWO_PI, FXS_ONE, FXS_PARAM_ABSOLUTE,   \
    "full width of the random change of the wander angle per tick")                                \
  X(FXS_BEHAVIOR_PURSUIT, 0, max_prediction, "ticks", 0, FXS_MAX, FXS_INT(30), FXS_PARAM_ABSOLUTE, \
    "cap of the look-ahead T = distance / max_speed")                                              \
  X(FXS_BEHAVIOR_EVADE, 0, max_prediction, "ticks", 0, FXS_MAX, FXS_INT(30), FXS_PARAM_ABSOLUTE,   \
    "cap of the look-ahead T = distance / max_speed")                                              \
  X(FXS_BEHAVIOR_EVADE, 1, panic_radius, "units", 0, FXS_MAX, 0, FXS_PARAM_ABSOLUTE,               \
    "beyond this distance no force; 0 evades at any distance")                                     \
  X(FXS_BEHAVIOR_AVOID, 0, max_see_ahead, "units", 0, FXS_MAX, FXS_RATIO(15, 2), FXS_PARAM_RADII,  \
    "look-ahead at max speed (scaled by speed / max_speed)")                                       \
  X(FXS_BEHAVIOR_AVOID, 1, max_avoid_force, "force", 0, FXS_MAX, FXS_INT(4), FXS_PARAM_FORCES,     \
    "largest avoidance force; swept: ramped by the contact's distance")                            \
  X(FXS_BEHAVIOR_AVOID, 2, margin, "ticks", 0, FXS_INT(64), FXS_INT(2), FXS_PARAM_ABSOLUTE,        \
    "swept: the capsule is widened by the distance covered in this many ticks")                    \
  X(FXS_BEHAVIOR_AVOID, 3, braking, "factor", 0, FXS_INT(16), 0, FXS_PARAM_ABSOLUTE,               \
    "swept: backward : sideways ratio of the push; 0 pushes sideways only")                        \
  X(FXS_BEHAVIOR_AVOID, 4, mode, "choice", 0, FXS_ONE, 0, FXS_PARAM_ABSOLUTE,                      \
    "0 swept capsule; 1 the tutorial's three probe points")                                        \
  X(FXS_BEHAVIOR_SEPARATION, 0, radius, "units", 0, FXS_MAX, FXS_INT(3), FXS_PARAM_RADII,          \
    "neighbors closer than this push the agent away")                                              \
  X(FXS_BEHAVIOR_SEPARATION, 1, blind_angle, "radians", 0, FXS_TWO_PI, 0, FXS_PARAM_ABSOLUTE,      \
    "full angle of the blind cone behind the heading; 0 sees all around")                          \
  X(FXS_BEHAVIOR_SEPARATION, 2, max_neighbors, "count", 0, FXS_INT(FXS_MAX_VIEW_NEIGHBORS), 0,     \
    FXS_PARAM_ABSOLUTE,                                                                            \
    "the nearest this many in view count (a whole number); 0 counts all the search found")         \
  X(FXS_BEHAVIOR_ALIGNMENT, 0, radius, "units", 0, FXS_MAX, FXS_RATIO(15, 2), FXS_PARAM_RADII,     \
    "neighbors closer than this are matched")                                                      \
  X(FXS_BEHAVIOR_ALIGNMENT, 1, blind_angle, "radians", 0, FXS_TWO_PI, 0, FXS_PARAM_ABSOLUTE,       \
    "full angle of the blind cone behind the heading; 0 sees all around")                          \
  X(FXS_BEHAVIOR_ALIGNMENT, 2, max_neighbors, "count", 0, FXS_INT(FXS_MAX_VIEW_NEIGHBORS), 0,      \
    FXS_PARAM_ABSOLUTE,                                                                            \
    "the nearest this many in view count (a whole number); 0 counts all the search found")         \
  X(FXS_BEHAVIOR_COHESION, 0, radius, "units", 0, FXS_MAX, FXS_RATIO(15, 2), FXS_PARAM_RADII,      \
    "neighbors closer than this attract")                                                          \
  X(FXS_BEHAVIOR_COHESION, 1, blind_angle, "radians", 0, FXS_TWO_PI, 0, FXS_PARAM_ABSOLUTE,        \
    "full angle of the blind cone behind the heading; 0 sees all around")                          \
  X(FXS_BEHAVIOR_COHESION, 2, max_neighbors, "count", 0, FXS_INT(FXS_MAX_VIEW_NEIGHBORS), 0,       \
    FXS_PARAM_ABSOLUTE,                                                                            \
    "the nearest this many in view count (a whole number); 0 counts all the search found")         \
  X(FXS_BEHAVIOR_LEADER, 0, behind, "units", 0, FXS_MAX, FXS_RATIO(15, 4), FXS_PARAM_RADII,        \
    "followers arrive this far behind the leader")                                                 \
  X(FXS_BEHAVIOR_LEADER, 1, sight, "units", 0, FXS_MAX, FXS_RATIO(15, 4), FXS_PARAM_RADII,         \
    "followers this close to the leader or the point ahead of it evade")                           \
  X(FXS_BEHAVIOR_LEADER, 2, slowing_radius, "units", 0, FXS_MAX, FXS_RATIO(15, 2),                 \
    FXS_PARAM_RADII, "arrival slowing radius at the point behind")                                 \
  X(FXS_BEHAVIOR_LEADER, 3, separation_radius, "units", 0, FXS_MAX, FXS_RATIO(15, 4),              \
    FXS_PARAM_RADII, "followers keep this far apart")                                              \
  X(FXS_BEHAVIOR_LEADER, 4, separation_weight, "factor", 0, FXS_MAX, FXS_INT(8),                   \
    FXS_PARAM_ABSOLUTE, "multiplies the separation force")                                         \
  X(FXS_BEHAVIOR_LEADER, 5, max_prediction, "ticks", 0, FXS_MAX, FXS_INT(20), FXS_PARAM_ABSOLUTE,  \
    "look-ahead cap of the evade")                                                                 \
  X(FXS_BEHAVIOR_QUEUE, 0, max_queue_ahead, "units", 0, FXS_MAX, FXS_RATIO(5, 2), FXS_PARAM_RADII, \
    "distance of the probe point ahead")                                                           \
  X(FXS_BEHAVIOR_QUEUE, 1, max_queue_radius, "units", 0, FXS_MAX, FXS_INT(2), FXS_PARAM_RADII,     \
    "an agent this close to the probe point makes the agent brake")                                \
  X(FXS_BEHAVIOR_QUEUE, 2, separation_radius, "units", 0, FXS_MAX, FXS_INT(2), FXS_PARAM_RADII,    \
    "queue members keep this far apart")                                                           \
  X(FXS_BEHAVIOR_DYNAMIC_ARRIVE, 0, target_radius, "units", 0, FXS_MAX, FXS_RATIO(1, 4),           \
    FXS_PARAM_RADII, "closer than this the agent brakes to rest")                                  \
  X(FXS_BEHAVIOR_DYNAMIC_ARRIVE, 1, slow_radius, "units", 0, FXS_MAX, FXS_RATIO(25, 2),            \
    FXS_PARAM_RADII, "closer than this the target speed falls linearly")                           \
  X(FXS_BEHAVIOR_DYNAMIC_ARRIVE, 2, time_to_target, "ticks", 1, FXS_MAX, FXS_INT(4),               \
    FXS_PARAM_ABSOLUTE, "ticks to reach the target velocity")                                      \
  X(FXS_BEHAVIOR_DYNAMIC_ARRIVE, 3, max_acceleration, "force", 0, FXS_MAX, FXS_ONE,                \
    FXS_PARAM_FORCES, "limit of the requested acceleration")                                       \
  X(FXS_BEHAVIOR_VELOCITY_MATCH, 0, time_to_target, "ticks", 1, FXS_MAX, FXS_INT(4),               \
    FXS_PARAM_ABSOLUTE, "ticks to reach the target's velocity")                                    \
  X(FXS_BEHAVIOR_VELOCITY_MATCH, 1, max_acceleration, "force", 0, FXS_MAX, FXS_ONE,                \
    FXS_PARAM_FORCES, "limit of the requested acceleration")                                       \
  X(FXS_BEHAVIOR_ALIGN, 0, target_orientation, "radians", -FXS_PI, FXS_PI, 0, FXS_PARAM_ABSOLUTE,  \
    "the orientation to turn to")                                                                  \
  X(FXS_BEHAVIOR_ALIGN, 1, target_radius, "radians", 0, FXS_PI, FXS_RATIO(1, 100),                 \
    FXS_PARAM_ABSOLUTE, "closer than this the agent stops rotating")                               \
  X(FXS_BEHAVIOR_ALIGN, 2, slow_radius, "radians", 0, FXS_MAX, FXS_RATIO(1, 2),                    \
    FXS_PARAM_ABSOLUTE, "closer than this the rotation slows down")                                \
  X(FXS_BEHAVIOR_ALIGN, 3, time_to_target, "ticks", 1, FXS_MAX, FXS_INT(2), FXS_PARAM_ABSOLUTE,    \
    "ticks to reach the target rotation")                                                          \
  X(FXS_BEHAVIOR_FACE, 0, target_radius, "radians", 0, FXS_PI, FXS_RATIO(1, 100),                  \
    FXS_PARAM_ABSOLUTE, "closer than this the agent stops rotating")                               \
  X(FXS_BEHAVIOR_FACE, 1, slow_radius, "radians", 0, FXS_MAX, FXS_RATIO(1, 2), FXS_PARAM_ABSOLUTE, \
    "closer than this the rotation slows down")                                                    \
  X(FXS_BEHAVIOR_FACE, 2, time_to_target, "ticks", 1, FXS_MAX, FXS_INT(2), FXS_PARAM_ABSOLUTE,     \
    "ticks to reach the target rotation")                                                          \
  X(FXS_BEHAVIOR_LOOK_WHERE_GOING, 0, target_radius, "radians", 0, FXS_PI, FXS_RATIO(1, 100),      \
    FXS_PARAM_ABSOLUTE, "closer than this the agent stops rotating")                               \
  X(FXS_BEHAVIOR_LOOK_WHERE_GOING, 1, slow_radius, "radians", 0, FXS_MAX, FXS_RATIO(1, 2),         \
    FXS_PARAM_ABSOLUTE, "closer than this the rotation slows down")                                \
  X(FXS_BEHAVIOR_LOOK_WHERE_GOING, 2, time_to_target, "ticks", 1, FXS_MAX, FXS_INT(2),             \
    FXS_PARAM_ABSOLUTE, "ticks to reach the target rotation")                                      \
  X(FXS_BEHAVIOR_WALKER, 0, min_step, "units", 1, FXS_MAX, FXS_RATIO(1, 8), FXS_PARAM_RADII,       \
    "shortest step toward a waypoint; within it the walker goes straight to the target")           \
  X(FXS_BEHAVIOR_WALKER, 1, max_step, "units", 1, FXS_MAX, FXS_RATIO(5, 4), FXS_PARAM_RADII,       \
    "longest step toward a waypoint; at least min_step")                                           \
  X(FXS_BEHAVIOR_WALKER, 2, aggro_radius, "units", 1, FXS_MAX, FXS_RATIO(15, 4), FXS_PARAM_RADII,  \
    "the field of view narrows inside it")                                                         \
  X(FXS_BEHAVIOR_WALKER, 3, reach_radius, "units", 0, FXS_MAX, FXS_RATIO(1, 2), FXS_PARAM_RADII,   \
    "a waypoint this close counts as reached")                                                     \
  X(FXS_BEHAVIOR_WALKER, 4, slowing_radius, "units", 0, FXS_MAX, FXS_ONE, FXS_PARAM_RADII,         \
    "arrival slowing radius on the final target")                                                  \
  X(FXS_BEHAVIOR_KINEMATIC_ARRIVE, 0, radius, "units", 0, FXS_MAX, FXS_RATIO(1, 4),                \
    FXS_PARAM_RADII, "within it the agent stops")                                                  \
  X(FXS_BEHAVIOR_KINEMATIC_ARRIVE, 1, time_to_target, "ticks", 1, FXS_MAX, FXS_INT(8),             \
    FXS_PARAM_ABSOLUTE, "velocity = offset / time_to_target")                                      \
  X(FXS_BEHAVIOR_KINEMATIC_WANDER, 0, max_rotation, "radians", 0, FXS_PI, FXS_RATIO(1, 5),         \
    FXS_PARAM_ABSOLUTE, "largest random turn per tick")                                            \
  X(FXS_BEHAVIOR_FLOW_FIELD, 0, look_ahead, "ticks", 0, FXS_MAX, 0, FXS_PARAM_ABSOLUTE,            \
    "the world's field is read at position + velocity * look_ahead; 0 reads it under the agent")   \
  X(FXS_BEHAVIOR_UNALIGNED_AVOIDANCE, 0, time_horizon, "ticks", 0, FXS_MAX, FXS_INT(30),           \
    FXS_PARAM_ABSOLUTE, "neighbors closest later than this are no threat")                         \
  X(FXS_BEHAVIOR_UNALIGNED_AVOIDANCE, 1, margin, "units", 0, FXS_MAX, FXS_RATIO(1, 2),             \
    FXS_PARAM_RADII, "clearance kept on top of both radii at the closest approach")                \
  X(FXS_BEHAVIOR_UNALIGNED_AVOIDANCE, 2, neighbor_radius, "units", 0, FXS_MAX, FXS_ONE,            \
    FXS_PARAM_RADII, "body radius assumed for every neighbor; 0: each neighbor's own")             \
  X(FXS_BEHAVIOR_UNALIGNED_AVOIDANCE, 3, max_avoid_force, "force", 0, FXS_MAX, FXS_INT(4),         \
    FXS_PARAM_FORCES, "length of the avoidance force")                                             \
  X(FXS_BEHAVIOR_OFFSET_PURSUIT, 0, offset_forward, "units", FXS_MIN, FXS_MAX, -FXS_RATIO(15, 4),  \
    FXS_PARAM_RADII, "slot ahead (+) or behind (-) the leader, along its heading")                 \
  X(FXS_BEHAVIOR_OFFSET_PURSUIT, 1, offset_side, "units", FXS_MIN, FXS_MAX, 0, FXS_PARAM_ABSOLUTE, \
    "slot to the leader's left (+, its heading turned by +pi/2) or right (-)")                     \
  X(FXS_BEHAVIOR_OFFSET_PURSUIT, 2, slowing_radius, "units", 0, FXS_MAX, FXS_INT(4),               \
    FXS_PARAM_RADII, "arrival slowing radius at the slot")                                         \
  X(FXS_BEHAVIOR_OFFSET_PURSUIT, 3, max_prediction, "ticks", 0, FXS_MAX, FXS_INT(30),              \
    FXS_PARAM_ABSOLUTE, "cap of the look-ahead T = distance / (max_speed + leader speed)")         \
  X(FXS_BEHAVIOR_HIDE, 0, distance_from_boundary, "units", 0, FXS_MAX, FXS_INT(2),                 \
    FXS_PARAM_RADII, "gap between an obstacle's edge and the hiding spot (the agent's centre)")    \
  X(FXS_BEHAVIOR_HIDE, 1, slowing_radius, "units", 0, FXS_MAX, FXS_INT(4), FXS_PARAM_RADII,        \
    "arrival slowing radius at the spot")                                                          \
  X(FXS_BEHAVIOR_HIDE, 2, max_prediction, "ticks", 0, FXS_MAX, FXS_INT(30), FXS_PARAM_ABSOLUTE,    \
    "look-ahead cap of the evade when no obstacle gives a spot")                                   \
  X(FXS_BEHAVIOR_INTERPOSE, 0, slowing_radius, "units", 0, FXS_MAX, FXS_INT(4), FXS_PARAM_RADII,   \
    "arrival slowing radius at the predicted midpoint")                                            \
  X(FXS_BEHAVIOR_INTERPOSE, 1, max_prediction, "ticks", 0, FXS_MAX, FXS_INT(30),                   \
    FXS_PARAM_ABSOLUTE, "cap of the look-ahead T = distance to the midpoint / max_speed")          \
  X(FXS_BEHAVIOR_ORCA, 0, time_horizon, "ticks", FXS_ONE, FXS_MAX, FXS_INT(20),                    \
    FXS_PARAM_ABSOLUTE, "the chosen velocity keeps every pair apart for this long")                \
  X(FXS_BEHAVIOR_ORCA, 1, neighbor_distance, "units", 0, FXS_INT(1024), 0, FXS_PARAM_ABSOLUTE,     \
    "neighbors farther than this (centre to centre) are ignored; 0: 15 body radii")                \
  X(FXS_BEHAVIOR_ORCA, 2, neighbor_radius, "units", 0, FXS_INT(1024), 0, FXS_PARAM_ABSOLUTE,       \
    "body radius assumed for every neighbor; 0: each neighbor's own")                              \
  X(FXS_BEHAVIOR_ORCA, 3, max_neighbors, "count", 0, FXS_INT(FXS_MAX_VIEW_NEIGHBORS), FXS_INT(10), \
    FXS_PARAM_ABSOLUTE, "the nearest this many neighbors count (a whole number; 0: none)")         \
  X(FXS_BEHAVIOR_ORCA, 4, slowing_radius, "units", 0, FXS_MAX, 0, FXS_PARAM_ABSOLUTE,              \
    "preferred velocity: arrival's toward the target, slowing inside this radius; 0: the agent's " \
    "stopping distance, at least 4 radii")                                                         \
  X(FXS_BEHAVIOR_ORCA, 5, priority, "factor", 0, FXS_INT(100), 0, FXS_PARAM_ABSOLUTE,              \
    "avoidance priority: of a pair, the lower takes the larger share of the avoiding")             \
  X(FXS_BEHAVIOR_FORMATION, 0, shape, "choice", 0, FXS_INT(4), FXS_INT(2), FXS_PARAM_ABSOLUTE,     \
    "0 line, 1 column, 2 wedge, 3 box, 4 user (path nodes as offsets); names in scenario files")   \
  X(FXS_BEHAVIOR_FORMATION, 1, spacing, "units", 0, FXS_INT(1024), FXS_INT(3), FXS_PARAM_RADII,    \
    "distance between neighboring slots")                                                          \
  X(FXS_BEHAVIOR_FORMATION, 2, slowing_radius, "units", 0, FXS_MAX, FXS_INT(4), FXS_PARAM_RADII,   \
    "arrival slowing radius at the slot")                                                          \
  X(FXS_BEHAVIOR_FORMATION, 3, group, "count", 0, FXS_INT(32767), 0, FXS_PARAM_ABSOLUTE,           \
    "agents with the same group (a whole number) form one formation")                              \
  X(FXS_BEHAVIOR_FORMATION, 4, arrival_radius, "units", 0, FXS_MAX, FXS_RATIO(1, 32),              \
    FXS_PARAM_RADII, "this close to its slot, the leader at rest, a member stops")                 \
  X(FXS_BEHAVIOR_NAVIGATE, 0, slowing_radius, "units", 0, FXS_MAX, 0, FXS_PARAM_ABSOLUTE,          \
    "arrival slowing radius at the target (the route's last waypoint); 0: the agent's stopping "   \
    "distance, at least 4 radii")                                                                  \
  X(FXS_BEHAVIOR_NAVIGATE, 1, time_horizon, "ticks", FXS_ONE, FXS_MAX, FXS_INT(20),                \
    FXS_PARAM_ABSOLUTE,                                                                            \
    "ORCA among neighbors: the chosen velocity keeps every pair apart for this long")              \
  X(FXS_BEHAVIOR_NAVIGATE, 2, neighbor_distance, "units", 0, FXS_INT(1024), 0, FXS_PARAM_ABSOLUTE, \
    "ORCA: neighbors farther than this (centre to centre) are ignored; 0: 15 body radii")          \
  X(FXS_BEHAVIOR_NAVIGATE, 3, neighbor_radius, "units", 0, FXS_INT(1024), 0, FXS_PARAM_ABSOLUTE,   \
    "ORCA: body radius assumed for every neighbor; 0: each neighbor's own")                        \
  X(FXS_BEHAVIOR_NAVIGATE, 4, max_neighbors, "count", 0, FXS_INT(FXS_MAX_VIEW_NEIGHBORS),          \
    FXS_INT(10), FXS_PARAM_ABSOLUTE,                                                               \
    "ORCA: the nearest this many neighbors count (a whole number; 0: none)")                       \
  X(FXS_BEHAVIOR_NAVIGATE, 5, priority, "factor", 0, FXS_INT(100), 0, FXS_PARAM_ABSOLUTE,          \
    "ORCA: avoidance priority: of a pair, the lower takes the larger share of the avoiding")

/// Named slot indices generated from the table: FXS_PARAM(ORCA, priority) is the index of
/// ORCA's priority in a behavior slot's p[] (5). Read slot parameters only through these.
#define FXS_PARAM(behavior, name) FXS_BEHAVIOR_##behavior##_##name
/// One enumerator of fxs_behavior_param_index from a table row (undefined after use).
#define FXS_PARAM_INDEX_(behavior, index, name, unit, lo, hi, def, basis, meaning) \
  behavior##_##name = index,
/// The enumeration of every FXS_PARAM(behavior, name) (C only: bindings mirror the table).
enum fxs_behavior_param_index { FXS_BEHAVIOR_PARAM_LIST(FXS_PARAM_INDEX_) };
#undef FXS_PARAM_INDEX_

/// Range of a behavior slot's weight (the manager's multiplier), raw Q16.16.
#define FXS_BEHAVIOR_WEIGHT_MIN 0
/// Largest accepted weight.
#define FXS_BEHAVIOR_WEIGHT_MAX FXS_MAX

/// One row of the table.
typedef struct fxs_behavior_param {
  fxs_behavior behavior; ///< The behavior it belongs to.
  const char *name;      ///< Name in scenario files and reports ("slowing_radius").
  const char *unit;      ///< "units", "ticks", "radians", "force", "factor", "choice" or "count".
  fix16_t minimum;       ///< Smallest accepted value, raw Q16.16.
  fix16_t maximum;       ///< Largest accepted value, raw Q16.16.
  fix16_t default_value; ///< The default for the reference agent (FXS_PARAM_REFERENCE_RADIUS).
  const char *meaning;   ///< One line for documentation.
  fxs_param_basis basis; ///< What the default follows (the agent's radius, its max force).
  fix16_t per_basis;     ///< The default in the unit of `basis` (radii, max forces), raw Q16.16.
} fxs_behavior_param;

/// Number of parameters `behavior` takes (0 for unknown behaviors).
FXS_API uint32_t fxs_behavior_param_count(fxs_behavior behavior);

/// Parameter `index` of `behavior`, or NULL when there is no such parameter.
FXS_API const fxs_behavior_param *fxs_behavior_param_info(fxs_behavior behavior, uint32_t index);

/// The default of parameter `index` of `behavior` for the reference agent (radius 8, max force
/// 1/4; 0 when there is no such parameter).
FXS_API fix16_t fxs_behavior_param_default(fxs_behavior behavior, uint32_t index);

/// The default of parameter `index` of `behavior` for an agent of body radius `radius` and max
/// force `max_force`: the row's radii times `radius`, max forces times `max_force`, rounded to
/// nearest and held in the row's range. A radius or max force <= 0 (a point, an agent that
/// cannot steer) takes the reference agent's, as does every FXS_PARAM_ABSOLUTE row; 0 when
/// there is no such parameter. Scaling radius and max force by K scales every length and force
/// default by K (within rounding): no unit of length is special.
FXS_API fix16_t fxs_behavior_param_default_for(fxs_behavior behavior, uint32_t index,
                                               fix16_t radius, fix16_t max_force);

/// Checks a behavior slot's kind, weight and parameters against the table (and walker's
/// max_step >= min_step, obstacle avoidance's mode is exactly 0 or 1, a formation's shape is
/// whole, counts are whole). FXS_ERR_BAD_VALUE names the offending value in *bad_index when
/// not NULL: 0..5 a parameter, FXS_BAD_PARAM_WEIGHT the weight, FXS_BAD_PARAM_KIND the kind.
FXS_API fxs_result fxs_behavior_params_check(uint32_t kind, fix16_t weight,
                                             const fix16_t params[FXS_BEHAVIOR_PARAMS],
                                             uint32_t *bad_index);

/// *bad_index value naming the weight.
#define FXS_BAD_PARAM_WEIGHT 6u
/// *bad_index value naming the behavior kind.
#define FXS_BAD_PARAM_KIND 7u

#ifdef __cplusplus
}
#endif

#endif
