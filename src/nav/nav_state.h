// Internal: the navigation searches' state through the library's one serializer (bytes.h),
// so that the snapshot, the state hash and the public save / restore functions of
// nav_path.h and nav_field.h write the same bytes.
#ifndef FIXSTEER_NAV_STATE_H
#define FIXSTEER_NAV_STATE_H

#include "bytes.h"
#include "fixsteer/nav_field.h"
#include "fixsteer/nav_path.h"

/// Writes a search's state (the layout of fxs_nav_search_save).
void fxs_nav_search_write(const fxs_nav_search *search, fxs_writer *w);

/// Reads a search's state (checks of fxs_nav_search_restore, except for bytes left over).
fxs_result fxs_nav_search_read(fxs_nav_search *search, fxs_reader *r);

/// Lays out a search that only checks saved states: fxs_nav_search_read into it accepts and
/// refuses exactly what it does into a search of fxs_nav_search_init with the same
/// capacities, leaving the same g and state bits for the cells it read, but it keeps no
/// touched list, heap or heap positions (those pointers are NULL; touched_count and
/// open_count are counted), so it needs only `g` (cell_capacity words) and `state`
/// (cell_capacity bytes), both cleared here. It is never begun, stepped, written or asked
/// for a path. A world restore checks a snapshot's searches with one before it changes
/// anything; its g are the world's path scratch (free during a restore).
void fxs_nav_check_init(fxs_nav_search *search, uint32_t *g, uint8_t *state, uint32_t cell_capacity,
                        uint32_t open_capacity);

/// Writes a field's state (the layout of fxs_nav_field_save).
void fxs_nav_field_write(const fxs_nav_field *field, fxs_writer *w);

/// Reads a field's state over `grid` (checks of fxs_nav_field_restore, except for bytes
/// left over).
fxs_result fxs_nav_field_read(fxs_nav_field *field, const fxs_nav_grid *grid, fxs_reader *r);

/// Packed direction codes (fxs_nav_field.packed, low four bits): 0..7 a direction,
/// FXS_NAV_PACK_NONE none, FXS_NAV_PACK_GOAL a goal (value 0, no direction).
#define FXS_NAV_PACK_NONE 8u
#define FXS_NAV_PACK_GOAL 9u

/// Points an idle field at `memory` (fxs_nav_field_memory_size(cell_capacity) bytes, any
/// content) without clearing it: fxs_nav_field_begin lays out what a build reads. Idle after.
void fxs_nav_field_attach(fxs_nav_field *field, void *memory, uint32_t cell_capacity);

/// Packs the ready field `from`, built over `grid` (the costs it copied at begin are the
/// grid's), into `memory` (width x height bytes: each cell's direction code, high bits 0)
/// and makes `to` (which may be `from`) that packed field: the same numbers, `packed` and
/// `cost` set, no entries. Every value and direction read from `to` equals `from`'s.
void fxs_nav_field_pack(const fxs_nav_field *from, const fxs_nav_grid *grid, uint8_t *memory,
                        fxs_nav_field *to);

/// Makes `field` the packed ready field over `grid` whose goal cell is blocked (what begin
/// and pack give for it: no value, no direction anywhere), in `memory` (width x height bytes).
void fxs_nav_field_pack_empty(fxs_nav_field *field, const fxs_nav_grid *grid, uint8_t *memory);

#endif
