// The exact search of the mesh routes (internal): for a point body, the shortest path over
// the corner sectors of the mesh, found by A* whose successors come from a visibility flood
// through the triangles. See include/fixsteer/nav_mesh_route.h and nav_mesh_route_exact.c.
#ifndef FIXSTEER_NAV_MESH_ROUTE_EXACT_H
#define FIXSTEER_NAV_MESH_ROUTE_EXACT_H

#include <stdint.h>

#include "fixsteer/nav_mesh_route.h"

/// |b - a| in raw units: the integer square root of the exact square, each axis halved first
/// when a difference reaches 2^31 (then doubled back). The one distance of the routes.
uint64_t fxs_mesh_route_distance(fxs_vec2 a, fxs_vec2 b);

/// Exact: 1 when |b - a| >= d (d >= 0).
int fxs_mesh_route_length_at_least(fxs_vec2 a, fxs_vec2 b, int64_t d);

/// Exact: 1 when a body of diameter d can cross triangle t of m from side e to side o (e != o;
/// symmetric in e and o): the triangle width rule of nav_mesh_route.h.
int fxs_mesh_route_traversal_clear(const fxs_nav_mesh *m, uint32_t t, uint32_t e, uint32_t o,
                                   int64_t d);

/// The portal of the side from lv (its left end) to rv, shrunk by r at both ends (at most to
/// its middle): *left, *right.
void fxs_mesh_route_portal_points(fxs_vec2 lv, fxs_vec2 rv, int64_t r, fxs_vec2 *left,
                                  fxs_vec2 *right);

/// Clears the exact search of route (after a search's begin) and opens the start node.
void fxs_mesh_exact_begin(fxs_mesh_route *route);

/// Expands nodes while *budget lasts (each expansion takes one). Returns 0 while searching,
/// 1 when the goal node is closed, -1 when the search failed (open list empty or full).
int fxs_mesh_exact_step(fxs_mesh_route *route, const fxs_nav_mesh *mesh, uint32_t *budget);

/// The exact route (start, corners, goal) into points (first min(count, capacity)); returns
/// the count. Only after fxs_mesh_exact_step returned 1.
uint32_t fxs_mesh_exact_points(fxs_mesh_route *route, const fxs_nav_mesh *mesh, fxs_vec2 *points,
                               uint32_t capacity);

#endif
