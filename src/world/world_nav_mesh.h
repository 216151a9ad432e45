// Internal: the navigation of a mesh world (capacity.nav_kind FXS_NAV_KIND_MESH,
// docs/navigation-mesh.md, "In the world"). The world's mesh covers its bounds and holds every
// live wall and obstacle as constraints: it starts as the bounds rectangle at init and each map
// change command edits it in place (fxs_nav_mesh_add_* and _remove_*: local re-triangulation).
// Its arrays depend on the order of those edits, so the mesh is state (hashed and
// snapshotted). Routes: set_nav_grid turns routing on with its radius and budget (its grid
// fields are checked, not used); each navigate agent's route comes from a budgeted
// fxs_mesh_route search in the world's search slots, sharing the tick's budget as on the grid.
#ifndef FIXSTEER_WORLD_NAV_MESH_H
#define FIXSTEER_WORLD_NAV_MESH_H

#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "fixsteer/command.h"
#include "fixsteer/nav_mesh_route.h"
#include "fixsteer/world.h"
#include "world_nav.h"

/// True for a mesh world's capacities; never in a build without mesh worlds (FXS_NAV_MESH 0,
/// config.h), where every call it guards drops out and the world's mesh code is not linked.
static inline bool fxs_world_is_mesh(const fxs_world_capacity *c) {
  return FXS_NAV_MESH && c->nav_kind == FXS_NAV_KIND_MESH;
}

/// The vertex capacity of a mesh world's mesh (its default resolved), 0 for a grid world.
uint32_t fxs_world_mesh_vertices(const fxs_world_capacity *c);

/// True when a mesh world's capacities are consistent (see world.h).
bool fxs_world_mesh_capacity_valid(const fxs_world_capacity *c);

/// Bytes of the mesh, and of one route search, of a mesh world (0 otherwise).
size_t fxs_world_mesh_bytes(const fxs_world_capacity *c);
size_t fxs_world_mesh_search_bytes(const fxs_world_capacity *c);

/// Lays out the mesh (the bounds rectangle) and the searches (all idle and free) in their
/// memory. FXS_ERR_BAD_VALUE when the world's bounds are not strictly increasing.
fxs_result fxs_world_mesh_init(fxs_world *world, void *mesh_memory, uint8_t *search_memory);

/// Checks an add_wall or add_obstacle of a mesh world before anything changes: FXS_OK, or
/// FXS_ERR_BAD_VALUE for an end or a centre outside the world's bounds.
fxs_result fxs_world_mesh_check_add(const fxs_world *world, const fxs_command *c);

/// The map changed: wall or obstacle slot `index` (`wall` true for a wall) was just added or
/// (`added` false) removed. Edits the mesh; on an edit that fails (vertices or steps run out),
/// the mesh is built again from the live items and, for an add, the item is taken back
/// (FXS_ERR_CAPACITY returned: nothing changed). A new map version.
fxs_result fxs_world_mesh_changed(fxs_world *world, bool wall, uint32_t index, bool added);

/// set_nav_grid on a mesh world (see the file comment); set_nav_costs: FXS_ERR_CAPACITY.
fxs_result fxs_world_mesh_command(fxs_world *world, const fxs_command *c);

/// Drops the route of agent slot `index` and frees its search (despawn).
void fxs_world_mesh_release(fxs_world *world, uint32_t index);

/// The tick's planning phase of a mesh world (as fxs_world_nav_plan).
void fxs_world_mesh_plan(fxs_world *world);

/// The navigate behavior's move on a mesh world (as fxs_world_nav_move).
fxs_nav_move fxs_world_mesh_move(const fxs_world *world, uint32_t index, fxs_vec2 target,
                                 fix16_t slowing_radius);

/// For route followers other than the navigate behavior (formation members, version 8): moves
/// the route of agent slot `index` past the points it has passed and gives the one it seeks in
/// *to (*last: the route's last); false without a route (routing off, none yet).
bool fxs_world_mesh_waypoint(const fxs_world *world, uint32_t index, fxs_vec2 *to, bool *last);

/// True when a body of the routing radius at `from` sees `to` on the world's mesh (both clamped
/// into the bounds; fxs_mesh_sight, nav_mesh_tree.h).
bool fxs_world_mesh_sees(const fxs_world *world, fxs_vec2 from, fxs_vec2 to);

/// fxs_world_nav_route on a mesh world.
uint32_t fxs_world_mesh_route(const fxs_world *world, uint32_t index, fxs_vec2 *out,
                              uint32_t capacity, uint32_t *next);

/// Writes the mesh navigation section of the snapshot.
void fxs_world_mesh_write(const fxs_world *world, fxs_writer *w);

/// The most bytes fxs_world_mesh_write can write for these capacities.
uint64_t fxs_world_mesh_write_bound(const fxs_world_capacity *c);

/// Reads the mesh navigation section into `world`, or only checks it when `world` is NULL,
/// using `shape`'s scratch mesh memory and scratch search. The mesh covers `def`'s bounds (the
/// snapshot's, which must have an area). With `moves` (layout FXS_SNAPSHOT_VERSION_NAV_MESH_MOVES)
/// the moves section follows the fields'. FXS_OK or the first error, its offset in *at.
fxs_result fxs_world_mesh_read(fxs_world *world, fxs_world *shape, const fxs_world_def *def,
                               fxs_reader *r, bool moves, size_t *at);

#endif
