// Incremental constrained Delaunay triangulation. Points: locate, split a triangle (or an
// edge), then Lawson flips. Constraints: walk from one end across the triangles the segment
// crosses, then flip the crossed edges away (a quad that is not convex waits in the queue
// for its neighbors to change), then restore the Delaunay property among the new edges only
// (the triangles outside the crossed region stay what they were). Every loop is bounded by
// the mesh's step budget; every decision is an exact predicate (nav_mesh_exact.h).
#include "nav_mesh_insert.h"

#include "nav_mesh_exact.h"

#define NONE FXS_NAV_MESH_NONE

static unsigned next3(unsigned i) { return i == 2u ? 0u : i + 1u; }
static unsigned prev3(unsigned i) { return i == 0u ? 2u : i - 1u; }

// Scratch layout: the flip stack (one word per triangle), the pending pieces (4 * vertices
// pairs), the crossed-edge queue and the new-edge list (3 * vertices pairs each).
uint64_t fxs_mesh_scratch_words(uint64_t vertices) {
  return (2 * vertices) + 8 * vertices + 6 * vertices + 6 * vertices;
}

typedef struct lists {
  uint32_t *flip, flip_cap, flip_top;
  uint32_t *pending, pending_cap, pending_top;         // pairs
  uint32_t *queue, queue_cap, queue_head, queue_count; // pairs, circular
  uint32_t *fresh, fresh_cap, fresh_count;             // pairs
} lists;

static lists lists_of(const fxs_nav_mesh *m) {
  lists l;
  uint32_t v = m->vertex_capacity;
  l.flip = m->scratch;
  l.flip_cap = 2 * v;
  l.pending = l.flip + l.flip_cap;
  l.pending_cap = 4 * v;
  l.queue = l.pending + 2 * l.pending_cap;
  l.queue_cap = 3 * v;
  l.fresh = l.queue + 2 * l.queue_cap;
  l.fresh_cap = 3 * v;
  l.flip_top = l.pending_top = l.queue_head = l.queue_count = l.fresh_count = 0;
  return l;
}

static int spend(fxs_mesh_work *w) { return ++w->steps <= w->mesh->step_limit; }

static int has_vertex(const fxs_nav_triangle *t, uint32_t v) {
  return t->v[0] == v || t->v[1] == v || t->v[2] == v;
}

// The position of a vertex the triangle holds (callers know it does: 2 otherwise).
static unsigned index_of(const fxs_nav_triangle *t, uint32_t v) {
  return t->v[0] == v ? 0u : t->v[1] == v ? 1u : 2u;
}

// The side across which n lies (callers know n is a neighbor: 2 otherwise).
static unsigned index_of_neighbor(const fxs_nav_triangle *t, uint32_t n) {
  return t->n[0] == n ? 0u : t->n[1] == n ? 1u : 2u;
}

static void set_tri(fxs_nav_mesh *m, uint32_t t, uint32_t a, uint32_t b, uint32_t c, uint32_t na,
                    uint32_t nb, uint32_t nc, uint32_t constrained) {
  fxs_nav_triangle *tri = &m->triangles[t];
  tri->v[0] = a;
  tri->v[1] = b;
  tri->v[2] = c;
  tri->n[0] = na;
  tri->n[1] = nb;
  tri->n[2] = nc;
  tri->constrained = constrained;
  m->vertex_triangle[a] = m->vertex_triangle[b] = m->vertex_triangle[c] = t;
}

static void relink(fxs_nav_mesh *m, uint32_t x, uint32_t old, uint32_t now) {
  if (x == NONE) return;
  m->triangles[x].n[index_of_neighbor(&m->triangles[x], old)] = now;
}

static uint32_t bit(const fxs_nav_triangle *t, unsigned i) { return (t->constrained >> i) & 1u; }

// Sets (on = 1) or clears the constraint flag of side i of t on both of its triangles.
static void mark_edge(fxs_nav_mesh *m, uint32_t t, unsigned i, int on) {
  fxs_nav_triangle *tri = &m->triangles[t];
  uint32_t u = tri->n[i];
  if (on) tri->constrained |= 1u << i;
  else tri->constrained &= ~(1u << i);
  if (u == NONE) return;
  unsigned j = index_of_neighbor(&m->triangles[u], t);
  if (on) m->triangles[u].constrained |= 1u << j;
  else m->triangles[u].constrained &= ~(1u << j);
}

// Flips side i of t (its quad must be strictly convex). Afterwards t = (p0, p1, q) and
// u = (p0, q, p2), where t was (p0, p1, p2) and q is the vertex of u across the side.
static void flip(fxs_nav_mesh *m, uint32_t t, unsigned i) {
  fxs_nav_triangle *T = &m->triangles[t];
  uint32_t p0 = T->v[i], p1 = T->v[next3(i)], p2 = T->v[prev3(i)];
  uint32_t a = T->n[next3(i)], b = T->n[prev3(i)], u = T->n[i];
  uint32_t fa = bit(T, next3(i)), fb = bit(T, prev3(i));
  fxs_nav_triangle *U = &m->triangles[u];
  unsigned j = index_of_neighbor(U, t);
  uint32_t q = U->v[j], c = U->n[next3(j)], d = U->n[prev3(j)];
  uint32_t fc = bit(U, next3(j)), fd = bit(U, prev3(j));
  set_tri(m, t, p0, p1, q, c, u, b, fc | (fb << 2));
  set_tri(m, u, p0, q, p2, d, a, t, fd | (fa << 1));
  relink(m, c, u, t);
  relink(m, a, t, u);
}

// The triangles around vertex p: counter-clockwise from vertex_triangle[p]; when the fan
// meets the bounds, clockwise from the start. At most triangle_count + 1 triangles.
typedef struct fan {
  uint32_t start, t, left;
  int clockwise;
} fan;

static uint32_t fan_begin(const fxs_nav_mesh *m, uint32_t p, fan *f) {
  f->start = f->t = m->vertex_triangle[p];
  f->clockwise = 0;
  f->left = m->triangle_count + 1;
  return f->t;
}

static uint32_t fan_next(const fxs_nav_mesh *m, uint32_t p, fan *f) {
  if (f->left-- == 0) return NONE;
  const fxs_nav_triangle *T = &m->triangles[f->t];
  if (!has_vertex(T, p)) return NONE;
  unsigned k = index_of(T, p);
  if (!f->clockwise) {
    uint32_t n = T->n[next3(k)];
    if (n == f->start) return NONE;
    if (n != NONE) return f->t = n;
    f->clockwise = 1;
    T = &m->triangles[f->start];
    k = index_of(T, p);
  }
  uint32_t n = T->n[prev3(k)];
  if (n == NONE) return NONE;
  return f->t = n;
}

// The triangle and side holding the edge p-q, or 0 when there is none.
static int find_edge(const fxs_nav_mesh *m, uint32_t p, uint32_t q, uint32_t *t, unsigned *i) {
  fan f;
  for (uint32_t x = fan_begin(m, p, &f); x != NONE; x = fan_next(m, p, &f)) {
    const fxs_nav_triangle *T = &m->triangles[x];
    if (!has_vertex(T, q)) continue;
    *t = x;
    *i = 3u - index_of(T, p) - index_of(T, q);
    return 1;
  }
  return 0;
}

static const fxs_vec2 *vtx(const fxs_nav_mesh *m, uint32_t v) { return &m->vertices[v]; }

uint32_t fxs_mesh_locate(const fxs_nav_mesh *m, fxs_vec2 p, uint32_t start, int *kind,
                         unsigned *index) {
  uint32_t t = start < m->triangle_count ? start : 0;
  int o[3];
  for (uint32_t s = 0;; s++) {
    if (s > m->triangle_count) {
      // The walk may circle in a constrained triangulation: scan in index order.
      for (t = 0; t < m->triangle_count; t++) {
        const fxs_nav_triangle *T = &m->triangles[t];
        unsigned i = 0;
        for (; i < 3; i++) {
          o[i] = fxs_mesh_orient(*vtx(m, T->v[next3(i)]), *vtx(m, T->v[prev3(i)]), p);
          if (o[i] < 0) break;
        }
        if (i == 3) break;
      }
      if (t == m->triangle_count) return NONE;
      break;
    }
    const fxs_nav_triangle *T = &m->triangles[t];
    uint32_t go = t;
    for (unsigned r = 0; r < 3 && go == t; r++) {
      unsigned i = (unsigned)((s + r) % 3u);
      o[i] = fxs_mesh_orient(*vtx(m, T->v[next3(i)]), *vtx(m, T->v[prev3(i)]), p);
      if (o[i] < 0) go = T->n[i];
    }
    if (go == NONE) return NONE;
    if (go == t) break;
    t = go;
  }
  const fxs_nav_triangle *T = &m->triangles[t];
  for (unsigned i = 0; i < 3; i++)
    o[i] = fxs_mesh_orient(*vtx(m, T->v[next3(i)]), *vtx(m, T->v[prev3(i)]), p);
  *kind = 0;
  *index = 0;
  for (unsigned i = 0; i < 3; i++) {
    if (o[i] != 0) continue;
    if (*kind == 1) {
      // On two sides: at the vertex they share, the one opposite the third side.
      *kind = 2;
      *index = 3u - *index - i;
      break;
    }
    *kind = 1;
    *index = i;
  }
  return t;
}

static fxs_result push_flip(lists *l, uint32_t t) {
  if (l->flip_top >= l->flip_cap) return FXS_ERR_LIMIT;
  l->flip[l->flip_top++] = t;
  return FXS_OK;
}

// Lawson flips around the new vertex p over the triangles on the flip stack.
static fxs_result legalize(fxs_mesh_work *w, lists *l, uint32_t p) {
  fxs_nav_mesh *m = w->mesh;
  while (l->flip_top > 0) {
    uint32_t t = l->flip[--l->flip_top];
    const fxs_nav_triangle *T = &m->triangles[t];
    if (!has_vertex(T, p)) continue;
    unsigned k = index_of(T, p);
    if (bit(T, k) || T->n[k] == NONE) continue;
    uint32_t u = T->n[k];
    const fxs_nav_triangle *U = &m->triangles[u];
    uint32_t q = U->v[index_of_neighbor(U, t)];
    if (fxs_mesh_in_circle(*vtx(m, T->v[0]), *vtx(m, T->v[1]), *vtx(m, T->v[2]), *vtx(m, q)) <= 0)
      continue;
    if (!spend(w)) return FXS_ERR_LIMIT;
    flip(m, t, k);
    if (push_flip(l, t) != FXS_OK || push_flip(l, u) != FXS_OK) return FXS_ERR_LIMIT;
  }
  return FXS_OK;
}

static void split_inside(fxs_nav_mesh *m, lists *l, uint32_t t, uint32_t p) {
  fxs_nav_triangle T = m->triangles[t];
  uint32_t t1 = m->triangle_count, t2 = t1 + 1;
  m->triangle_count += 2;
  set_tri(m, t, T.v[0], T.v[1], p, t1, t2, T.n[2], bit(&T, 2) << 2);
  set_tri(m, t1, T.v[1], T.v[2], p, t2, t, T.n[0], bit(&T, 0) << 2);
  set_tri(m, t2, T.v[2], T.v[0], p, t, t1, T.n[1], bit(&T, 1) << 2);
  relink(m, T.n[0], t, t1);
  relink(m, T.n[1], t, t2);
  l->flip[l->flip_top++] = t;
  l->flip[l->flip_top++] = t1;
  l->flip[l->flip_top++] = t2;
}

// p on side i of t (from b to c, t = (a, b, c)); u across it, if any, is (d, c, b).
static void split_edge(fxs_nav_mesh *m, lists *l, uint32_t t, unsigned i, uint32_t p) {
  fxs_nav_triangle T = m->triangles[t];
  uint32_t a = T.v[i], b = T.v[next3(i)], c = T.v[prev3(i)], u = T.n[i];
  uint32_t na = T.n[next3(i)], nb = T.n[prev3(i)], f = bit(&T, i);
  uint32_t t2 = m->triangle_count++, u2 = NONE;
  if (u != NONE) {
    fxs_nav_triangle U = m->triangles[u];
    unsigned j = index_of_neighbor(&U, t);
    uint32_t d = U.v[j], nc = U.n[next3(j)], nd = U.n[prev3(j)];
    u2 = m->triangle_count++;
    set_tri(m, u, d, c, p, t2, u2, nd, f | (bit(&U, prev3(j)) << 2));
    set_tri(m, u2, d, p, b, t, nc, u, f | (bit(&U, next3(j)) << 1));
    relink(m, nc, u, u2);
  }
  set_tri(m, t, a, b, p, u2, t2, nb, f | (bit(&T, prev3(i)) << 2));
  set_tri(m, t2, a, p, c, u, na, t, f | (bit(&T, next3(i)) << 1));
  relink(m, na, t, t2);
  l->flip[l->flip_top++] = t;
  l->flip[l->flip_top++] = t2;
  if (u != NONE) {
    l->flip[l->flip_top++] = u;
    l->flip[l->flip_top++] = u2;
  }
}

fxs_result fxs_mesh_insert_point(fxs_mesh_work *w, fxs_vec2 p, uint32_t *vertex) {
  fxs_nav_mesh *m = w->mesh;
  int kind;
  unsigned i;
  uint32_t start = m->vertex_triangle[m->vertex_count - 1];
  uint32_t t = fxs_mesh_locate(m, p, start, &kind, &i);
  if (!spend(w)) return FXS_ERR_LIMIT;
  if (t == NONE) return FXS_ERR_BAD_VALUE;
  if (kind == 2) {
    *vertex = m->triangles[t].v[i];
    return FXS_OK;
  }
  if (m->vertex_count >= m->vertex_capacity || m->triangle_count + 2 > m->triangle_capacity)
    return FXS_ERR_CAPACITY;
  uint32_t v = m->vertex_count++;
  m->vertices[v] = p;
  lists l = lists_of(m);
  if (kind == 0) split_inside(m, &l, t, v);
  else split_edge(m, &l, t, i, v);
  *vertex = v;
  return legalize(w, &l, v);
}

static fxs_result push_pair(uint32_t *list, uint32_t cap, uint32_t *count, uint32_t p, uint32_t q) {
  if (*count >= cap) return FXS_ERR_LIMIT;
  list[2 * *count] = p;
  list[2 * *count + 1] = q;
  ++*count;
  return FXS_OK;
}

static fxs_result queue_push(lists *l, uint32_t p, uint32_t q) {
  if (l->queue_count >= l->queue_cap) return FXS_ERR_LIMIT;
  uint32_t slot = (l->queue_head + l->queue_count++) % l->queue_cap;
  l->queue[2 * slot] = p;
  l->queue[2 * slot + 1] = q;
  return FXS_OK;
}

static void queue_pop(lists *l, uint32_t *p, uint32_t *q) {
  *p = l->queue[2 * l->queue_head];
  *q = l->queue[2 * l->queue_head + 1];
  l->queue_head = (l->queue_head + 1) % l->queue_cap;
  l->queue_count--;
}

// True when the nonzero vectors from a to p and from a to b (collinear) point the same way.
static int same_direction(fxs_vec2 a, fxs_vec2 p, fxs_vec2 b) {
  int sx1 = (p.x > a.x) - (p.x < a.x), sy1 = (p.y > a.y) - (p.y < a.y);
  int sx2 = (b.x > a.x) - (b.x < a.x), sy2 = (b.y > a.y) - (b.y < a.y);
  return sx1 == sx2 && sy1 == sy2;
}

// The first step of a piece a-b: at a, either the edge a-b or an edge to a vertex on the
// segment (marked; the rest pushed as a piece: result 1), or the triangle *t whose side
// *i (opposite a) the segment crosses (result 0). -1: no such triangle (a broken mesh).
static int leave_vertex(fxs_mesh_work *w, lists *l, uint32_t a, uint32_t b, uint32_t *t,
                        unsigned *i, fxs_result *r) {
  fxs_nav_mesh *m = w->mesh;
  fan f;
  fxs_vec2 A = *vtx(m, a), B = *vtx(m, b);
  *r = FXS_OK;
  for (uint32_t x = fan_begin(m, a, &f); x != NONE; x = fan_next(m, a, &f)) {
    const fxs_nav_triangle *T = &m->triangles[x];
    unsigned k = index_of(T, a);
    uint32_t v1 = T->v[next3(k)], v2 = T->v[prev3(k)];
    int o1 = v1 == b ? 0 : fxs_mesh_orient(A, *vtx(m, v1), B);
    int o2 = v2 == b ? 0 : fxs_mesh_orient(A, *vtx(m, v2), B);
    if (o1 == 0 && same_direction(A, *vtx(m, v1), B)) {
      mark_edge(m, x, prev3(k), 1);
      if (v1 != b) *r = push_pair(l->pending, l->pending_cap, &l->pending_top, v1, b);
      return 1;
    }
    if (o2 == 0 && same_direction(A, *vtx(m, v2), B)) {
      mark_edge(m, x, next3(k), 1);
      if (v2 != b) *r = push_pair(l->pending, l->pending_cap, &l->pending_top, v2, b);
      return 1;
    }
    if (o1 > 0 && o2 < 0) {
      *t = x;
      *i = k;
      return 0;
    }
  }
  return -1;
}

// Lawson flips from the unconstrained edge p-q outward: each flip queues the four sides of
// its quad, until every queued edge is locally Delaunay (used where a constraint is lifted).
static fxs_result restore_around(fxs_mesh_work *w, lists *l, uint32_t p, uint32_t q) {
  fxs_nav_mesh *m = w->mesh;
  l->queue_head = l->queue_count = 0;
  fxs_result r = queue_push(l, p, q);
  while (r == FXS_OK && l->queue_count > 0) {
    uint32_t t;
    unsigned i;
    queue_pop(l, &p, &q);
    if (!find_edge(m, p, q, &t, &i)) continue; // flipped away meanwhile
    const fxs_nav_triangle *T = &m->triangles[t];
    if (bit(T, i) || T->n[i] == NONE) continue;
    uint32_t u = T->n[i], o = T->v[i];
    const fxs_nav_triangle *U = &m->triangles[u];
    uint32_t v = U->v[index_of_neighbor(U, t)];
    if (fxs_mesh_in_circle(*vtx(m, T->v[0]), *vtx(m, T->v[1]), *vtx(m, T->v[2]), *vtx(m, v)) <= 0)
      continue;
    if (!spend(w)) return FXS_ERR_LIMIT;
    flip(m, t, i);
    r = queue_push(l, T->v[1], v);
    if (r == FXS_OK) r = queue_push(l, v, m->triangles[u].v[2]);
    if (r == FXS_OK) r = queue_push(l, m->triangles[u].v[2], o);
    if (r == FXS_OK) r = queue_push(l, o, T->v[1]);
  }
  return r;
}

// The first of a, b, p, q nearest to X when it is within one raw unit on both axes, else
// NONE. Snapping a rounded crossing to an end that close keeps nearly parallel constraints
// meeting near a vertex from making new vertices one unit apart without end.
static uint32_t snap_to_end(const fxs_nav_mesh *m, fxs_vec2 X, uint32_t a, uint32_t b, uint32_t p,
                            uint32_t q) {
  const uint32_t ends[4] = {a, b, p, q};
  uint32_t best = NONE;
  int64_t best_d = 2;
  for (int k = 0; k < 4; k++) {
    int64_t dx = (int64_t)vtx(m, ends[k])->x - X.x, dy = (int64_t)vtx(m, ends[k])->y - X.y;
    int64_t d = dx < 0 ? -dx : dx, e = dy < 0 ? -dy : dy;
    if (e > d) d = e;
    if (d < best_d) {
      best_d = d;
      best = ends[k];
    }
  }
  return best;
}

// A constraint p-q (side i of t) crosses the piece a-b: both become chains through their
// crossing point rounded to the grid. Pieces pushed so that p-x, x-q come first. The lifted
// edge p-q is made Delaunay again first (a constraint need not have been).
static fxs_result split_crossing(fxs_mesh_work *w, lists *l, uint32_t a, uint32_t b, uint32_t t,
                                 unsigned i) {
  fxs_nav_mesh *m = w->mesh;
  const fxs_nav_triangle *T = &m->triangles[t];
  uint32_t p = T->v[next3(i)], q = T->v[prev3(i)], x;
  if (m->vertex_count >= m->vertex_capacity || m->triangle_count + 2 > m->triangle_capacity)
    return FXS_ERR_CAPACITY;
  fxs_vec2 X = fxs_mesh_crossing_point(*vtx(m, a), *vtx(m, b), *vtx(m, p), *vtx(m, q));
  int exact = fxs_mesh_orient(*vtx(m, a), *vtx(m, b), X) == 0 &&
              fxs_mesh_orient(*vtx(m, p), *vtx(m, q), X) == 0;
  x = exact ? NONE : snap_to_end(m, X, a, b, p, q);
  mark_edge(m, t, i, 0);
  fxs_result r = restore_around(w, l, p, q);
  if (r == FXS_OK && x == NONE) r = fxs_mesh_insert_point(w, X, &x);
  if (r != FXS_OK) return r;
  uint32_t *pl = l->pending, cap = l->pending_cap, *top = &l->pending_top;
  if ((r = push_pair(pl, cap, top, x, b)) != FXS_OK) return r;
  if ((r = push_pair(pl, cap, top, a, x)) != FXS_OK) return r;
  if ((r = push_pair(pl, cap, top, x, q)) != FXS_OK) return r;
  return push_pair(pl, cap, top, p, x);
}

// Walks from triangle t (side i crossed, opposite a) toward b, queueing the crossed edges.
// Result 1: a constraint crossed (side *ci of *ct), 0: the walk reached *b (maybe shortened
// to a vertex on the segment, the rest pushed as a piece).
static fxs_result walk_crossed(fxs_mesh_work *w, lists *l, uint32_t a, uint32_t *b, uint32_t t,
                               unsigned i, uint32_t *ct, unsigned *ci, int *crossed) {
  fxs_nav_mesh *m = w->mesh;
  fxs_vec2 A = *vtx(m, a), B = *vtx(m, *b);
  uint32_t right = m->triangles[t].v[next3(i)], left = m->triangles[t].v[prev3(i)];
  *crossed = 0;
  for (;;) {
    if (!spend(w)) return FXS_ERR_LIMIT;
    const fxs_nav_triangle *T = &m->triangles[t];
    if (bit(T, i) || T->n[i] == NONE) {
      *crossed = 1;
      *ct = t;
      *ci = i;
      return FXS_OK;
    }
    fxs_result r = queue_push(l, right, left);
    if (r != FXS_OK) return r;
    uint32_t u = T->n[i];
    const fxs_nav_triangle *U = &m->triangles[u];
    uint32_t v = U->v[index_of_neighbor(U, t)];
    if (v == *b) return FXS_OK;
    int o = fxs_mesh_orient(A, B, *vtx(m, v));
    if (o == 0) {
      r = push_pair(l->pending, l->pending_cap, &l->pending_top, v, *b);
      *b = v;
      return r;
    }
    if (o > 0) {
      i = index_of(U, left);
      left = v;
    } else {
      i = index_of(U, right);
      right = v;
    }
    t = u;
  }
}

// Flips the queued crossed edges away (Sloan's order: a quad that is not strictly convex
// goes back to the end of the queue); edges no longer crossing a-b go to the fresh list.
static fxs_result flip_crossed(fxs_mesh_work *w, lists *l, uint32_t a, uint32_t b) {
  fxs_nav_mesh *m = w->mesh;
  fxs_vec2 A = *vtx(m, a), B = *vtx(m, b);
  while (l->queue_count > 0) {
    uint32_t p, q, t;
    unsigned i;
    if (!spend(w)) return FXS_ERR_LIMIT;
    queue_pop(l, &p, &q);
    if (!find_edge(m, p, q, &t, &i)) return FXS_ERR_LIMIT;
    const fxs_nav_triangle *T = &m->triangles[t];
    uint32_t o = T->v[i], u = T->n[i];
    const fxs_nav_triangle *U = &m->triangles[u];
    uint32_t r = U->v[index_of_neighbor(U, t)];
    int s1 = fxs_mesh_orient(*vtx(m, o), *vtx(m, r), *vtx(m, p));
    int s2 = fxs_mesh_orient(*vtx(m, o), *vtx(m, r), *vtx(m, q));
    fxs_result res;
    if (s1 * s2 >= 0) {
      res = queue_push(l, p, q);
    } else {
      flip(m, t, i);
      int still = o != a && o != b && r != a && r != b &&
                  fxs_mesh_orient(A, B, *vtx(m, o)) * fxs_mesh_orient(A, B, *vtx(m, r)) < 0;
      res = still ? queue_push(l, o, r) : push_pair(l->fresh, l->fresh_cap, &l->fresh_count, o, r);
    }
    if (res != FXS_OK) return res;
  }
  return FXS_OK;
}

// Lawson flips among the fresh edges until none is illegal (the crossed region only).
static fxs_result restore_fresh(fxs_mesh_work *w, lists *l) {
  fxs_nav_mesh *m = w->mesh;
  int changed = 1;
  while (changed) {
    changed = 0;
    for (uint32_t k = 0; k < l->fresh_count; k++) {
      uint32_t t;
      unsigned i;
      if (!find_edge(m, l->fresh[2 * k], l->fresh[2 * k + 1], &t, &i)) return FXS_ERR_LIMIT;
      const fxs_nav_triangle *T = &m->triangles[t];
      if (bit(T, i) || T->n[i] == NONE) continue;
      uint32_t o = T->v[i], u = T->n[i];
      const fxs_nav_triangle *U = &m->triangles[u];
      uint32_t r = U->v[index_of_neighbor(U, t)];
      if (fxs_mesh_in_circle(*vtx(m, T->v[0]), *vtx(m, T->v[1]), *vtx(m, T->v[2]), *vtx(m, r)) <= 0)
        continue;
      if (!spend(w)) return FXS_ERR_LIMIT;
      flip(m, t, i);
      l->fresh[2 * k] = o;
      l->fresh[2 * k + 1] = r;
      changed = 1;
    }
  }
  return FXS_OK;
}

static fxs_result insert_piece(fxs_mesh_work *w, lists *l, uint32_t a, uint32_t b) {
  fxs_nav_mesh *m = w->mesh;
  uint32_t t, ct;
  unsigned i, ci;
  fxs_result r;
  int crossed;
  int left = leave_vertex(w, l, a, b, &t, &i, &r);
  if (left != 0) return left < 0 ? FXS_ERR_LIMIT : r;
  l->queue_head = l->queue_count = l->fresh_count = 0;
  if ((r = walk_crossed(w, l, a, &b, t, i, &ct, &ci, &crossed)) != FXS_OK) return r;
  if (crossed) return split_crossing(w, l, a, b, ct, ci);
  if ((r = flip_crossed(w, l, a, b)) != FXS_OK) return r;
  if (!find_edge(m, a, b, &t, &i)) return FXS_ERR_LIMIT;
  mark_edge(m, t, i, 1);
  return restore_fresh(w, l);
}

fxs_result fxs_mesh_insert_segment(fxs_mesh_work *w, uint32_t a, uint32_t b) {
  lists l = lists_of(w->mesh);
  fxs_result r = push_pair(l.pending, l.pending_cap, &l.pending_top, a, b);
  while (r == FXS_OK && l.pending_top > 0) {
    l.pending_top--;
    uint32_t p = l.pending[2 * l.pending_top], q = l.pending[2 * l.pending_top + 1];
    if (p == q) continue;
    if (!spend(w)) return FXS_ERR_LIMIT;
    r = insert_piece(w, &l, p, q);
  }
  return r;
}

void fxs_mesh_flip(fxs_nav_mesh *mesh, uint32_t t, unsigned i) { flip(mesh, t, i); }

void fxs_mesh_mark_edge(fxs_nav_mesh *mesh, uint32_t t, unsigned i, int on) {
  mark_edge(mesh, t, i, on);
}

int fxs_mesh_find_edge(const fxs_nav_mesh *mesh, uint32_t p, uint32_t q, uint32_t *t, unsigned *i) {
  return find_edge(mesh, p, q, t, i);
}
