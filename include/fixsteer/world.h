/// @file world.h
/// The lockstep world: agents with behavior sets, obstacles and paths, all in one block of
/// caller-owned memory. Each tick: apply the tick's commands in canonical order -> plan
/// navigate routes -> sense the start-of-tick view -> steer every agent from that view ->
/// integrate -> advance the tick (fxs_world_step, src/world/world_step.c). fxs_world_hash() then
/// names the whole state in 64 bits.
#ifndef FIXSTEER_WORLD_H
#define FIXSTEER_WORLD_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/agent.h"
#include "fixsteer/avoidance.h"
#include "fixsteer/behavior.h"
#include "fixsteer/behavior_params.h"
#include "fixsteer/command.h"
#include "fixsteer/flow_field.h"
#include "fixsteer/nav_field.h"
#include "fixsteer/nav_grid.h"
#include "fixsteer/nav_mesh.h"
#include "fixsteer/path.h"
#include "fixsteer/result.h"
#include "fixsteer/rng.h"
#include "fixsteer/step_profile.h"
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

/// Handle layout: slot index + 1 in the low FXS_HANDLE_INDEX_BITS bits (0 names no agent)
/// and the slot's generation in the high FXS_HANDLE_GENERATION_BITS bits. The generation
/// counts despawns of the slot modulo 2^10, so a handle goes stale when its agent despawns
/// (it could only match again after 1024 more despawns of that one slot).
#define FXS_HANDLE_INDEX_BITS 22
/// Bits of the generation in a handle: 32 - FXS_HANDLE_INDEX_BITS.
#define FXS_HANDLE_GENERATION_BITS 10
/// Mask of the index + 1 field of a handle value.
#define FXS_HANDLE_INDEX_MASK ((UINT32_C(1) << FXS_HANDLE_INDEX_BITS) - 1u)
/// Mask of a generation (after shifting it down by FXS_HANDLE_INDEX_BITS).
#define FXS_HANDLE_GENERATION_MASK ((UINT32_C(1) << FXS_HANDLE_GENERATION_BITS) - 1u)
/// Most agent slots a world can have (4,194,302): slot index + 1 must fit in the index bits.
#define FXS_MAX_AGENTS (FXS_HANDLE_INDEX_MASK - 1u)
/// Most obstacle slots, paths and wall slots a world can have (their indices are 16-bit).
#define FXS_MAX_SMALL_CAPACITY 0xFFFFu

/// An agent handle: (generation << FXS_HANDLE_INDEX_BITS) | (slot index + 1). A slot's
/// first agent (generation 0) has the handle slot index + 1. 0 is never a valid handle; a
/// despawned agent's handle goes stale.
typedef struct fxs_agent_handle {
  uint32_t value; ///< Encoded handle.
} fxs_agent_handle;

/// One behavior of an agent's set. p[] holds the behavior's parameters in the order of
/// FXS_BEHAVIOR_PARAM_LIST (behavior_params.h), which also gives each one's unit, range and
/// default; unused entries are 0. Commands and snapshots with values outside those ranges
/// are rejected (FXS_ERR_BAD_VALUE). Path following takes its path from fxs_world.
/// Targets: the agent's target agent when it is alive, else its target point. Interpose also
/// takes the agent's second target agent.
typedef struct fxs_behavior_slot {
  uint8_t kind;                   ///< An fxs_behavior.
  uint8_t priority;               ///< Manager priority / group.
  fix16_t weight;                 ///< Manager weight.
  fix16_t p[FXS_BEHAVIOR_PARAMS]; ///< Parameters, see above.
} fxs_behavior_slot;

/// A behavior slot of `kind` with weight 1, priority 0 and the library's default parameters
/// for the reference agent (radius 8, max force 1/4: FXS_PARAM_REFERENCE_RADIUS).
FXS_API fxs_behavior_slot fxs_behavior_slot_default(fxs_behavior kind);

/// A behavior slot of `kind` with weight 1, priority 0 and the library's default parameters
/// for an agent of body radius `radius` and max force `max_force`: length defaults in its
/// radii, force defaults in its max forces (fxs_behavior_param_default_for()). Give this to an
/// agent written in any unit of length.
FXS_API fxs_behavior_slot fxs_behavior_slot_default_for(fxs_behavior kind, fix16_t radius,
                                                        fix16_t max_force);

/// Everything the world keeps about one agent. All of it is state: hashed and snapshotted.
typedef struct fxs_agent_slot {
  uint16_t generation;     ///< Despawns of this slot modulo 2^10; stale handles no longer match.
  uint8_t alive;           ///< 1 while spawned.
  uint8_t combine_mode;    ///< fxs_combine_mode of its manager.
  uint8_t behavior_count;  ///< Used entries of behaviors[].
  uint8_t owned;           ///< 1: only commands whose source is `owner` act on it; 0: shared.
  uint8_t owner;           ///< The source (a session's player) that owns it; 0 when shared.
  uint16_t path_index;     ///< Index into the world's paths, or FXS_NO_PATH.
  uint32_t target_agent;   ///< Handle value of the target agent, or 0.
  uint32_t second_target;  ///< Handle value of a second target agent, or 0 (interpose steps
                           ///< between the two targets).
  fxs_vec2 target_point;   ///< World units.
  fxs_vec2 pending_force;  ///< apply_force total for the coming tick.
  fxs_agent body;          ///< Kinematic state and limits.
  fxs_rng rng;             ///< Its own stream: world seed, id (generation << 22) | slot index.
  fix16_t wander_angle;    ///< Wander state, radians.
  fxs_path_state path;     ///< Path-following progress.
  fxs_walker_state walker; ///< Random-walker waypoint.
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
  uint64_t seed;           ///< Seeds every agent's random stream.
  fxs_vec2 bounds_min;     ///< Lower corner of the world, world units.
  fxs_vec2 bounds_max;     ///< Upper corner, world units.
  uint8_t clamp_to_bounds; ///< 1: agents are contained (fxs_containment) and their positions
                           ///< clamped into the bounds each tick, with the velocity
                           ///< component into a bound they were clamped at set to 0.
  fix16_t neighbor_radius; ///< Agents closer than this are neighbors. Default 100.
} fxs_world_def;

/// How much the world can hold; fixed at init. fxs_world_init refuses larger values with
/// FXS_ERR_BAD_VALUE. The snapshot and the state hash store the first five (as u32);
/// field_cells too in a world with a flow field or navigation, the nav_* capacities in a
/// world with navigation (nav_fields when it has group fields); workers is scratch space,
/// not state.
typedef struct fxs_world_capacity {
  uint32_t agents;      ///< Agent slots, [0, FXS_MAX_AGENTS].
  uint32_t obstacles;   ///< Obstacle slots, [0, FXS_MAX_SMALL_CAPACITY].
  uint32_t paths;       ///< Paths, [0, FXS_MAX_SMALL_CAPACITY].
  uint32_t path_nodes;  ///< Path nodes, all paths together (limited by memory only).
  uint32_t walls;       ///< Wall slots, [0, FXS_MAX_SMALL_CAPACITY].
  uint32_t workers;     ///< Most workers of a task system, [0, FXS_MAX_WORKERS]; 0 means 1
                        ///< (the step's scratch, 2.5 KiB a worker, is kept for this many).
  uint32_t field_cells; ///< Cells of the flow field (columns x rows), limited by memory only.
                        ///< 0: no field; such a world's snapshots and hashes are exactly
                        ///< those of a world without flow fields (snapshot layout 3).
  /// Cells of the navigation grid, [0, FXS_NAV_MAX_CELLS]. 0: no navigation; such a world's
  /// snapshots and hashes are exactly those of a world without navigation (layouts 3 and 4),
  /// and the other nav_ capacities must be 0 too.
  uint32_t nav_cells;
  uint32_t nav_searches;  ///< A* searches in progress at once, [1, 256] with navigation.
  uint32_t nav_open;      ///< Open-list entries of each search, [1, nav_cells].
  uint32_t nav_waypoints; ///< Waypoints of one agent's route, [2, 65535] with navigation.
  /// Integration fields kept for groups of navigate agents sharing a goal, [0,
  /// FXS_NAV_MAX_FIELDS]; 0 without navigation. 0: every navigate agent runs A*, and the
  /// world's snapshots and hashes are exactly those of layout 5 (world_nav_fields.h).
  uint32_t nav_fields;
  /// How the world navigates: FXS_NAV_KIND_GRID (0, the grid above) or FXS_NAV_KIND_MESH (1,
  /// a navigation mesh of the walls and obstacles over the world's bounds, docs/navigation-mesh.md,
  /// "In the world"). A mesh world has nav_cells 0 and nav_fields 0; nav_searches,
  /// nav_open ([1, 2 * vertices - 6], the mesh's triangles) and nav_waypoints as above.
  uint32_t nav_kind;
  /// Vertices of a mesh world's mesh, [4, FXS_NAV_MESH_MAX_VERTICES]; 0 for the default
  /// FXS_NAV_MESH_DEFAULT_VERTICES(walls, obstacles). 0 in a grid world.
  uint32_t nav_mesh_vertices;
} fxs_world_capacity;

/// A world navigating on a grid (fxs_world_capacity.nav_kind).
#define FXS_NAV_KIND_GRID 0u
/// A world navigating on a mesh (fxs_world_capacity.nav_kind).
#define FXS_NAV_KIND_MESH 1u
/// The default vertex capacity of a mesh world: the 4 corners, each wall's 2 ends and each
/// obstacle's 8 vertices, and as many again for the points where they cross (capped at
/// FXS_NAV_MESH_MAX_VERTICES).
#define FXS_NAV_MESH_DEFAULT_VERTICES(walls, obstacles) \
  (4u + 4u * (uint64_t)(walls) + 16u * (uint64_t)(obstacles))

/// Most integration fields a world keeps.
#define FXS_NAV_MAX_FIELDS 64u

/// Most searches a world may run at once.
#define FXS_NAV_MAX_SEARCHES 256u
/// Most waypoints of one route.
#define FXS_NAV_MAX_WAYPOINTS 65535u
/// Most cells expanded per tick (the navigation budget), all searches together.
#define FXS_NAV_MAX_BUDGET 1048576u
/// Ticks a navigate agent may follow a ready route without progress (its waypoint neither
/// passed nor its touching distance, agent.h, nearer, unless it rests on its last leg)
/// before the route is searched again from where it stands.
#define FXS_NAV_STALL_TICKS 60u

/// Where an agent's route stands (fxs_nav_route.status).
typedef enum fxs_route_status {
  FXS_ROUTE_NONE = 0,      ///< No route: the agent has no navigate behavior, or no grid.
  FXS_ROUTE_WAITING = 1,   ///< A search is needed and waits for a free search slot.
  FXS_ROUTE_SEARCHING = 2, ///< A search slot is working on it (a few ticks under budget).
  FXS_ROUTE_READY = 3      ///< The waypoints are the route.
} fxs_route_status;

/// An agent's route (navigate behavior): string-pulled waypoints, cell indices of the
/// navigation grid, in the world's waypoint array. State: hashed and snapshotted.
typedef struct fxs_nav_route {
  uint8_t status;        ///< An fxs_route_status.
  uint8_t reached;       ///< How the search that made the waypoints ended (fxs_nav_status:
                         ///< FOUND ends on the goal, NEAREST or OPEN_FULL nearest to it); 0 none.
  uint8_t partial;       ///< 1 when the route was cut to the waypoint capacity: re-planned at
                         ///< its last waypoint.
  uint16_t search;       ///< Search slot while SEARCHING; WAITING keeps the one it last had
                         ///< (a route made stale mid-search), READY and NONE hold 0.
  uint16_t count;        ///< Waypoints (kept while a new search runs: the agent follows them).
  uint16_t next;         ///< Index of the waypoint being sought.
  uint32_t version;      ///< Map version the route (or its search) was planned on.
  uint32_t goal_cell;    ///< Cell of the target the route (or its search) leads to.
  uint16_t stall;        ///< Ticks without progress, [0, FXS_NAV_STALL_TICKS]: then re-planned.
  uint16_t mark_next;    ///< The waypoint sought when progress was last made.
  fix16_t mark_distance; ///< The agent's distance to that waypoint then, units, >= 0.
} fxs_nav_route;

/// A cached integration field (world_nav_fields.h): one goal cell shared by a group of
/// navigate agents. State: hashed and snapshotted; the field's values are derived from it.
typedef struct fxs_nav_field_slot {
  uint8_t live;       ///< 1 when the slot holds a field.
  uint8_t ready;      ///< 1 once its build has been seen complete (the field's values final).
  uint32_t goal_cell; ///< The goal's cell index.
  uint32_t used;      ///< The last tick an agent was given the field (eviction order).
  uint32_t settled;   ///< Cells the field budget has settled in it while not ready.
} fxs_nav_field_slot;

/// The world's navigation (world_nav.c, docs/navigation.md). The grid's geometry, its base
/// costs, the radius it is inflated by, the budget, the map version, the routes and the
/// searches in progress are state; `grid.cost` (the base costs with the live walls and
/// obstacles rasterized) is derived: brought up to date, over the cells a change touches
/// only, when the map changed or after a restore (docs/performance.md, map changes). The
/// memory of the searches and fields, the scratch and the caches are the world's insides.
typedef struct fxs_world_nav {
  fxs_nav_grid grid;     ///< Geometry (width 0: no grid set) and the effective costs.
  uint8_t *base;         ///< capacity.nav_cells base costs (set_nav_costs), first w x h used.
  fix16_t radius;        ///< Walls and obstacles are inflated by it (the agents' radius).
  uint32_t budget;       ///< Cells expanded per tick, all searches together.
  uint32_t version;      ///< Map version: counts changes of the grid, costs, walls, obstacles.
  fxs_nav_route *routes; ///< One per agent slot.
  uint32_t *waypoints;   ///< capacity.nav_waypoints cells per agent slot.
  struct fxs_nav_search *searches; ///< capacity.nav_searches searches (nav_path.h).
  uint32_t *search_owner;          ///< Agent slot of each search, or UINT32_MAX when it is free.
  fxs_nav_field_slot *field_slots; ///< capacity.nav_fields cached fields' state.
  fxs_nav_field *fields; ///< Their integration fields (values derived from the slot's state).
  /// Per agent slot (worlds with nav_fields), the cell of the destination of the move whose
  /// group field it follows (simulation version 6, docs/navigation.md "Moving groups"), or
  /// FXS_NAV_NO_MOVE.
  uint32_t *moves;
  // A mesh world (capacity.nav_kind FXS_NAV_KIND_MESH): budget 0 while routing is off.
  fxs_nav_mesh mesh; ///< The mesh of the live walls and obstacles over the bounds (state).
  fxs_vec2 *points;  ///< capacity.nav_waypoints route points per agent slot (waypoints' role).
  fxs_vec2 *goals;   ///< Per agent slot, the goal its route (or its search) leads to.
  struct fxs_mesh_route *mesh_searches; ///< capacity.nav_searches searches, one scratch after.
} fxs_world_nav;

/// fxs_world_nav.moves of an agent that follows no move's group field.
#define FXS_NAV_NO_MOVE UINT32_MAX

/// Most columns or rows of the world's flow field (command arguments are whole Q16.16).
#define FXS_MAX_FIELD_SIDE 32767u

/// Most workers a task system may have: the world keeps scratch space for this many.
#define FXS_MAX_WORKERS 16

/// One piece of parallel work: handles items [begin, end) of a phase on worker `worker`
/// (< the task system's worker_count). task_context belongs to the world.
typedef void fxs_task_fn(uint32_t begin, uint32_t end, uint32_t worker, void *task_context);

/// Runs `task` over the items [0, count), split into ranges that together cover each item
/// exactly once, possibly on several threads, and returns a handle for finish, or NULL when
/// it has already run everything. min_range is a hint: shorter ranges are not worth a thread
/// hop (any split gives the same results). Ranges that may run at the same time must get
/// different worker indices. Called from the thread that steps the world.
typedef void *fxs_enqueue_fn(fxs_task_fn *task, uint32_t count, uint32_t min_range,
                             void *task_context, void *user_context);

/// Waits until every range of the work `handle` (from enqueue, never NULL) has run.
typedef void fxs_finish_fn(void *handle, void *user_context);

/// A caller's parallel-for (the library starts no threads). The step splits its per-agent
/// phases through it; every agent's result depends only on the state at the start of the
/// tick and is written to that agent's own slot, so 1 to 16 workers give the same bits.
typedef struct fxs_task_system {
  fxs_enqueue_fn *enqueue; ///< Starts work; NULL runs every phase inline.
  fxs_finish_fn *finish;   ///< Waits for work.
  uint32_t worker_count;   ///< Workers, [1, FXS_MAX_WORKERS].
  void *user_context;      ///< Passed to enqueue and finish.
} fxs_task_system;

struct fxs_world_internal; // the world's scratch, caches and derived data (internal)

/// The world. Fields are readable; change them only through the functions below. Everything
/// else the world keeps (its spatial grids, the view of the tick being stepped, the
/// free-slot bitmap, the workers' scratch and caches) lives in `internal`, inside the
/// caller's memory block: read it through the accessor functions below.
typedef struct fxs_world {
  fxs_world_def def;           ///< Configuration.
  fxs_world_capacity capacity; ///< Capacities.
  uint32_t tick;               ///< Ticks stepped so far.
  uint16_t path_count;         ///< Paths added.
  uint32_t node_count;         ///< Path nodes used.
  fxs_agent_slot *agents;      ///< capacity.agents slots.
  fxs_obstacle *obstacles;     ///< capacity.obstacles slots.
  uint8_t *obstacle_alive;     ///< 1 where obstacles[i] is in use.
  fxs_world_path *paths;       ///< capacity.paths paths.
  fxs_vec2 *nodes;             ///< capacity.path_nodes nodes.
  fxs_wall *walls;             ///< capacity.walls slots.
  uint8_t *wall_alive;         ///< 1 where walls[i] is in use.
  /// The flow field flow_field behaviors follow: width = height = 0 (and origin and
  /// cell_size 0) while none is set; cells points at capacity.field_cells vectors, of which
  /// the first width * height are state. Set by the field commands (command.h).
  fxs_flow_field field;
  fxs_world_nav nav;          ///< Navigation; all zero while capacity.nav_cells is 0.
  uint32_t live_count;        ///< Live agents (derived: kept by spawn and despawn).
  void *memory;               ///< The caller's memory block given to fxs_world_init.
  size_t memory_size;         ///< Its bytes in use (fxs_world_memory_size of the capacity).
  fxs_task_system tasks;      ///< How the step runs per-agent phases; not state.
  fxs_step_profiler profiler; ///< Who is told of the step's phases (step_profile.h); not state.
  struct fxs_world_internal *internal; ///< Scratch, caches and derived data (internal).
} fxs_world;

/// A 4096 x 4096 world at the origin, seed 1, no clamping, neighbor radius 100.
FXS_API fxs_world_def fxs_default_world_def(void);

/// FXS_OK when a definition is usable: bounds_min <= bounds_max on both axes,
/// neighbor_radius >= 0, clamp_to_bounds 0 or 1. Else FXS_ERR_BAD_VALUE.
FXS_API fxs_result fxs_world_def_check(const fxs_world_def *def);

/// The containment force the step adds for an agent of a world whose clamp_to_bounds is 1
/// (zero otherwise), in force units: per axis, the agent is expected to stop within
/// s = v * |v| * mass / max_force world units (twice its braking distance at full budget, so
/// that it still stops when other behaviors take half the budget) plus one tick of travel
/// (v); when position + v + s lies outside [bounds_min + radius, bounds_max - radius], the
/// force on that axis is 2 * max_force (saturated) pointing back inside, else 0. At
/// max_speed an agent is turned before its body reaches a bound. The step adds it to the
/// manager first, priority 0, weight 1 (only when it is not zero): in the prioritized sum it
/// takes its share of the budget first; in a weighted sum it outweighs one other behavior
/// pushing outward at full strength. Zero when max_force <= 0. Derived from the body and
/// the definition alone: no state. When the bounds are narrower than the body, the limit
/// on that axis is their centre.
FXS_API fxs_vec2 fxs_containment(const fxs_agent *agent, const fxs_world_def *def);

/// Bytes of memory a world with these capacities needs (8-byte aligned block), or 0 when a
/// capacity is above its limit or the size does not fit in size_t (sizes are computed with
/// overflow checks, also for a 32-bit size_t). It includes a spatial grid of
/// max(64, 8 * agents) cells for neighbor queries, a free-slot bitmap, scratch space for
/// capacity.workers workers and, with 32 walls of capacity or more, a grid of the walls
/// (88 bytes a wall of capacity and 1 KiB a worker).
FXS_API size_t fxs_world_memory_size(const fxs_world_capacity *capacity);

/// Lays the world out in `memory` (size from fxs_world_memory_size) and empties it. A
/// capacity above its limit gives FXS_ERR_BAD_VALUE. Steps run inline until
/// fxs_world_set_tasks gives the world a task system.
FXS_API fxs_result fxs_world_init(fxs_world *world, const fxs_world_def *def,
                                  const fxs_world_capacity *capacity, void *memory, size_t size);

/// Makes the world step by the rules of simulation `version`, from
/// FXS_SIMULATION_VERSION_OLDEST to FXS_SIMULATION_VERSION (version.h); a world begins with
/// FXS_SIMULATION_VERSION. Like the math fingerprint it is not part of the state (neither
/// hashed nor in a snapshot, and kept by fxs_world_restore): replays carry it in their header
/// and fxs_replay_verify sets it. FXS_ERR_SIMULATION_VERSION for a version this build does not
/// run (the world is left as it was).
FXS_API fxs_result fxs_world_set_simulation_version(fxs_world *world, uint32_t version);

/// The simulation version whose rules the world steps by.
FXS_API uint32_t fxs_world_simulation_version(const fxs_world *world);

/// Runs the step's per-agent phases through `tasks` (copied; NULL: inline, the default).
/// Not state: it is neither hashed nor snapshotted, and the results do not depend on it.
/// FXS_ERR_BAD_VALUE when worker_count is outside [1, capacity.workers (at least 1)] or a
/// callback is missing.
FXS_API fxs_result fxs_world_set_tasks(fxs_world *world, const fxs_task_system *tasks);

/// Adds a path of `count` nodes (copied). Paths are part of the world's configuration.
FXS_API fxs_result fxs_world_add_path(fxs_world *world, const fxs_vec2 *nodes, uint16_t count,
                                      fxs_path_mode mode, fix16_t radius, uint16_t *out_index);

/// Applies one command now (fxs_world_step does this for a tick's commands). A spawn takes
/// the free slot of lowest index (slot indices order neighbors that tie and seed random
/// streams, so this rule is part of the results) in O(1) amortised time, and reports the new
/// handle in *out_spawned when it is not NULL. Invalid commands change nothing and return the
/// reason.
FXS_API fxs_result fxs_world_apply(fxs_world *world, const fxs_command *command,
                                   fxs_agent_handle *out_spawned);

/// One tick: sorts `commands` into canonical order in place, applies them (results[i], when
/// results is not NULL, receives each one's outcome in sorted order), then steers and
/// integrates every live agent (through the world's task system, if it has one). The tick
/// is stepped whatever the commands did; the return value is FXS_OK when every command
/// applied, else the result of the first rejected one (in canonical order). No allocation;
/// the same bits for any number of workers.
FXS_API fxs_result fxs_world_step(fxs_world *world, fxs_command *commands, uint32_t count,
                                  fxs_result *results);

/// The agent a handle names, or NULL when the handle is stale.
FXS_API const fxs_agent *fxs_world_agent(const fxs_world *world, fxs_agent_handle handle);

/// The source that owns the agent (0..255), or FXS_OWNER_SHARED when any source may command
/// it (command.h), in *owner. FXS_ERR_STALE_HANDLE when the handle names no live agent.
FXS_API fxs_result fxs_world_agent_owner(const fxs_world *world, fxs_agent_handle handle,
                                         uint32_t *owner);

/// What an agent steers toward (fxs_world_agent_targets): its target agent when that one is
/// alive, else its target point; path following takes its path.
typedef struct fxs_agent_targets {
  fxs_agent_handle target_agent;  ///< The agent it targets; 0 for none. May be stale.
  fxs_agent_handle second_target; ///< Interpose's second agent; 0 for none. May be stale.
  fxs_vec2 target_point;          ///< The target point, world units.
  uint16_t path_index;            ///< The world path it follows, or FXS_NO_PATH.
} fxs_agent_targets;

/// The targets of the agent `handle` names, in *out (as set by the target and path commands),
/// so that a caller never decodes the world's slots. FXS_ERR_STALE_HANDLE when the handle
/// names no live agent; *out is then all zero.
FXS_API fxs_result fxs_world_agent_targets(const fxs_world *world, fxs_agent_handle handle,
                                           fxs_agent_targets *out);

/// An agent's behavior set (fxs_world_agent_behaviors).
typedef struct fxs_agent_behaviors {
  const fxs_behavior_slot *slots; ///< `count` behaviors in order, inside the world: valid until
                                  ///< the next command, step or restore.
  uint32_t count;                 ///< Behaviors in the set, [0, FXS_AGENT_BEHAVIORS].
  uint8_t combine_mode;           ///< How they combine: an fxs_combine_mode (manager.h).
} fxs_agent_behaviors;

/// The behavior set of the agent `handle` names, in *out (kinds, weights, priorities and
/// parameters as the behavior commands set them). FXS_ERR_STALE_HANDLE when the handle names
/// no live agent; *out is then all zero.
FXS_API fxs_result fxs_world_agent_behaviors(const fxs_world *world, fxs_agent_handle handle,
                                             fxs_agent_behaviors *out);

/// The handle of the live agent in slot `index`, or a 0 handle.
FXS_API fxs_agent_handle fxs_world_handle_at(const fxs_world *world, uint32_t index);

/// The handles the next `count` spawns will get, in the order they are applied: a spawn takes
/// the free slot of lowest index, with that slot's current generation. This is what lockstep
/// peers use to name agents spawned in the same tick: sort the tick's commands into canonical
/// order (fxs_command_sort) and the k-th spawn of the tick gets out[k], provided every spawn
/// before it succeeds and no despawn of the tick comes before it. Writes at most `count`
/// handles and returns how many (fewer when the world runs out of free slots).
FXS_API uint32_t fxs_world_next_spawn_handles(const fxs_world *world, uint32_t count,
                                              fxs_agent_handle *out);

/// Number of live agents (kept as agents spawn and despawn; no scan).
FXS_API uint32_t fxs_world_agent_count(const fxs_world *world);

/// The navigation grid with its effective costs (rebuilt first when the map changed), or
/// NULL while the world has none.
FXS_API const fxs_nav_grid *fxs_world_nav_grid(fxs_world *world);

/// The navigation mesh of a mesh world (capacity.nav_kind FXS_NAV_KIND_MESH), as the last
/// step or command left it: every live wall and obstacle triangulated over the bounds
/// (nav_mesh.h; read its vertices and triangles, change it only through world commands), or
/// NULL for a grid world (and in a build without mesh worlds, FXS_NAV_MESH 0). Reading it
/// changes nothing.
FXS_API const fxs_nav_mesh *fxs_world_nav_mesh(const fxs_world *world);

/// The route of an agent: writes the centres of its first min(count, capacity) waypoints
/// (the last one the target itself when the route reaches it) and the index of the one
/// being sought to *next; returns the waypoint count (0: no route, or a stale handle).
FXS_API uint32_t fxs_world_nav_route(const fxs_world *world, fxs_agent_handle handle, fxs_vec2 *out,
                                     uint32_t capacity, uint32_t *next);

/// A cached integration field of navigate groups (docs/navigation.md, "Fields for groups"):
/// the field in slot `slot`, [0, capacity.nav_fields), with its goal's cell index in
/// *goal_cell (when not NULL), or NULL when the slot holds none. Read its cells with
/// fxs_nav_field_value and _direction (nav_field.h); its status says whether all are final.
/// A ready field is packed (fxs_nav_field.packed); one being built whose build memory was
/// lent to another field reads as unreached everywhere until it is built again. NULL on a
/// mesh world, whose group fields are trees over its triangles (docs/navigation-mesh.md).
FXS_API const fxs_nav_field *fxs_world_nav_field(const fxs_world *world, uint32_t slot,
                                                 uint32_t *goal_cell);

/// The slot of a formation member (its first `formation` behavior, its live target agent
/// the leader) as the world steers it now: with a navigation grid and a leader, squeezed
/// toward the leader to the last point the leader's cell sees (docs/navigation.md,
/// "Formations"), over the effective costs as the last step or fxs_world_nav_grid left them
/// (after a map change by fxs_world_apply, call fxs_world_nav_grid first). True and *slot;
/// false for a stale handle or an agent without a slot.
FXS_API bool fxs_world_formation_slot(const fxs_world *world, fxs_agent_handle handle,
                                      fxs_vec2 *slot);

#ifdef __cplusplus
}
#endif

#endif
