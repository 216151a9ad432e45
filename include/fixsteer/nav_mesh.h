/// @file nav_mesh.h
/// The navigation mesh, first part: an exact constrained Delaunay triangulation (CDT) of the
/// world bounds rectangle with walls (segments) and obstacles (circles as octagons) as
/// constraints, in caller-provided memory. A mesh world keeps one (docs/navigation-mesh.md).
///
/// Exactness: every decision is the sign of an integer expression on the raw Q16.16
/// coordinates (orientation with 128-bit products, in-circle with 256-bit ones, or 128-bit
/// ones on 64-bit hosts when every difference is below 2^30: the same exact sign); nothing is
/// rounded, so the same inputs give the same mesh, byte for byte, on every target.
/// The one rounding is a crossing point of two constraints (below).
///
/// The result is a function of the sequence of calls (init, then each add in order), and is:
/// - a triangulation of the bounds: every triangle counter-clockwise with positive area, the
///   areas summing to the rectangle's, every vertex inside the closed bounds;
/// - constrained: the four sides of the bounds, every wall and every obstacle side is one
///   edge or a chain of edges flagged as constrained;
/// - Delaunay: no vertex visible across an unconstrained edge lies strictly inside the
///   circumcircle of the triangle on the other side. Four cocircular points are a tie: the
///   edge already there stays (no flip on an in-circle value of 0).
///
/// Ties and degenerate input, the total order:
/// - Items are inserted in call order (fxs_nav_mesh_build: walls in array order, then
///   obstacles in array order); a wall inserts a, then b, then the segment a-b; an obstacle
///   its eight vertices counter-clockwise from east, then its sides in that order.
/// - A duplicate point is the existing vertex; a zero-length wall is its point only.
/// - A point on an edge splits that edge (a constrained edge stays constrained as two).
/// - A wall through a vertex (collinear points) becomes the chain through it; walls overlapping
///   along a line share the edges; walls touching at ends share the vertex.
/// - Two constraints crossing: the crossing point is computed exactly and rounded to the
///   nearest Q16.16 grid point (a half toward +infinity on each axis). When that point is
///   exactly on both (e.g. axis-aligned walls on grid coordinates) it becomes a vertex and
///   the chains are exactly the walls. Otherwise, when an end of either constraint lies
///   within one raw unit of it on both axes, that end is used instead (so nearly parallel
///   walls meeting near a vertex do not spawn new vertices one unit apart without end), else
///   the rounded point becomes a vertex; both constraints become chains through it. Such a
///   chain leaves its wall by a few raw units at most (the tests check 4 raw units,
///   2^-14 units, over thousands of dense random sets; 2 is exceeded in the densest).
/// - Obstacles: a circle (center c, radius r >= 0) becomes the octagon of vertices
///   c + R * (1, 0), c + R' * (1, 1), c + R * (0, 1), ... with R = ceil(r * 70936 / 65536) + 1
///   and R' = ceil(R * 46341 / 65536) raw units (70936 / 65536 >= 1 / cos(pi / 8) and
///   46341 / 65536 >= cos(pi / 4)), so the octagon contains the circle; each coordinate is then
///   clamped into the bounds. An obstacle overlapping walls crosses them as above.
///
/// Cost: a point is found by a walk from the last insertion (at most one step per triangle,
/// then a scan); each add is bounded by the capacity's step budget (FXS_ERR_LIMIT past it).
#ifndef FIXSTEER_NAV_MESH_H
#define FIXSTEER_NAV_MESH_H

#include "fixsteer/api.h"
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/avoidance.h"
#include "fixsteer/result.h"
#include "fixsteer/vec2.h"

#ifdef __cplusplus
extern "C" {
#endif

/// "No triangle" (a side on the bounds has no neighbor).
#define FXS_NAV_MESH_NONE 0xFFFFFFFFu
/// Most vertices of a mesh (2^24); with it every size fits in a 32-bit size_t.
#define FXS_NAV_MESH_MAX_VERTICES 16777216u
/// Fewest vertices of a mesh: the four corners of the bounds.
#define FXS_NAV_MESH_MIN_VERTICES 4u
/// Sides of an obstacle's polygon.
#define FXS_NAV_MESH_OBSTACLE_SIDES 8u

/// How much a mesh can hold; fixed at init.
typedef struct fxs_nav_mesh_capacity {
  /// Vertices, [4, FXS_NAV_MESH_MAX_VERTICES]: the 4 corners, each distinct wall end and
  /// obstacle vertex, and one per constraint crossing. Triangles: 2 * vertices - 6 at most.
  uint32_t vertices;
  /// Steps one add may take (walk steps, flips, splits), 0 for the default
  /// 64 * vertices + 4096; [0, 2^30].
  uint32_t steps;
} fxs_nav_mesh_capacity;

/// A triangle: vertices counter-clockwise; side i runs from v[(i+1)%3] to v[(i+2)%3]
/// (opposite v[i]) and n[i] is the triangle across it (FXS_NAV_MESH_NONE on the bounds).
typedef struct fxs_nav_triangle {
  uint32_t v[3];        ///< Vertex indices, counter-clockwise.
  uint32_t n[3];        ///< Neighbor across side i, or FXS_NAV_MESH_NONE.
  uint32_t constrained; ///< Bit i set: side i is a constraint (bounds, wall or obstacle side).
} fxs_nav_triangle;

/// A mesh in caller memory. Fields are readable; change it only through the functions below.
typedef struct fxs_nav_mesh {
  fxs_vec2 bounds_min;         ///< Lower corner of the bounds, units.
  fxs_vec2 bounds_max;         ///< Upper corner, units (> bounds_min on both axes).
  uint32_t vertex_count;       ///< Vertices in use.
  uint32_t vertex_capacity;    ///< capacity.vertices.
  uint32_t triangle_count;     ///< Triangles in use (2 * vertex_count - 2 - points on the bounds).
  uint32_t triangle_capacity;  ///< 2 * vertex_capacity - 6.
  uint32_t step_limit;         ///< Steps one add may take.
  uint32_t last_steps;         ///< Steps the last add took (a measurement, not state).
  fxs_vec2 *vertices;          ///< vertex_count points, raw Q16.16, in the order inserted.
  fxs_nav_triangle *triangles; ///< triangle_count triangles.
  uint32_t *vertex_triangle;   ///< Per vertex, a triangle holding it (a search start).
  uint32_t *scratch;           ///< Work lists of the insertions (no state between calls).
  uint32_t scratch_words;      ///< Size of scratch, 32-bit words.
} fxs_nav_mesh;

/// Bytes a mesh of these capacities needs in its block (8-byte aligned), or 0 when a
/// capacity is out of range.
FXS_API size_t fxs_nav_mesh_memory_size(const fxs_nav_mesh_capacity *capacity);

/// Lays a mesh out in `memory` (size bytes, 8-byte aligned, from fxs_nav_mesh_memory_size)
/// as the bounds rectangle: 4 vertices (min, (max.x, min.y), max, (min.x, max.y)) and 2
/// triangles with constrained sides. FXS_ERR_BAD_VALUE for a NULL pointer, a capacity out
/// of range or bounds not strictly increasing on both axes; FXS_ERR_BUFFER_TOO_SMALL when
/// size is below the size needed.
FXS_API fxs_result fxs_nav_mesh_init(fxs_nav_mesh *mesh, const fxs_nav_mesh_capacity *capacity,
                                     fxs_vec2 bounds_min, fxs_vec2 bounds_max, void *memory,
                                     size_t size);

/// Inserts a wall as a constraint. FXS_ERR_BAD_VALUE (nothing changed) when an end lies
/// outside the closed bounds. FXS_ERR_CAPACITY when the vertices run out: the mesh is still
/// a valid constrained Delaunay triangulation, with this wall inserted only in part.
/// FXS_ERR_LIMIT when the step budget runs out: the mesh is still a valid triangulation of
/// the bounds but may be neither Delaunay nor constrained everywhere (build it again with a
/// larger budget).
FXS_API fxs_result fxs_nav_mesh_add_wall(fxs_nav_mesh *mesh, const fxs_wall *wall);

/// Inserts an obstacle as its octagon (see the file comment). FXS_ERR_BAD_VALUE (nothing
/// changed) for a negative radius or a centre outside the closed bounds; capacity and
/// budget errors as fxs_nav_mesh_add_wall.
FXS_API fxs_result fxs_nav_mesh_add_obstacle(fxs_nav_mesh *mesh, const fxs_obstacle *obstacle);

/// The octagon fxs_nav_mesh_add_obstacle inserts (see the file comment): 8 vertices
/// counter-clockwise from east, clamped into the mesh's bounds, into out.
/// FXS_ERR_BAD_VALUE for a negative radius or a centre outside the closed bounds.
FXS_API fxs_result fxs_nav_mesh_obstacle_polygon(const fxs_nav_mesh *mesh,
                                                 const fxs_obstacle *obstacle, fxs_vec2 *out);

/// Re-initialises the mesh (keeping its memory and bounds) and inserts the walls, then the
/// obstacles, in array order. Stops at the first error and returns it with the index of the
/// item in *failed (walls 0..wall_count-1, then obstacle k as wall_count + k) when failed is
/// not NULL (FXS_NAV_MESH_NONE on success).
FXS_API fxs_result fxs_nav_mesh_build(fxs_nav_mesh *mesh, const fxs_wall *walls,
                                      uint32_t wall_count, const fxs_obstacle *obstacles,
                                      uint32_t obstacle_count, uint32_t *failed);

/// The triangle holding `point` (the first found when it is on a side or a vertex), or
/// FXS_NAV_MESH_NONE outside the bounds. Exact.
FXS_API uint32_t fxs_nav_mesh_locate(const fxs_nav_mesh *mesh, fxs_vec2 point);

/// FNV-1a 64 over the mesh's serialisation, little-endian: bounds (4 x i32), vertex_count,
/// each vertex (x, y as i32), triangle_count, each triangle (v[3], n[3], constrained as
/// u32). The same value on every target for the same calls.
FXS_API uint64_t fxs_nav_mesh_digest(const fxs_nav_mesh *mesh);

/// Removes a wall added before (docs/navigation-mesh.md, "Run-time changes"): its chain of
/// constrained edges loses its flags, the vertices no remaining item needs (a corner, a
/// wall's end, an obstacle's vertex) are deleted, and only the region around it is
/// triangulated again, exactly; the remaining items near it are inserted again in array
/// order (a shared edge or a crossing comes back). walls/obstacles: every item that stays
/// (without this one). The result is a constrained Delaunay triangulation of them; its
/// arrays depend on the history, fxs_nav_mesh_canonical_digest does not.
/// FXS_ERR_BAD_VALUE (nothing changed) for a NULL pointer or a wall that is no chain of
/// constrained edges of the mesh (an unknown wall); FXS_ERR_CAPACITY and FXS_ERR_LIMIT as
/// fxs_nav_mesh_add_wall.
FXS_API fxs_result fxs_nav_mesh_remove_wall(fxs_nav_mesh *mesh, const fxs_wall *wall,
                                            const fxs_wall *walls, uint32_t wall_count,
                                            const fxs_obstacle *obstacles, uint32_t obstacle_count);

/// Removes an obstacle added before (its octagon), as fxs_nav_mesh_remove_wall. Also
/// FXS_ERR_BAD_VALUE for a negative radius or a centre outside the bounds.
FXS_API fxs_result fxs_nav_mesh_remove_obstacle(fxs_nav_mesh *mesh, const fxs_obstacle *obstacle,
                                                const fxs_wall *walls, uint32_t wall_count,
                                                const fxs_obstacle *obstacles,
                                                uint32_t obstacle_count);

/// A digest of the geometry, equal for equal meshes whatever the order of the adds and
/// removes: a 64-bit sum of one FNV-1a 64 hash per vertex (x, y) and per edge (its ends in
/// (x, y) order, constrained or not), leaving out the unconstrained edges of a cocircular
/// tie (in-circle 0: the diagonal there depends on history), then FNV-1a 64 over the bounds,
/// counts and both sums. No memory, O(triangles).
FXS_API uint64_t fxs_nav_mesh_canonical_digest(const fxs_nav_mesh *mesh);

/// Checks a mesh whose arrays were written from outside (a snapshot): vertex and triangle
/// counts within the capacity, the first four vertices the corners of the bounds, every vertex
/// inside them, every triangle counter-clockwise with positive area (exact), every side either
/// on the bounds and constrained without a neighbor or shared the other way round by the
/// neighbor it names (pointing back, with the same constrained flag), the areas summing to the
/// bounds' exactly, and each vertex's triangle holding it. Then every function of this header
/// works on it within its budgets (whether it is Delaunay is not checked). FXS_OK or
/// FXS_ERR_BAD_VALUE. O(vertices + triangles), no memory.
FXS_API fxs_result fxs_nav_mesh_check(const fxs_nav_mesh *mesh);

#ifdef __cplusplus
}
#endif

#endif
