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
// Rollback without rebuilding. The build settles cells in one fixed order however the budget
// splits it, so a field's memory is fully named by its goal, the effective costs it was begun
// over and its count of settled cells (fxs_nav_field.settled; the build stops at the last
// cell). The world records per field the goal and the raster's revision at the begin
// (world_nav_raster.h: it changes with every change of the effective costs or the grid's shape,
// and not with an update that finds the costs as they were). A restore compares, per live slot
// of the snapshot, that record with the slot's goal and the revision after the restored map is
// rasterized: equal, it keeps the values when their count is the slot's (or they are complete
// and the slot's count reaches their last cell), continues the build when fewer cells are
// settled, and rebuilds in every other case (another goal or map, a count beyond the slot's,
// fresh memory, a field whose build memory was taken back). Each way gives the values a rebuild
// gives, bit for bit; the aims stay with the values they were computed from, and a rebuild
// clears them.
//
// The build. Each tick, after the agents have been given fields, the fields being built
// settle at most the grid's budget of cells together (a budget of their own, the same size
// as the searches'), slot by slot from slot (tick mod nav_fields).
//
// Memory. A field is built in a build memory (16 bytes an entry, fxs_world_nav_field_builds
// of them) lent to it at its begin when one is free (else when the budget first reaches it),
// and packed once ready (fxs_nav_field.packed: a byte a cell in field_packed, its direction
// code and its followers' aim code), the memory given back. When the budget reaches a field
// being built whose memory was taken back (all of them lent, the one used least recently is
// taken), it is begun again and built to its slot's count first: the build is deterministic,
// so its values, and the tick it is ready, are those of a memory for every field. A field
// whose goal is blocked is packed at once (no values). A memory lent to a free slot's field
// counts as free. Which memory holds what is derived (the record below), never state.
//
// The move. An agent whose field is ready: with its target's cell in sight from its own
// (line of sight on the grid) it arrives straight at its target; otherwise it walks the
// direction field up to FXS_NAV_FIELD_LOOK cells ahead and seeks the farthest of them in sight
// (the first when none is). Until its field is ready an agent follows the route it had (no
// new search is started for it) and holds still without one. An agent whose cell the field
// cannot reach (cut off, or the goal blocked) runs A* (the nearest reachable point rule).
//
// The edge (simulation version 7, FXS_RULES_FIELD_EDGE). The grid blocks every cell within its
// radius of a wall, so a body smaller than that radius can stand in a cell the field does not
// reach (pressed against a wall, deeper in the blocked margin than a cell with a walkable
// neighbour). Such a follower steps to the nearest cell round its own, ring by ring out to the
// grid's radius in cells and one more (FXS_NAV_FIELD_EDGE_RINGS at most), each ring row by
// row, that lies on the grid, that the field reaches and whose centre it sees (no wall the
// grid holds crosses or touches the way), and follows the field from there; without one it
// leaves the field for A*, as before version 7.
//
// Moves (simulation version 6, FXS_RULES_MOVE_FIELDS). The members of a move group of
// FXS_NAV_FIELD_GROUP or more record the cell of the group's destination (fxs_world_nav.moves,
// state) and are counted by it, not by their spots' cells: the group shares one field toward
// its destination. A member follows it while its own spot is out of reach: once it is within
// 2 |spot - destination| + FXS_NAV_FIELD_LOOK cells of the destination and its spot's cell is
// in sight from its own, it goes straight to its spot this tick (agent_field then carries
// FXS_NAV_FIELD_STRAIGHT) and lands on it as at a route's end; there, with the destination's
// cell in sight and its spot's not (a spot behind a wall), it leaves the field for good (its
// move forgotten) and runs A* to its spot. A member whose cell the field cannot reach leaves it
// too. Members are not a pile round one goal: fxs_world_nav_fields_follows is 0 for them.
#ifndef FIXSTEER_WORLD_NAV_FIELDS_H
#define FIXSTEER_WORLD_NAV_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "fixsteer/world.h"

/// How the last restore got a field's values (fxs_nav_field_built.restored).
typedef enum fxs_nav_field_restored {
  FXS_NAV_FIELD_NOT_RESTORED = 0, ///< No restore since the field was begun, or its slot was free.
  FXS_NAV_FIELD_KEPT = 1,         ///< Kept as they were.
  FXS_NAV_FIELD_CONTINUED = 2,    ///< Built on to the slot's count.
  FXS_NAV_FIELD_REBUILT = 3       ///< Begun again and built to the slot's count.
} fxs_nav_field_restored;

/// What one field's memory holds (derived, not state): fxs_nav_field_begin toward `goal` over
/// the effective costs of raster revision `revision`, then fxs_nav_field.settled cells
/// settled; meaningless while `valid` is 0 (nothing begun since init). Its aims are those of
/// these values. (A mesh world: `valid` is 1 while the slot's tree was begun over the mesh the
/// world holds, world_nav_mesh_fields.h; `revision` is unused.)
typedef struct fxs_nav_field_built {
  uint64_t revision; ///< The raster's revision at the begin.
  uint32_t goal;     ///< The goal cell begun toward.
  uint8_t valid;     ///< 1 once begun over costs brought up to date.
  uint8_t restored;  ///< An fxs_nav_field_restored (for tests and reports).
} fxs_nav_field_built;

/// Navigate agents with their target in one cell that get a field (when there is room).
#define FXS_NAV_FIELD_GROUP 4u
/// Cells of the direction field an agent looks ahead along.
#define FXS_NAV_FIELD_LOOK 8u
/// agent_field of an agent that follows no field this tick.
#define FXS_NAV_NO_FIELD UINT32_MAX
/// Flag of agent_field: a move's member that goes straight to its spot this tick (the field's
/// slot in the other bits).
#define FXS_NAV_FIELD_STRAIGHT 0x40000000u
/// Flag of agent_field: a follower standing where its field does not reach, stepping first to
/// the cell at offset (code % SIDE - RINGS, code / SIDE - RINGS) from its own, code =
/// (agent_field >> FXS_NAV_FIELD_EDGE_SHIFT) & FXS_NAV_FIELD_EDGE_CODES (simulation version 7,
/// FXS_RULES_FIELD_EDGE; the field's slot in the low bits, FXS_NAV_FIELD_SLOT).
#define FXS_NAV_FIELD_EDGE 0x20000000u
#define FXS_NAV_FIELD_EDGE_SHIFT 20u
#define FXS_NAV_FIELD_EDGE_CODES 63u
/// Rings of cells round its own an edge follower looks through, at most (the grid's radius in
/// cells and one more, up to this), and the side of the square of offsets they span.
#define FXS_NAV_FIELD_EDGE_RINGS 3
#define FXS_NAV_FIELD_EDGE_SIDE (2 * FXS_NAV_FIELD_EDGE_RINGS + 1)
/// No cell found (edge_step).
#define FXS_NAV_FIELD_EDGE_NONE UINT32_MAX
/// The field's slot in an agent_field with flags.
#define FXS_NAV_FIELD_SLOT 0x000FFFFFu

/// Least number of build memories of a world with fields (fewer only with fewer fields).
#define FXS_NAV_FIELD_BUILDS 2u
/// Bytes the build memories may take together beyond FXS_NAV_FIELD_BUILDS of them (1 MiB).
#define FXS_NAV_FIELD_BUILD_BYTES ((size_t)1u << 20)

/// The slot holding the field of goal `goal` (a grid cell, or a mesh's triangle), else a new
/// one for it: the free slot of lowest index, else the least recently used one not used this
/// tick, lowest index first, made live toward `goal` with nothing settled (*fresh true: the
/// caller begins its field); FXS_NAV_NO_FIELD when every slot was used this tick.
uint32_t fxs_world_nav_field_slot_take(fxs_world *world, uint32_t goal, bool *fresh);

/// Groups navigate agents by goal: agent_field[i] holds agent i's goal (a cell or a triangle,
/// FXS_NAV_NO_FIELD for none), goal_points[i] its target (fxs_world_nav_target) when it has
/// a goal, and count[goal] 0 for each; an agent whose goal FXS_NAV_FIELD_GROUP
/// or more share gets that goal's slot (`slot_for_goal`: the slot, its field begun when new, or
/// FXS_NAV_NO_FIELD), marked used this tick and counted in field_members; the others
/// FXS_NAV_NO_FIELD. Goals are served in the order of their lowest agent slot, each asked for
/// its slot once (count[] is scratch: it ends holding the counts and the slots found).
void fxs_world_nav_fields_group(fxs_world *world, uint32_t *count,
                                uint32_t (*slot_for_goal)(fxs_world *world, uint32_t goal));

/// Entries of each build memory for these capacities (0 without fields).
uint32_t fxs_world_nav_fields_entries(const fxs_world_capacity *capacity);

/// Bytes of one build memory (0 without fields).
size_t fxs_world_nav_fields_bytes(const fxs_world_capacity *capacity);

/// Build memories of a world of these capacities: nav_fields, at most the larger of
/// FXS_NAV_FIELD_BUILDS and as many as FXS_NAV_FIELD_BUILD_BYTES holds (0 without fields).
uint32_t fxs_world_nav_field_builds(const fxs_world_capacity *capacity);

/// Lays the fields out over their memory (world init): every slot free.
void fxs_world_nav_fields_init(fxs_world *world);

/// Drops every field (a new map version, a grid set or removed): no agent follows one until
/// the next plan assigns them.
void fxs_world_nav_fields_drop(fxs_world *world);

/// Agent slot `index` follows no move's field (a despawn, a new target, a move of one).
void fxs_world_nav_fields_forget(fxs_world *world, uint32_t index);

/// Agent slot `index`, a member of a move group to the grid cell `cell`, follows the group's
/// field from the next plan (a world with fields).
void fxs_world_nav_fields_move(fxs_world *world, uint32_t index, uint32_t cell);

/// True when some agent follows a move's field (its snapshot then has the moves section).
bool fxs_world_nav_moves_any(const fxs_world *world);

/// Writes the moves section: per agent slot its move's cell (u32, 0xFFFFFFFF none).
void fxs_world_nav_moves_write(const fxs_world *world, fxs_writer *w);

/// Reads the moves section over a grid of `cells` cells (each a cell or none) into `world`
/// (or only checks it when `world` is NULL); the offset of a bad value in *at.
fxs_result fxs_world_nav_moves_read(fxs_world *world, const fxs_world *shape, fxs_reader *r,
                                    uint32_t cells, size_t *at);

/// Gives the agents their fields for this tick (planning, after the costs are rebuilt and
/// before the routes are marked stale): counts the goals, takes or evicts slots, sets
/// agent_field.
void fxs_world_nav_fields_assign(fxs_world *world);

struct fxs_wall_grid;

/// True when agent slot `index` is served by a field this tick (its route is then not
/// re-planned; a waiting or running search of it is dropped, and its route too once the
/// field is ready). `walls`: the step's wall grid (fxs_world_nav_plan's).
bool fxs_world_nav_fields_serve(fxs_world *world, uint32_t index,
                                const struct fxs_wall_grid *walls);

/// The packed bytes of field slot k, one a cell (field_packed; a ready field's).
uint8_t *fxs_world_nav_fields_packed(const fxs_world *world, uint32_t k);

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

/// Goal points whose followers a field slot counts apart (a grid cell or a mesh triangle may
/// hold several groups' goals): the first FXS_NAV_FIELD_POINTS of them.
#define FXS_NAV_FIELD_POINTS 8u

/// 32-bit words of field_members a slot takes: its member count, then x, y and the count of
/// each of its FXS_NAV_FIELD_POINTS goal points (derived each tick by the grouping).
#define FXS_NAV_FIELD_MEMBER_WORDS (1u + 3u * FXS_NAV_FIELD_POINTS)

/// Of the followers of the field agent slot `index` follows this tick, the number going to
/// its own goal point `goal` exactly (the group that piles round it); 0 without a field, or
/// where the slot holds more goal points than it counts apart and `goal` is not among them.
uint32_t fxs_world_nav_fields_sharers(const fxs_world *world, uint32_t index, fxs_vec2 goal);

/// Writes the fields section (a world with fields): per slot live (u8); when live, goal
/// cell, used tick, status (fxs_nav_field_status) and settled cells (0 when ready) (u32).
void fxs_world_nav_fields_write(const fxs_world *world, fxs_writer *w);

/// Reads the fields section over a grid of `cells` cells; into `world` (its grid and map
/// restored: each field's values kept, continued or rebuilt, see above) or, when `world` is
/// NULL, checked only. FXS_OK or the first error, its offset in *at.
fxs_result fxs_world_nav_fields_read(fxs_world *world, const fxs_world *shape, fxs_reader *r,
                                     uint32_t cells, size_t *at);

#endif
