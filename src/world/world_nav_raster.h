// Internal: the navigation grid's effective costs kept up to date incrementally (world.h's
// fxs_world_nav.grid.cost). Each cell keeps a cover count: how many of the rasterized walls
// and obstacles block it (nav_grid_spans.h). A cell's effective cost is 0 while its count is
// above 0 and its base cost otherwise, so the order in which shapes come and go does not
// matter and the result equals a full rasterization bit for bit (test_world_nav_raster.c).
//
// The raster remembers which shape it holds in each wall and obstacle slot. When the map
// changed (commands, a restore), the next read compares every slot with that record and
// un-rasterizes and rasterizes only the slots that differ; base costs changed by set_nav_costs
// are re-read over the union of the changed blocks, after a restore over the whole grid
// (the snapshot carries the base costs, not the effective ones). Only a new grid shape or
// radius (set_nav_grid, or a restore of another grid) rasterizes every shape again.
// Everything here is derived: rebuilt from the state it gives the same bits at any tick.
//
// The blocked cells by block. On a large grid the raster also counts, in every block of
// FXS_NAV_SIGHT_BLOCK x FXS_NAV_SIGHT_BLOCK cells, the cells whose effective cost is
// FXS_NAV_BLOCKED, kept by every write of grid.cost above (a full rasterization counts afresh).
// A line of sight that meets only blocks without a blocked cell is clear without its walk
// (fxs_world_nav_cells_in_sight, world_nav_aims.h): on an open map a follower's sight line to
// its goal crosses the map in a few dozen blocks instead of hundreds of cells. The counts'
// sums over every rectangle of blocks from the first (fxs_world_nav_blocked_sums, taken
// again after every update that may have changed a count) answer for the whole box of blocks
// a line crosses at once: a box without a blocked cell holds a clear line.
//
// The revision. The raster counts the updates that may have changed grid.cost or the grid's
// shape (every full rasterization, every update that found a slot changed or a cell's cost
// different), never the others: an update after a restore of the map the grid already holds
// leaves it as it was. What was built over grid.cost (the group fields, world_nav_fields.h)
// records the revision it was built at and is kept by a restore only while it is unchanged.
#ifndef FIXSTEER_WORLD_NAV_RASTER_H
#define FIXSTEER_WORLD_NAV_RASTER_H

#include <stdint.h>

#include "fixsteer/world.h"

/// The raster's bookkeeping (in the world's memory block; derived, not state).
typedef struct fxs_nav_raster {
  uint8_t valid;               ///< 1 when cover, the record and grid.cost agree with each other.
  uint8_t base_changed;        ///< 1 when base costs changed in [bx0, bx1] x [by0, by1].
  uint32_t bx0, by0, bx1, by1; ///< The union of the changed base blocks (inclusive).
  fxs_vec2 origin;             ///< The grid shape the raster was built on.
  fix16_t cell_size;           ///< Its cell size.
  uint32_t width, height;      ///< Its columns and rows.
  fix16_t radius;              ///< The radius it was built with.
  /// capacity.nav_cells counts of blocking shapes, then on a large grid the blocked counts
  /// (fxs_world_nav_blocked) and their sums (fxs_world_nav_blocked_sums).
  uint32_t *cover;
  fxs_wall *walls;         ///< capacity.walls: the wall rasterized in each slot.
  uint8_t *wall_on;        ///< 1 where walls[i] is rasterized.
  fxs_obstacle *obstacles; ///< capacity.obstacles: the obstacle rasterized in each slot.
  uint8_t *obstacle_on;    ///< 1 where obstacles[i] is rasterized.
  /// Updates that may have changed grid.cost or its shape (see the revision above); 0 at init.
  uint64_t revision;
} fxs_nav_raster;

/// The side of a block of the blocked counts, in cells (a power of two), and its log2.
#define FXS_NAV_SIGHT_BLOCK_BITS 4u
#define FXS_NAV_SIGHT_BLOCK (1u << FXS_NAV_SIGHT_BLOCK_BITS)

/// The fewest cells of a grid capacity (capacity.nav_cells) that keeps blocked counts: below
/// it sight lines are short and the counts would cost more than they save.
#define FXS_NAV_SIGHT_MIN_CELLS 65536u

/// Entries of the blocked counts' sums for a grid capacity of `cells` cells: (blocks across
/// + 1) x (blocks down + 1) for any grid of at most `cells` cells; 0 below
/// FXS_NAV_SIGHT_MIN_CELLS.
uint32_t fxs_world_nav_sight_sums(uint32_t cells);

/// The blocked counts' sums of the world's grid (with fxs_world_nav_blocked): entry
/// by (blocks_wide + 1) + bx holds the blocked cells of the blocks in rows below by and
/// columns below bx (row 0 and column 0 of the sums hold 0); NULL on a small grid.
uint32_t *fxs_world_nav_blocked_sums(const fxs_world *world);

/// Entries of the blocked counts for a grid capacity of `cells` cells: 0 below
/// FXS_NAV_SIGHT_MIN_CELLS, else enough for any grid of at most `cells` cells (6,019 at
/// FXS_NAV_MAX_CELLS: 1/87 byte a cell).
uint32_t fxs_world_nav_sight_blocks(uint32_t cells);

/// 32-bit words of the raster's cover array for a grid capacity of `cells` cells: the cover
/// counts, the blocked counts after them, then their sums.
size_t fxs_world_nav_cover_words(uint32_t cells);

/// The blocked counts of the world's grid, a row of blocks after another, blocks of the
/// raster's shape (fxs_world_nav_blocks_wide across); NULL on a small grid.
uint16_t *fxs_world_nav_blocked(const fxs_world *world);

/// Blocks across a grid `width` cells wide.
static inline uint32_t fxs_world_nav_blocks_wide(uint32_t width) {
  return (width + FXS_NAV_SIGHT_BLOCK - 1u) >> FXS_NAV_SIGHT_BLOCK_BITS;
}

/// Forgets the raster: the next update rasterizes every shape (a new grid, world init).
void fxs_world_nav_raster_reset(fxs_world *world);

/// Base costs changed over the cells [x, x + w) x [y, y + h) (inside the grid, w, h >= 1).
void fxs_world_nav_raster_base_changed(fxs_world *world, uint32_t x, uint32_t y, uint32_t w,
                                       uint32_t h);

/// Brings grid.cost up to date with the walls, obstacles and base costs (a grid is set), and
/// counts a revision when it may have changed anything.
/// Work: the cells of the shapes that changed since the last update (old and new), the changed
/// base blocks, and one comparison per wall and obstacle slot; everything only when the grid's
/// shape or radius changed or the raster was reset.
void fxs_world_nav_raster_update(fxs_world *world);

#endif
