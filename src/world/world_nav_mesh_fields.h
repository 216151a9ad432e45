// Internal: group fields on a mesh world (docs/navigation-mesh.md, "Fields for groups"). When
// capacity.nav_fields > 0 and FXS_NAV_FIELD_GROUP or more live navigate agents have their
// target (clamped into the bounds) in one triangle, they share one tree toward that triangle
// (nav_mesh_tree.h: a uniform-cost expansion with the mesh A*'s clearance rules) instead of
// each running the mesh A*. The triangle plays the grid's goal cell: the slots, their cache
// (free slot of lowest index, else the live one used least recently and not this tick), the
// state a slot keeps (live, goal triangle, used tick, ready, settled count) and its snapshot
// record are those of world_nav_fields.h. A map change (a wall or obstacle added or removed,
// set_nav_grid) drops every field.
//
// The build. Each tick after the searches' budget is spent, the fields being built settle at
// most the budget of triangles together, slot by slot from slot (tick mod nav_fields). A
// tree's memory (33 bytes a triangle of the mesh's capacity, one a field slot, in the world's
// block) is derived: a pure function of the mesh, the goal triangle, the routing radius and the
// settled count, so a restore can begin each live slot's tree again and settle its count (every
// triangle when ready): the same bits as the straight run.
//
// Rollback without rebuilding. The tree after n settled triangles is a pure function of the
// mesh, the goal triangle, the radius and n (nav_mesh_tree.h), and the tree records all but
// the mesh (fxs_mesh_tree.goal, diameter, settled). The world records per slot whether its
// tree was begun over the mesh it holds now (fxs_nav_field_built.valid, world_nav_fields.h; its
// goal and revision unused): set at each begin, cleared for every slot by each map change
// (fxs_world_mesh_changed) and by a restore whose mesh differs from the one the world held (its
// bounds, a count or any word of its arrays, compared while they are read). A restore then
// keeps each live slot's tree when it is valid, toward the slot's goal, for the routing radius,
// with the slot's count of settled triangles (or complete, and the slot's count reaches its
// last triangle), builds it on when fewer are settled, and rebuilds it in every other case
// (fresh memory included: init clears every record). Each way gives the tree a rebuild gives,
// bit for bit. A map changed and changed back between the snapshot and the restore rebuilds
// (the change cleared the records); set_nav_grid drops the slots but leaves the trees and
// records (a tree names its radius).
//
// The move. An agent whose field is ready, standing in a settled triangle, follows the chain
// of parents from its triangle: fxs_mesh_tree_aim's first corner (seek), or its own target
// (arrive and land) when the corridor reaches the goal triangle with no corner before. An
// agent in a triangle the tree does not reach runs the mesh A* (its nearest reachable place);
// until its field is ready an agent follows the route it had and starts no search. Followers
// are a pile round one goal as on the grid (fxs_world_nav_fields_follows).
//
// Moves (simulation version 8, FXS_RULES_MESH_MOVE_FIELDS; before it move groups keep no field
// on a mesh). As on the grid (world_nav_fields.h, "Moves"): the members of a move group of
// FXS_NAV_FIELD_GROUP or more (routing on) record the group's destination, clamped into the
// bounds (fxs_world_nav.moves FXS_NAV_MESH_MOVE, the point in fxs_world_mesh_move_points:
// state), and are counted by its triangle, not by their spots': the group shares one tree
// toward it, and a member heads along the tree for the destination (seeking it, never landing
// there). Once it stands within 2 |spot - destination| + 2 FXS_NAV_FIELD_LOOK radii (its own or
// the routing radius, the larger) of the destination and sees its spot (fxs_mesh_sight with
// the routing radius), it goes straight to it this tick (agent_field carries
// FXS_NAV_FIELD_STRAIGHT) and lands on it as at a route's end; there, seeing the destination
// and not its spot (a spot behind a wall), it leaves the tree for good (its move forgotten) and
// runs the mesh A* to its spot. A member in a triangle the tree does not reach leaves it too,
// and so does one that stops navigating. A map change keeps the moves (their points are
// located on the new mesh). Members are not a pile: fxs_world_nav_fields_follows is 0 for them.
#ifndef FIXSTEER_WORLD_NAV_MESH_FIELDS_H
#define FIXSTEER_WORLD_NAV_MESH_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "fixsteer/world.h"

/// Bytes of one field's tree of a mesh world with fields (0 otherwise).
size_t fxs_world_mesh_field_bytes(const fxs_world_capacity *c);

/// Triangles of a mesh world's mesh capacity (0 for a grid world).
uint32_t fxs_world_mesh_triangles(const fxs_world_capacity *c);

/// Lays the trees out over `memory` (nav_fields of fxs_world_mesh_field_bytes) and the slots
/// free (world init; the fields' pointers are set).
void fxs_world_mesh_fields_init(fxs_world *world, uint8_t *memory);

/// Gives the navigate agents their fields for this tick (planning, before the stale routes).
void fxs_world_mesh_fields_assign(fxs_world *world);

/// True when agent slot `index` is served by a field this tick (no search is started for it).
bool fxs_world_mesh_fields_serve(fxs_world *world, uint32_t index);

/// Spends the tick's field budget (planning, last).
void fxs_world_mesh_fields_build(fxs_world *world);

/// The point agent slot `index` heads for along its ready field (*last: its target, to land
/// on); false when it follows none.
bool fxs_world_mesh_fields_point(const fxs_world *world, uint32_t index, fxs_vec2 target,
                                 fxs_vec2 *to, bool *last);

/// fxs_world_nav_fields_follows on a mesh world.
uint32_t fxs_world_mesh_fields_follows(const fxs_world *world, uint32_t index);

struct fxs_mesh_tree;

/// The tree of field slot k (< capacity.nav_fields) of a mesh world with fields: read only
/// (tests, drawing); meaningful while the slot is live.
const struct fxs_mesh_tree *fxs_world_mesh_field_tree(const fxs_world *world, uint32_t k);

/// fxs_world_nav.moves of a mesh world's move member (its destination in the move points).
#define FXS_NAV_MESH_MOVE 0u

/// A mesh world's move points (with nav_fields): per agent slot, the destination of the move
/// it follows (meaningful while fxs_world_nav.moves is FXS_NAV_MESH_MOVE); they follow the
/// agents' move entries in the same block.
fxs_vec2 *fxs_world_mesh_move_points(const fxs_world *world);

/// Agent slot `index`, a member of a move group to `destination`, follows the group's tree from
/// the next plan (a mesh world with fields; the point clamped into the bounds).
void fxs_world_mesh_fields_move(fxs_world *world, uint32_t index, fxs_vec2 destination);

/// Writes the moves section of a mesh world: per agent slot u8 1 with its destination (x, y,
/// i32), or u8 0 (written only when some agent has a move).
void fxs_world_mesh_moves_write(const fxs_world *world, fxs_writer *w);

/// Reads the moves section into `world` (or only checks it when NULL): each destination inside
/// `def`'s bounds, at least one move. FXS_OK or the first error, its offset in *at.
fxs_result fxs_world_mesh_moves_read(fxs_world *world, const fxs_world *shape,
                                     const fxs_world_def *def, fxs_reader *r, size_t *at);

/// The mesh changed (a map change, or a restore of another mesh): no tree in memory was built
/// over it (see "Rollback without rebuilding").
void fxs_world_mesh_fields_forget(fxs_world *world);

/// After a restore wrote the slots (and the mesh and radius): each live slot's tree kept, built
/// on or begun again and settled to its count (see "Rollback without rebuilding");
/// fxs_nav_field_built.restored says which.
void fxs_world_mesh_fields_restore(fxs_world *world);

#endif
