// Point and constraint insertion of the navigation mesh (internal, not part of the API).
#ifndef FIXSTEER_NAV_MESH_INSERT_H
#define FIXSTEER_NAV_MESH_INSERT_H

#include <stdint.h>

#include "fixsteer/nav_mesh.h"

/// Scratch words a mesh of `vertices` vertices needs (fxs_nav_mesh_memory_size).
uint64_t fxs_mesh_scratch_words(uint64_t vertices);

/// One add in progress: the mesh and the steps spent (bounded by mesh->step_limit).
typedef struct fxs_mesh_work {
  fxs_nav_mesh *mesh;
  uint32_t steps;
} fxs_mesh_work;

/// Inserts point p (inside the closed bounds) and restores the Delaunay property; its vertex
/// index (an existing one for a duplicate) goes to *vertex. FXS_ERR_CAPACITY, FXS_ERR_LIMIT.
fxs_result fxs_mesh_insert_point(fxs_mesh_work *work, fxs_vec2 p, uint32_t *vertex);

/// Makes the segment between vertices a and b a constraint (a chain of constrained edges),
/// splitting it at collinear vertices and at crossings with other constraints.
/// FXS_ERR_CAPACITY, FXS_ERR_LIMIT.
fxs_result fxs_mesh_insert_segment(fxs_mesh_work *work, uint32_t a, uint32_t b);

/// The triangle holding p found by a walk from `start` (a scan after one step per triangle),
/// or FXS_NAV_MESH_NONE when p is outside the bounds. *kind: 0 inside, 1 on side *index,
/// 2 on vertex v[*index].
uint32_t fxs_mesh_locate(const fxs_nav_mesh *mesh, fxs_vec2 p, uint32_t start, int *kind,
                         unsigned *index);

/// Flips side i of triangle t (its quad must be strictly convex): t = (p0, p1, p2) and the
/// vertex q across become t = (p0, p1, q) and the neighbor (p0, q, p2).
void fxs_mesh_flip(fxs_nav_mesh *mesh, uint32_t t, unsigned i);

/// Sets (on = 1) or clears the constraint flag of side i of t on both of its triangles.
void fxs_mesh_mark_edge(fxs_nav_mesh *mesh, uint32_t t, unsigned i, int on);

/// The triangle *t and side *i holding the edge p-q (a walk round p), or 0 when none does.
int fxs_mesh_find_edge(const fxs_nav_mesh *mesh, uint32_t p, uint32_t q, uint32_t *t, unsigned *i);

#endif
