/// @file world_internal.h
/// What the world keeps besides its public fields (fixsteer/world.h): data derived from the
/// state, the step's scratch space and caches. None of it is state: it is neither hashed nor
/// snapshotted, and a restore rebuilds what is derived. It lives inside the caller's memory
/// block (fxs_world_init lays it out first), reached through fxs_world.internal. Library code
/// and the few tests that check these insides include this header; callers never do.
#ifndef FIXSTEER_WORLD_INTERNAL_H
#define FIXSTEER_WORLD_INTERNAL_H

#include <stdint.h>

#include "fixsteer/avoidance.h"
#include "fixsteer/world.h"

struct fxs_world_worker;    // per-worker scratch of the step (world_grid.h)
struct fxs_orca_memo_entry; // a remembered ORCA pair (orca_memo.h)

struct fxs_nav_raster;      // the navigation grid's rasterized shapes (world_nav_raster.h)
struct fxs_nav_field_built; // what a group field's values were built from (world_nav_fields.h)
struct fxs_goal_sharer;     // a target point and the agents going to it (world_sharers.h)

/// The navigation's insides (fxs_world_nav holds its state); all unused without navigation.
typedef struct fxs_world_nav_internal {
  uint8_t dirty;          ///< Derived: grid.cost must be brought up to date before it is read.
  uint8_t aims_stale;     ///< The agents' aims are out of date (world_nav_aims.h).
  uint32_t build_clock;   ///< Counts build memories' lendings and uses (picks one to take back).
  uint8_t *search_memory; ///< The searches' arrays, capacity.nav_searches of them.
  uint32_t *scratch;      ///< capacity.nav_cells cells: a finished search's path, and the g
                          ///< of the checking search while a restore runs (not state).
  /// What a restore checks a snapshot's navigation in before it writes (not state): a grid
  /// world's checking search's state bits (capacity.nav_cells), or a mesh world's second
  /// mesh. A world has a grid or a mesh, never both: one pointer serves either.
  union {
    uint8_t *check_state;
    void *mesh_scratch;
  } check;
  void *field_memory; ///< An integration field's memory (fill_field toward a goal; not state).
  /// The group fields' build memories (entries and buckets, fxs_world_nav_field_builds of
  /// them), each lent to one field while it is built (world_nav_fields.h, "Memory").
  /// (A mesh world, without grid fields, keeps here per triangle of its mesh a count of the
  /// navigate agents with their target in it: scratch of the plan, world_nav_mesh_fields.h.)
  uint8_t *fields_memory;
  uint32_t *build_owner; ///< Per build memory, the field slot it is lent to (UINT32_MAX: none).
  uint32_t *build_stamp; ///< Per build memory, build_clock when it was last lent or used.
  /// Per agent slot, the field it follows this tick (not state); in a grid world the block
  /// goes on with each slot's aim (fxs_nav_aim, world_nav_aims.h).
  uint32_t *agent_field;
  /// Per agent slot, the point a navigate agent goes to this tick (fxs_world_nav_target),
  /// found with its goal in agent_field for the grouping (fxs_world_nav_fields_group), which
  /// then reads no agent's slot; not state.
  fxs_vec2 *goal_points;
  /// Per field slot, the live navigate agents given it this tick (a count of the start-of-tick
  /// state, remade by every plan; not state).
  uint32_t *field_members;
  /// Per field slot, per cell, one byte: once the field is ready, its packed direction code
  /// (low four bits, fxs_nav_field.packed) and the code of where its followers there aim
  /// (high four: a cache of a pure function of the grid and the field; not state).
  /// (A mesh world keeps here per field slot its tree over the triangles, fxs_mesh_tree:
  /// derived from the slot's state, world_nav_mesh_fields.h.)
  uint8_t *field_packed;
  /// Per field: what its values (and aims) were built from, so that a restore that asks for
  /// the same keeps them (derived, not state).
  struct fxs_nav_field_built *field_built;
  /// Per-cell cover counts and the shapes rasterized (derived; lets a map change cost only
  /// the cells it touches).
  struct fxs_nav_raster *raster;
  /// Per target point, the crowd agents without a group field going to it this tick
  /// (world_sharers.h; counted by the step, not state): its entries less one (a power of two
  /// less one), whether the last count took an entry, whether a point of it has a group, and
  /// whether it must be counted again (a command, a restore or a version since the last count).
  struct fxs_goal_sharer *sharers;
  uint32_t sharers_mask;
  uint8_t sharers_taken, sharers_grouped, sharers_stale;
} fxs_world_nav_internal;

/// The world's insides (see the file comment).
typedef struct fxs_world_internal {
  // Derived from the state (kept by spawn and despawn, rebuilt on restore); not state.
  uint32_t *free_slots;      ///< Free-slot bitmap, all levels (see world_slots.c).
  uint32_t free_levels;      ///< Levels of the bitmap, [1, 5].
  uint32_t free_level_at[5]; ///< Word offset of each level in free_slots; 0 is per slot.
  // Scratch space for the step; not state.
  fxs_agent *next; ///< Integrated bodies of the tick being stepped, per slot.
  // A step where no agent searches its neighbors lists view_slot in slot order and leaves
  // the positions, velocities, slot_cell and cell_start as they were.
  uint32_t view_count; ///< Live agents in the view of the tick being stepped.
  /// The shift of the cells the workers' search tallies were counted in (fxs_world_worker's
  /// searched), 0 for none: the next grid sizes its cells from them (fxs_grid_of). The
  /// neighbor lists never depend on the cells: a hint, not state.
  uint32_t searched_shift;
  fxs_vec2 *view_position; ///< Start-of-tick positions of the live agents, cell order.
  fxs_vec2 *view_velocity; ///< Their velocities, same order.
  uint32_t *view_slot;     ///< Their slot indices, same order.
  uint32_t *slot_cell;     ///< Grid cell of each slot's agent (UINT32_MAX: free), by slot.
  /// A hint per slot, kept from tick to tick: the radius (raw) within which the agent's last
  /// nearest-neighbor search (ORCA's) found all of its k nearest, a little widened; 0 for
  /// none. The next search tries it first and searches again at the full radius when it holds
  /// fewer than k, so any value gives the same neighbors: a cache, not state.
  uint32_t *slot_reach;
  /// What the steering reads of each slot's agent as a neighbor, taken in sense (world_facts.h).
  struct fxs_agent_facts *facts;
  uint32_t *cell_start;          ///< First view index of each cell (+1 end).
  fxs_obstacle *live_obstacles;  ///< Obstacles in use, in index order.
  uint32_t *obstacle_cell_start; ///< First entry of obstacle_order of each obstacle cell (+1 end).
  uint32_t *obstacle_order;      ///< Indices into live_obstacles, by cell of their centre.
  uint32_t obstacle_max_cells;   ///< Cells the obstacle grid may use (from the capacity).
  uint32_t worker_capacity; ///< How many scratch areas `workers` holds: capacity.workers, >= 1.
  fxs_wall *live_walls;     ///< Walls in use, in index order.
  /// The wall grid of the step (src/world/world_walls.h), none below 32 walls of capacity: the
  /// first entry of wall_order of each cell (+1 end), live wall indices by the cells their bounding
  /// boxes meet, each live wall's first cell (column, row), and the most cells and entries the grid
  /// may use.
  uint32_t *wall_cell_start;
  uint32_t *wall_order;             ///< See wall_cell_start.
  uint32_t *wall_first;             ///< See wall_cell_start.
  uint32_t wall_max_cells;          ///< See wall_cell_start.
  uint32_t wall_max_entries;        ///< See wall_cell_start.
  fxs_wall *near_walls;             ///< Each worker's walls near the agent it steers (ORCA's).
  struct fxs_world_worker *workers; ///< Scratch areas (neighbor lists), one a worker.
  /// The ORCA pairs each worker built lately, 2^orca_memo_bits a worker (none while bits is
  /// 0), worker w's from entry w 2^orca_memo_bits: a cache whose entries are taken only for
  /// their exact input (see src/steer/orca_memo.h), so any content gives the same results; not
  /// state.
  struct fxs_orca_memo_entry *orca_memo;
  uint32_t orca_memo_bits; ///< log2 of each worker's entries; 0: no memo.
  /// The simulation version whose rules the world steps by (fxs_world_set_simulation_version):
  /// a setting, as the math is, not state.
  uint32_t rules;
  fxs_world_nav_internal nav; ///< The navigation's insides.
} fxs_world_internal;

/// Bytes the memory block keeps for fxs_world_internal on every platform (its size differs
/// with the width of a pointer; a fixed share keeps fxs_world_memory_size the same on 32-bit
/// MCUs and on x86-64).
#define FXS_WORLD_INTERNAL_BYTES 336u
typedef char
    fxs_world_internal_fits[sizeof(fxs_world_internal) <= FXS_WORLD_INTERNAL_BYTES ? 1 : -1];

#endif
