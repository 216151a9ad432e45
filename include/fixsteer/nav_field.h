/// @file nav_field.h
/// Integration and direction fields on a navigation grid (nav_grid.h), for many agents that
/// share a goal (Supreme Commander 2's flow fields): one search serves all of them.
///
/// The integration field. value(x) is the cost of a cheapest path from cell x to a goal
/// cell, with the step costs of nav_path.h (a step into a cell of cost c: 10 c straight,
/// 14 c diagonally, no corner cutting), so it is exactly the cost A* finds from x to the
/// nearest goal. Goal cells have 0; cells from which no goal can be reached, and blocked
/// cells, FXS_NAV_UNREACHED. Computed by Dijkstra's algorithm over a bucket queue (Dial):
/// costs are integers and a step costs at most 14 x 254, so a ring of FXS_NAV_BUCKETS lists
/// orders the queue in O(1) a cell: the whole field is linear in cells. The values do not
/// depend on the order cells of equal value are taken in; that order (each bucket a list,
/// new cells at its head) is still fixed, so a field half built is deterministic state.
///
/// The direction field. The direction of cell x is the step (nav_grid.h) to the neighbour y
/// that minimises value(y) + the cost of the step from x to y (so value(x) itself once the
/// field is complete: the neighbour a cheapest path goes through), among the steps x may
/// take (walkable y, no corner cutting; x itself may be blocked); ties go to the lower
/// direction number (E, N, W, S, NE, NW, SW, SE). Goal cells and cells without such a
/// neighbour have none (FXS_NAV_DIRECTIONS). Directions are derived on demand from the
/// values and the grid, so they are not state (a world's ready group fields keep them
/// packed instead of the values: fxs_nav_field.packed).
///
/// The budget. fxs_nav_field_step settles at most `budget` cells; save / restore carry a
/// field half built, as nav_path.h does for a search.
#ifndef FIXSTEER_NAV_FIELD_H
#define FIXSTEER_NAV_FIELD_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/flow_field.h"
#include "fixsteer/nav_grid.h"
#include "fixsteer/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Integration value of a cell no goal can be reached from.
#define FXS_NAV_UNREACHED UINT32_MAX
/// Lists of the bucket queue: a power of two above the dearest step (14 x 254 = 3556).
#define FXS_NAV_BUCKETS 4096u

/// Where a field's build stands.
typedef enum fxs_nav_field_status {
  FXS_NAV_FIELD_IDLE = 0,     ///< Nothing built.
  FXS_NAV_FIELD_BUILDING = 1, ///< Begun; more steps are needed.
  FXS_NAV_FIELD_READY = 2     ///< Every value is final.
} fxs_nav_field_status;

/// Most cells of a field's memory: a grid of FXS_NAV_MAX_CELLS with its border (below).
#define FXS_NAV_FIELD_MAX_CELLS 2097152u

/// One entry of a field (16 bytes): a grid cell, or a cell of the border. The build reads an
/// entry, its neighbours and the bucket heads from one base, with no multiplication.
typedef struct fxs_nav_field_entry {
  uint32_t value;    ///< value + 1; 0 blocked (the border too); FXS_NAV_UNREACHED none yet.
  uint16_t straight; ///< 10 x the cell's cost when the build began: a straight step into it.
  uint16_t diagonal; ///< 14 x that cost: a diagonal step into it.
  uint32_t next;     ///< Queued: the byte offset of the next entry of its bucket's list (0
                     ///< ends it); never queued: a mark that is no offset.
  uint32_t prev;     ///< Queued: the previous entry's offset (not kept for a list's first).
} fxs_nav_field_entry;

/// An integration field and its memory. Set up by fxs_nav_field_init; the pointers point
/// into the caller's block. Its entries cover the grid with a border of one blocked cell
/// all round ((width + 2) x (height + 2) entries, row by row, cell (cx, cy) at
/// (cy + 1) * (width + 2) + cx + 1), so no step needs a bounds check. The bucket lists link
/// entries by their byte offset from `entry` (16 x the entry's number). Read values with
/// fxs_nav_field_value. The build uses the costs the grid had at fxs_nav_field_begin (or
/// _restore).
typedef struct fxs_nav_field {
  uint32_t cell_capacity;     ///< Entries: (width + 2) x (height + 2) at most.
  uint32_t width;             ///< Grid the field covers (0 when idle).
  uint32_t height;            ///< Its rows.
  uint32_t status;            ///< An fxs_nav_field_status.
  uint32_t current;           ///< Stored value of the list being taken from; every queued stored
                              ///< value lies in [current, current + 3556].
  uint32_t queued;            ///< Cells in the queue.
  uint32_t settled;           ///< Cells taken from the queue (their value is final).
  uint32_t *bucket;           ///< FXS_NAV_BUCKETS list heads, just before `entry`.
  fxs_nav_field_entry *entry; ///< cell_capacity entries.
  /// NULL, or a ready field kept packed (a world's group fields, world.h): one byte a grid
  /// cell, row by row, its low four bits the cell's direction (0..7; 8 none; 9 a goal), the
  /// high four the world's own (docs/navigation.md, "Memory"). `entry` and `bucket` are NULL
  /// then; a value is the sum of the steps' costs along the directions to the goal, so
  /// fxs_nav_field_value takes time in the length of that path, fxs_nav_field_direction
  /// one read.
  uint8_t *packed;
  const uint8_t *cost; ///< With `packed`: the grid's costs the field was built over.
} fxs_nav_field;

/// Entries a field over a width x height grid needs: (width + 2) x (height + 2); 0 for a
/// shape nav_grid.h refuses.
FXS_API uint32_t fxs_nav_field_cells(uint32_t width, uint32_t height);

/// Bytes of memory a field of `cell_capacity` entries needs (8-byte aligned block): 16 an
/// entry and 16 KiB of buckets; 0 when cell_capacity is 0 or above FXS_NAV_FIELD_MAX_CELLS.
FXS_API size_t fxs_nav_field_memory_size(uint32_t cell_capacity);

/// Lays a field out in `memory` (any content) and clears it: O(cell_capacity). Idle after.
/// FXS_ERR_BAD_VALUE for a capacity memory_size refuses or a NULL memory;
/// FXS_ERR_BUFFER_TOO_SMALL when size is below it.
FXS_API fxs_result fxs_nav_field_init(fxs_nav_field *field, void *memory, size_t size,
                                      uint32_t cell_capacity);

/// Begins a field on `grid` toward `count` goal cells (goals[i] is a cell index, cy * width
/// + cx), dropping any earlier one: O(cells), the grid's costs copied. Goals on blocked cells
/// are ignored (with none left every cell stays unreached and the field is ready at once); a
/// goal given twice counts once. FXS_ERR_CAPACITY when the grid needs more entries than the
/// field has; FXS_ERR_OUTSIDE_GRID when a goal is outside it. Nothing changes on failure.
FXS_API fxs_result fxs_nav_field_begin(fxs_nav_field *field, const fxs_nav_grid *grid,
                                       const uint32_t *goals, uint32_t count);

/// Settles at most `budget` cells of the field (over the costs copied at begin) and returns
/// its status.
FXS_API fxs_nav_field_status fxs_nav_field_step(fxs_nav_field *field, uint32_t budget);

/// Integration value of cell (cx, cy): FXS_NAV_UNREACHED when blocked, not reached (yet) or
/// outside the field.
FXS_API uint32_t fxs_nav_field_value(const fxs_nav_field *field, uint32_t cx, uint32_t cy);

/// Direction of cell (cx, cy) (see above), by the costs copied at begin: 0..7, or
/// FXS_NAV_DIRECTIONS for none (also outside the field).
FXS_API uint32_t fxs_nav_field_direction(const fxs_nav_field *field, uint32_t cx, uint32_t cy);

/// Fills a flow field of the field's shape (flow_field.h) from the direction field: each
/// cell gets the unit vector of its direction (a diagonal (+-46341, +-46341), 1/sqrt(2)
/// rounded), a cell without direction zero (a sink: flow_field followers brake there).
/// FXS_ERR_BAD_VALUE when the flow field's width or height differs from the field's.
FXS_API fxs_result fxs_nav_field_fill_flow(const fxs_nav_field *field, fxs_flow_field *flow);

/// Writes the field's state (little-endian: the numbers, every grid cell's value, the
/// queued cells bucket by bucket from `current`, each list from its tail) to `buffer` when
/// it holds `capacity` bytes or more; returns the bytes it needs (NULL, 0: only measures).
/// The costs are not written: they are the grid's, given again to restore.
FXS_API size_t fxs_nav_field_save(const fxs_nav_field *field, uint8_t *buffer, size_t capacity);

/// Replaces the state of an initialised field (whatever its memory holds) with saved bytes,
/// over `grid` (the grid it was begun on: its costs are copied again); O(cells).
/// FXS_ERR_TRUNCATED, FXS_ERR_BAD_LENGTH (bytes left over), FXS_ERR_CAPACITY (more entries
/// than the field has), FXS_ERR_BAD_VALUE (another shape than the grid's, a value beyond
/// any path's cost or on a blocked cell, a queued cell outside the grid, twice, or outside
/// [current, current + 3556], a settled cell above current, counts that disagree). On
/// failure it is left idle.
FXS_API fxs_result fxs_nav_field_restore(fxs_nav_field *field, const fxs_nav_grid *grid,
                                         const uint8_t *data, size_t size);

#ifdef __cplusplus
}
#endif

#endif
