// The exact search of the mesh routes for a point body (see include/fixsteer/nav_mesh_route.h,
// "The exact search"). A shortest path among walls bends only at mesh vertices, on the side
// of a free sector (the angle between two consecutive constrained edges round the vertex) of
// 180 degrees or more: those sectors are the nodes. A* expands a node by a visibility flood
// through the triangles from its vertex, inside its sector: every node and the goal seen
// strictly inside the flood's cone of rays is a successor. Every decision is an exact
// orientation test on the raw Q16.16 coordinates; lengths are fxs_mesh_route_distance.
#include "nav_mesh_route_exact.h"
#include "mesh_heap.h"

#include "exact.h"
#include "fixsteer/scalar.h"
#include "nav_mesh_exact.h"

#define NONE FXS_NAV_MESH_NONE
#define ST_TOUCHED 1u
#define ST_OPEN 2u
#define ST_CLOSED 4u

uint64_t fxs_mesh_route_distance(fxs_vec2 a, fxs_vec2 b) {
  uint64_t dx = fxs_exact_magnitude((int64_t)b.x - a.x);
  uint64_t dy = fxs_exact_magnitude((int64_t)b.y - a.y);
  if (dx >= (UINT64_C(1) << 31) || dy >= (UINT64_C(1) << 31))
    return 2u * (uint64_t)fxs_isqrt64((dx / 2) * (dx / 2) + (dy / 2) * (dy / 2));
  return fxs_isqrt64(dx * dx + dy * dy);
}

static uint32_t start_node(const fxs_mesh_route *r) { return r->node_capacity - 2u; }
static uint32_t goal_node(const fxs_mesh_route *r) { return r->node_capacity - 1u; }

static fxs_vec2 node_point(const fxs_mesh_route *r, const fxs_nav_mesh *m, uint32_t id) {
  if (id == start_node(r)) return r->start;
  if (id == goal_node(r)) return r->goal;
  return m->vertices[m->triangles[id / 3u].v[id % 3u]];
}

static uint32_t corner_of(const fxs_nav_mesh *m, uint32_t t, uint32_t v) {
  uint32_t j = 0;
  while (j < 3u && m->triangles[t].v[j] != v) j++;
  return j;
}

// The node of the sector round vertex v = triangles[t].v[i] holding triangle t: 3 tc + ic for
// the sector's first triangle tc clockwise (the one whose clockwise side at v is constrained;
// the least 3 t + i round an unconstrained vertex), or NONE when the sector is below 180
// degrees (no shortest path bends there, nor passes straight through v).
static uint32_t sector_node(const fxs_nav_mesh *m, uint32_t t, uint32_t i) {
  uint32_t v = m->triangles[t].v[i], t0 = t, best = 3u * t + i;
  uint32_t guard = m->triangle_count + 1u;
  for (;;) {
    const fxs_nav_triangle *tr = &m->triangles[t];
    uint32_t s = (i + 2u) % 3u; // the side from v to v[i + 1]: clockwise
    uint32_t n = tr->n[s];
    if (((tr->constrained >> s) & 1u) || n == NONE) break;
    uint32_t j = corner_of(m, n, v);
    if (j == 3u || --guard == 0) return NONE;
    t = n;
    i = j;
    if (t == t0) return best; // no constraint round v: one sector of 360 degrees
    if (3u * t + i < best) best = 3u * t + i;
  }
  uint32_t tc = t, ic = i;
  fxs_vec2 c = m->vertices[v], a = m->vertices[m->triangles[t].v[(i + 1u) % 3u]];
  guard = m->triangle_count + 1u;
  for (;;) {
    const fxs_nav_triangle *tr = &m->triangles[t];
    uint32_t s = (i + 1u) % 3u; // the side from v[i + 2] to v: counter-clockwise
    uint32_t n = tr->n[s];
    if (((tr->constrained >> s) & 1u) || n == NONE) break;
    uint32_t j = corner_of(m, n, v);
    if (j == 3u || --guard == 0) return NONE;
    t = n;
    i = j;
  }
  fxs_vec2 b = m->vertices[m->triangles[t].v[(i + 2u) % 3u]];
  return fxs_mesh_orient(c, a, b) <= 0 ? 3u * tc + ic : NONE;
}

// ---- The node heap: (f, h, node), as the triangle search's ----------------------------

static int before(const fxs_mesh_route_open *x, const fxs_mesh_route_open *y) {
  if (x->f != y->f) return x->f < y->f;
  if (x->h != y->h) return x->h < y->h;
  return x->triangle < y->triangle;
}

FXS_MESH_HEAP(open_heap, fxs_mesh_route_open, before)

static void heap_set(fxs_mesh_route *r, uint32_t i, fxs_mesh_route_open e) {
  open_heap_set(r->node_open, r->node_open_at, i, e);
}
static void sift_up(fxs_mesh_route *r, uint32_t i) {
  open_heap_sift_up(r->node_open, r->node_open_at, i);
}
static fxs_mesh_route_open heap_pop(fxs_mesh_route *r) {
  return open_heap_pop(r->node_open, r->node_open_at, &r->node_open_count);
}

// ---- Expansion --------------------------------------------------------------------------

typedef struct expansion {
  fxs_mesh_route *r;
  const fxs_nav_mesh *m;
  uint32_t from; // the node expanded
  fxs_vec2 p;    // its point: the root of the flood
  uint32_t top;  // flood stack entries
  int full;      // the node heap ran out
  int taut;      // successors must make a taut turn round the sector (below)
  fxs_vec2 back; // the parent's point
  fxs_vec2 e1;   // the far end of the sector's clockwise constrained edge
  fxs_vec2 e2;   // the far end of its counter-clockwise constrained edge
} expansion;

// Exact: (b - a) . (c - a) < 0.
static int opposite(fxs_vec2 a, fxs_vec2 b, fxs_vec2 c) {
  fxs_mesh_int x = fxs_mesh_int_mul(fxs_mesh_int_from_i64((int64_t)b.x - a.x),
                                    fxs_mesh_int_from_i64((int64_t)c.x - a.x));
  fxs_mesh_int y = fxs_mesh_int_mul(fxs_mesh_int_from_i64((int64_t)b.y - a.y),
                                    fxs_mesh_int_from_i64((int64_t)c.y - a.y));
  return fxs_mesh_int_sign(fxs_mesh_int_add(x, y)) < 0;
}

// Is the turn back -> v -> w taut: does the shorter arc from the direction of back to that of
// w (both in the sector) run over the constrained side of the vertex, so that no shortcut
// exists? Straight on (the arc of 180 degrees) is allowed. A shortest path turns only so.
static int taut(const expansion *x, fxs_vec2 w) {
  fxs_vec2 v = x->p, b = x->back;
  int o = fxs_mesh_orient(v, b, w);
  if (o == 0) return opposite(v, b, w);
  fxs_vec2 e = o < 0 ? x->e1 : x->e2;
  int oe = fxs_mesh_orient(v, b, e);
  if (oe == -o || (oe == 0 && opposite(v, b, e))) return 0;
  return fxs_mesh_orient(v, e, w) != -o;
}

static void relax(expansion *x, uint32_t to, fxs_vec2 q) {
  fxs_mesh_route *r = x->r;
  if (to == NONE || to == x->from) return;
  if (x->taut && to == goal_node(r) && !taut(x, q)) return;
  uint8_t st = r->node_state[to];
  if (st & ST_CLOSED) return;
  uint64_t g = r->node_g[x->from] + fxs_mesh_route_distance(x->p, q);
  if ((st & ST_OPEN) && g >= r->node_g[to]) return;
  if (!(st & ST_OPEN) && r->node_open_count >= r->open_capacity) {
    x->full = 1;
    return;
  }
  if (st == 0) r->node_touched[r->node_touched_count++] = to;
  r->node_g[to] = g;
  r->node_parent[to] = x->from;
  uint64_t h = fxs_mesh_route_distance(q, r->goal);
  fxs_mesh_route_open e = {g + h, h, to, 0};
  if (st & ST_OPEN) {
    uint32_t at = r->node_open_at[to] - 1u;
    r->node_open[at] = e;
    sift_up(r, at);
  } else {
    r->node_state[to] = (uint8_t)(st | ST_TOUCHED | ST_OPEN);
    r->node_open[r->node_open_count] = e;
    sift_up(r, r->node_open_count++);
  }
}

// The vertex at corner i of triangle t, seen from the root through t's interior.
static void relax_corner(expansion *x, uint32_t t, uint32_t i) {
  fxs_vec2 q = x->m->vertices[x->m->triangles[t].v[i]];
  if (x->taut && !taut(x, q)) return;
  relax(x, sector_node(x->m, t, i), q);
}

// Opens the window across side s of t: the cone (right, left) narrowed to the side's ends
// (a side's first end is its clockwise one seen from outside t), when the side can be
// crossed and the cone stays open.
static void push(expansion *x, uint32_t t, uint32_t s, fxs_vec2 right, fxs_vec2 left) {
  const fxs_nav_triangle *tr = &x->m->triangles[t];
  if (((tr->constrained >> s) & 1u) || tr->n[s] == NONE) return;
  fxs_vec2 a = x->m->vertices[tr->v[(s + 1u) % 3u]], b = x->m->vertices[tr->v[(s + 2u) % 3u]];
  if (fxs_mesh_orient(x->p, right, a) > 0) right = a;
  if (fxs_mesh_orient(x->p, left, b) < 0) left = b;
  if (fxs_mesh_orient(x->p, right, left) <= 0) return;
  if (x->top >= x->r->flood_capacity) return; // bounded: the flood sees less
  fxs_mesh_route_window w = {t, s, right, left};
  x->r->flood[x->top++] = w;
}

static int inside(fxs_vec2 p, fxs_vec2 right, fxs_vec2 left, fxs_vec2 q) {
  return fxs_mesh_orient(p, right, q) > 0 && fxs_mesh_orient(p, left, q) < 0;
}

// Runs the flood from the windows pushed: depth first, the clockwise child first.
static void flood(expansion *x) {
  const fxs_nav_mesh *m = x->m;
  uint64_t windows = 0, most = (uint64_t)FXS_MESH_ROUTE_FLOOD_PER_TRIANGLE * m->triangle_count;
  while (x->top > 0 && windows++ < most) {
    fxs_mesh_route_window w = x->r->flood[--x->top];
    uint32_t u = m->triangles[w.triangle].n[w.side];
    uint32_t bs = 0;
    while (bs < 3u && m->triangles[u].n[bs] != w.triangle) bs++;
    if (bs == 3u) continue;
    if (u == x->r->goal_triangle && inside(x->p, w.right, w.left, x->r->goal))
      relax(x, goal_node(x->r), x->r->goal);
    fxs_vec2 c = m->vertices[m->triangles[u].v[bs]];
    if (inside(x->p, w.right, w.left, c)) relax_corner(x, u, bs);
    push(x, u, (bs + 1u) % 3u, w.right, w.left); // from the right end to c: popped last
    push(x, u, (bs + 2u) % 3u, w.right, w.left);
  }
  x->top = 0;
}

static void expand(expansion *x) {
  fxs_mesh_route *r = x->r;
  const fxs_nav_mesh *m = x->m;
  if (x->from == start_node(r)) {
    uint32_t t = r->start_triangle;
    if (t == r->goal_triangle) relax(x, goal_node(r), r->goal);
    for (uint32_t k = 0; k < 3u; k++) relax_corner(x, t, k);
    for (uint32_t k = 3u; k-- > 0;) {
      const fxs_nav_triangle *tr = &m->triangles[t];
      push(x, t, k, m->vertices[tr->v[(k + 1u) % 3u]], m->vertices[tr->v[(k + 2u) % 3u]]);
    }
    flood(x);
    return;
  }
  // A sector node: its fan of triangles counter-clockwise from the first; its bounds first
  // (none round a vertex without constraints: no turn needs to be taut there).
  uint32_t t = x->from / 3u, i = x->from % 3u, v = m->triangles[t].v[i];
  uint32_t guard = m->triangle_count + 1u;
  x->back = node_point(r, m, r->node_parent[x->from]);
  x->e1 = m->vertices[m->triangles[t].v[(i + 1u) % 3u]];
  x->taut = x->back.x != x->p.x || x->back.y != x->p.y;
  for (uint32_t ft = t, fi = i;;) {
    const fxs_nav_triangle *tr = &m->triangles[ft];
    uint32_t s = (fi + 1u) % 3u, n = tr->n[s];
    if (((tr->constrained >> s) & 1u) || n == NONE) {
      x->e2 = m->vertices[tr->v[(fi + 2u) % 3u]];
      break;
    }
    uint32_t j = corner_of(m, n, v);
    if (j == 3u || 3u * n + j == x->from || --guard == 0) {
      x->taut = 0;
      break;
    }
    ft = n;
    fi = j;
  }
  guard = m->triangle_count + 1u;
  for (;;) {
    const fxs_nav_triangle *tr = &m->triangles[t];
    if (t == r->goal_triangle) relax(x, goal_node(r), r->goal);
    relax_corner(x, t, (i + 1u) % 3u);
    relax_corner(x, t, (i + 2u) % 3u);
    push(x, t, i, m->vertices[tr->v[(i + 1u) % 3u]], m->vertices[tr->v[(i + 2u) % 3u]]);
    flood(x);
    uint32_t s = (i + 1u) % 3u, n = tr->n[s];
    if (((tr->constrained >> s) & 1u) || n == NONE || --guard == 0) break;
    uint32_t j = corner_of(m, n, v);
    if (j == 3u || 3u * n + j == x->from) break;
    t = n;
    i = j;
  }
}

void fxs_mesh_exact_begin(fxs_mesh_route *r) {
  for (uint32_t k = 0; k < r->node_touched_count; k++) {
    uint32_t id = r->node_touched[k];
    r->node_state[id] = 0;
    r->node_open_at[id] = 0;
  }
  r->node_touched_count = 0;
  r->node_open_count = 0;
  uint32_t s = start_node(r);
  r->node_touched[r->node_touched_count++] = s;
  r->node_state[s] = ST_TOUCHED | ST_OPEN;
  r->node_g[s] = 0;
  r->node_parent[s] = NONE;
  uint64_t h = fxs_mesh_route_distance(r->start, r->goal);
  fxs_mesh_route_open e = {h, h, s, 0};
  r->node_open_count = 1;
  heap_set(r, 0, e);
}

int fxs_mesh_exact_step(fxs_mesh_route *r, const fxs_nav_mesh *m, uint32_t *budget) {
  while (*budget > 0) {
    if (r->node_open_count == 0) return -1;
    fxs_mesh_route_open top = heap_pop(r);
    uint32_t id = top.triangle;
    r->node_state[id] = (uint8_t)((r->node_state[id] & ~ST_OPEN) | ST_CLOSED);
    --*budget;
    r->expanded++;
    if (id == goal_node(r)) return 1;
    expansion x = {r, m, id, node_point(r, m, id), 0, 0, 0, {0, 0}, {0, 0}, {0, 0}};
    expand(&x);
    if (x.full) return -1;
  }
  return 0;
}

uint32_t fxs_mesh_exact_points(fxs_mesh_route *r, const fxs_nav_mesh *m, fxs_vec2 *points,
                               uint32_t capacity) {
  uint32_t n = 0, room = r->triangle_capacity + 2u;
  for (uint32_t id = goal_node(r); id != NONE && n < room; id = r->node_parent[id])
    r->corner[n++] = node_point(r, m, id);
  uint32_t out = 0;
  for (uint32_t k = n; k-- > 0;) {
    fxs_vec2 q = r->corner[k];
    if (out > 0 && out - 1u < capacity && points[out - 1u].x == q.x && points[out - 1u].y == q.y)
      continue;
    if (points && out < capacity) points[out] = q;
    out++;
  }
  return out;
}
