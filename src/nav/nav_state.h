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

/// Writes a field's state (the layout of fxs_nav_field_save).
void fxs_nav_field_write(const fxs_nav_field *field, fxs_writer *w);

/// Reads a field's state over `grid` (checks of fxs_nav_field_restore, except for bytes
/// left over).
fxs_result fxs_nav_field_read(fxs_nav_field *field, const fxs_nav_grid *grid, fxs_reader *r);

#endif
