// The structural check of a mesh read from untrusted bytes (fxs_nav_mesh_check).
#include "fixsteer/nav_mesh.h"

#include "nav_mesh_exact.h"

#define NONE FXS_NAV_MESH_NONE

static int inside(const fxs_nav_mesh *m, fxs_vec2 p) {
  return p.x >= m->bounds_min.x && p.x <= m->bounds_max.x && p.y >= m->bounds_min.y &&
         p.y <= m->bounds_max.y;
}

// Side s of triangle t runs from v[(s+1)%3] to v[(s+2)%3].
static uint32_t side_from(const fxs_nav_triangle *t, uint32_t s) { return t->v[(s + 1u) % 3u]; }
static uint32_t side_to(const fxs_nav_triangle *t, uint32_t s) { return t->v[(s + 2u) % 3u]; }

// A side without a neighbor lies on one side of the bounds.
static int on_bounds(const fxs_nav_mesh *m, fxs_vec2 a, fxs_vec2 b) {
  return (a.x == b.x && (a.x == m->bounds_min.x || a.x == m->bounds_max.x)) ||
         (a.y == b.y && (a.y == m->bounds_min.y || a.y == m->bounds_max.y));
}

static int triangle_ok(const fxs_nav_mesh *m, uint32_t i) {
  const fxs_nav_triangle *t = &m->triangles[i];
  if (t->constrained > 7u) return 0;
  for (uint32_t k = 0; k < 3u; k++) {
    if (t->v[k] >= m->vertex_count || (t->n[k] != NONE && t->n[k] >= m->triangle_count)) return 0;
  }
  const fxs_vec2 *v = m->vertices;
  if (fxs_mesh_orient(v[t->v[0]], v[t->v[1]], v[t->v[2]]) <= 0) return 0;
  for (uint32_t s = 0; s < 3u; s++) {
    uint32_t a = side_from(t, s), b = side_to(t, s), n = t->n[s];
    if (n == NONE) {
      if (!((t->constrained >> s) & 1u) || !on_bounds(m, v[a], v[b])) return 0;
      continue;
    }
    // The neighbor has the same side the other way round, pointing back, flagged alike.
    const fxs_nav_triangle *o = &m->triangles[n];
    uint32_t back = 3u;
    for (uint32_t k = 0; k < 3u; k++) {
      if (o->n[k] == i && side_from(o, k) == b && side_to(o, k) == a) back = k;
    }
    if (back == 3u || ((o->constrained >> back) & 1u) != ((t->constrained >> s) & 1u)) return 0;
  }
  return 1;
}

fxs_result fxs_nav_mesh_check(const fxs_nav_mesh *m) {
  if (!m || m->vertex_count < FXS_NAV_MESH_MIN_VERTICES || m->vertex_count > m->vertex_capacity ||
      m->triangle_count < 2u || m->triangle_count > m->triangle_capacity)
    return FXS_ERR_BAD_VALUE;
  const fxs_vec2 *v = m->vertices;
  fxs_vec2 lo = m->bounds_min, hi = m->bounds_max;
  if (v[0].x != lo.x || v[0].y != lo.y || v[1].x != hi.x || v[1].y != lo.y || v[2].x != hi.x ||
      v[2].y != hi.y || v[3].x != lo.x || v[3].y != hi.y)
    return FXS_ERR_BAD_VALUE;
  for (uint32_t i = 0; i < m->vertex_count; i++) {
    if (!inside(m, v[i])) return FXS_ERR_BAD_VALUE;
  }
  fxs_mesh_int area = fxs_mesh_int_from_i64(0);
  for (uint32_t i = 0; i < m->triangle_count; i++) {
    if (!triangle_ok(m, i)) return FXS_ERR_BAD_VALUE;
    const fxs_nav_triangle *t = &m->triangles[i];
    area = fxs_mesh_int_add(area, fxs_mesh_cross(v[t->v[0]], v[t->v[1]], v[t->v[2]]));
  }
  // Positive triangles glued side to side whose areas sum to the rectangle's tile it once.
  fxs_mesh_int half = fxs_mesh_cross(lo, fxs_vec2_make(hi.x, lo.y), hi); // twice half of it
  if (fxs_mesh_int_compare(area, fxs_mesh_int_add(half, half)) != 0) return FXS_ERR_BAD_VALUE;
  for (uint32_t i = 0; i < m->vertex_count; i++) {
    uint32_t t = m->vertex_triangle[i];
    if (t >= m->triangle_count) return FXS_ERR_BAD_VALUE;
    const fxs_nav_triangle *tr = &m->triangles[t];
    if (tr->v[0] != i && tr->v[1] != i && tr->v[2] != i) return FXS_ERR_BAD_VALUE;
  }
  return FXS_OK;
}
