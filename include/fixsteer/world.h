/// @file world.h
/// The lockstep world: agents with behavior sets, obstacles and paths, all in one block of
/// caller-owned memory. Each tick: apply the tick's commands in canonical order -> sense
/// neighbors -> compute every agent's steering from the state at the start of the tick ->
/// integrate -> advance the tick. fxs_world_hash() then names the whole state in 64 bits.
#ifndef FIXSTEER_WORLD_H
#define FIXSTEER_WORLD_H

#include <stddef.h>
#include <stdint.h>

#include "fixsteer/agent.h"
#include "fixsteer/avoidance.h"
#include "fixsteer/behavior.h"
#include "fixsteer/behavior_params.h"
#include "fixsteer/command.h"
#include "fixsteer/flocking.h"
#include "fixsteer/path.h"
#include "fixsteer/result.h"
#include "fixsteer/rng.h"
#include "fixsteer/walker.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Behavior slots per agent.
#define FXS_AGENT_BEHAVIORS 6
/// Most neighbors an agent senses: the nearest ones, ties broken by lower slot index.
#define FXS_MAX_NEIGHBORS 16
/// Path index meaning "no path".
#define FXS_NO_PATH 0xFFFFu

/// An agent handle: slot index + 1 in the low 16 bits, generation in the high 16 bits.
/// 0 is never a valid handle; a despawned agent's handle goes stale.
typedef struct fxs_agent_handle {
  uint32_t value; ///< Encoded handle.
} fxs_agent_handle;

/// One behavior of an agent's set. p[] holds the behavior's parameters in the order of
/// FXS_BEHAVIOR_PARAM_LIST (behavior_params.h), which also gives each one's unit, range and
/// default; unused entries are 0. Commands and snapshots with values outside those ranges
/// are rejected (FXS_ERR_BAD_VALUE). Path following takes its path from fxs_world.
/// Targets: the agent's target agent when it is alive, else its target point.
typedef struct fxs_behavior_slot {
  uint8_t kind;                   ///< An fxs_behavior.
  uint8_t priority;               ///< Manager priority / group.
  fix16_t weight;                 ///< Manager weight.
  fix16_t p[FXS_BEHAVIOR_PARAMS]; ///< Parameters, see above.
} fxs_behavior_slot;

/// A behavior slot of `kind` with weight 1, priority 0 and the library's default parameters.
fxs_behavior_slot fxs_behavior_slot_default(fxs_behavior kind);

/// Everything the world keeps about one agent. All of it is state: hashed and snapshotted.
typedef struct fxs_agent_slot {
  uint16_t generation;      ///< Bumped on despawn; stale handles no longer match.
  uint8_t alive;            ///< 1 while spawned.
  uint8_t combine_mode;     ///< fxs_combine_mode of its manager.
  uint8_t behavior_count;   ///< Used entries of behaviors[].
  uint16_t path_index;      ///< Index into the world's paths, or FXS_NO_PATH.
  uint32_t target_agent;    ///< Handle value of the target agent, or 0.
  fxs_vec2 target_point;    ///< World units.
  fxs_vec2 pending_force;   ///< apply_force total for the coming tick.
  fxs_agent body;           ///< Kinematic state and limits.
  fxs_rng rng;              ///< Its own stream: world seed + slot index + generation.
  fix16_t wander_angle;     ///< Wander state, radians.
  fxs_path_state path;      ///< Path-following progress.
  fxs_walker_state walker;  ///< Random-walker waypoint.
  fxs_behavior_slot behaviors[FXS_AGENT_BEHAVIORS]; ///< The behavior set, in order.
} fxs_agent_slot;

/// A path stored in the world: count nodes starting at first_node of the node array.
typedef struct fxs_world_path {
  uint32_t first_node;    ///< Index of the first node.
  uint16_t count;         ///< Number of nodes.
  uint8_t mode;           ///< fxs_path_mode.
  fix16_t radius;         ///< Path radius, world units.
  fix16_t slowing_radius; ///< Arrival radius at the end (stop mode), world units.
} fxs_world_path;

/// World configuration.
typedef struct fxs_world_def {
  uint64_t seed;            ///< Seeds every agent's random stream.
  fxs_vec2 bounds_min;      ///< Lower corner of the world, world units.
  fxs_vec2 bounds_max;      ///< Upper corner, world units.
  uint8_t clamp_to_bounds;  ///< 1: positions are clamped into the bounds each tick.
  fix16_t neighbor_radius;  ///< Agents closer than this are neighbors. Default 100.
} fxs_world_def;

/// How much the world can hold; fixed at init.
typedef struct fxs_world_capacity {
  uint16_t agents;     ///< Agent slots (at most 65534).
  uint16_t obstacles;  ///< Obstacle slots.
  uint16_t paths;      ///< Paths.
  uint32_t path_nodes; ///< Path nodes, all paths together.
  uint16_t walls;      ///< Wall slots.
} fxs_world_capacity;

/// The world. Fields are readable; change them only through the functions below.
typedef struct fxs_world {
  fxs_world_def def;            ///< Configuration.
  fxs_world_capacity capacity;  ///< Capacities.
  uint32_t tick;                ///< Ticks stepped so far.
  uint16_t path_count;          ///< Paths added.
  uint32_t node_count;          ///< Path nodes used.
  fxs_agent_slot *agents;       ///< capacity.agents slots.
  fxs_obstacle *obstacles;      ///< capacity.obstacles slots.
  uint8_t *obstacle_alive;      ///< 1 where obstacles[i] is in use.
  fxs_world_path *paths;        ///< capacity.paths paths.
  fxs_vec2 *nodes;              ///< capacity.path_nodes nodes.
  fxs_wall *walls;              ///< capacity.walls slots.
  uint8_t *wall_alive;          ///< 1 where walls[i] is in use.
  // Scratch space for the step; not state.
  fxs_agent *next;              ///< Integrated bodies of the tick being stepped.
  fxs_neighbor *view;           ///< Start-of-tick view of every live agent.
  fxs_obstacle *live_obstacles; ///< Obstacles in use, in index order.
  fxs_wall *live_walls;         ///< Walls in use, in index order.
  uint32_t *cell_start;         ///< Spatial grid: first view index of each cell (+1 end).
  uint32_t *cell_items;         ///< View indices sorted by cell.
  uint32_t *view_cell;          ///< Cell of each view entry.
  uint32_t grid_max_cells;      ///< Cells the grid may use (from the capacity).
} fxs_world;

/// A 4096 x 4096 world at the origin, seed 1, no clamping, neighbor radius 100.
fxs_world_def fxs_default_world_def(void);

/// FXS_OK when a definition is usable: bounds_min <= bounds_max on both axes,
/// neighbor_radius >= 0, clamp_to_bounds 0 or 1. Else FXS_ERR_BAD_VALUE.
fxs_result fxs_world_def_check(const fxs_world_def *def);

/// Bytes of memory a world with these capacities needs (8-byte aligned block). It includes
/// a spatial grid of max(64, 2 * agents) cells for neighbor queries.
size_t fxs_world_memory_size(const fxs_world_capacity *capacity);

/// Lays the world out in `memory` (size from fxs_world_memory_size) and empties it.
fxs_result fxs_world_init(fxs_world *world, const fxs_world_def *def,
                          const fxs_world_capacity *capacity, void *memory, size_t size);

/// Adds a path of `count` nodes (copied). Paths are part of the world's configuration.
fxs_result fxs_world_add_path(fxs_world *world, const fxs_vec2 *nodes, uint16_t count,
                              fxs_path_mode mode, fix16_t radius, uint16_t *out_index);

/// Applies one command now (fxs_world_step does this for a tick's commands). A spawn
/// reports the new handle in *out_spawned when it is not NULL. Invalid commands change
/// nothing and return the reason.
fxs_result fxs_world_apply(fxs_world *world, const fxs_command *command,
                           fxs_agent_handle *out_spawned);

/// One tick: sorts `commands` into canonical order in place, applies them (results[i], when
/// results is not NULL, receives each one's outcome in sorted order), then steers and
/// integrates every live agent. The tick is stepped whatever the commands did; the return
/// value is FXS_OK when every command applied, else the result of the first rejected one
/// (in canonical order).
fxs_result fxs_world_step(fxs_world *world, fxs_command *commands, uint32_t count,
                          fxs_result *results);

/// The agent a handle names, or NULL when the handle is stale.
const fxs_agent *fxs_world_agent(const fxs_world *world, fxs_agent_handle handle);

/// The handle of the live agent in slot `index`, or a 0 handle.
fxs_agent_handle fxs_world_handle_at(const fxs_world *world, uint16_t index);

/// Number of live agents.
uint32_t fxs_world_agent_count(const fxs_world *world);

#ifdef __cplusplus
}
#endif

#endif
