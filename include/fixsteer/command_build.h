/// @file command_build.h
/// Typed constructors for every world command. They fill the fixed-size wire format of
/// command.h (type, agent, ref, arg[8]) from typed values, so no caller has to know which
/// argument slot means what. Source and sequence are 0: set them before submitting (every
/// peer must order a tick's commands the same way, see command.h).
///
/// Nothing here substitutes defaults for zeros: every value is taken as given, and the
/// world validates it on application (behavior_params.h lists each parameter's range).
/// Start from the fxs_default_*() values to change only what you mean to.
#ifndef FIXSTEER_COMMAND_BUILD_H
#define FIXSTEER_COMMAND_BUILD_H

#include "fixsteer/api.h"
#include "fixsteer/align.h"
#include "fixsteer/avoidance.h"
#include "fixsteer/command.h"
#include "fixsteer/formation.h"
#include "fixsteer/hide.h"
#include "fixsteer/interpose.h"
#include "fixsteer/leader.h"
#include "fixsteer/manager.h"
#include "fixsteer/orca.h"
#include "fixsteer/pursuit.h"
#include "fixsteer/unaligned_avoidance.h"
#include "fixsteer/velocity_match.h"
#include "fixsteer/walker.h"
#include "fixsteer/wander.h"
#include "fixsteer/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What a spawn sets; the rest of the agent starts as fxs_default_agent().
typedef struct fxs_spawn_def {
  fxs_vec2 position; ///< World units.
  fxs_vec2 velocity; ///< World units per tick; truncated to max_speed.
  fix16_t max_speed; ///< World units per tick, >= 0. Default 4.
  fix16_t max_force; ///< >= 0. Default 0.25.
  fix16_t mass;      ///< > 0. Default 1.
  fix16_t radius;    ///< World units, >= 0. Default 8.
  uint8_t owned;     ///< 1: owned by the source that spawns it (command.h); 0: shared. Default 0.
} fxs_spawn_def;

/// An agent at the origin, at rest, with fxs_default_agent()'s limits.
FXS_API fxs_spawn_def fxs_default_spawn_def(void);

/// The limits and orientation policy of an agent (FXS_CMD_SET_LIMITS).
typedef struct fxs_agent_limits_def {
  fix16_t max_speed;                ///< World units per tick, >= 0.
  fix16_t max_force;                ///< >= 0.
  fix16_t mass;                     ///< > 0.
  fix16_t radius;                   ///< World units, >= 0.
  fix16_t max_rotation;             ///< Radians per tick, >= 0.
  fix16_t max_angular_acceleration; ///< Radians per tick per tick, >= 0.
  fix16_t max_turn_rate;            ///< Radians per tick, >= 0 (0: snap to the heading).
  fxs_orientation_mode orientation; ///< How the integrator turns the agent.
} fxs_agent_limits_def;

/// fxs_default_agent()'s limits and orientation policy.
FXS_API fxs_agent_limits_def fxs_default_agent_limits_def(void);

/// How a behavior joins the agent's manager: weight >= 0 and priority (group).
typedef struct fxs_blend {
  fix16_t weight;   ///< Multiplier, >= 0. Default 1.
  uint8_t priority; ///< Priority or group. Default 0.
} fxs_blend;

/// Weight 1, priority 0.
FXS_API fxs_blend fxs_default_blend(void);

/// What separation, alignment and cohesion see of the neighbors the world's search found
/// (their parameters p[1] and p[2]).
typedef struct fxs_flocking_view {
  fix16_t blind_angle;    ///< Full angle of the blind cone behind the heading, radians, [0, 2 pi].
  uint32_t max_neighbors; ///< The nearest this many in view count, [0, 16]; 0: all.
} fxs_flocking_view;

/// No blind cone, no cap: what the rules saw before they had a view.
FXS_API fxs_flocking_view fxs_default_flocking_view(void);

FXS_API fxs_command fxs_command_spawn(const fxs_spawn_def *def); ///< Spawn.
FXS_API fxs_command fxs_command_despawn(fxs_agent_handle agent); ///< Despawn.
/// Target point.
FXS_API fxs_command fxs_command_set_target_point(fxs_agent_handle agent, fxs_vec2 point);
/// Target agent (a 0 handle clears it).
FXS_API fxs_command fxs_command_set_target_agent(fxs_agent_handle agent, fxs_agent_handle target);
/// Second target agent (interpose steps between the target and it; a 0 handle clears it).
FXS_API fxs_command fxs_command_set_second_target(fxs_agent_handle agent, fxs_agent_handle target);
/// Empties the behavior set and chooses how the manager combines the next ones.
FXS_API fxs_command fxs_command_clear_behaviors(fxs_agent_handle agent, fxs_combine_mode mode);
/// Follow path `path_index` of the world (FXS_NO_PATH: none), from its first node.
FXS_API fxs_command fxs_command_set_path(fxs_agent_handle agent, uint32_t path_index);
/// A force for the coming tick only, beyond max_force.
FXS_API fxs_command fxs_command_apply_force(fxs_agent_handle agent, fxs_vec2 force);
/// Limits.
FXS_API fxs_command fxs_command_set_limits(fxs_agent_handle agent, const fxs_agent_limits_def *def);
/// Hands the agent to source `owner` (0..255), or shares it (FXS_OWNER_SHARED). Only its
/// current owner may do this (anyone, while it is shared).
FXS_API fxs_command fxs_command_set_owner(fxs_agent_handle agent, uint32_t owner);
FXS_API fxs_command fxs_command_add_obstacle(fxs_obstacle obstacle); ///< Obstacle.
FXS_API fxs_command fxs_command_remove_obstacle(uint32_t index);     ///< By slot.
FXS_API fxs_command fxs_command_add_wall(fxs_wall wall);             ///< Wall.
FXS_API fxs_command fxs_command_remove_wall(uint32_t index);         ///< By slot.

/// The world's flow-field grid: cell (0, 0) has its lowest corner at origin, cells are
/// cell_size units square, columns x rows of them (each in [1, FXS_MAX_FIELD_SIDE], product
/// at most capacity.field_cells); every cell becomes zero. Counts above FXS_MAX_FIELD_SIDE
/// are encoded as a value the world refuses.
FXS_API fxs_command fxs_command_set_field_grid(fxs_vec2 origin, fix16_t cell_size, uint32_t columns,
                                               uint32_t rows);
/// Removes the world's flow field (flow_field behaviors then give no force).
FXS_API fxs_command fxs_command_remove_field(void);
/// Sets the block of columns x rows cells whose first cell is (column, row) to `flow` (any
/// length; only its direction is followed). The block must lie inside the grid.
FXS_API fxs_command fxs_command_set_field_cells(uint32_t column, uint32_t row, uint32_t columns,
                                                uint32_t rows, fxs_vec2 flow);
/// Fills every cell with `direction` made unit (fxs_flow_field_fill_uniform).
FXS_API fxs_command fxs_command_fill_field_uniform(fxs_vec2 direction);
/// Fills every cell with the unit vector toward `point` (fxs_flow_field_fill_toward).
FXS_API fxs_command fxs_command_fill_field_toward(fxs_vec2 point);
/// Fills the field with a vortex around `center` (fxs_flow_field_fill_vortex).
FXS_API fxs_command fxs_command_fill_field_vortex(fxs_vec2 center, fix16_t swirl, fix16_t inward);
/// Fills the field with the directions toward `goal` over the navigation grid (nav_field.h:
/// the neighbour a cheapest path goes through; zero on the goal's cell and where no path
/// leads). The field must have the navigation grid's origin, cell size, columns and rows.
FXS_API fxs_command fxs_command_fill_field_goal(fxs_vec2 goal);

/// The world's navigation grid (docs/navigation.md): cell (0, 0) has its lowest corner at
/// origin, columns x rows cells of cell_size units (nav_grid.h's limits, product at most
/// capacity.nav_cells); every base cost becomes 1; walls and obstacles block the cells within
/// `radius` (the agents' radius) of them; searches expand at most `budget` cells a tick
/// ([1, FXS_NAV_MAX_BUDGET]). Counts out of range are encoded as values the world refuses.
FXS_API fxs_command fxs_command_set_nav_grid(fxs_vec2 origin, fix16_t cell_size, uint32_t columns,
                                             uint32_t rows, fix16_t radius, uint32_t budget);
/// Removes the navigation grid (navigate behaviors then hold still).
FXS_API fxs_command fxs_command_remove_nav_grid(void);
/// Sets the base cost of the block of columns x rows cells whose first cell is (column, row)
/// to `cost` (0 blocked, 1..254 the weight). The block must lie inside the grid.
FXS_API fxs_command fxs_command_set_nav_costs(uint32_t column, uint32_t row, uint32_t columns,
                                              uint32_t rows, uint32_t cost);

/// Moves the agent to `destination`, the RTS click (docs/navigation.md, "Moving groups"). A
/// tick's moves take effect after its other commands, and its valid moves with the same
/// source, `group` tag, destination and gap form one group, members in canonical command
/// order (an agent moved twice in a tick keeps its last move). Each member's target point
/// becomes its own spot (its target agent is cleared): spots lie on a hexagonal lattice round
/// the destination, rings outward, the pitch twice the group's largest radius plus `gap`
/// (units, [0, 1024]); spots outside the navigation grid or on blocked cells are skipped.
/// Members nearest the destination choose first (ties: the earlier command), each the spot
/// nearest to it in the innermost ring with a free spot (ties: the lower spot), so spots fill
/// outward as members arrive. A group of one goes to the destination itself.
FXS_API fxs_command fxs_command_move(fxs_agent_handle agent, uint32_t group, fxs_vec2 destination,
                                     fix16_t gap);

/// Any behavior from a slot (fxs_behavior_slot_default() gives the table's defaults).
FXS_API fxs_command fxs_command_add_behavior(fxs_agent_handle agent, const fxs_behavior_slot *slot);

/// Typed behavior commands, one per behavior; parameters as in behavior_params.h.
/// Seek the agent's target (world.h: its target agent when alive, else its target point).
FXS_API fxs_command fxs_command_add_seek(fxs_agent_handle agent, fxs_blend blend);
/// Flee from the target; panic_radius in world units, [0, max], 0 flees at any distance.
FXS_API fxs_command fxs_command_add_flee(fxs_agent_handle agent, fxs_blend blend,
                                         fix16_t panic_radius);
/// Arrive at the target; slowing_radius in world units, [0, max] (default 100), 0 is
/// plain seek.
FXS_API fxs_command fxs_command_add_arrive(fxs_agent_handle agent, fxs_blend blend,
                                           fix16_t slowing_radius);
/// Wander with `def`'s circle (distance, radius in units; angle change in radians, [0, 2pi]).
FXS_API fxs_command fxs_command_add_wander(fxs_agent_handle agent, fxs_blend blend,
                                           const fxs_wander_def *def);
/// Pursue the target agent (no force without one); max_prediction caps the look-ahead, ticks,
/// [0, max] (default 30).
FXS_API fxs_command fxs_command_add_pursuit(fxs_agent_handle agent, fxs_blend blend,
                                            fix16_t max_prediction);
/// Evade the target agent (no force without one); max_prediction in ticks (default 30),
/// panic_radius in units (0: at any distance).
FXS_API fxs_command fxs_command_add_evade(fxs_agent_handle agent, fxs_blend blend,
                                          fix16_t max_prediction, fix16_t panic_radius);
/// Obstacle avoidance with `def` (see-ahead in units, force, margin in ticks, braking, mode).
FXS_API fxs_command fxs_command_add_avoidance(fxs_agent_handle agent, fxs_blend blend,
                                              const fxs_avoidance_def *def);
/// Follow the agent's path (set_path); the path carries its radius and its end mode.
FXS_API fxs_command fxs_command_add_path_following(fxs_agent_handle agent, fxs_blend blend);
/// Separation from neighbors closer than radius, world units, [0, max] (default 24).
FXS_API fxs_command fxs_command_add_separation(fxs_agent_handle agent, fxs_blend blend,
                                               fix16_t radius);
/// Alignment with neighbors closer than radius, world units, [0, max] (default 60).
FXS_API fxs_command fxs_command_add_alignment(fxs_agent_handle agent, fxs_blend blend,
                                              fix16_t radius);
/// Cohesion toward neighbors closer than radius, world units, [0, max] (default 60).
FXS_API fxs_command fxs_command_add_cohesion(fxs_agent_handle agent, fxs_blend blend,
                                             fix16_t radius);
/// Separation, alignment and cohesion with a view (a blind cone behind, a neighbor cap).
FXS_API fxs_command fxs_command_add_separation_view(fxs_agent_handle agent, fxs_blend blend,
                                                    fix16_t radius, const fxs_flocking_view *view);
/// See separation_view.
FXS_API fxs_command fxs_command_add_alignment_view(fxs_agent_handle agent, fxs_blend blend,
                                                   fix16_t radius, const fxs_flocking_view *view);
/// See separation_view.
FXS_API fxs_command fxs_command_add_cohesion_view(fxs_agent_handle agent, fxs_blend blend,
                                                  fix16_t radius, const fxs_flocking_view *view);
/// Follow the target agent as leader (no force without one) with `def` (distance behind,
/// sight, separation; units).
FXS_API fxs_command fxs_command_add_leader_following(fxs_agent_handle agent, fxs_blend blend,
                                                     const fxs_leader_def *def);
/// Queue behind the agents ahead with `def` (probe distance and radius, separation; units).
FXS_API fxs_command fxs_command_add_queue(fxs_agent_handle agent, fxs_blend blend,
                                          const fxs_queue_def *def);
/// Millington's dynamic arrive at the target with `def` (radii in units, time in ticks).
FXS_API fxs_command fxs_command_add_dynamic_arrive(fxs_agent_handle agent, fxs_blend blend,
                                                   const fxs_dynamic_arrive_def *def);
/// Match the target agent's velocity (no force without one); time_to_target in ticks,
/// [1 LSB, max] (default 4); max_acceleration in units per tick^2, [0, max] (default 0.25).
FXS_API fxs_command fxs_command_add_velocity_match(fxs_agent_handle agent, fxs_blend blend,
                                                   fix16_t time_to_target,
                                                   fix16_t max_acceleration);
/// Turn to target_orientation, radians in [-pi, pi], with `def` (radii in radians, ticks).
FXS_API fxs_command fxs_command_add_align(fxs_agent_handle agent, fxs_blend blend,
                                          fix16_t target_orientation, const fxs_align_def *def);
/// Turn to face the target, with `def` (radii in radians, time in ticks).
FXS_API fxs_command fxs_command_add_face(fxs_agent_handle agent, fxs_blend blend,
                                         const fxs_align_def *def);
/// Turn toward the direction of travel, with `def` (radii in radians, time in ticks).
FXS_API fxs_command fxs_command_add_look_where_going(fxs_agent_handle agent, fxs_blend blend,
                                                     const fxs_align_def *def);
/// Random walk to the target through waypoints, with `def` (steps and radii in units).
FXS_API fxs_command fxs_command_add_random_walker(fxs_agent_handle agent, fxs_blend blend,
                                                  const fxs_walker_def *def);
/// Kinematic seek: velocity set to max speed toward the target (a kinematic set only).
FXS_API fxs_command fxs_command_add_kinematic_seek(fxs_agent_handle agent, fxs_blend blend);
/// Kinematic arrive: stop within radius (units, default 2); velocity = offset / time_to_target
/// (ticks, [1 LSB, max], default 8). A kinematic set only.
FXS_API fxs_command fxs_command_add_kinematic_arrive(fxs_agent_handle agent, fxs_blend blend,
                                                     fix16_t radius, fix16_t time_to_target);
/// Kinematic wander: a random turn of at most max_rotation radians a tick, [0, pi] (default
/// 0.2). A kinematic set only.
FXS_API fxs_command fxs_command_add_kinematic_wander(fxs_agent_handle agent, fxs_blend blend,
                                                     fix16_t max_rotation);
/// Follow the world's flow field, read at position + velocity * look_ahead (ticks, [0, max];
/// 0 reads it under the agent).
FXS_API fxs_command fxs_command_add_flow_field(fxs_agent_handle agent, fxs_blend blend,
                                               fix16_t look_ahead);
/// Offset pursuit of the agent's target agent (the leader), at a slot in its local frame.
FXS_API fxs_command fxs_command_add_offset_pursuit(fxs_agent_handle agent, fxs_blend blend,
                                                   const fxs_offset_pursuit_def *def);
/// Interpose between the agent's target agent (or, without one, its target point) and its
/// second target agent (fxs_command_set_second_target); no force without the second.
FXS_API fxs_command fxs_command_add_interpose(fxs_agent_handle agent, fxs_blend blend,
                                              const fxs_interpose_def *def);
/// Hide behind the world's obstacles from the agent's target agent (or, without one, from a
/// hunter standing still on its target point).
FXS_API fxs_command fxs_command_add_hide(fxs_agent_handle agent, fxs_blend blend,
                                         const fxs_hide_def *def);
/// ORCA toward the agent's target (arrival's desired velocity, slowing_radius, is the
/// preferred one) among the neighbors the world's search found, the walls and the obstacles;
/// def->priority is the agent's avoidance priority, and its obstacle time horizon is
/// time_horizon / 2 (def->obstacle_time_horizon is not carried).
FXS_API fxs_command fxs_command_add_orca(fxs_agent_handle agent, fxs_blend blend,
                                         const fxs_orca_def *def, fix16_t slowing_radius);
/// Unaligned collision avoidance over the agent's neighbors (the world's grid search).
FXS_API fxs_command fxs_command_add_unaligned_avoidance(fxs_agent_handle agent, fxs_blend blend,
                                                        const fxs_unaligned_avoidance_def *def);
/// Navigate to the agent's target (its target agent when alive, else its target point) along
/// a route the world's A* finds on the navigation grid, arriving with `slowing_radius`,
/// avoiding neighbors with ORCA (def's fields; its obstacle time horizon is time_horizon / 2).
FXS_API fxs_command fxs_command_add_navigate(fxs_agent_handle agent, fxs_blend blend,
                                             fix16_t slowing_radius, const fxs_orca_def *def);
/// A formation (def's shape, spacing, slowing_radius, group, arrival_radius; its offsets are
/// not sent: the user's shape takes the agent's path nodes) around the agent's target agent.
FXS_API fxs_command fxs_command_add_formation(fxs_agent_handle agent, fxs_blend blend,
                                              const fxs_formation_def *def);

#ifdef __cplusplus
}
#endif

#endif
