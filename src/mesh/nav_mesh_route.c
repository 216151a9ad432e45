// Routes on the navigation mesh: clearance (exact), the budgeted A* over triangles and the
// funnel. See include/fixsteer/nav_mesh_route.h for the rules and the order.
#include "fixsteer/nav_mesh_route.h"
#include "mesh_heap.h"

#include "exact.h"
#include "fixsteer/scalar.h"
#include "nav_mesh_exact.h"
#include "nav_mesh_route_exact.h"

#define NONE FXS_NAV_MESH_NONE
#define ST_TOUCHED 1u
#define ST_OPEN 2u
#define ST_CLOSED 4u

static uint64_t align8(uint64_t n) { return (n + 7u) & ~(uint64_t)7u; }

#define LAYOUT_ARRAYS 17

// Offsets of the arrays in the block; 0 when a capacity is out of range.
static uint64_t layout(uint32_t tc, uint32_t oc, uint64_t off[LAYOUT_ARRAYS]) {
  if (tc == 0 || tc > 2u * FXS_NAV_MESH_MAX_VERTICES || oc == 0 || oc > tc) return 0;
  uint64_t t = tc, nodes = 3u * t + 2u;
  off[0] = 0;                                                             // g
  off[1] = align8(off[0] + t * sizeof(uint64_t));                         // parent
  off[2] = align8(off[1] + t * sizeof(uint32_t));                         // entry
  off[3] = align8(off[2] + t * sizeof(fxs_vec2));                         // open_at
  off[4] = align8(off[3] + t * sizeof(uint32_t));                         // state
  off[5] = align8(off[4] + t);                                            // touched
  off[6] = align8(off[5] + t * sizeof(uint32_t));                         // open
  off[7] = align8(off[6] + (uint64_t)oc * sizeof(fxs_mesh_route_open));   // corridor
  off[8] = align8(off[7] + t * sizeof(uint32_t));                         // corner
  off[9] = align8(off[8] + (t + 2u) * sizeof(fxs_vec2));                  // corner_side
  off[10] = align8(off[9] + (t + 2u));                                    // node_g
  off[11] = align8(off[10] + nodes * sizeof(uint64_t));                   // node_parent
  off[12] = align8(off[11] + nodes * sizeof(uint32_t));                   // node_open_at
  off[13] = align8(off[12] + nodes * sizeof(uint32_t));                   // node_state
  off[14] = align8(off[13] + nodes);                                      // node_touched
  off[15] = align8(off[14] + nodes * sizeof(uint32_t));                   // node_open
  off[16] = align8(off[15] + (uint64_t)oc * sizeof(fxs_mesh_route_open)); // flood
  uint64_t total = align8(off[16] + (t + 8u) * sizeof(fxs_mesh_route_window));
  return total > (uint64_t)(size_t)-1 ? 0 : total;
}

size_t fxs_mesh_route_memory_size(uint32_t triangle_capacity, uint32_t open_capacity) {
  uint64_t off[LAYOUT_ARRAYS];
  return (size_t)layout(triangle_capacity, open_capacity, off);
}

static void clear_search(fxs_mesh_route *r) {
  for (uint32_t i = 0; i < r->touched_count; i++) {
    uint32_t t = r->touched[i];
    r->state[t] = 0;
    r->open_at[t] = 0;
  }
  r->touched_count = 0;
  r->open_count = 0;
  r->expanded = 0;
  r->spent = 0;
  r->status = FXS_NAV_IDLE;
  r->end = NONE;
  r->phase = 0;
  r->exact = 0;
}

fxs_result fxs_mesh_route_init(fxs_mesh_route *route, void *memory, size_t size,
                               uint32_t triangle_capacity, uint32_t open_capacity) {
  uint64_t off[LAYOUT_ARRAYS];
  uint64_t need = layout(triangle_capacity, open_capacity, off);
  if (!route || !memory || need == 0) return FXS_ERR_BAD_VALUE;
  if ((uint64_t)size < need) return FXS_ERR_BUFFER_TOO_SMALL;
  uint8_t *base = (uint8_t *)memory;
  route->triangle_capacity = triangle_capacity;
  route->open_capacity = open_capacity;
  route->g = (uint64_t *)(void *)(base + off[0]);
  route->parent = (uint32_t *)(void *)(base + off[1]);
  route->entry = (fxs_vec2 *)(void *)(base + off[2]);
  route->open_at = (uint32_t *)(void *)(base + off[3]);
  route->state = base + off[4];
  route->touched = (uint32_t *)(void *)(base + off[5]);
  route->open = (fxs_mesh_route_open *)(void *)(base + off[6]);
  route->corridor = (uint32_t *)(void *)(base + off[7]);
  route->corner = (fxs_vec2 *)(void *)(base + off[8]);
  route->corner_side = (int8_t *)(void *)(base + off[9]);
  route->node_capacity = 3u * triangle_capacity + 2u;
  route->flood_capacity = triangle_capacity + 8u;
  route->node_g = (uint64_t *)(void *)(base + off[10]);
  route->node_parent = (uint32_t *)(void *)(base + off[11]);
  route->node_open_at = (uint32_t *)(void *)(base + off[12]);
  route->node_state = base + off[13];
  route->node_touched = (uint32_t *)(void *)(base + off[14]);
  route->node_open = (fxs_mesh_route_open *)(void *)(base + off[15]);
  route->flood = (fxs_mesh_route_window *)(void *)(base + off[16]);
  for (uint32_t i = 0; i < triangle_capacity; i++) {
    route->state[i] = 0;
    route->open_at[i] = 0;
  }
  for (uint32_t i = 0; i < route->node_capacity; i++) {
    route->node_state[i] = 0;
    route->node_open_at[i] = 0;
  }
  route->node_touched_count = 0;
  route->node_open_count = 0;
  route->touched_count = 0;
  route->triangle_count = 0;
  route->radius = 0;
  route->start = route->goal = fxs_vec2_make(0, 0);
  route->start_triangle = route->goal_triangle = NONE;
  clear_search(route);
  return FXS_OK;
}

// ---- Distances (rounded, raw units) and exact comparisons -------------------------------

static uint64_t distance(fxs_vec2 a, fxs_vec2 b) { return fxs_mesh_route_distance(a, b); }

#define length_at_least fxs_mesh_route_length_at_least
#define traversal_clear fxs_mesh_route_traversal_clear
#define portal_points fxs_mesh_route_portal_points

static fxs_mesh_int mi(int64_t v) { return fxs_mesh_int_from_i64(v); }

// Exact: 1 when |b - a|^2 >= d^2.
int fxs_mesh_route_length_at_least(fxs_vec2 a, fxs_vec2 b, int64_t d) {
  fxs_u128 s = fxs_distance_sq_exact(a, b);
  fxs_u128 dd = fxs_u128_mul((uint64_t)d, (uint64_t)d);
  return fxs_u128_compare(s, dd) >= 0;
}

// (b - a) . (c - a), exact.
static fxs_mesh_int dot3(fxs_vec2 a, fxs_vec2 b, fxs_vec2 c) {
  fxs_mesh_int x = fxs_mesh_int_mul(mi((int64_t)b.x - a.x), mi((int64_t)c.x - a.x));
  fxs_mesh_int y = fxs_mesh_int_mul(mi((int64_t)b.y - a.y), mi((int64_t)c.y - a.y));
  return fxs_mesh_int_add(x, y);
}

// Exact: 1 when the distance from c to the segment p-q is below d (d > 0).
static int segment_closer_than(fxs_vec2 c, fxs_vec2 p, fxs_vec2 q, int64_t d) {
  if (fxs_mesh_int_sign(dot3(p, q, c)) <= 0) return !length_at_least(p, c, d);
  if (fxs_mesh_int_sign(dot3(q, p, c)) <= 0) return !length_at_least(q, c, d);
  fxs_mesh_int cr = fxs_mesh_cross(p, q, c);
  fxs_mesh_int lhs = fxs_mesh_int_mul(cr, cr);
  fxs_mesh_int len = dot3(p, q, q); // |q - p|^2
  fxs_mesh_int rhs = fxs_mesh_int_mul(fxs_mesh_int_mul(mi(d), mi(d)), len);
  return fxs_mesh_int_compare(lhs, rhs) < 0;
}

static fxs_vec2 vtx(const fxs_nav_mesh *m, uint32_t t, uint32_t i) {
  return m->vertices[m->triangles[t].v[i % 3u]];
}

// The width search: from side s of triangle t (whose far side is away from c), is a
// constrained side within d of c? 1 when clear, 0 when blocked or the search ran long.
static int width_clear(const fxs_nav_mesh *m, fxs_vec2 c, uint32_t t, uint32_t s, int64_t d) {
  uint32_t stack_t[FXS_MESH_ROUTE_WIDTH_STEPS], stack_s[FXS_MESH_ROUTE_WIDTH_STEPS];
  uint32_t top = 0, steps = 0;
  stack_t[top] = t;
  stack_s[top++] = s;
  while (top > 0) {
    top--;
    uint32_t ct = stack_t[top], cs = stack_s[top];
    const fxs_nav_triangle *tr = &m->triangles[ct];
    if ((tr->constrained >> cs) & 1u) return 0; // the side itself is a wall within d
    uint32_t u = tr->n[cs];
    if (u == NONE) return 0;
    const fxs_nav_triangle *ut = &m->triangles[u];
    uint32_t back = 0;
    while (back < 3u && ut->n[back] != ct) back++;
    if (back == 3u) return 0;
    fxs_vec2 a = vtx(m, u, back + 1u), b = vtx(m, u, back + 2u);
    for (uint32_t k = 1; k <= 2; k++) {
      uint32_t side = (back + k) % 3u;
      fxs_vec2 p = vtx(m, u, side + 1u), q = vtx(m, u, side + 2u);
      if ((p.x == c.x && p.y == c.y) || (q.x == c.x && q.y == c.y)) continue;
      // Sides wholly on c's side of the entry line a-b lead back: skip them.
      int oc = fxs_mesh_orient(a, b, c);
      if (fxs_mesh_orient(a, b, p) == oc && fxs_mesh_orient(a, b, q) == oc && oc != 0) continue;
      if (!segment_closer_than(c, p, q, d)) continue;
      if ((ut->constrained >> side) & 1u) return 0;
      if (++steps >= FXS_MESH_ROUTE_WIDTH_STEPS || top >= FXS_MESH_ROUTE_WIDTH_STEPS) return 0;
      stack_t[top] = u;
      stack_s[top++] = side;
    }
  }
  return 1;
}

// Can a body of diameter d cross triangle t from side e to side o (e != o)?
int fxs_mesh_route_traversal_clear(const fxs_nav_mesh *m, uint32_t t, uint32_t e, uint32_t o,
                                   int64_t d) {
  if (d == 0) return 1;
  uint32_t k = 3u - e - o; // the vertex shared by sides e and o; side k faces it
  fxs_vec2 c = vtx(m, t, k), a = vtx(m, t, e), b = vtx(m, t, o);
  if (fxs_mesh_int_sign(dot3(a, b, c)) <= 0 || fxs_mesh_int_sign(dot3(b, a, c)) <= 0) return 1;
  if (!segment_closer_than(c, a, b, d)) return 1;
  return width_clear(m, c, t, k, d);
}

// ---- The heap ---------------------------------------------------------------------------

static int before(const fxs_mesh_route_open *x, const fxs_mesh_route_open *y) {
  if (x->f != y->f) return x->f < y->f;
  if (x->h != y->h) return x->h < y->h;
  return x->triangle < y->triangle;
}

FXS_MESH_HEAP(open_heap, fxs_mesh_route_open, before)

static void heap_set(fxs_mesh_route *r, uint32_t i, fxs_mesh_route_open e) {
  open_heap_set(r->open, r->open_at, i, e);
}
static void sift_up(fxs_mesh_route *r, uint32_t i) { open_heap_sift_up(r->open, r->open_at, i); }
static fxs_mesh_route_open heap_pop(fxs_mesh_route *r) {
  return open_heap_pop(r->open, r->open_at, &r->open_count);
}

// ---- The search -------------------------------------------------------------------------

// delta * r / len, rounded toward zero, exact.
static int64_t shrink_step(int64_t delta, int64_t r, uint64_t len) {
  // |delta| < 2^33 and r < 2^31: the product fits in 64 bits.
  uint64_t m = fxs_exact_magnitude(delta);
  int64_t v = (int64_t)(m * (uint64_t)r / len);
  return delta < 0 ? -v : v;
}

// Moves p toward q by r raw units (r <= |q - p| / 2), rounding toward p.
static fxs_vec2 toward(fxs_vec2 p, fxs_vec2 q, int64_t r, uint64_t len) {
  if (r == 0 || len == 0) return p;
  int64_t dx = shrink_step((int64_t)q.x - p.x, r, len);
  int64_t dy = shrink_step((int64_t)q.y - p.y, r, len);
  return fxs_vec2_make((fix16_t)(p.x + dx), (fix16_t)(p.y + dy));
}

// Side s of triangle t as a portal (left, right from inside t), shrunk by r at both ends.
static void portal(const fxs_nav_mesh *m, uint32_t t, uint32_t s, int64_t r, fxs_vec2 *left,
                   fxs_vec2 *right) {
  fxs_vec2 rv = vtx(m, t, s + 1u), lv = vtx(m, t, s + 2u);
  portal_points(lv, rv, r, left, right);
}

void fxs_mesh_route_portal_points(fxs_vec2 lv, fxs_vec2 rv, int64_t r, fxs_vec2 *left,
                                  fxs_vec2 *right) {
  uint64_t len = distance(lv, rv);
  if (r > 0 && (uint64_t)r * 2u > len) r = (int64_t)(len / 2u);
  *left = toward(lv, rv, r, len);
  *right = toward(rv, lv, r, len);
}

static int same(fxs_vec2 a, fxs_vec2 b) { return a.x == b.x && a.y == b.y; }

// The entry point on the shrunk portal (l, rt) from p toward the goal g (file comment).
static fxs_vec2 entry_point(fxs_vec2 p, fxs_vec2 g, fxs_vec2 l, fxs_vec2 rt) {
  if (same(l, rt) || same(p, g)) return l;
  int ol = fxs_mesh_orient(p, g, l), orr = fxs_mesh_orient(p, g, rt);
  if (ol == 0) return l;
  if (orr == 0) return rt;
  if (ol != orr && fxs_mesh_orient(l, rt, p) != 0) return fxs_mesh_crossing_point(p, g, l, rt);
  fxs_mesh_int cl = fxs_mesh_cross(p, g, l), cr = fxs_mesh_cross(p, g, rt);
  if (fxs_mesh_int_sign(cl) < 0) cl = fxs_mesh_int_sub(mi(0), cl);
  if (fxs_mesh_int_sign(cr) < 0) cr = fxs_mesh_int_sub(mi(0), cr);
  return fxs_mesh_int_compare(cr, cl) < 0 ? rt : l;
}

static void touch(fxs_mesh_route *r, uint32_t t) {
  if (r->state[t] == 0) r->touched[r->touched_count++] = t;
  r->state[t] |= ST_TOUCHED;
}

static uint32_t side_to(const fxs_nav_mesh *m, uint32_t t, uint32_t n) {
  uint32_t s = 0;
  while (s < 3u && m->triangles[t].n[s] != n) s++;
  return s;
}

fxs_result fxs_mesh_route_begin(fxs_mesh_route *route, const fxs_nav_mesh *mesh, fxs_vec2 start,
                                fxs_vec2 goal, fix16_t radius) {
  if (!route || !mesh || radius < 0) return FXS_ERR_BAD_VALUE;
  if (mesh->triangle_count > route->triangle_capacity) return FXS_ERR_CAPACITY;
  uint32_t st = fxs_nav_mesh_locate(mesh, start), gt = fxs_nav_mesh_locate(mesh, goal);
  if (st == NONE || gt == NONE) return FXS_ERR_BAD_VALUE;
  clear_search(route);
  route->triangle_count = mesh->triangle_count;
  route->radius = radius;
  route->start = start;
  route->goal = goal;
  route->start_triangle = st;
  route->goal_triangle = gt;
  touch(route, st);
  route->g[st] = 0;
  route->parent[st] = NONE;
  route->entry[st] = start;
  fxs_mesh_route_open e = {distance(start, goal), distance(start, goal), st, 0};
  route->open_count = 1;
  heap_set(route, 0, e);
  route->state[st] |= ST_OPEN;
  route->status = FXS_NAV_SEARCHING;
  if (radius == 0) { // a point body: the exact search first (file comment)
    route->phase = 1;
    fxs_mesh_exact_begin(route);
  }
  return FXS_OK;
}

// Is (h, g, t) nearer the goal than the best so far?
static int nearer(const fxs_mesh_route *r, uint64_t h, uint32_t t) {
  if (r->end == NONE) return 1;
  uint64_t bh = distance(r->entry[r->end], r->goal);
  if (h != bh) return h < bh;
  if (r->g[t] != r->g[r->end]) return r->g[t] < r->g[r->end];
  return t < r->end;
}

static fxs_nav_status step(fxs_mesh_route *route, const fxs_nav_mesh *mesh, uint32_t *left);

fxs_nav_status fxs_mesh_route_step(fxs_mesh_route *route, const fxs_nav_mesh *mesh,
                                   uint32_t budget) {
  if (!route || route->status != FXS_NAV_SEARCHING) return route ? route->status : FXS_NAV_IDLE;
  uint32_t left = budget;
  fxs_nav_status s = step(route, mesh, &left);
  route->spent += budget - left;
  return s;
}

// The search's expansions within *budget (decremented by each).
static fxs_nav_status step(fxs_mesh_route *route, const fxs_nav_mesh *mesh, uint32_t *left) {
  if (!mesh || mesh->triangle_count != route->triangle_count) {
    route->status = FXS_NAV_NEAREST;
    route->end = route->start_triangle;
    return (fxs_nav_status)route->status;
  }
  int64_t r = route->radius, d = 2 * (int64_t)route->radius;
  if (route->phase == 1) {
    int e = fxs_mesh_exact_step(route, mesh, left);
    if (e == 0) return FXS_NAV_SEARCHING;
    if (e > 0) {
      route->exact = 1;
      route->end = route->goal_triangle;
      route->phase = 2;
      route->status = FXS_NAV_FOUND;
      return FXS_NAV_FOUND;
    }
    route->phase = 0; // no exact route: the triangle search decides (nearest place)
  }
  while (*left > 0) {
    (*left)--;
    if (route->open_count == 0) {
      route->status = FXS_NAV_NEAREST;
      route->phase = 2;
      return FXS_NAV_NEAREST;
    }
    fxs_mesh_route_open top = heap_pop(route);
    uint32_t t = top.triangle;
    route->state[t] = (uint8_t)((route->state[t] & ~ST_OPEN) | ST_CLOSED);
    route->expanded++;
    if (nearer(route, top.h, t)) route->end = t;
    if (t == route->goal_triangle) {
      route->end = t;
      route->status = FXS_NAV_FOUND;
      route->phase = 2;
      return FXS_NAV_FOUND;
    }
    const fxs_nav_triangle *tr = &mesh->triangles[t];
    uint32_t in = route->parent[t] == NONE ? 3u : side_to(mesh, t, route->parent[t]);
    for (uint32_t s = 0; s < 3u; s++) {
      uint32_t n = tr->n[s];
      if (n == NONE || ((tr->constrained >> s) & 1u) || s == in) continue;
      if (route->state[n] & ST_CLOSED) continue;
      if (!length_at_least(vtx(mesh, t, s + 1u), vtx(mesh, t, s + 2u), d)) continue;
      if (in < 3u && !traversal_clear(mesh, t, in, s, d)) continue;
      fxs_vec2 l, rt;
      portal(mesh, t, s, r, &l, &rt);
      fxs_vec2 p = entry_point(route->entry[t], route->goal, l, rt);
      uint64_t g = route->g[t] + distance(route->entry[t], p);
      if ((route->state[n] & ST_OPEN) && g >= route->g[n]) continue;
      uint64_t h = distance(p, route->goal);
      if (!(route->state[n] & ST_OPEN) && route->open_count >= route->open_capacity) {
        route->status = FXS_NAV_OPEN_FULL;
        route->phase = 2;
        return FXS_NAV_OPEN_FULL;
      }
      touch(route, n);
      route->g[n] = g;
      route->parent[n] = t;
      route->entry[n] = p;
      fxs_mesh_route_open e = {g + h, h, n, 0};
      if (route->state[n] & ST_OPEN) {
        uint32_t at = route->open_at[n] - 1u;
        route->open[at] = e;
        sift_up(route, at);
      } else {
        route->state[n] |= ST_OPEN;
        route->open[route->open_count] = e;
        sift_up(route, route->open_count++);
      }
    }
  }
  return FXS_NAV_SEARCHING;
}

uint32_t fxs_mesh_route_corridor(const fxs_mesh_route *route, uint32_t *triangles,
                                 uint32_t capacity) {
  if (!route || route->status < FXS_NAV_FOUND || route->end == NONE || route->exact) return 0;
  uint32_t n = 0;
  for (uint32_t t = route->end; t != NONE; t = route->parent[t]) n++;
  uint32_t i = n;
  for (uint32_t t = route->end; t != NONE; t = route->parent[t]) {
    i--;
    if (triangles && i < capacity) triangles[i] = t;
  }
  return n;
}

// ---- The funnel -------------------------------------------------------------------------

static void emit(fxs_vec2 *points, uint32_t capacity, uint32_t *count, fxs_vec2 p) {
  if (*count > 0 && *count - 1u < capacity && same(points[*count - 1u], p)) return;
  if (*count < capacity) points[*count] = p;
  (*count)++;
}

// Appends a corner of the funnel, merged with the last when it is the same vertex.
static void add_corner(fxs_vec2 *corner, int8_t *side, uint32_t *count, uint32_t room, fxs_vec2 v,
                       int s) {
  if (*count > 0 && same(corner[*count - 1u], v)) return;
  if (*count < room) {
    corner[*count] = v;
    side[*count] = (int8_t)s;
    (*count)++;
  }
}

// sqrt of a non-negative Q16.16 value, rounded down.
static fix16_t fx_sqrt(fix16_t x) { return (fix16_t)fxs_isqrt64((uint64_t)x << 16); }

// The two points that take the route round corner v at distance r: the route arrives along
// u1 and leaves along u2 (unit vectors), turning left when left is 1. a and b lie on the
// lines parallel to the two legs at distance r on the outside, where the tangent to the
// circle of radius r round v at the bisector meets them: r (o1 + t u1), r (o2 - t u2), with
// o the outward normals and t = tan(turn / 4) = sqrt((1 - c) / 2) / (1 + sqrt((1 + c) / 2)).
static void round_corner(fxs_vec2 v, fxs_vec2 u1, fxs_vec2 u2, int left, fix16_t r, fxs_vec2 *a,
                         fxs_vec2 *b) {
  fix16_t c = fxs_add(fxs_mul(u1.x, u2.x), fxs_mul(u1.y, u2.y));
  c = fxs_clamp(c, -fix16_one, fix16_one);
  fix16_t half_sin = fx_sqrt((fix16_one - c) / 2), half_cos = fx_sqrt((fix16_one + c) / 2);
  fix16_t t = fxs_div(half_sin, fix16_one + half_cos);
  fxs_vec2 o1 = left ? fxs_vec2_make(u1.y, -u1.x) : fxs_vec2_make(-u1.y, u1.x);
  fxs_vec2 o2 = left ? fxs_vec2_make(u2.y, -u2.x) : fxs_vec2_make(-u2.y, u2.x);
  fix16_t rt = fxs_mul(r, t);
  *a = fxs_vec2_add(v, fxs_vec2_add(fxs_vec2_scale(o1, r), fxs_vec2_scale(u1, rt)));
  *b = fxs_vec2_add(v, fxs_vec2_sub(fxs_vec2_scale(o2, r), fxs_vec2_scale(u2, rt)));
}

// The direction of the tangent from the circle round p of signed radius rp to the circle
// round q of signed radius rq (positive: passed with the centre on the left, the tangent
// point at centre + r times the leg's right normal): e = (q - p) / |q - p| turned left by
// asin((rp - rq) / |q - p|), clamped.
static fxs_vec2 leg_direction(fxs_vec2 p, fxs_vec2 q, fix16_t rp, fix16_t rq) {
  fxs_vec2 e = fxs_vec2_normalize(fxs_exact_direction(p, q));
  if (rp == rq) return e;
  fix16_t d = fxs_vec2_distance(p, q);
  fix16_t a = d > 0 ? fxs_div(fxs_sub(rp, rq), d) : 0;
  a = fxs_clamp(a, -fix16_one, fix16_one);
  fix16_t b = fx_sqrt(fix16_one - fxs_mul(a, a));
  return fxs_vec2_make(fxs_sub(fxs_mul(b, e.x), fxs_mul(a, e.y)),
                       fxs_add(fxs_mul(b, e.y), fxs_mul(a, e.x)));
}

// ---- Clearance of the route (radius > 0) -----------------------------------------------

// The radius the route's corners are offset by: r and a margin for the rounding of the
// offset points and tangent directions (Q16.16), so that they keep r exactly.
static fix16_t offset_radius(fix16_t r) {
  int64_t v = (int64_t)r + FXS_MESH_ROUTE_MARGIN;
  return v > (int64_t)FXS_MAX ? FXS_MAX : (fix16_t)v;
}

// Exact: 1 when the segments a-b and p-q are closer than d (d > 0): they cross or touch, or
// an end of one lies within d of the other.
static int segments_closer_than(fxs_vec2 a, fxs_vec2 b, fxs_vec2 p, fxs_vec2 q, int64_t d) {
  int o1 = fxs_mesh_orient(a, b, p), o2 = fxs_mesh_orient(a, b, q);
  int o3 = fxs_mesh_orient(p, q, a), o4 = fxs_mesh_orient(p, q, b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return 1;
  return segment_closer_than(p, a, b, d) || segment_closer_than(q, a, b, d) ||
         segment_closer_than(a, p, q, d) || segment_closer_than(b, p, q, d);
}

#define ST_SEEN 8u

// Checks the leg p-q against every constrained side within r of it, found by a walk over
// the triangles the leg's r-neighbourhood meets (from the one holding p, across
// unconstrained sides closer than r to the leg; the corridor array is the queue).
// 0: clear. 1: the end *v of a constrained side lies within r of the leg. 2: a constrained
// side is within r of the leg but neither of its ends is (an end of the leg is too near),
// or the walk ran out of room.
static int leg_blocked(fxs_mesh_route *route, const fxs_nav_mesh *m, fxs_vec2 p, fxs_vec2 q,
                       int64_t r, fxs_vec2 *v) {
  uint32_t t0 = fxs_nav_mesh_locate(m, p);
  if (t0 == NONE) return 2;
  uint32_t *queue = route->corridor, head = 0, tail = 0, cap = route->triangle_capacity;
  int result = 0;
  queue[tail++] = t0;
  route->state[t0] |= ST_SEEN;
  while (head < tail && result == 0) {
    uint32_t t = queue[head++];
    const fxs_nav_triangle *tr = &m->triangles[t];
    for (uint32_t s = 0; s < 3u && result == 0; s++) {
      fxs_vec2 a = vtx(m, t, s + 1u), b = vtx(m, t, s + 2u);
      if (!segments_closer_than(p, q, a, b, r)) continue;
      if ((tr->constrained >> s) & 1u) {
        if (segment_closer_than(a, p, q, r)) *v = a, result = 1;
        else if (segment_closer_than(b, p, q, r)) *v = b, result = 1;
        else result = 2;
        continue;
      }
      uint32_t n = tr->n[s];
      if (n == NONE || (route->state[n] & ST_SEEN)) continue;
      if (tail >= cap) {
        result = 2;
        continue;
      }
      route->state[n] |= ST_SEEN;
      queue[tail++] = n;
    }
  }
  for (uint32_t k = 0; k < tail; k++) route->state[queue[k]] &= (uint8_t)~ST_SEEN;
  return result;
}

// Makes the polyline w[0..n) keep r from every constrained side where it can: a leg that
// comes within r of a side's end v is replaced by two legs and a tangent round the circle
// of the offset radius about v, on the leg's side of v (round_corner), and checked again;
// at most FXS_MESH_ROUTE_REPAIRS replacements per corner of the route; a leg with an end
// within r of v is left as it is. Returns the count.
static uint32_t keep_clear(fxs_mesh_route *route, const fxs_nav_mesh *m, fxs_vec2 *w, uint32_t n,
                           uint32_t cap) {
  int64_t r = route->radius;
  fix16_t ro = offset_radius(route->radius);
  uint32_t limit = FXS_MESH_ROUTE_REPAIRS * n, done = 0;
  for (uint32_t i = 0; i + 1u < n;) {
    fxs_vec2 v;
    fxs_vec2 p = w[i], q = w[i + 1u];
    if (leg_blocked(route, m, p, q, r, &v) != 1 || done >= limit || n + 2u > cap ||
        !length_at_least(p, v, r) || !length_at_least(q, v, r)) { // an end too near: no help
      i++;
      continue;
    }
    int left = fxs_mesh_orient(p, q, v) >= 0; // v left of the leg: pass it on its right
    fix16_t sr = left ? ro : -ro;
    fxs_vec2 u1 = leg_direction(p, v, 0, sr), u2 = leg_direction(v, q, sr, 0), a, b;
    round_corner(v, u1, u2, left, ro, &a, &b);
    for (uint32_t k = n; k-- > i + 1u;) w[k + 2u] = w[k];
    w[i + 1u] = a;
    w[i + 2u] = b;
    n += 2u;
    done++;
  }
  // A route to the nearest place ends where it still keeps r: its last legs that do not are
  // dropped (the start stays).
  while (route->status != FXS_NAV_FOUND && n > 1u) {
    fxs_vec2 v;
    if (leg_blocked(route, m, w[n - 2u], w[n - 1u], r, &v) == 0) break;
    n--;
  }
  return n;
}

uint32_t fxs_mesh_route_points(fxs_mesh_route *route, const fxs_nav_mesh *mesh, fxs_vec2 *points,
                               uint32_t capacity) {
  if (!route || !mesh || route->status < FXS_NAV_FOUND || route->end == NONE) return 0;
  if (route->exact) return fxs_mesh_exact_points(route, mesh, points, capacity);
  uint32_t n = fxs_mesh_route_corridor(route, route->corridor, route->triangle_capacity);
  fxs_vec2 last = route->status == FXS_NAV_FOUND ? route->goal : route->entry[route->end];
  fxs_vec2 *corner = route->corner;
  uint32_t count = 0, room = route->triangle_capacity + 2u;
  int8_t *side = route->corner_side;
  fxs_vec2 apex = route->start, fl = apex, fr = apex, flv = apex, frv = apex;
  uint32_t il = 0, ir = 0;
  corner[0] = apex;
  side[0] = 0;
  count = 1;
  // Portal i (1 <= i < n) leads from corridor[i-1] to corridor[i]; portal n is the end point.
  // The funnel runs on the portals shrunk by r; a corner is the mesh vertex behind the
  // shrunk end that became the apex, with the side the route passes it on.
  for (uint32_t i = 1; i <= n; i++) {
    fxs_vec2 l, rt, lv, rv;
    if (i < n) {
      uint32_t t = route->corridor[i - 1u], s = side_to(mesh, t, route->corridor[i]);
      rv = vtx(mesh, t, s + 1u);
      lv = vtx(mesh, t, s + 2u);
      portal_points(lv, rv, route->radius, &l, &rt);
    } else {
      l = rt = lv = rv = last;
    }
    // Right side: tighten when the new right is left of (or on) the current right.
    if (fxs_mesh_orient(apex, fr, rt) >= 0) {
      if (same(apex, fr) || fxs_mesh_orient(apex, fl, rt) <= 0) {
        fr = rt;
        frv = rv;
        ir = i;
      } else { // crossed over the left: the left becomes the new apex
        apex = fl;
        add_corner(corner, side, &count, room, flv, 1);
        fr = fl = apex;
        frv = flv;
        i = il;
        ir = il;
        continue;
      }
    }
    if (fxs_mesh_orient(apex, fl, l) <= 0) {
      if (same(apex, fl) || fxs_mesh_orient(apex, fr, l) >= 0) {
        fl = l;
        flv = lv;
        il = i;
      } else {
        apex = fr;
        add_corner(corner, side, &count, room, frv, -1);
        fl = fr = apex;
        flv = frv;
        i = ir;
        il = ir;
        continue;
      }
    }
  }
  add_corner(corner, side, &count, room, last, 0);
  if (count == 1u && !same(corner[0], last)) count = 1; // start == end: one point
  // Offset the inner corners by the radius: each leg runs along the tangent of the circles
  // of radius r round its two corners on the side the route passes them (none at the ends).
  // The polyline is built in a work array, then made clear (keep_clear), then copied out.
  fxs_vec2 *w = (fxs_vec2 *)(void *)route->node_g;
  uint32_t wcap = route->node_capacity, out = 0;
  emit(w, wcap, &out, corner[0]);
  fix16_t r = route->radius == 0 ? 0 : offset_radius(route->radius);
  fxs_vec2 leg_in = fxs_vec2_zero();
  for (uint32_t k = 1; k + 1u < count; k++) {
    int sk = r == 0 ? 0 : side[k];
    int sn = (r == 0 || k + 2u >= count) ? 0 : side[k + 1u];
    if (k == 1u) leg_in = leg_direction(corner[0], corner[1], 0, sk * r);
    fxs_vec2 leg_out = leg_direction(corner[k], corner[k + 1u], sk * r, sn * r);
    if (sk == 0) {
      emit(w, wcap, &out, corner[k]);
    } else {
      fxs_vec2 a, b;
      round_corner(corner[k], leg_in, leg_out, sk > 0, r, &a, &b);
      emit(w, wcap, &out, a);
      emit(w, wcap, &out, b);
    }
    leg_in = leg_out;
  }
  if (count > 1u) emit(w, wcap, &out, corner[count - 1u]);
  if (out > wcap) out = wcap; // cannot happen: corners <= triangle_capacity + 2
  if (route->radius > 0) out = keep_clear(route, mesh, w, out, wcap);
  for (uint32_t k = 0; points && k < out && k < capacity; k++) points[k] = w[k];
  return out;
}
