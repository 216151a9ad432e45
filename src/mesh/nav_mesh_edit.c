// Run-time changes of the navigation mesh: removing a wall or an obstacle re-triangulates
// only the region it touches, and the canonical digest. A removal traces the constraint's
// chain of edges, lifts its flags, restores the Delaunay property across the lifted edges,
// deletes each vertex of the chain that no remaining item needs (its star becomes a hole
// filled by ear clipping, then Lawson flips over the hole's edges), inserts again the
// remaining items near it whose chain is broken (an edge they shared with the removed one
// got lifted, or a crossing vertex went), then lifts edges and deletes vertices in the
// region that no remaining item holds (docs/navigation-mesh.md, "Run-time changes").
#include "fixsteer/nav_mesh.h"

#include "fixsteer/hash.h"
#include "nav_mesh_exact.h"
#include "nav_mesh_insert.h"

#define NONE FXS_NAV_MESH_NONE
// Raw units a chain may leave its segment (rounded crossings, see nav_mesh.h).
#define CHAIN_SLACK 4

static unsigned next3(unsigned i) { return i == 2u ? 0u : i + 1u; }
static unsigned prev3(unsigned i) { return i == 0u ? 2u : i - 1u; }

static unsigned index_of(const fxs_nav_triangle *t, uint32_t v) {
  return t->v[0] == v ? 0u : t->v[1] == v ? 1u : 2u;
}

static unsigned index_of_neighbor(const fxs_nav_triangle *t, uint32_t n) {
  return t->n[0] == n ? 0u : t->n[1] == n ? 1u : 2u;
}

static fxs_vec2 at(const fxs_nav_mesh *m, uint32_t v) { return m->vertices[v]; }

// One removal: the step budget, and its lists in the mesh's scratch (candidate vertices,
// one star, a hole's polygon, and a stack of edges as vertex pairs).
typedef struct edit {
  fxs_mesh_work work;
  uint32_t *cand, cand_count, cand_cap;
  uint32_t *star, star_cap;
  uint32_t *stack, stack_count, stack_cap;
  uint32_t *dead, dead_cap;
} edit;

static edit edit_of(fxs_nav_mesh *m) {
  edit e;
  uint32_t v = m->vertex_capacity;
  e.work.mesh = m;
  e.work.steps = 0;
  e.cand = m->scratch;
  e.cand_cap = v;
  e.star = m->scratch + v;
  e.star_cap = v;
  e.stack = m->scratch + 5 * v; // after the hole's three lists (delete_vertex)
  e.stack_cap = 8 * v;          // pairs: the scratch holds 22 words a vertex
  e.dead = m->scratch + 21 * v;
  e.dead_cap = v;
  e.cand_count = e.stack_count = 0;
  return e;
}

static int spend(edit *e) { return ++e->work.steps <= e->work.mesh->step_limit; }

static fxs_result push_edge(edit *e, uint32_t p, uint32_t q) {
  if (e->stack_count >= e->stack_cap) return FXS_ERR_LIMIT;
  e->stack[2 * e->stack_count] = p;
  e->stack[2 * e->stack_count + 1] = q;
  e->stack_count++;
  return FXS_OK;
}

// Lawson flips over the stacked edges: each flip stacks the four sides of its quad.
static fxs_result restore(edit *e) {
  fxs_nav_mesh *m = e->work.mesh;
  while (e->stack_count > 0) {
    e->stack_count--;
    uint32_t p = e->stack[2 * e->stack_count], q = e->stack[2 * e->stack_count + 1], t;
    unsigned i;
    if (!fxs_mesh_find_edge(m, p, q, &t, &i)) continue; // flipped away meanwhile
    const fxs_nav_triangle *T = &m->triangles[t];
    if (((T->constrained >> i) & 1u) || T->n[i] == NONE) continue;
    uint32_t u = T->n[i], o = T->v[i];
    const fxs_nav_triangle *U = &m->triangles[u];
    uint32_t r = U->v[index_of_neighbor(U, t)];
    if (fxs_mesh_in_circle(at(m, T->v[0]), at(m, T->v[1]), at(m, T->v[2]), at(m, r)) <= 0) continue;
    if (!spend(e)) return FXS_ERR_LIMIT;
    fxs_result res = push_edge(e, o, p);
    if (res == FXS_OK) res = push_edge(e, p, r);
    if (res == FXS_OK) res = push_edge(e, r, q);
    if (res == FXS_OK) res = push_edge(e, q, o);
    if (res != FXS_OK) return res;
    fxs_mesh_flip(m, t, i);
  }
  return FXS_OK;
}

// w lies within CHAIN_SLACK raw units of the segment a-b (of its line, and of its box); then
// *off = |cross| (the distance times |b - a|), *along = |progress from u| along a->b, and
// *back = 1 when that progress is not positive (a chain may step back by a raw unit or two
// where it bends through a rounded crossing near an end). All exact.
static int near_segment(fxs_vec2 a, fxs_vec2 b, fxs_vec2 u, fxs_vec2 w, fxs_mesh_int *off,
                        fxs_mesh_int *along, int *back) {
  int64_t x0 = a.x < b.x ? a.x : b.x, x1 = a.x < b.x ? b.x : a.x;
  int64_t y0 = a.y < b.y ? a.y : b.y, y1 = a.y < b.y ? b.y : a.y;
  if (w.x < x0 - CHAIN_SLACK || w.x > x1 + CHAIN_SLACK || w.y < y0 - CHAIN_SLACK ||
      w.y > y1 + CHAIN_SLACK)
    return 0;
  fxs_mesh_int dx = fxs_mesh_int_from_i64((int64_t)b.x - a.x);
  fxs_mesh_int dy = fxs_mesh_int_from_i64((int64_t)b.y - a.y);
  fxs_mesh_int c = fxs_mesh_cross(a, b, w);
  fxs_mesh_int len2 = fxs_mesh_int_add(fxs_mesh_int_mul(dx, dx), fxs_mesh_int_mul(dy, dy));
  fxs_mesh_int s2 = fxs_mesh_int_from_i64((int64_t)CHAIN_SLACK * CHAIN_SLACK);
  if (fxs_mesh_int_compare(fxs_mesh_int_mul(c, c), fxs_mesh_int_mul(s2, len2)) > 0) return 0;
  fxs_mesh_int zero = fxs_mesh_int_from_i64(0);
  *off = fxs_mesh_int_sign(c) < 0 ? fxs_mesh_int_sub(zero, c) : c;
  *along = fxs_mesh_int_add(fxs_mesh_int_mul(dx, fxs_mesh_int_from_i64((int64_t)w.x - u.x)),
                            fxs_mesh_int_mul(dy, fxs_mesh_int_from_i64((int64_t)w.y - u.y)));
  *back = fxs_mesh_int_sign(*along) <= 0;
  if (*back) *along = fxs_mesh_int_sub(zero, *along);
  return 1;
}

static int in_list(const uint32_t *list, uint32_t count, uint32_t w) {
  for (uint32_t k = 0; k < count; k++)
    if (list[k] == w) return 1;
  return 0;
}

// w is already on the chain traced since stack entry `from`.
static int on_trace(const edit *e, uint32_t from, uint32_t w) {
  for (uint32_t k = from; k < e->stack_count; k++)
    if (e->stack[2 * k] == w || e->stack[2 * k + 1] == w) return 1;
  return 0;
}

static fxs_result add_candidate(edit *e, uint32_t v) {
  for (uint32_t k = 0; k < e->cand_count; k++)
    if (e->cand[k] == v) return FXS_OK;
  if (e->cand_count >= e->cand_cap) return FXS_ERR_LIMIT;
  e->cand[e->cand_count++] = v;
  return FXS_OK;
}

static uint32_t vertex_at(const fxs_nav_mesh *m, fxs_vec2 p) {
  int kind;
  unsigned index;
  uint32_t t = fxs_mesh_locate(m, p, m->vertex_triangle[m->vertex_count - 1], &kind, &index);
  return t == NONE || kind != 2 ? NONE : m->triangles[t].v[index];
}

// The next vertex of the chain a-b after u: over the constrained edges at u, to a vertex near
// the segment, not yet on the chain nor a dead end: one that moves toward b first, then the
// nearest to the segment, then the nearest along it. NONE when there is none.
static uint32_t next_on_chain(const edit *e, fxs_vec2 a, fxs_vec2 b, uint32_t u, uint32_t start,
                              uint32_t from, uint32_t dead) {
  const fxs_nav_mesh *m = e->work.mesh;
  uint32_t best = NONE, t = m->vertex_triangle[u];
  fxs_mesh_int best_off = fxs_mesh_int_from_i64(0), best_along = best_off, off, along;
  int best_back = 1, back;
  // Every edge at u is a side of a triangle of u's star: walk it both ways.
  for (int dir = 0; dir < 2; dir++) {
    uint32_t x = t;
    for (uint32_t s = 0; x != NONE && s <= m->triangle_count; s++) {
      const fxs_nav_triangle *T = &m->triangles[x];
      unsigned k = index_of(T, u);
      for (unsigned side = 1; side <= 2; side++) {
        unsigned i = (k + side) % 3u;
        uint32_t w = T->v[3u - k - i];
        if (!((T->constrained >> i) & 1u) || w == start || on_trace(e, from, w) ||
            in_list(e->dead, dead, w) ||
            !near_segment(a, b, at(m, u), at(m, w), &off, &along, &back))
          continue;
        int c = best == NONE ? -1 : back - best_back;
        if (c == 0) c = fxs_mesh_int_compare(off, best_off);
        if (c == 0) c = fxs_mesh_int_compare(along, best_along);
        if (c < 0) best = w, best_off = off, best_along = along, best_back = back;
      }
      x = dir == 0 ? T->n[next3(k)] : T->n[prev3(k)];
      if (x == t) break;
    }
  }
  return best;
}

// The chain of constrained edges from a to b, a depth-first walk (next_on_chain's order,
// stepping back from dead ends). Its vertices go to the candidates, its edges to the stack;
// FXS_ERR_BAD_VALUE when there is no chain. Its vertices
// go to the candidates, its edges to the stack; FXS_ERR_BAD_VALUE when there is no chain.
static fxs_result trace(edit *e, fxs_vec2 a, fxs_vec2 b) {
  const fxs_nav_mesh *m = e->work.mesh;
  uint32_t u = vertex_at(m, a), end = vertex_at(m, b);
  if (u == NONE || end == NONE) return FXS_ERR_BAD_VALUE;
  uint32_t from = e->stack_count, start = u, dead = 0;
  fxs_result r = FXS_OK;
  while (r == FXS_OK && u != end) {
    if (!spend(e)) return FXS_ERR_LIMIT;
    uint32_t w = next_on_chain(e, a, b, u, start, from, dead);
    if (w != NONE) {
      r = push_edge(e, u, w);
      u = w;
    } else if (e->stack_count == from || dead >= e->dead_cap) {
      return FXS_ERR_BAD_VALUE;
    } else { // a dead end: step back, never to come here again
      e->dead[dead++] = u;
      u = e->stack[2 * --e->stack_count];
    }
  }
  if (r == FXS_OK) r = add_candidate(e, start);
  for (uint32_t k = from; k < e->stack_count && r == FXS_OK; k++)
    r = add_candidate(e, e->stack[2 * k + 1]);
  return r;
}

// The triangles around v counter-clockwise, from the one on the bounds if v is on them.
static fxs_result collect_star(edit *e, uint32_t v, uint32_t *count, int *boundary) {
  const fxs_nav_mesh *m = e->work.mesh;
  uint32_t start = m->vertex_triangle[v], first = start;
  *boundary = 0;
  for (uint32_t s = 0; s <= m->triangle_count; s++) {
    const fxs_nav_triangle *T = &m->triangles[first];
    uint32_t x = T->n[prev3(index_of(T, v))];
    if (x == NONE) {
      *boundary = 1;
      break;
    }
    if (x == start) break;
    first = x;
  }
  if (!*boundary) first = start;
  *count = 0;
  for (uint32_t x = first; x != NONE;) {
    if (*count >= e->star_cap) return FXS_ERR_LIMIT;
    e->star[(*count)++] = x;
    const fxs_nav_triangle *T = &m->triangles[x];
    x = T->n[next3(index_of(T, v))];
    if (x == first) break;
  }
  return FXS_OK;
}

// Frees triangle slot x: the last triangle moves into it.
static void free_triangle(fxs_nav_mesh *m, uint32_t x) {
  uint32_t last = --m->triangle_count;
  if (x == last) return;
  fxs_nav_triangle L = m->triangles[last];
  m->triangles[x] = L;
  for (int k = 0; k < 3; k++) {
    m->vertex_triangle[L.v[k]] = x;
    if (L.n[k] != NONE) {
      fxs_nav_triangle *N = &m->triangles[L.n[k]];
      N->n[index_of_neighbor(N, last)] = x;
    }
  }
}

// The hole left by a vertex: its link polygon, counter-clockwise; edge j runs from pv[j] to
// pv[j + 1] and has the triangle po[j] outside it (or NONE); ps[j] holds that triangle's
// side (bits 0-1) and the edge's constraint flag (bit 2).
typedef struct hole {
  uint32_t *pv, *po, *ps, count;
} hole;

// Edge j of the hole becomes side `side` of the new triangle tri, linked both ways.
static void hole_edge(fxs_nav_mesh *m, hole *h, uint32_t j, uint32_t t, unsigned side,
                      uint32_t tri) {
  fxs_nav_triangle *N = &m->triangles[tri];
  N->constrained = (N->constrained & ~(1u << side)) | (((h->ps[j] >> 2) & 1u) << side);
  N->n[side] = t;
  if (t != NONE) m->triangles[t].n[h->ps[j] & 3u] = tri;
}

// An ear at position i: a strictly convex corner whose closed triangle holds no other
// vertex of the polygon.
static int is_ear(const fxs_nav_mesh *m, const hole *h, uint32_t i) {
  uint32_t n = h->count, a = h->pv[(i + n - 1) % n], b = h->pv[i], c = h->pv[(i + 1) % n];
  if (fxs_mesh_orient(at(m, a), at(m, b), at(m, c)) <= 0) return 0;
  for (uint32_t j = 0; j < n; j++) {
    uint32_t p = h->pv[j];
    if (p == a || p == b || p == c) continue;
    if (fxs_mesh_orient(at(m, a), at(m, b), at(m, p)) >= 0 &&
        fxs_mesh_orient(at(m, b), at(m, c), at(m, p)) >= 0 &&
        fxs_mesh_orient(at(m, c), at(m, a), at(m, p)) >= 0)
      return 0;
  }
  return 1;
}

// Fills the hole by ear clipping (the first ear in polygon order each time) into the
// star's slots; the new triangles' sides are stacked for the Lawson flips.
static fxs_result fill_hole(edit *e, hole *h) {
  fxs_nav_mesh *m = e->work.mesh;
  uint32_t used = 0;
  while (h->count >= 3) {
    uint32_t n = h->count, i = 0;
    if (!spend(e)) return FXS_ERR_LIMIT;
    if (n > 3) {
      while (i < n && !is_ear(m, h, i)) i++;
      if (i == n) return FXS_ERR_LIMIT;
    } else {
      i = 1;
    }
    uint32_t ip = (i + n - 1) % n, in = (i + 1) % n, s = e->star[used++];
    uint32_t a = h->pv[ip], b = h->pv[i], c = h->pv[in];
    fxs_nav_triangle *T = &m->triangles[s];
    T->v[0] = a, T->v[1] = b, T->v[2] = c;
    T->constrained = 0;
    m->vertex_triangle[a] = m->vertex_triangle[b] = m->vertex_triangle[c] = s;
    hole_edge(m, h, i, h->po[i], 0, s);   // b-c
    hole_edge(m, h, ip, h->po[ip], 2, s); // a-b
    fxs_result r = push_edge(e, a, b);
    if (r == FXS_OK) r = push_edge(e, b, c);
    if (r == FXS_OK) r = push_edge(e, c, a);
    if (r != FXS_OK) return r;
    if (n == 3) {
      hole_edge(m, h, in, h->po[in], 1, s); // c-a, the last edge
      break;
    }
    // The diagonal c-a becomes edge ip of the smaller polygon, side 1 of s outside it.
    h->po[ip] = s;
    h->ps[ip] = 1u;
    for (uint32_t j = i; j + 1 < n; j++) {
      h->pv[j] = h->pv[j + 1];
      h->po[j] = h->po[j + 1];
      h->ps[j] = h->ps[j + 1];
    }
    h->count--;
  }
  return FXS_OK;
}

// Deletes vertex v (not a corner): its star becomes a hole filled again by ear clipping,
// the Delaunay property is restored there, and the last vertex moves into v's slot.
static fxs_result delete_vertex(edit *e, uint32_t v) {
  fxs_nav_mesh *m = e->work.mesh;
  uint32_t count;
  int boundary;
  fxs_result r = collect_star(e, v, &count, &boundary);
  if (r != FXS_OK) return r;
  uint32_t cap = m->vertex_capacity;
  hole h = {m->scratch + 2 * cap, m->scratch + 3 * cap, m->scratch + 4 * cap, 0};
  for (uint32_t k = 0; k < count; k++) {
    const fxs_nav_triangle *T = &m->triangles[e->star[k]];
    unsigned i = index_of(T, v);
    uint32_t out = T->n[i];
    h.pv[k] = T->v[next3(i)];
    h.po[k] = out;
    h.ps[k] = (out == NONE ? 0u : index_of_neighbor(&m->triangles[out], e->star[k])) |
              (((T->constrained >> i) & 1u) << 2);
    if (boundary && k + 1 == count) { // the closing edge along the bounds, through v
      h.pv[k + 1] = T->v[prev3(i)];
      h.po[k + 1] = NONE;
      h.ps[k + 1] = 4u;
    }
  }
  h.count = count + (boundary ? 1u : 0u);
  uint32_t slots = h.count - 2;
  r = fill_hole(e, &h);
  if (r != FXS_OK) return r;
  // Free the star's unused slots, highest first (the last triangle moves into each).
  for (uint32_t left = count - slots; left > 0; left--) {
    uint32_t best = slots;
    for (uint32_t k = slots; k < count; k++)
      if (e->star[k] != NONE && (e->star[best] == NONE || e->star[k] > e->star[best])) best = k;
    free_triangle(m, e->star[best]);
    e->star[best] = NONE;
  }
  r = restore(e);
  if (r != FXS_OK) return r;
  uint32_t last = --m->vertex_count;
  if (v == last) return FXS_OK;
  m->vertices[v] = m->vertices[last];
  m->vertex_triangle[v] = m->vertex_triangle[last];
  r = collect_star(e, last, &count, &boundary);
  for (uint32_t k = 0; r == FXS_OK && k < count; k++) {
    fxs_nav_triangle *T = &m->triangles[e->star[k]];
    T->v[index_of(T, last)] = v;
  }
  for (uint32_t k = 0; k < e->cand_count; k++)
    if (e->cand[k] == last) e->cand[k] = v;
  return r;
}

static int same(fxs_vec2 a, fxs_vec2 b) { return a.x == b.x && a.y == b.y; }

// The remaining items and the removal's box (grown by twice the slack).
typedef struct remaining {
  const fxs_wall *walls;
  uint32_t wall_count;
  const fxs_obstacle *obstacles;
  uint32_t obstacle_count;
  int64_t lo_x, lo_y, hi_x, hi_y;
  int64_t scan_lo_x, scan_lo_y, scan_hi_x, scan_hi_y; // the box and what was inserted again
  fxs_vec2 seed;                                      // a point in the removal's box
} remaining;

// A vertex the remaining items need: a corner, a wall's end, an obstacle's vertex.
static int required(const fxs_nav_mesh *m, const remaining *rest, uint32_t v) {
  fxs_vec2 p = at(m, v);
  if (v < FXS_NAV_MESH_MIN_VERTICES) return 1;
  for (uint32_t k = 0; k < rest->wall_count; k++)
    if (same(p, rest->walls[k].a) || same(p, rest->walls[k].b)) return 1;
  for (uint32_t k = 0; k < rest->obstacle_count; k++) {
    fxs_vec2 poly[FXS_NAV_MESH_OBSTACLE_SIDES];
    if (fxs_nav_mesh_obstacle_polygon(m, &rest->obstacles[k], poly) != FXS_OK) continue;
    for (unsigned i = 0; i < FXS_NAV_MESH_OBSTACLE_SIDES; i++)
      if (same(p, poly[i])) return 1;
  }
  return 0;
}

// The item's box meets the removal's; the scan box then grows to hold it.
static int box_meets(remaining *rest, const fxs_vec2 *pts, unsigned n) {
  int64_t lx = pts[0].x, ly = pts[0].y, hx = lx, hy = ly;
  for (unsigned k = 1; k < n; k++) {
    lx = pts[k].x < lx ? pts[k].x : lx, hx = pts[k].x > hx ? pts[k].x : hx;
    ly = pts[k].y < ly ? pts[k].y : ly, hy = pts[k].y > hy ? pts[k].y : hy;
  }
  if (lx > rest->hi_x || hx < rest->lo_x || ly > rest->hi_y || hy < rest->lo_y) return 0;
  lx -= 2 * CHAIN_SLACK, ly -= 2 * CHAIN_SLACK, hx += 2 * CHAIN_SLACK, hy += 2 * CHAIN_SLACK;
  rest->scan_lo_x = lx < rest->scan_lo_x ? lx : rest->scan_lo_x;
  rest->scan_lo_y = ly < rest->scan_lo_y ? ly : rest->scan_lo_y;
  rest->scan_hi_x = hx > rest->scan_hi_x ? hx : rest->scan_hi_x;
  rest->scan_hi_y = hy > rest->scan_hi_y ? hy : rest->scan_hi_y;
  return 1;
}

static int near_points(fxs_vec2 a, fxs_vec2 b, fxs_vec2 p, fxs_vec2 q) {
  fxs_mesh_int off, along;
  int back;
  return near_segment(a, b, p, p, &off, &along, &back) &&
         near_segment(a, b, p, q, &off, &along, &back);
}

// Both ends of an edge lie near one remaining wall or obstacle side (other than wall
// `skip`, or obstacle skip - wall_count; NONE skips none).
static int supported(const fxs_nav_mesh *m, const remaining *rest, fxs_vec2 p, fxs_vec2 q,
                     uint32_t skip) {
  for (uint32_t k = 0; k < rest->wall_count; k++)
    if (k != skip && near_points(rest->walls[k].a, rest->walls[k].b, p, q)) return 1;
  for (uint32_t k = 0; k < rest->obstacle_count; k++) {
    if (rest->wall_count + k == skip) continue;
    fxs_vec2 poly[FXS_NAV_MESH_OBSTACLE_SIDES];
    if (fxs_nav_mesh_obstacle_polygon(m, &rest->obstacles[k], poly) != FXS_OK) continue;
    for (unsigned i = 0; i < FXS_NAV_MESH_OBSTACLE_SIDES; i++)
      if (near_points(poly[i], poly[(i + 1) % FXS_NAV_MESH_OBSTACLE_SIDES], p, q)) return 1;
  }
  return 0;
}

// The triangles whose box meets the box lo-hi: a walk over neighbours from the triangle
// holding `seed` (inside the box; the triangles meeting a box are connected), listed in
// e->dead. *all = 1 when they outnumber the list: the caller then looks at every triangle.
static uint32_t region(edit *e, const int64_t box[4], fxs_vec2 seed, int *all) {
  const fxs_nav_mesh *m = e->work.mesh;
  int kind;
  unsigned index;
  uint32_t count = 0, t = fxs_mesh_locate(m, seed, m->vertex_triangle[0], &kind, &index);
  *all = t == NONE;
  if (*all) return m->triangle_count;
  e->dead[count++] = t;
  for (uint32_t k = 0; k < count; k++) {
    const fxs_nav_triangle *T = &m->triangles[e->dead[k]];
    for (unsigned i = 0; i < 3; i++) {
      uint32_t u = T->n[i];
      if (u == NONE || in_list(e->dead, count, u)) continue;
      const fxs_nav_triangle *U = &m->triangles[u];
      int64_t lx = at(m, U->v[0]).x, hx = lx, ly = at(m, U->v[0]).y, hy = ly;
      for (unsigned j = 1; j < 3; j++) {
        fxs_vec2 p = at(m, U->v[j]);
        lx = p.x < lx ? p.x : lx, hx = p.x > hx ? p.x : hx;
        ly = p.y < ly ? p.y : ly, hy = p.y > hy ? p.y : hy;
      }
      if (lx > box[2] || hx < box[0] || ly > box[3] || hy < box[1]) continue;
      if (count >= e->dead_cap || !spend(e)) {
        *all = 1;
        return m->triangle_count;
      }
      e->dead[count++] = u;
    }
  }
  return count;
}

static uint32_t region_triangle(const edit *e, int all, uint32_t k) { return all ? k : e->dead[k]; }

// Lifts the constrained edges left of a damaged chain (both ends near one of its pieces, and
// no other remaining item near both), so that inserting it again does not cross its own
// remains (a scan of the triangles).
static fxs_result lift_near(edit *e, const remaining *rest, uint32_t self, const fxs_vec2 *pts,
                            unsigned n, int closed) {
  fxs_nav_mesh *m = e->work.mesh;
  fxs_result r = FXS_OK;
  int64_t box[4] = {pts[0].x, pts[0].y, pts[0].x, pts[0].y};
  for (unsigned k = 1; k < n; k++) {
    box[0] = pts[k].x < box[0] ? pts[k].x : box[0], box[1] = pts[k].y < box[1] ? pts[k].y : box[1];
    box[2] = pts[k].x > box[2] ? pts[k].x : box[2], box[3] = pts[k].y > box[3] ? pts[k].y : box[3];
  }
  box[0] -= CHAIN_SLACK, box[1] -= CHAIN_SLACK, box[2] += CHAIN_SLACK, box[3] += CHAIN_SLACK;
  int all;
  uint32_t count = region(e, box, pts[0], &all);
  e->stack_count = 0;
  for (uint32_t k = 0; k < count && r == FXS_OK; k++) {
    uint32_t t = region_triangle(e, all, k);
    for (unsigned i = 0; i < 3 && r == FXS_OK; i++) {
      const fxs_nav_triangle *T = &m->triangles[t];
      uint32_t u = T->n[i], p = T->v[next3(i)], q = T->v[prev3(i)];
      if (!((T->constrained >> i) & 1u) || u == NONE ||
          (u < t && (all || in_list(e->dead, count, u))))
        continue;
      int near = 0;
      for (unsigned j = 0; j + 1 < n + (unsigned)closed && !near; j++)
        near = near_points(pts[j], pts[(j + 1) % n], at(m, p), at(m, q));
      if (!near || supported(m, rest, at(m, p), at(m, q), self)) continue;
      fxs_mesh_mark_edge(m, t, i, 0);
      r = push_edge(e, p, q);
    }
  }
  return r == FXS_OK ? restore(e) : r;
}

// Inserts the chain pts[0]-pts[1]-... (closed: back to pts[0]) unless every piece of it is
// still a chain of constrained edges: inserting an intact chain that bends through rounded
// crossings again would cross its own pieces and add vertices.
static fxs_result insert_chain(edit *e, const remaining *rest, uint32_t self, const fxs_vec2 *pts,
                               unsigned n, int closed) {
  uint32_t ids[FXS_NAV_MESH_OBSTACLE_SIDES], cand = e->cand_count, stack = e->stack_count;
  fxs_result r = FXS_OK;
  for (unsigned k = 0; k + 1 < n + (unsigned)closed && r == FXS_OK; k++)
    r = trace(e, pts[k], pts[(k + 1) % n]);
  e->cand_count = cand;
  e->stack_count = stack;
  if (r == FXS_OK || r == FXS_ERR_LIMIT) return r;
  r = lift_near(e, rest, self, pts, n, closed);
  for (unsigned k = 0; k < n && r == FXS_OK; k++)
    r = fxs_mesh_insert_point(&e->work, pts[k], &ids[k]);
  for (unsigned k = 0; k + 1 < n + (unsigned)closed && r == FXS_OK; k++)
    r = fxs_mesh_insert_segment(&e->work, ids[k], ids[(k + 1) % n]);
  return r;
}

// Inserts again, in array order, the remaining items whose box meets the removal's.
static fxs_result reinsert(edit *e, remaining *rest) {
  fxs_result r = FXS_OK;
  for (uint32_t k = 0; k < rest->wall_count && r == FXS_OK; k++) {
    fxs_vec2 ends[2] = {rest->walls[k].a, rest->walls[k].b};
    if (box_meets(rest, ends, 2)) r = insert_chain(e, rest, k, ends, 2, 0);
  }
  for (uint32_t k = 0; k < rest->obstacle_count && r == FXS_OK; k++) {
    fxs_vec2 poly[FXS_NAV_MESH_OBSTACLE_SIDES];
    if (fxs_nav_mesh_obstacle_polygon(e->work.mesh, &rest->obstacles[k], poly) != FXS_OK) continue;
    if (box_meets(rest, poly, FXS_NAV_MESH_OBSTACLE_SIDES))
      r = insert_chain(e, rest, rest->wall_count + k, poly, FXS_NAV_MESH_OBSTACLE_SIDES, 1);
  }
  return r;
}

static int in_box(const remaining *rest, fxs_vec2 p) {
  return p.x >= rest->lo_x && p.x <= rest->hi_x && p.y >= rest->lo_y && p.y <= rest->hi_y;
}

// The trace may follow another constraint's edges where two run within the slack of each
// other: the removed item's own edges are then left flagged. Any constrained edge in the
// removal's box that no remaining item holds is lifted (a scan of the triangles).
static fxs_result lift_unsupported(edit *e, const remaining *rest) {
  fxs_nav_mesh *m = e->work.mesh;
  fxs_result r = FXS_OK;
  int64_t box[4] = {rest->lo_x, rest->lo_y, rest->hi_x, rest->hi_y};
  int all;
  uint32_t count = region(e, box, rest->seed, &all);
  e->stack_count = 0;
  for (uint32_t k = 0; k < count && r == FXS_OK; k++) {
    uint32_t t = region_triangle(e, all, k);
    for (unsigned i = 0; i < 3 && r == FXS_OK; i++) {
      const fxs_nav_triangle *T = &m->triangles[t];
      uint32_t u = T->n[i], p = T->v[next3(i)], q = T->v[prev3(i)];
      if (!((T->constrained >> i) & 1u) || u == NONE ||
          (u < t && (all || in_list(e->dead, count, u))) || !in_box(rest, at(m, p)) ||
          !in_box(rest, at(m, q)) || supported(m, rest, at(m, p), at(m, q), NONE))
        continue;
      fxs_mesh_mark_edge(m, t, i, 0);
      r = push_edge(e, p, q);
    }
  }
  return r == FXS_OK ? restore(e) : r;
}

// A constrained edge at v that is not on the bounds.
static int holds_constraint(edit *e, uint32_t v) {
  const fxs_nav_mesh *m = e->work.mesh;
  uint32_t count;
  int boundary;
  if (collect_star(e, v, &count, &boundary) != FXS_OK) return 1;
  for (uint32_t k = 0; k < count; k++) {
    const fxs_nav_triangle *T = &m->triangles[e->star[k]];
    unsigned i = index_of(T, v);
    for (unsigned side = 1; side <= 2; side++) {
      unsigned s = (i + side) % 3u;
      if (((T->constrained >> s) & 1u) && T->n[s] != NONE) return 1;
    }
  }
  return 0;
}

// Inserting a remaining item again may route its chain past a vertex it bent through before
// (a rounded crossing): such a vertex, in the removal's box, no longer needed and on no
// constraint, is deleted too (a scan of the vertices: 2 compares each).
static fxs_result delete_orphans(edit *e, const remaining *rest) {
  fxs_nav_mesh *m = e->work.mesh;
  int64_t box[4] = {rest->scan_lo_x, rest->scan_lo_y, rest->scan_hi_x, rest->scan_hi_y};
  e->cand_count = 0;
  for (int again = 1; again;) {
    int all;
    uint32_t count = region(e, box, rest->seed, &all), v = NONE;
    again = 0;
    for (uint32_t k = 0; k < 3 * count && v == NONE; k++) {
      uint32_t w = m->triangles[region_triangle(e, all, k / 3)].v[k % 3];
      fxs_vec2 p = at(m, w);
      if (w >= FXS_NAV_MESH_MIN_VERTICES && p.x >= box[0] && p.x <= box[2] && p.y >= box[1] &&
          p.y <= box[3] && !holds_constraint(e, w) && !required(m, rest, w))
        v = w;
    }
    if (v == NONE) break;
    fxs_result r = delete_vertex(e, v); // the triangles change: walk the region again
    if (r != FXS_OK) return r;
    again = 1;
  }
  return FXS_OK;
}

// Removes the chain pts[0]-pts[1]-...(-pts[0] when closed) of n points.
static fxs_result remove_chain(fxs_nav_mesh *m, const fxs_vec2 *pts, unsigned n, int closed,
                               remaining *rest) {
  edit e = edit_of(m);
  fxs_result r = FXS_OK;
  for (unsigned k = 0; k + 1 < n + (unsigned)closed && r == FXS_OK; k++)
    r = trace(&e, pts[k], pts[(k + 1) % n]);
  if (r == FXS_OK && n == 1) r = trace(&e, pts[0], pts[0]);
  if (r != FXS_OK) {
    m->last_steps = e.work.steps;
    return r == FXS_ERR_LIMIT ? r : FXS_ERR_BAD_VALUE;
  }
  // Nothing has changed so far: lift the chain's edges, then make them Delaunay.
  for (uint32_t k = 0; k < e.stack_count; k++) {
    uint32_t t;
    unsigned i;
    if (fxs_mesh_find_edge(m, e.stack[2 * k], e.stack[2 * k + 1], &t, &i) &&
        m->triangles[t].n[i] != NONE)
      fxs_mesh_mark_edge(m, t, i, 0);
  }
  r = restore(&e);
  for (uint32_t k = 0; k < e.cand_count && r == FXS_OK; k++)
    if (!required(m, rest, e.cand[k])) r = delete_vertex(&e, e.cand[k]);
  rest->seed = pts[0];
  rest->lo_x = rest->hi_x = pts[0].x;
  rest->lo_y = rest->hi_y = pts[0].y;
  for (unsigned k = 1; k < n; k++) {
    rest->lo_x = pts[k].x < rest->lo_x ? pts[k].x : rest->lo_x;
    rest->hi_x = pts[k].x > rest->hi_x ? pts[k].x : rest->hi_x;
    rest->lo_y = pts[k].y < rest->lo_y ? pts[k].y : rest->lo_y;
    rest->hi_y = pts[k].y > rest->hi_y ? pts[k].y : rest->hi_y;
  }
  // A chain vertex lies within the slack of the removed segment and of the remaining
  // constraints through it: twice the slack catches every constraint that touched it.
  rest->lo_x -= 2 * CHAIN_SLACK, rest->lo_y -= 2 * CHAIN_SLACK;
  rest->hi_x += 2 * CHAIN_SLACK, rest->hi_y += 2 * CHAIN_SLACK;
  rest->scan_lo_x = rest->lo_x, rest->scan_lo_y = rest->lo_y;
  rest->scan_hi_x = rest->hi_x, rest->scan_hi_y = rest->hi_y;
  if (r == FXS_OK) r = reinsert(&e, rest);
  if (r == FXS_OK) r = lift_unsupported(&e, rest);
  if (r == FXS_OK) r = delete_orphans(&e, rest);
  m->last_steps = e.work.steps;
  return r;
}

static int rest_valid(const fxs_wall *walls, uint32_t wall_count, const fxs_obstacle *obstacles,
                      uint32_t obstacle_count) {
  return (wall_count == 0 || walls) && (obstacle_count == 0 || obstacles);
}

fxs_result fxs_nav_mesh_remove_wall(fxs_nav_mesh *mesh, const fxs_wall *wall, const fxs_wall *walls,
                                    uint32_t wall_count, const fxs_obstacle *obstacles,
                                    uint32_t obstacle_count) {
  if (!mesh || !wall || !rest_valid(walls, wall_count, obstacles, obstacle_count))
    return FXS_ERR_BAD_VALUE;
  remaining rest = {walls, wall_count, obstacles, obstacle_count, 0, 0, 0, 0, 0, 0, 0, 0, {0, 0}};
  fxs_vec2 ends[2] = {wall->a, wall->b};
  return remove_chain(mesh, ends, same(wall->a, wall->b) ? 1u : 2u, 0, &rest);
}

fxs_result fxs_nav_mesh_remove_obstacle(fxs_nav_mesh *mesh, const fxs_obstacle *obstacle,
                                        const fxs_wall *walls, uint32_t wall_count,
                                        const fxs_obstacle *obstacles, uint32_t obstacle_count) {
  fxs_vec2 poly[FXS_NAV_MESH_OBSTACLE_SIDES];
  if (!mesh || !rest_valid(walls, wall_count, obstacles, obstacle_count) ||
      fxs_nav_mesh_obstacle_polygon(mesh, obstacle, poly) != FXS_OK)
    return FXS_ERR_BAD_VALUE;
  remaining rest = {walls, wall_count, obstacles, obstacle_count, 0, 0, 0, 0, 0, 0, 0, 0, {0, 0}};
  return remove_chain(mesh, poly, FXS_NAV_MESH_OBSTACLE_SIDES, 1, &rest);
}

// The hash of one item; items are summed (mod 2^64), so their order does not count.
static uint64_t item_hash(uint32_t tag, const int32_t *v, unsigned n) {
  fxs_hasher h = fxs_hasher_make();
  fxs_hash_u32(&h, tag);
  for (unsigned k = 0; k < n; k++) fxs_hash_i32(&h, v[k]);
  return h.state;
}

static int before(fxs_vec2 a, fxs_vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

uint64_t fxs_nav_mesh_canonical_digest(const fxs_nav_mesh *mesh) {
  uint64_t vertices = 0, edges = 0;
  for (uint32_t v = 0; v < mesh->vertex_count; v++) {
    int32_t xy[2] = {mesh->vertices[v].x, mesh->vertices[v].y};
    vertices += item_hash(1u, xy, 2);
  }
  for (uint32_t t = 0; t < mesh->triangle_count; t++) {
    const fxs_nav_triangle *T = &mesh->triangles[t];
    for (unsigned i = 0; i < 3; i++) {
      uint32_t u = T->n[i];
      if (u != NONE && u < t) continue; // each edge once
      int32_t flag = (int32_t)((T->constrained >> i) & 1u);
      if (!flag && u != NONE) {
        const fxs_nav_triangle *U = &mesh->triangles[u];
        fxs_vec2 r = at(mesh, U->v[index_of_neighbor(U, t)]);
        if (fxs_mesh_in_circle(at(mesh, T->v[0]), at(mesh, T->v[1]), at(mesh, T->v[2]), r) == 0)
          continue; // a cocircular tie: which diagonal is there depends on history
      }
      fxs_vec2 p = at(mesh, T->v[next3(i)]), q = at(mesh, T->v[prev3(i)]);
      if (before(q, p)) {
        fxs_vec2 s = p;
        p = q, q = s;
      }
      int32_t e[5] = {p.x, p.y, q.x, q.y, flag};
      edges += item_hash(2u, e, 5);
    }
  }
  fxs_hasher h = fxs_hasher_make();
  fxs_hash_i32(&h, mesh->bounds_min.x);
  fxs_hash_i32(&h, mesh->bounds_min.y);
  fxs_hash_i32(&h, mesh->bounds_max.x);
  fxs_hash_i32(&h, mesh->bounds_max.y);
  fxs_hash_u32(&h, mesh->vertex_count);
  fxs_hash_u32(&h, mesh->triangle_count);
  fxs_hash_u64(&h, vertices);
  fxs_hash_u64(&h, edges);
  return h.state;
}
