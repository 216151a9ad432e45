/// @file nav_mesh_route.h
/// Routes on the navigation mesh (nav_mesh.h). For a point body (radius 0): the exact shortest
/// path, by an A* over the corner sectors of the mesh (below, "The exact search"). For a body
/// of radius r > 0: a budgeted A* over the triangles with clearance, string pulling with the
/// funnel algorithm, then an exact clearance pass. A mesh world routes its navigate agents with
/// it (docs/navigation-mesh.md, "In the world").
///
/// The exact search (radius 0). Nodes: the free sectors of 180 degrees or more round the mesh
/// vertices (between two consecutive constrained edges; node 3 t + i is the sector holding
/// triangle t at corner i, t its first triangle clockwise, the least 3 t + i round a vertex
/// without constraints), then the start and the goal. A node is expanded by a visibility flood
/// through the triangles from its vertex, in its sector (from the start: its triangle): each
/// crossed side narrows a cone bounded by two mesh vertices (exact orientation tests),
/// constrained sides stop it; every vertex whose sector qualifies, and the goal, seen strictly
/// inside the cone is a successor at its straight distance, if the turn there is taut (the
/// shorter arc from the parent's direction to the successor's runs over the sector's
/// constrained side, or straight on). Open list: a heap on (f, h, node); a node's parent is the
/// first expanded node that gave it its lowest g; closed nodes are not reopened. A flood opens at
/// most FXS_MESH_ROUTE_FLOOD_PER_TRIANGLE windows per triangle and holds triangle_capacity + 8
/// (past either it sees less). When it finds no route (or its open list is full) the triangle
/// search below runs instead: FOUND through it, or the nearest place. An exact route has no
/// corridor.
///
/// Clearance, for a body of radius r (D = 2 r), decided exactly on the raw Q16.16 values
/// (256-bit integers, nav_mesh_exact.h):
/// - a side can be crossed when it is not constrained and its length is at least D;
/// - a triangle can be crossed from side e to side o (the start triangle excepted) when the
///   width of that traversal is at least D: with C the vertex the two sides share and A, B
///   the other two, when the angles at A and B are both acute, every constrained side found
///   by a search from AB away from C (across unconstrained sides whose distance to C is
///   below D, at most FXS_MESH_ROUTE_WIDTH_STEPS sides; more counts as too narrow) must lie
///   at distance D or more from C. This is the triangle width of the literature on
///   triangulation-based path finding, conservative where it stops early.
///
/// The triangle search. A node is a triangle with an entry point: the start for the start
/// triangle, else the point of the crossed side (shrunk by r at both ends) where the line from the
/// parent's entry point to the goal crosses it, or the end of the shrunk side nearer that
/// line (the first end on a tie). g is the length of the chain of entry points (each length
/// the integer square root of the exact square, raw units, halved per axis past 2^31), h the
/// straight distance from the entry point to the goal. A closed triangle is never reopened.
///
/// The total order. The open list is a binary heap ordered by (f = g + h, then h, then
/// triangle index): no two entries compare equal, so the expansions are fixed by the mesh,
/// the start, the goal and the radius alone. Sides are tried in index order (0, 1, 2); a
/// triangle's parent is the first expanded triangle that gave it its lowest g.
///
/// Ends. FXS_NAV_FOUND when the goal node (exact search) or the goal's triangle is
/// expanded. An unreachable goal (outside a
/// reachable triangle, or behind passages narrower than D): once the open list is empty the
/// route ends at the entry point of the expanded triangle nearest the goal by (h, then g,
/// then triangle index), FXS_NAV_NEAREST; FXS_NAV_OPEN_FULL the same when the heap runs out.
///
/// The route (triangle search). The corridor of triangles from the start to the end, its
/// sides shrunk by r as portals, pulled tight by the funnel algorithm (exact orientation
/// tests) into a route whose inner corners are mesh vertices; with r > 0 each such corner V
/// is replaced by two points on the lines parallel to the legs at distance
/// r' = r + FXS_MESH_ROUTE_MARGIN on the outside of the turn, where the tangent to the circle
/// of radius r' round V at the turn's bisector meets them (Q16.16, rounded).
/// The clearance pass (r > 0): each leg is checked exactly against every constrained side its
/// r-neighbourhood meets (a walk over the triangles); a leg within r of a side's end v (and
/// both its ends r or more from v) is replaced by two legs and the tangent round the circle of
/// radius r' about v on the leg's side, and checked again (at most FXS_MESH_ROUTE_REPAIRS
/// replacements per point); a route to the nearest place drops its last legs while they come
/// within r of a side.

/// The budget. fxs_mesh_route_step expands at most `budget` nodes (corner sectors, then
/// triangles) and returns; the whole state is plain data in the caller's block, so the
/// search is world state (a mesh world restores it from `spent`).
#ifndef FIXSTEER_NAV_MESH_ROUTE_H
#define FIXSTEER_NAV_MESH_ROUTE_H

#include "fixsteer/api.h"
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/nav_mesh.h"
#include "fixsteer/nav_path.h"
#include "fixsteer/result.h"
#include "fixsteer/vec2.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most sides one width search looks at (see the file comment).
#define FXS_MESH_ROUTE_WIDTH_STEPS 64u
/// Raw units added to the radius for the offset corners of a route (rounding margin).
#define FXS_MESH_ROUTE_MARGIN 256
/// Most leg replacements of the clearance pass, per point of the funnel's route.
#define FXS_MESH_ROUTE_REPAIRS 4u
/// Most windows one visibility flood of the exact search opens, per triangle of the mesh.
#define FXS_MESH_ROUTE_FLOOD_PER_TRIANGLE 8u

/// An open-list entry: f, h and the triangle, compared in that order.
typedef struct fxs_mesh_route_open {
  uint64_t f;        ///< g + h, raw units.
  uint64_t h;        ///< Distance from the entry point to the goal, raw units.
  uint32_t triangle; ///< Triangle index.
  uint32_t pad;      ///< Always 0.
} fxs_mesh_route_open;

/// A window of the exact search's visibility flood (docs/navigation-mesh.md): the side of a
/// triangle to cross and the two points bounding the cone of rays still seen through it.
typedef struct fxs_mesh_route_window {
  uint32_t triangle; ///< Triangle the side belongs to.
  uint32_t side;     ///< Side index, 0..2.
  fxs_vec2 right;    ///< The cone's clockwise bound (a mesh vertex).
  fxs_vec2 left;     ///< The cone's counter-clockwise bound (a mesh vertex).
} fxs_mesh_route_window;

/// A route search and its memory (caller's block). Fields are readable; change them only
/// through the functions below.
typedef struct fxs_mesh_route {
  uint32_t triangle_capacity; ///< Most triangles of a mesh it can search.
  uint32_t open_capacity;     ///< Entries of the open list, [1, triangle_capacity].
  uint32_t triangle_count;    ///< Triangles of the mesh the current search runs on.
  uint32_t status;            ///< An fxs_nav_status.
  fix16_t radius;             ///< Body radius, >= 0.
  fxs_vec2 start;             ///< Start point.
  fxs_vec2 goal;              ///< Goal point.
  uint32_t start_triangle;    ///< Triangle holding the start.
  uint32_t goal_triangle;     ///< Triangle holding the goal.
  uint32_t end;               ///< Last triangle of the corridor once done; best so far before.
  uint32_t expanded;          ///< Triangles expanded by this search.
  /// Budget this search has taken so far (every fxs_mesh_route_step's share): stepping a search
  /// by a, then b, leaves it as stepping it by a + b at once, so a search is fixed by the mesh,
  /// its start, goal, radius and this count (the world restores a search so).
  uint32_t spent;
  uint32_t open_count;       ///< Entries in the open list.
  uint32_t touched_count;    ///< Triangles given a g by this search.
  uint64_t *g;               ///< Per triangle: length from the start to its entry point.
  uint32_t *parent;          ///< Per triangle: the triangle it was entered from.
  fxs_vec2 *entry;           ///< Per triangle: its entry point.
  uint32_t *open_at;         ///< Per triangle: heap position + 1 while open, else 0.
  uint8_t *state;            ///< Per triangle: 1 touched, 2 open, 4 closed; 0 untouched.
  uint32_t *touched;         ///< Touched triangles in order of first touch.
  fxs_mesh_route_open *open; ///< The heap.
  uint32_t *corridor;        ///< Work array of the route functions (triangle_capacity).
  fxs_vec2 *corner;          ///< Work array of fxs_mesh_route_points (triangle_capacity + 2).
  int8_t *corner_side;       ///< Work array of fxs_mesh_route_points (triangle_capacity + 2).
  // The exact search (radius 0; nodes: corner sectors 3 t + i, then the start, the goal).
  uint32_t phase;                 ///< 0 the triangle search, 1 the exact search, 2 done.
  uint32_t exact;                 ///< 1 when the route comes from the exact search.
  uint32_t node_capacity;         ///< 3 * triangle_capacity + 2.
  uint32_t node_open_count;       ///< Entries in the node heap.
  uint32_t node_touched_count;    ///< Nodes given a g by the exact search.
  uint32_t flood_capacity;        ///< Entries of the flood stack: triangle_capacity + 8.
  uint64_t *node_g;               ///< Per node: path length from the start, raw units.
  uint32_t *node_parent;          ///< Per node: the node it was reached from.
  uint32_t *node_open_at;         ///< Per node: heap position + 1 while open, else 0.
  uint8_t *node_state;            ///< Per node: as state.
  uint32_t *node_touched;         ///< Nodes in order of first touch.
  fxs_mesh_route_open *node_open; ///< The node heap (open_capacity entries).
  fxs_mesh_route_window *flood;   ///< The flood's stack (no state between expansions).
} fxs_mesh_route;

/// Bytes a search of these capacities needs (8-byte aligned block), or 0 when
/// triangle_capacity is 0 or above 2 * FXS_NAV_MESH_MAX_VERTICES or open_capacity is 0 or
/// above triangle_capacity.
FXS_API size_t fxs_mesh_route_memory_size(uint32_t triangle_capacity, uint32_t open_capacity);

/// Lays a search out in `memory` (any content) and clears it; idle after. FXS_ERR_BAD_VALUE
/// for a NULL pointer or capacities refused above; FXS_ERR_BUFFER_TOO_SMALL for a small size.
FXS_API fxs_result fxs_mesh_route_init(fxs_mesh_route *route, void *memory, size_t size,
                                       uint32_t triangle_capacity, uint32_t open_capacity);

/// Begins a search on `mesh` from `start` to `goal` for a body of `radius`, dropping any
/// earlier one. FXS_ERR_BAD_VALUE for a NULL pointer, a negative radius or a point outside
/// the mesh's bounds; FXS_ERR_CAPACITY when the mesh has more triangles than the search.
/// Nothing changes on failure.
FXS_API fxs_result fxs_mesh_route_begin(fxs_mesh_route *route, const fxs_nav_mesh *mesh,
                                        fxs_vec2 start, fxs_vec2 goal, fix16_t radius);

/// Expands at most `budget` nodes (corner sectors or triangles) of the search on `mesh` (the mesh
/// it began on, not changed since) and returns the status. A search that is not SEARCHING is left
/// alone.
FXS_API fxs_nav_status fxs_mesh_route_step(fxs_mesh_route *route, const fxs_nav_mesh *mesh,
                                           uint32_t budget);

/// The corridor of a finished search, start triangle to end triangle: returns its length
/// and writes its first min(length, capacity) triangles (NULL with capacity 0 only counts).
/// 0 while idle or searching, and for an exact route (route->exact: no triangle search ran).
FXS_API uint32_t fxs_mesh_route_corridor(const fxs_mesh_route *route, uint32_t *triangles,
                                         uint32_t capacity);

/// The route of a finished search (file comment): the start, each corner, then the goal
/// (FOUND) or the nearest entry point (NEAREST, OPEN_FULL; fewer points when its last legs
/// come within r of a wall). Returns the number of points and writes the first
/// min(count, capacity). 0 while idle or searching. Uses the search's work arrays (so the
/// search is not const).
FXS_API uint32_t fxs_mesh_route_points(fxs_mesh_route *route, const fxs_nav_mesh *mesh,
                                       fxs_vec2 *points, uint32_t capacity);

#ifdef __cplusplus
}
#endif

#endif
