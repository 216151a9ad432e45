// Internal: integration fields for groups of navigate agents (docs/navigation.md, "Fields
// for groups"). When capacity.nav_fields > 0 and FXS_NAV_FIELD_GROUP or more live navigate
// agents have their target in one cell, they share one integration field toward that cell
// (nav_field.h) instead of each running A*.
//
// The cache. capacity.nav_fields slots, each a goal cell, the tick it was last used and its
// integration field (built over the tick's budget). A goal that needs a field takes the free
// slot of lowest index, else evicts the live field used least recently (lowest `used`, then
// lowest slot) among those not used this tick; when every field was used this tick the goal's
// agents run A* as before. A new map version (a wall, obstacle, cost block or grid change)
// drops every field. Goals are served in the order of their lowest agent slot.
//
// The state of a slot is live, goal cell, used tick, whether its build was seen complete and,
// until then, the cells the budget settled in it: the field's values are a pure function of
// the grid and those (the build is deterministic), so a snapshot stores only them and a
// restore rebuilds the values.
//
// The build. Each tick, after the agents have been given fields, the fields being built
// settle at most the grid's budget of cells together (a budget of their own, the same size
// as the searches'), slot by slot from slot (tick mod nav_fields).
//
// The move. An agent whose field is ready: with its target's cell in sight from its own
// (line of sight on the grid) it arrives straight at its target; otherwise it walks the
// direction field up to FXS_NAV_FIELD_LOOK cells ahead and seeks the farthest of them in sight
// (the first when none is). Until its field is ready an agent follows the route it had (no
// new search is started for it) and holds still without one. An agent whose cell the field
// cannot reach (cut off, or the goal blocked) runs A* (the nearest reachable point rule).
#ifndef FIXSTEER_WORLD_NAV_FIELDS_H
#define FIXSTEER_WORLD_NAV_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "fixsteer/world.h"

/// Navigate agents with their target in one cell that get a field (when there is room).
#define FXS_NAV_FIELD_GROUP 4u
/// Cells of the direction field an agent looks ahead along.
#define FXS_NAV_FIELD_LOOK 8u
/// agent_field of an agent that follows no field this tick.
#define FXS_NAV_NO_FIELD UINT32_MAX

/// Entries of each cached field for these capacities (0 without fields).
uint32_t fxs_world_nav_fields_entries(const fxs_world_capacity *capacity);

/// Bytes of one cached field's memory (0 without fields).
size_t fxs_world_nav_fields_bytes(const fxs_world_capacity *capacity);

/// Lays the fields out over their memory (world init): every slot free.
void fxs_world_nav_fields_init(fxs_world *world);

/// Drops every field (a new map version, a grid set or removed): no agent follows one until
/// the next plan assigns them.
void fxs_world_nav_fields_drop(fxs_world *world);

/// Gives the agents their fields for this tick (planning, after the costs are rebuilt and
/// before the routes are marked stale): counts the goals, takes or evicts slots, sets
/// agent_field.
void fxs_world_nav_fields_assign(fxs_world *world);

/// True when agent slot `index` is served by a field this tick (its route is then not
/// re-planned; a waiting or running search of it is dropped, and its route too once the
/// field is ready).
bool fxs_world_nav_fields_serve(fxs_world *world, uint32_t index);

/// Spends the tick's field budget (planning, last).
void fxs_world_nav_fields_build(fxs_world *world);

/// The point agent slot `index` heads for along its ready field: true with *to and *last (1:
/// the target itself, in sight); false when it follows no ready field.
bool fxs_world_nav_fields_point(const fxs_world *world, uint32_t index, fxs_vec2 target,
                                fxs_vec2 *to, bool *last);

/// When agent slot `index` follows a ready field this tick, the number of live navigate
/// agents given that field this tick (its group, the agent among them: at least
/// FXS_NAV_FIELD_GROUP); else 0. On its last leg a follower holds still behind an arrived
/// neighbour at any distance from the goal within the group's compact cluster (world_way.h),
/// not only within the slowing radius.
uint32_t fxs_world_nav_fields_follows(const fxs_world *world, uint32_t index);

/// Writes the fields section (a world with fields): per slot live (u8); when live, goal
/// cell, used tick, status (fxs_nav_field_status) and settled cells (0 when ready) (u32).
void fxs_world_nav_fields_write(const fxs_world *world, fxs_writer *w);

/// Reads the fields section over a grid of `cells` cells; into `world` (its grid and map
/// restored: the fields are rebuilt) or, when `world` is NULL, checked only. FXS_OK or the
/// first error, its offset in *at.
fxs_result fxs_world_nav_fields_read(fxs_world *world, const fxs_world *shape, fxs_reader *r,
                                     uint32_t cells, size_t *at);

#endif
