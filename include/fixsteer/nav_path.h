/// @file nav_path.h
/// Path finding on a navigation grid (nav_grid.h): a budgeted A* and string pulling.
///
/// The search. 8-connected; a step into a cell of cost c costs 10 c straight and 14 c
/// diagonally; a diagonal step needs both straight cells beside it walkable (no corner
/// cutting); the start cell may be blocked (an agent standing there may leave it), every
/// other cell of a path is walkable. The heuristic is the octile distance to the goal with
/// the least weight: h = 10 max(|dx|, |dy|) + 4 min(|dx|, |dy|), consistent, so the path
/// found is a cheapest one and a closed cell is never reopened.
///
/// The total order. The open list is a binary heap ordered by (f = g + h, then h, then cell
/// index), all integers: no two cells compare equal, so the sequence of expansions is fixed
/// by the grid, the start and the goal alone (not by the heap's layout or the memory used).
/// A cell's parent is the first expanded neighbour that gave it its lowest g; neighbours are
/// visited in direction order (nav_grid.h: E, N, W, S, NE, NW, SW, SE). Among equal-cost
/// routes this prefers the one whose cells lie nearer the goal first (lower h: diagonal
/// before straight toward an off-axis goal), then lower cell indices.
///
/// The budget. fxs_nav_search_step expands at most `budget` cells and returns; the search's
/// whole state is plain data (the struct's numbers and the arrays in the caller's block),
/// written and read by fxs_nav_search_save / _restore in an explicit little-endian layout,
/// so a search can be snapshotted mid-way, restored into other (junk-filled) memory and
/// continued with the same results.
///
/// An unreachable goal (blocked, or walled off): once the open list is empty the path ends
/// at the expanded cell nearest the goal by (h, then g, then cell index): the reachable
/// cell of least octile distance to it, reached most cheaply, lowest index on a tie.
#ifndef FIXSTEER_NAV_PATH_H
#define FIXSTEER_NAV_PATH_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/nav_grid.h"
#include "fixsteer/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Where a search stands.
typedef enum fxs_nav_status {
  FXS_NAV_IDLE = 0,      ///< No search begun.
  FXS_NAV_SEARCHING = 1, ///< Begun; more steps are needed.
  FXS_NAV_FOUND = 2,     ///< The path ends on the goal.
  FXS_NAV_NEAREST = 3,   ///< The goal cannot be reached: the path ends nearest it (above).
  FXS_NAV_OPEN_FULL = 4  ///< The open list ran out of room: the path ends at the expanded
                         ///< cell nearest the goal so far (same order as NEAREST).
} fxs_nav_status;

/// An open-list entry: f and the cell. Entries compare by (f, h, cell), where the cell's h
/// (its octile distance to the goal) is f - g of the cell: under one f, the greater g first.
typedef struct fxs_nav_open {
  uint32_t f;    ///< g + h.
  uint32_t cell; ///< Cell index, cy * width + cx.
} fxs_nav_open;

/// A search and its memory. Set up by fxs_nav_search_init; the pointers point into the
/// caller's block. Fields are readable; change them only through the functions below.
typedef struct fxs_nav_search {
  uint32_t cell_capacity; ///< Most grid cells it can search.
  uint32_t open_capacity; ///< Entries of the open list, [1, cell_capacity].
  uint32_t width;         ///< Grid the current search runs on (0 when idle).
  uint32_t height;        ///< Its rows.
  uint32_t start;         ///< Start cell index.
  uint32_t goal;          ///< Goal cell index.
  uint32_t status;        ///< An fxs_nav_status.
  uint32_t end;           ///< Last cell of the path once done; the best cell so far before.
  uint32_t expanded;      ///< Cells expanded by this search.
  uint32_t open_count;    ///< Entries in the open list.
  uint32_t touched_count; ///< Cells given a g by this search.
  uint32_t *g;            ///< Per cell: cost from the start (valid where touched).
  uint32_t *open_at;      ///< Per cell: heap position + 1 while open, else 0.
  uint8_t *state;         ///< Per cell: bits 0-2 the direction of the step from its parent,
                          ///< 3 has a parent, 4 open, 5 closed; 0 untouched.
  uint32_t *touched;      ///< The touched cells in order of first touch.
  fxs_nav_open *open;     ///< The heap.
} fxs_nav_search;

/// Bytes of memory a search of `cell_capacity` cells and `open_capacity` open entries needs
/// (8-byte aligned block), or 0 when cell_capacity is 0 or above FXS_NAV_MAX_CELLS, or
/// open_capacity is 0 or above cell_capacity.
FXS_API size_t fxs_nav_search_memory_size(uint32_t cell_capacity, uint32_t open_capacity);

/// Lays a search out in `memory` (any content) and clears it: O(cell_capacity). Idle after.
/// FXS_ERR_BAD_VALUE for capacities fxs_nav_search_memory_size refuses or a NULL memory;
/// FXS_ERR_BUFFER_TOO_SMALL when size is below it.
FXS_API fxs_result fxs_nav_search_init(fxs_nav_search *search, void *memory, size_t size,
                                       uint32_t cell_capacity, uint32_t open_capacity);

/// Begins a search on `grid` from cell (sx, sy) to cell (gx, gy), dropping any earlier one
/// (O(cells it touched)). FXS_ERR_CAPACITY when the grid has more cells than the search;
/// FXS_ERR_OUTSIDE_GRID when the start or the goal is outside it. Nothing changes on failure.
FXS_API fxs_result fxs_nav_search_begin(fxs_nav_search *search, const fxs_nav_grid *grid,
                                        uint32_t sx, uint32_t sy, uint32_t gx, uint32_t gy);

/// Expands at most `budget` cells of the search on `grid` (the grid it began on: same width
/// and height, any costs; costs read as they are now) and returns its status. A search
/// that is not SEARCHING is left alone. A grid of another shape ends the search as NEAREST
/// at its start (contract violation, FXS_ASSERT).
FXS_API fxs_nav_status fxs_nav_search_step(fxs_nav_search *search, const fxs_nav_grid *grid,
                                           uint32_t budget);

/// The path of a finished search (FOUND, NEAREST or OPEN_FULL), start to end, as cell
/// indices: returns its length in cells and writes its first min(length, capacity) cells to
/// `cells` (NULL with capacity 0 only counts). 0 while the search is idle or searching.
FXS_API uint32_t fxs_nav_search_path(const fxs_nav_search *search, uint32_t *cells,
                                     uint32_t capacity);

/// The path's cost (g of its last cell); 0 while idle or searching.
FXS_API uint32_t fxs_nav_search_cost(const fxs_nav_search *search);

/// Writes the search's state (little-endian: the numbers, the touched cells with their g and
/// state bits, the heap's cells in heap order) to `buffer` when it holds `capacity` bytes or
/// more, and returns the bytes it needs (NULL with capacity 0 only measures). The same state
/// gives the same bytes on every machine.
FXS_API size_t fxs_nav_search_save(const fxs_nav_search *search, uint8_t *buffer, size_t capacity);

/// Replaces the state of an initialised search (whatever its memory holds) with saved
/// bytes; O(cell_capacity). Every field is checked: FXS_ERR_TRUNCATED when the bytes end
/// early, FXS_ERR_BAD_LENGTH when bytes are left over, FXS_ERR_CAPACITY when they need more
/// cells or open entries than the search has, FXS_ERR_BAD_VALUE for an inconsistent state
/// (a cell outside the grid or touched twice, unknown bits, a parent outside the grid, an
/// open cell not in the heap, a heap out of order). On failure the search is left idle.
FXS_API fxs_result fxs_nav_search_restore(fxs_nav_search *search, const uint8_t *data, size_t size);

/// Whether the straight line between the centres of cells (x0, y0) and (x1, y1) passes
/// through walkable cells only: every cell whose closed square the segment touches (the
/// supercover, integers only) is walkable, so a line through a corner needs both cells
/// beside the corner. The end cells count too, except that (x0, y0) may be blocked.
/// False when an end lies outside the grid.
FXS_API bool fxs_nav_line_of_sight(const fxs_nav_grid *grid, uint32_t x0, uint32_t y0, uint32_t x1,
                                   uint32_t y1);

/// String pulling, in place: keeps of the path cells[0..count) its first cell, each cell
/// after which the line of sight from the last kept cell breaks (checked in path order),
/// and its last cell; then drops, pass after pass and first ones first, every kept cell
/// whose predecessor sees its successor, until none is left to drop. Returns how many are
/// kept. The straight lines between kept cells pass through walkable cells only, and no
/// kept cell could be dropped. Cells outside the grid are kept as they are. Work: O(count)
/// line-of-sight checks for the first pass, O(kept) a later pass.
FXS_API uint32_t fxs_nav_pull_string(const fxs_nav_grid *grid, uint32_t *cells, uint32_t count);

#ifdef __cplusplus
}
#endif

#endif
