// A uniform-cost tree over the triangles of a navigation mesh toward one goal triangle
// (internal): the group fields of a mesh world (world_nav_mesh_fields.h, docs/navigation-mesh.md
// "Fields for groups").
//
// The expansion. Dijkstra from the goal triangle over the triangles, with the rules of the
// mesh A* (nav_mesh_route.h) for a body of radius r (D = 2 r): a side is crossed when it is
// not constrained and at least D long; a triangle (the goal's excepted) is crossed from the
// side toward its parent to another side when its width for that traversal is at least D
// (the same exact test, symmetric in the two sides). A triangle's point is the goal's centroid
// for the goal triangle (each coordinate the sum of the three divided by 3, toward zero), else
// the middle of its side toward its parent (the sum of the two ends halved, toward zero); the
// cost of a step is the route distance (fxs_mesh_route_distance) between the two points.
//
// The total order. The open list is a binary heap on (cost, then triangle index): no two
// entries compare equal. Sides are tried in index order (0, 1, 2); a triangle's parent is the
// first settled triangle that gave it its lowest cost; a settled triangle is never reopened.
// So the tree after n settled triangles is a pure function of the mesh, the goal triangle, r
// and n, however the settling is split over calls.
//
// The tree. Each settled triangle keeps its cost and its parent (the next triangle toward the
// goal; none for the goal): the chain of parents from any settled triangle reaches the goal
// with decreasing cost.
#ifndef FIXSTEER_NAV_MESH_TREE_H
#define FIXSTEER_NAV_MESH_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/nav_mesh.h"

/// The tree's build: not begun, being built, complete (every reachable triangle settled).
#define FXS_MESH_TREE_IDLE 0u
#define FXS_MESH_TREE_BUILDING 1u
#define FXS_MESH_TREE_READY 2u

/// An open-list entry: cost, then triangle.
typedef struct fxs_mesh_tree_open {
  uint64_t cost;     ///< Cost from the goal, raw units.
  uint32_t triangle; ///< Triangle index.
  uint32_t pad;      ///< Always 0.
} fxs_mesh_tree_open;

/// A tree and its memory (caller's block, fxs_mesh_tree_memory_size).
typedef struct fxs_mesh_tree {
  uint32_t capacity;        ///< Most triangles of a mesh it can hold.
  uint32_t triangle_count;  ///< Triangles of the mesh it was begun on.
  uint32_t goal;            ///< The goal triangle.
  uint32_t status;          ///< FXS_MESH_TREE_*.
  uint32_t settled;         ///< Triangles settled since the begin.
  uint32_t open_count;      ///< Entries of the heap.
  int64_t diameter;         ///< D = 2 r, raw units.
  uint64_t *cost;           ///< Per triangle: its cost (settled or open).
  uint32_t *parent;         ///< Per triangle: the next triangle toward the goal.
  uint32_t *open_at;        ///< Per triangle: heap position + 1 while open, else 0.
  uint8_t *state;           ///< Per triangle: 0 untouched, 2 open, 4 settled.
  fxs_mesh_tree_open *open; ///< The heap (capacity entries).
} fxs_mesh_tree;

/// Bytes of a tree of `capacity` triangles (8-byte aligned): 33 a triangle.
size_t fxs_mesh_tree_memory_size(uint32_t capacity);

/// Lays a tree out over `memory` (fxs_mesh_tree_memory_size(capacity) bytes, any content): idle.
void fxs_mesh_tree_init(fxs_mesh_tree *tree, void *memory, uint32_t capacity);

/// Begins the tree toward triangle `goal` of `mesh` (goal < triangle_count <= capacity) for a
/// body of radius `radius` (>= 0): the goal open at cost 0, nothing settled.
void fxs_mesh_tree_begin(fxs_mesh_tree *tree, const fxs_nav_mesh *mesh, uint32_t goal,
                         fix16_t radius);

/// Settles at most `budget` triangles of the tree on `mesh` (the mesh it began on, unchanged);
/// returns how many it settled. The tree is READY once its heap is empty.
uint32_t fxs_mesh_tree_step(fxs_mesh_tree *tree, const fxs_nav_mesh *mesh, uint32_t budget);

/// True when triangle t is settled (the chain of its parents reaches the goal).
bool fxs_mesh_tree_reaches(const fxs_mesh_tree *tree, uint32_t t);

/// Most triangles a follower looks ahead along the chain of parents (fxs_mesh_tree_aim).
#define FXS_MESH_TREE_LOOK 16u

/// Most triangles the sight test of fxs_mesh_tree_aim walks.
#define FXS_MESH_TREE_SIGHT_STEPS 64u

/// What a body of radius `radius` at `from` (in triangle `here`) meets on its straight way to
/// `to` (in triangle `goal`) on `mesh` (exact; fxs_mesh_tree_aim's sight test).
typedef enum {
  /// The segment reaches `goal` across unconstrained sides only, each at least 2 r long and
  /// crossed strictly between its ends shrunk by r, in at most FXS_MESH_TREE_SIGHT_STEPS
  /// triangles.
  FXS_MESH_SEEN,
  /// Before that it meets a constrained side (a wall or an obstacle), the mesh's border, or a
  /// side too short for the body or crossed too near one of its ends.
  FXS_MESH_HIDDEN,
  /// Neither is decided: the segment passes through a vertex or runs along a side, the walk is
  /// longer, or a triangle is out of range.
  FXS_MESH_UNDECIDED
} fxs_mesh_view;

/// What a body of radius `radius` at `from` (in triangle `here`) meets on its way to `to` (in
/// triangle `goal`): fxs_mesh_view.
fxs_mesh_view fxs_mesh_view_of(const fxs_nav_mesh *mesh, uint32_t here, fxs_vec2 from, fxs_vec2 to,
                               uint32_t goal, fix16_t radius);

/// True when a body of radius `radius` at `from` (in triangle `here`) sees `to` (in triangle
/// `goal`) on `mesh`: fxs_mesh_view_of gives FXS_MESH_SEEN (an undecided view counts as not
/// seen).
bool fxs_mesh_sight(const fxs_nav_mesh *mesh, uint32_t here, fxs_vec2 from, fxs_vec2 to,
                    uint32_t goal, fix16_t radius);

/// Where a body of radius `radius` at `from` (in settled triangle `here`) heads along a READY
/// tree: its target (*last true) when the segment to it reaches the goal triangle across
/// unconstrained sides only, each crossed between its ends shrunk by the radius (walked exactly,
/// FXS_MESH_TREE_SIGHT_STEPS triangles at most: the goal in sight, as on the grid); else the
/// corridor of the chain of parents from `here`, FXS_MESH_TREE_LOOK triangles at most, its sides
/// shrunk by the radius as portals, pulled tight by the funnel; the first corner of the pulled
/// route, else its end: `target` (*last true) when the corridor reaches the goal triangle, else the
/// middle of the corridor's next side.
fxs_vec2 fxs_mesh_tree_aim(const fxs_mesh_tree *tree, const fxs_nav_mesh *mesh, uint32_t here,
                           fxs_vec2 from, fxs_vec2 target, fix16_t radius, bool *last);

#endif
