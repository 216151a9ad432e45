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
