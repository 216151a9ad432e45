// Internal: a navigate agent's route record (world.h's fxs_nav_route), the part a grid world
// and a mesh world share: the progress rule that counts stall ticks, when a ready route is used
// up, a route waiting for a search, a finished search made into the route, and the record's
// snapshot fields. Only the goal (a grid cell or a point) and the points (cells or positions)
// differ between the two kinds; world_nav.c and world_nav_mesh*.c handle those.
#ifndef FIXSTEER_WORLD_ROUTE_H
#define FIXSTEER_WORLD_ROUTE_H

#include <stdbool.h>
#include <stdint.h>

#include "bytes.h"
#include "fixsteer/world.h"

/// The search_owner value of a free search slot.
#define FXS_ROUTE_NO_OWNER UINT32_MAX

/// Progress (state) of ready route `r` whose agent is `distance` from the point it seeks: it
/// progresses when it passed a point, came `touch` (its touching distance, agent.h) nearer,
/// or rests (`at_rest`) on its last leg (arrived, or holding behind one that did); any other
/// tick is a stall tick, up to FXS_NAV_STALL_TICKS.
void fxs_route_measure(fxs_nav_route *r, fix16_t distance, fix16_t touch, bool at_rest);

/// A stall tick of ready route `r` whatever its agent's distance (up to FXS_NAV_STALL_TICKS): a
/// mesh agent out of sight of its last point (world_nav_mesh_plan.c, since simulation version 11).
void fxs_route_stall(fxs_nav_route *r);

/// True for a ready route that is used up: cut short and at its last point, or stalled for
/// FXS_NAV_STALL_TICKS.
bool fxs_route_used_up(const fxs_nav_route *r);

/// Route `r` waits for a search on map version `version`; the search it held, if any, is
/// freed in `search_owner`.
void fxs_route_wait(fxs_nav_route *r, uint32_t *search_owner, uint32_t version);

/// A finished search (how it ended: `reached`) becomes route `r`: its first `count` points
/// (`partial` when the search found more), the first sought from `distance` away.
void fxs_route_ready(fxs_nav_route *r, uint8_t reached, uint32_t count, bool partial,
                     fix16_t distance);

/// Writes the record's fields before its goal (status; unless NONE: reached, partial u8,
/// search, count, next u16, version u32). False for a NONE route: nothing more is written.
bool fxs_route_write_head(fxs_writer *w, const fxs_nav_route *r);

/// Writes the record's fields after its goal (stall, mark_next u16, mark_distance i32).
void fxs_route_write_tail(fxs_writer *w, const fxs_nav_route *r);

/// Reads what fxs_route_write_head wrote into `r` (cleared first). False for a NONE route or a
/// truncated read (r->failed tells which).
bool fxs_route_read_head(fxs_reader *rd, fxs_nav_route *r);

/// Reads what fxs_route_write_tail wrote.
void fxs_route_read_tail(fxs_reader *rd, fxs_nav_route *r);

/// True when a read record's fields (all but its goal and points) are consistent with the
/// capacities: status, how it ended, its counts and indices, stall and mark.
bool fxs_route_valid(const fxs_nav_route *r, const fxs_world_capacity *capacity);

#endif
