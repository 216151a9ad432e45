// The navigation mesh's memory, bounds rectangle, the adding of walls and obstacles, the
// build and the digest. Insertion itself is in nav_mesh_insert.c.
#include "fixsteer/nav_mesh.h"

#include "fixsteer/hash.h"
#include "nav_mesh_insert.h"

#define NONE FXS_NAV_MESH_NONE

// Default step budget of one add: 64 steps a vertex of capacity, plus a floor.
#define DEFAULT_STEPS_PER_VERTEX 64u
#define DEFAULT_STEPS_FLOOR 4096u
#define MAX_STEPS (1u << 30)

static uint64_t align8(uint64_t n) { return (n + 7u) & ~(uint64_t)7u; }

// Offsets of the four arrays in the block; 0 when the capacity is out of range.
static uint64_t layout(const fxs_nav_mesh_capacity *c, uint64_t offsets[4]) {
  if (!c || c->vertices < FXS_NAV_MESH_MIN_VERTICES || c->vertices > FXS_NAV_MESH_MAX_VERTICES ||
      c->steps > MAX_STEPS)
    return 0;
  uint64_t v = c->vertices, t = 2 * v - 6;
  offsets[0] = 0;
  offsets[1] = align8(offsets[0] + v * sizeof(fxs_vec2));
  offsets[2] = align8(offsets[1] + t * sizeof(fxs_nav_triangle));
  offsets[3] = align8(offsets[2] + v * sizeof(uint32_t));
  uint64_t total = align8(offsets[3] + fxs_mesh_scratch_words(v) * sizeof(uint32_t));
  return total > (uint64_t)(size_t)-1 ? 0 : total;
}

size_t fxs_nav_mesh_memory_size(const fxs_nav_mesh_capacity *capacity) {
  uint64_t offsets[4];
  return (size_t)layout(capacity, offsets);
}

static void reset(fxs_nav_mesh *m) {
  fxs_vec2 lo = m->bounds_min, hi = m->bounds_max;
  m->vertices[0] = lo;
  m->vertices[1] = fxs_vec2_make(hi.x, lo.y);
  m->vertices[2] = hi;
  m->vertices[3] = fxs_vec2_make(lo.x, hi.y);
  m->vertex_count = 4;
  m->triangle_count = 2;
  m->last_steps = 0;
  fxs_nav_triangle *t = m->triangles;
  t[0].v[0] = 0, t[0].v[1] = 1, t[0].v[2] = 2;
  t[0].n[0] = NONE, t[0].n[1] = 1, t[0].n[2] = NONE;
  t[0].constrained = 5u; // sides 1-2 and 0-1 lie on the bounds
  t[1].v[0] = 0, t[1].v[1] = 2, t[1].v[2] = 3;
  t[1].n[0] = NONE, t[1].n[1] = NONE, t[1].n[2] = 0;
  t[1].constrained = 3u; // sides 2-3 and 3-0
  m->vertex_triangle[0] = 0;
  m->vertex_triangle[1] = 0;
  m->vertex_triangle[2] = 1;
  m->vertex_triangle[3] = 1;
}

fxs_result fxs_nav_mesh_init(fxs_nav_mesh *mesh, const fxs_nav_mesh_capacity *capacity,
                             fxs_vec2 bounds_min, fxs_vec2 bounds_max, void *memory, size_t size) {
  uint64_t offsets[4];
  uint64_t need = layout(capacity, offsets);
  if (!mesh || !memory || need == 0) return FXS_ERR_BAD_VALUE;
  if (bounds_min.x >= bounds_max.x || bounds_min.y >= bounds_max.y) return FXS_ERR_BAD_VALUE;
  if ((uint64_t)size < need) return FXS_ERR_BUFFER_TOO_SMALL;
  unsigned char *base = (unsigned char *)memory;
  mesh->bounds_min = bounds_min;
  mesh->bounds_max = bounds_max;
  mesh->vertex_capacity = capacity->vertices;
  mesh->triangle_capacity = 2 * capacity->vertices - 6;
  mesh->step_limit = capacity->steps
                         ? capacity->steps
                         : DEFAULT_STEPS_PER_VERTEX * capacity->vertices + DEFAULT_STEPS_FLOOR;
  mesh->vertices = (fxs_vec2 *)(void *)(base + offsets[0]);
  mesh->triangles = (fxs_nav_triangle *)(void *)(base + offsets[1]);
  mesh->vertex_triangle = (uint32_t *)(void *)(base + offsets[2]);
  mesh->scratch = (uint32_t *)(void *)(base + offsets[3]);
  mesh->scratch_words = (uint32_t)fxs_mesh_scratch_words(capacity->vertices);
  reset(mesh);
  return FXS_OK;
}

static int inside(const fxs_nav_mesh *m, fxs_vec2 p) {
  return p.x >= m->bounds_min.x && p.x <= m->bounds_max.x && p.y >= m->bounds_min.y &&
         p.y <= m->bounds_max.y;
}

fxs_result fxs_nav_mesh_add_wall(fxs_nav_mesh *mesh, const fxs_wall *wall) {
  if (!mesh || !wall || !inside(mesh, wall->a) || !inside(mesh, wall->b)) return FXS_ERR_BAD_VALUE;
  fxs_mesh_work w = {mesh, 0};
  uint32_t a, b;
  fxs_result r = fxs_mesh_insert_point(&w, wall->a, &a);
  if (r == FXS_OK) r = fxs_mesh_insert_point(&w, wall->b, &b);
  if (r == FXS_OK) r = fxs_mesh_insert_segment(&w, a, b);
  mesh->last_steps = w.steps;
  return r;
}

// The octagon's offsets from the centre (see nav_mesh.h): R along the axes, R' diagonally.
static int octagon(fix16_t radius, int64_t dx[8], int64_t dy[8]) {
  if (radius < 0) return 0;
  int64_t big = ((int64_t)radius * 70936 + 65535) / 65536 + 1;
  int64_t diag = (big * 46341 + 65535) / 65536;
  static const signed char ax[8] = {1, 1, 0, -1, -1, -1, 0, 1};
  static const signed char ay[8] = {0, 1, 1, 1, 0, -1, -1, -1};
  for (int k = 0; k < 8; k++) {
    int64_t s = (k & 1) ? diag : big;
    dx[k] = ax[k] * s;
    dy[k] = ay[k] * s;
  }
  return 1;
}

static fix16_t clamp(int64_t v, fix16_t lo, fix16_t hi) {
  return v < lo ? lo : v > hi ? hi : (fix16_t)v;
}

fxs_result fxs_nav_mesh_obstacle_polygon(const fxs_nav_mesh *mesh, const fxs_obstacle *obstacle,
                                         fxs_vec2 *out) {
  int64_t dx[8], dy[8];
  if (!mesh || !obstacle || !out || !inside(mesh, obstacle->center) ||
      !octagon(obstacle->radius, dx, dy))
    return FXS_ERR_BAD_VALUE;
  const fxs_vec2 lo = mesh->bounds_min, hi = mesh->bounds_max;
  for (int k = 0; k < 8; k++)
    out[k] = fxs_vec2_make(clamp(obstacle->center.x + dx[k], lo.x, hi.x),
                           clamp(obstacle->center.y + dy[k], lo.y, hi.y));
  return FXS_OK;
}

fxs_result fxs_nav_mesh_add_obstacle(fxs_nav_mesh *mesh, const fxs_obstacle *obstacle) {
  fxs_vec2 poly[8];
  fxs_result r = fxs_nav_mesh_obstacle_polygon(mesh, obstacle, poly);
  if (r != FXS_OK) return r;
  fxs_mesh_work w = {mesh, 0};
  uint32_t ids[8];
  for (int k = 0; k < 8 && r == FXS_OK; k++) r = fxs_mesh_insert_point(&w, poly[k], &ids[k]);
  for (int k = 0; k < 8 && r == FXS_OK; k++)
    r = fxs_mesh_insert_segment(&w, ids[k], ids[(k + 1) % 8]);
  mesh->last_steps = w.steps;
  return r;
}

fxs_result fxs_nav_mesh_build(fxs_nav_mesh *mesh, const fxs_wall *walls, uint32_t wall_count,
                              const fxs_obstacle *obstacles, uint32_t obstacle_count,
                              uint32_t *failed) {
  if (failed) *failed = NONE;
  if (!mesh || (wall_count && !walls) || (obstacle_count && !obstacles)) return FXS_ERR_BAD_VALUE;
  reset(mesh);
  for (uint32_t k = 0; k < wall_count; k++) {
    fxs_result r = fxs_nav_mesh_add_wall(mesh, &walls[k]);
    if (r != FXS_OK) {
      if (failed) *failed = k;
      return r;
    }
  }
  for (uint32_t k = 0; k < obstacle_count; k++) {
    fxs_result r = fxs_nav_mesh_add_obstacle(mesh, &obstacles[k]);
    if (r != FXS_OK) {
      if (failed) *failed = wall_count + k;
      return r;
    }
  }
  return FXS_OK;
}

uint32_t fxs_nav_mesh_locate(const fxs_nav_mesh *mesh, fxs_vec2 point) {
  int kind;
  unsigned index;
  if (!mesh || !inside(mesh, point)) return NONE;
  return fxs_mesh_locate(mesh, point, mesh->vertex_triangle[mesh->vertex_count - 1], &kind, &index);
}

uint64_t fxs_nav_mesh_digest(const fxs_nav_mesh *mesh) {
  fxs_hasher h = fxs_hasher_make();
  fxs_hash_i32(&h, mesh->bounds_min.x);
  fxs_hash_i32(&h, mesh->bounds_min.y);
  fxs_hash_i32(&h, mesh->bounds_max.x);
  fxs_hash_i32(&h, mesh->bounds_max.y);
  fxs_hash_u32(&h, mesh->vertex_count);
  for (uint32_t v = 0; v < mesh->vertex_count; v++) {
    fxs_hash_i32(&h, mesh->vertices[v].x);
    fxs_hash_i32(&h, mesh->vertices[v].y);
  }
  fxs_hash_u32(&h, mesh->triangle_count);
  for (uint32_t t = 0; t < mesh->triangle_count; t++) {
    const fxs_nav_triangle *tri = &mesh->triangles[t];
    for (int k = 0; k < 3; k++) fxs_hash_u32(&h, tri->v[k]);
    for (int k = 0; k < 3; k++) fxs_hash_u32(&h, tri->n[k]);
    fxs_hash_u32(&h, tri->constrained);
  }
  return h.state;
}
