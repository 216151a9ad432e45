// fxs-bench: shared declarations of the benchmark scenes, the fixed-point kernels (the
// library) and their float twins. scene.c, fixed.c and twin.c are portable C99 without I/O:
// the desktop driver (main.c) and the Cortex-M3 driver (tools/mcu/bench/main.c) both use them.
//
// The float twins exist only here, to measure what fixed point costs. They compute the same
// formulas as the library (seek.c, manager.c, flocking.c, world.c) in float, in the same loop
// structure, over agents stored in arrays as the library stores its own.
#ifndef FXS_BENCH_H
#define FXS_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/world.h"

// ------------------------------------------------------------------ scenes (scene.c)

/// The world scenarios of the benchmark.
typedef enum bench_scene {
  BENCH_SEEK,       ///< Seek a fixed random point each, then integrate.
  BENCH_ARRIVE,     ///< Arrive at a random point (slowing radius 100).
  BENCH_WANDER,     ///< Wander with the default circle.
  BENCH_PURSUIT,    ///< Pursue the next agent (a ring of pursuers).
  BENCH_PATH,       ///< Follow one 8-node looping path.
  BENCH_AVOID,      ///< Seek a random point through 1,000 obstacles.
  BENCH_FLOCK,      ///< Separation + alignment + cohesion.
  BENCH_FLOCK_LOOK, ///< The same flock with the default look-where-going orientation.
  BENCH_SCENE_COUNT
} bench_scene;

/// World units of the neighbor radius of every scene (the flock's sensing radius).
#define BENCH_NEIGHBOR_RADIUS 40
/// Mean number of other agents within the neighbor radius at the start, at every N.
#define BENCH_DENSITY 10
/// Obstacles in BENCH_AVOID.
#define BENCH_OBSTACLES 1000
/// Nodes of the BENCH_PATH loop.
#define BENCH_PATH_NODES 8

/// Printable name of a scene.
const char *bench_scene_name(bench_scene scene);

/// Side of the square world, in world units, that gives BENCH_DENSITY neighbors on average
/// within BENCH_NEIGHBOR_RADIUS for n uniformly placed agents.
uint32_t bench_side(uint32_t n);

/// World capacities of a scene with n agents. *fits is 0 when the capacity's agent field
/// cannot hold n (a world limited to 16-bit slot counts).
fxs_world_capacity bench_scene_capacity(bench_scene scene, uint32_t n, int *fits);

/// A capacity every scene of n agents fits in (the obstacles of BENCH_AVOID and the path of
/// BENCH_PATH), so that one spawned world can be restored into each scene.
fxs_world_capacity bench_base_capacity(uint32_t n, int *fits);

/// World definition of a scene: bounds [0, side]^2, clamped, neighbor radius 40, seed 7.
fxs_world_def bench_scene_def(uint32_t n);

/// Spawns agents [first, first + count) of n through fxs_world_apply; their handles go to
/// handles[first..]. The positions and velocities come from bench_initial().
fxs_result bench_scene_spawn(fxs_world *world, uint32_t n, uint32_t first, uint32_t count,
                             fxs_agent_handle *handles);

/// Adds the scene's obstacles, path, targets and behaviors to a world whose n agents are
/// spawned (handles from bench_scene_spawn).
fxs_result bench_scene_setup(fxs_world *world, bench_scene scene, uint32_t n,
                             const fxs_agent_handle *handles);

/// Agent limits of every scene (raw Q16.16): speed 3, force 0.2, mass 1, radius 4.
#define BENCH_MAX_SPEED ((fix16_t)(3 * 65536))
#define BENCH_MAX_FORCE ((fix16_t)13107)
#define BENCH_MASS ((fix16_t)65536)
#define BENCH_RADIUS ((fix16_t)(4 * 65536))

/// Initial state of agent i of n (raw Q16.16): position in [0, side)^2, velocity in
/// [-2, 2)^2, and a target point in [0, side)^2. Deterministic; the same on every target.
typedef struct bench_start {
  fxs_vec2 position, velocity, target;
} bench_start;
bench_start bench_initial(uint32_t n, uint32_t i);

/// Flock parameters (raw Q16.16) shared by the world scene and the float twin.
#define BENCH_SEPARATION_RADIUS ((fix16_t)(20 * 65536))
#define BENCH_SEPARATION_WEIGHT ((fix16_t)(3 * 32768))
#define BENCH_ALIGNMENT_RADIUS ((fix16_t)(40 * 65536))
#define BENCH_COHESION_RADIUS ((fix16_t)(40 * 65536))

// ------------------------------------------------------------------ fixed kernels (fixed.c)

/// Seek + integrate with the library's functions on an array of agents, outside the world:
/// for each agent fxs_seek toward targets[i], then fxs_agent_integrate (orientation fixed).
void bench_fixed_seek_init(fxs_agent *agents, fxs_vec2 *targets, uint32_t n);
void bench_fixed_seek_run(fxs_agent *agents, const fxs_vec2 *targets, uint32_t n, uint32_t ticks);
/// The same agents and ticks through fxs_seek_integrate_many (batch.h): the same results.
void bench_fixed_seek_many_run(fxs_agent *agents, const fxs_vec2 *targets, uint32_t n,
                               uint32_t ticks);

/// Sum of fxs_vec2_length over n vectors (the square root behind every length, normalize,
/// truncate and distance), for a per-call count.
int64_t bench_fixed_length_sum(const fxs_vec2 *v, uint32_t n);

/// `ticks` world steps without commands.
void bench_fixed_world_run(fxs_world *world, uint32_t ticks);

/// fxs_world_hash `times` over; returns a value that depends on every call (none is dropped).
uint64_t bench_fixed_hash_run(const fxs_world *world, uint32_t times);

// ------------------------------------------------------------------ navigation (nav.c)

/// Side of the navigation benchmark's grid, in cells.
#define BENCH_NAV_SIDE 512u

/// The goal cell of the field benchmark: the grid's centre.
#define BENCH_NAV_GOAL ((BENCH_NAV_SIDE / 2u) * BENCH_NAV_SIDE + BENCH_NAV_SIDE / 2u)

/// The navigation grid of the benchmark with its field and search, in malloc'd memory.
typedef struct bench_nav_box {
  fxs_nav_grid grid;
  fxs_nav_field field;
  fxs_nav_search search;
  void *cost, *field_memory, *search_memory;
} bench_nav_box;

/// Allocates and initialises the box's grid (walled as bench_nav_grid_fill when `walls`, else
/// open), field and search; 0 when memory or an init fails (nothing is left allocated).
int bench_nav_open(bench_nav_box *b, int walls);

/// Frees what bench_nav_open allocated.
void bench_nav_free(bench_nav_box *b);

/// Fills a BENCH_NAV_SIDE^2 grid: cost 1, walls every 32 columns with doors, mud of cost 4.
void bench_nav_grid_fill(fxs_nav_grid *grid);

/// Builds the integration field toward `goal` `runs` times, unbudgeted; returns the cells
/// settled in all.
uint32_t bench_nav_field_run(fxs_nav_field *field, const fxs_nav_grid *grid, uint32_t goal,
                             uint32_t runs);

/// A* between `count` seeded pairs of walkable cells; returns the cells expanded in all.
uint64_t bench_nav_astar_run(fxs_nav_search *search, const fxs_nav_grid *grid, uint32_t count);

// ------------------------------------------------------------------ navigate crowd (nav_crowd.c)

/// `ticks` world steps of the navigate crowd (the function callgrind collects in).
void bench_nav_crowd_run(fxs_world *world, uint32_t ticks);

/// The navigate crowd section: 1,000 navigate agents on shared integration fields against
/// the same agents with arrive + orca, timed by turns; prints the ratio.
void bench_nav_crowd_report(double (*now)(void));

/// One side alone (navigate 1: navigate, 0: arrive + orca), `ticks` after the warm-up, for
/// callgrind. Returns 0 on success.
int bench_nav_crowd_kernel(int navigate, uint32_t ticks);

// ------------------------------------------------------------------ navigation mesh (nav_mesh.c)

/// The navigation mesh section: builds of 100, 500 and 2,000 random walls, time and memory.
void bench_nav_mesh_report(double (*now)(void));

/// `runs` builds (1..25) of a mesh of `walls` random walls, the median printed, for
/// callgrind. Returns 0 on success.
int bench_nav_mesh_kernel(uint32_t walls, uint32_t runs, double (*now)(void));
// The maps of the mesh section: half the side of the square map (8,192 units across).
#define BENCH_MESH_MAP_HALF FXS_INT(4096)
// `count` seeded random walls 1 to 64 units long on that map (the same walls every call).
void bench_mesh_random_walls(fxs_wall *walls, uint32_t count);
// What one wall removed and added back costs on a mesh, medians of 25 walls.
typedef struct bench_mesh_change {
  double remove_s, add_s;                 // medians
  uint32_t remove_tri, add_tri, most_tri; // medians of triangles touched, and the most
  uint32_t remove_steps, add_steps;       // medians of steps (last_steps)
} bench_mesh_change;
// On a mesh built of `walls` (count of them, at least 25): removes 25 walls spread over the
// array one at a time and adds each back; 0 on success.
int bench_mesh_changes(fxs_nav_mesh *mesh, const fxs_wall *walls, uint32_t count,
                       double (*now)(void), bench_mesh_change *out);
// The mesh against the grid on the same maps: build, change, search and memory of each
// (nav_mesh_grid.c).
void bench_nav_mesh_grid_report(double (*now)(void));
// Route searches on the mesh against the grid's A* on the same grid map (nav_mesh_route.c).
void bench_nav_mesh_route_report(double (*now)(void));
// Draws a 32 x 32 grid map's mesh and routes for radius 0 and 0.4 as SVG; 0 on success.
int bench_nav_mesh_route_svg(const char *path);

// ------------------------------------------------------------------ phases (phases.c)

/// The seconds each phase of the step took (fixsteer/step_profile.h) by the clock `now`,
/// summed over the ticks stepped while attached.
typedef struct bench_phases {
  double (*now)(void);
  double started[FXS_PHASE_COUNT], spent[FXS_PHASE_COUNT];
  int marked[FXS_PHASE_COUNT]; ///< 1 for a phase marked at least once
  uint32_t ticks;              ///< Steps ended while attached.
} bench_phases;

/// Zeroes p and makes it the world's profiler, timing by `now` (seconds).
void bench_phases_attach(bench_phases *p, fxs_world *world, double (*now)(void));

/// The world without a profiler.
void bench_phases_detach(fxs_world *world);

/// One line (wrapped): each phase marked on either side, ms a tick on one / two.
void bench_phases_print(const bench_phases *one, const bench_phases *two);

// ------------------------------------------------------------------ RTS map (rts.c)

/// Most agent counts (--sizes) and wall counts (--walls) a run takes.
#define BENCH_MAX_SIZES 8
#define BENCH_MAX_WALL_COUNTS 8

/// The RTS section: navigate agents on an 8192 x 8192 map of 8 x 8 rooms (1024 x 1024 grid
/// of 8-unit cells, 32 groups to 32 shared goals), for each wall count and agent count: memory,
/// snapshot size, first tick, warm-up, then ms a tick, restore and the tick after it on 1 and
/// 2 workers, the hashes of both compared; `mesh` 1: the same map in a mesh world. With 0
/// among the wall counts, each other count's wall cost: its mean tick over the open map's.
/// Wall clock; prints.
void bench_rts_report(const uint32_t *sizes, unsigned size_count, const uint32_t *walls,
                      unsigned wall_count, uint32_t ticks, int mesh);

// Every agent of the RTS map clicked to one place as one move group (`--kernel rts-move`):
// ticks until every unit moves and ms a tick, by simulation version 5's rules and the current.
void bench_rts_move_report(const uint32_t *sizes, unsigned size_count, const uint32_t *walls,
                           unsigned wall_count, uint32_t ticks);

// ------------------------------------------------------------------ map changes (nav_map.c)

/// The map-change section: on a 1024 x 1024 grid with 256 large obstacles, the ticks that add
/// and remove a small obstacle, a restore and the tick after it; the hostile add_wall tick.
void bench_nav_map_report(double (*now)(void));

// ------------------------------------------------------------------ float twins (twin.c)

/// fxs_agent in float (same fields, same meaning).
typedef struct bench_fagent {
  float px, py, vx, vy;
  float orientation, rotation, mass, radius, max_speed, max_force;
  float max_rotation, max_angular_acceleration, max_turn_rate;
  uint8_t orientation_mode;
} bench_fagent;

/// Seek + integrate twin: same start as bench_fixed_seek_init.
void bench_float_seek_init(bench_fagent *agents, float *targets_xy, uint32_t n);
void bench_float_seek_run(bench_fagent *agents, const float *targets_xy, uint32_t n,
                          uint32_t ticks);

/// Sum of float lengths sqrtf(x^2 + y^2) over n vectors (xy pairs): the twin of
/// bench_fixed_length_sum.
float bench_float_length_sum(const float *xy, uint32_t n);

/// fxs_behavior_slot in float.
typedef struct bench_fbehavior {
  uint8_t kind, priority;
  float weight;
  float p[FXS_BEHAVIOR_PARAMS];
} bench_fbehavior;

/// The part of fxs_agent_slot the flock reads, in float.
typedef struct bench_fslot {
  uint8_t alive, combine_mode, behavior_count;
  float pending_fx, pending_fy;
  bench_fagent body;
  bench_fbehavior behaviors[FXS_AGENT_BEHAVIORS];
} bench_fslot;

/// fxs_neighbor in float.
typedef struct bench_fneighbor {
  float px, py, vx, vy;
  uint32_t id;
} bench_fneighbor;

/// The flock twin of fxs_world: the same arrays (slots, next bodies, view, grid).
typedef struct bench_fworld {
  float min_x, min_y, max_x, max_y, neighbor_radius;
  uint32_t capacity, grid_max_cells, tick;
  bench_fslot *agents;
  bench_fagent *next;
  bench_fneighbor *view;
  uint32_t *cell_start, *cell_items, *view_cell;
} bench_fworld;

/// Bytes of memory the twin of n agents needs (8-byte aligned block).
size_t bench_fworld_memory_size(uint32_t n);

/// The BENCH_FLOCK scene in the twin: the same agents, limits and behaviors.
void bench_fworld_init_flock(bench_fworld *w, uint32_t n, void *memory);

/// Mean number of other agents within the neighbor radius (all of them, not only the 16
/// nearest): the density check of the scenes.
double bench_fworld_mean_neighbors(const bench_fworld *w);

/// `ticks` twin steps: sense, grid, 16 nearest, behaviors, manager, integrate.
void bench_fworld_run(bench_fworld *w, uint32_t ticks);

// ------------------------------------------------------------------ Circle (circle*.c,
// twin_orca.c)

// RVO2's Circle scene: n agents evenly on a circle of radius 200 n / 250 (the spacing is the
// same at every n) walk to their antipodes with ORCA. RVO2's defaults with its time step of
// 0.25 s as one tick: neighbor distance 15, at most 10 neighbors, time horizon 10 s (40
// ticks), radius 1.5, max speed 2 per second (0.5 per tick). The preferred velocity is
// arrival's toward the goal (slowing radius 2: within 1 unit of its goal an agent's preferred
// speed is a quarter of its distance per tick, as RVO2's Circle asks). Desktop only.
#define CIRCLE_NEIGHBOR_DISTANCE ((fix16_t)(15 * 65536))
#define CIRCLE_MAX_NEIGHBORS 10u
#define CIRCLE_TIME_HORIZON ((fix16_t)(40 * 65536))
#define CIRCLE_RADIUS ((fix16_t)(3 * 32768))
#define CIRCLE_MAX_SPEED ((fix16_t)32768)
#define CIRCLE_SLOWING_RADIUS ((fix16_t)(2 * 65536))
/// Max force 1 (twice the max speed) and mass 1: ORCA's velocity is applied in one tick.
#define CIRCLE_MAX_FORCE ((fix16_t)65536)

/// Start and goal of agent i of n, raw Q16.16 (the goal is the start mirrored through the
/// centre, the origin).
void bench_circle_start(uint32_t n, uint32_t i, fxs_vec2 *start, fxs_vec2 *goal);

/// Units between the circle and the bounds of its world: 64, or fxs-bench's --margin (a
/// crowd on a large map: with 20000, 1,000 agents fill about 1 % of their bounds).
extern uint32_t bench_circle_margin;

/// Nonzero when the Circle of n agents and its margin fit in Q16.16 coordinates.
int bench_circle_fits(uint32_t n);

/// The capacity and definition of the Circle world of n agents (bounds the circle plus
/// bench_circle_margin units, no clamping, neighbor radius 15).
fxs_world_capacity bench_circle_capacity(uint32_t n);
fxs_world_def bench_circle_def(uint32_t n);

/// Spawns the n agents into an initialised world and gives each its goal and ORCA;
/// handles[i] receives agent i's handle.
fxs_result bench_circle_setup(fxs_world *world, uint32_t n, fxs_agent_handle *handles);

/// The float twin of the Circle: the same scene in float, the world loop of the library
/// (start-of-tick view sorted into the same grid, steering in cell order, then integration),
/// with ORCA as a float programmer writes it (RVO2's formulas and linear programs): the
/// nearest 10 within 15 by a scan of the grid cells that shrinks its range once 10 are
/// found, one half-plane per neighbor, the side rule of orca.h, the 2D and 3D programs.
typedef struct bench_forca {
  uint32_t n, tick, cells_w, cells_h;
  int wraps; // the library's grid that wraps round (cells_w, cells_h powers of two)
  float cell_size, min_x, min_y;
  float *px, *py, *vx, *vy, *gx, *gy; // per agent (slot order)
  float *nvx, *nvy;                   // the new velocities of the tick
  float *view_x, *view_y, *view_vx, *view_vy;
  uint32_t *view_slot, *slot_cell, *cell_start;
} bench_forca;

/// Nonzero: the twin searches the library's grid (8 cells an agent, wrapping round where they
/// do not cover the bounds, fxs_grid_of) instead of its own (2 cells an agent, fitted):
/// `fxs-bench --twin-grid library`, a check that the ratio does not rest on the twin's grid.
extern int bench_twin_library_grid;

/// Bytes of memory the twin of n agents needs.
size_t bench_forca_memory_size(uint32_t n);

/// The Circle of n agents in the twin, starting where the library's starts.
void bench_forca_init(bench_forca *w, uint32_t n, void *memory);

/// One tick of the twin.
void bench_forca_step(bench_forca *w);

/// The Circle section of the report (circle_run.c): the library's world against the twin
/// at each of the `count` sizes, timed with `now` (seconds): each run until every agent is
/// home (at most 600 ticks above 1,000 agents), or at most `window` ticks when it is > 0.
void bench_circle_report(const uint32_t *sizes, unsigned count, uint32_t window,
                         double (*now)(void));

/// One side of the Circle alone (twin 0: the library's world, 1: the float twin), `ticks`
/// ticks or, with 0, until every agent is home; prints its figures. For callgrind, which
/// counts inside fxs_world_step or bench_forca_step only. Returns 0 on success.
int bench_circle_kernel(int twin, uint32_t n, uint32_t ticks);

// ------------------------------------------------------------------ desktop only

/// The median of v[0..n) (n >= 1; reorders v).
double bench_median(double *v, int n);

/// Prints the 1 vs 2 workers section (workers.c: threads, the wall clock).
void bench_print_workers(void);

#endif
