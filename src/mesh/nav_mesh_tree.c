// The uniform-cost tree of a mesh world's group fields: see nav_mesh_tree.h for the rules and
// the order.
#include "nav_mesh_tree.h"
#include "mesh_heap.h"

#include <string.h>

#include "nav_mesh_exact.h"
#include "nav_mesh_route_exact.h"

#define NONE FXS_NAV_MESH_NONE
#define ST_OPEN 2u
#define ST_SETTLED 4u

static size_t align8(size_t n) { return (n + 7u) & ~(size_t)7u; }

size_t fxs_mesh_tree_memory_size(uint32_t capacity) {
  size_t t = capacity;
  return align8(t * sizeof(uint64_t)) + align8(t * sizeof(uint32_t)) * 2u + align8(t) +
         align8(t * sizeof(fxs_mesh_tree_open));
}

void fxs_mesh_tree_init(fxs_mesh_tree *tree, void *memory, uint32_t capacity) {
  uint8_t *at = (uint8_t *)memory;
  size_t t = capacity;
  memset(tree, 0, sizeof *tree);
  tree->capacity = capacity;
  tree->cost = (uint64_t *)(void *)at;
  at += align8(t * sizeof(uint64_t));
  tree->parent = (uint32_t *)(void *)at;
  at += align8(t * sizeof(uint32_t));
  tree->open_at = (uint32_t *)(void *)at;
  at += align8(t * sizeof(uint32_t));
  tree->state = at;
  at += align8(t);
  tree->open = (fxs_mesh_tree_open *)(void *)at;
  tree->status = FXS_MESH_TREE_IDLE;
}

static fxs_vec2 vtx(const fxs_nav_mesh *m, uint32_t t, uint32_t i) {
  return m->vertices[m->triangles[t].v[i % 3u]];
}

static uint32_t side_to(const fxs_nav_mesh *m, uint32_t t, uint32_t n) {
  uint32_t s = 0;
  while (s < 3u && m->triangles[t].n[s] != n) s++;
  return s;
}

// The middle of side s of triangle t (sums halved toward zero).
static fxs_vec2 side_middle(const fxs_nav_mesh *m, uint32_t t, uint32_t s) {
  fxs_vec2 a = vtx(m, t, s + 1u), b = vtx(m, t, s + 2u);
  return fxs_vec2_make((fix16_t)(((int64_t)a.x + b.x) / 2), (fix16_t)(((int64_t)a.y + b.y) / 2));
}

// The point of triangle t in the tree (file comment of the header).
static fxs_vec2 point_of(const fxs_mesh_tree *tree, const fxs_nav_mesh *m, uint32_t t) {
  if (t == tree->goal) {
    fxs_vec2 a = vtx(m, t, 0), b = vtx(m, t, 1), c = vtx(m, t, 2);
    return fxs_vec2_make((fix16_t)(((int64_t)a.x + b.x + c.x) / 3),
                         (fix16_t)(((int64_t)a.y + b.y + c.y) / 3));
  }
  return side_middle(m, t, side_to(m, t, tree->parent[t]));
}

static int before(const fxs_mesh_tree_open *x, const fxs_mesh_tree_open *y) {
  if (x->cost != y->cost) return x->cost < y->cost;
  return x->triangle < y->triangle;
}

FXS_MESH_HEAP(open_heap, fxs_mesh_tree_open, before)

static void heap_set(fxs_mesh_tree *r, uint32_t i, fxs_mesh_tree_open e) {
  open_heap_set(r->open, r->open_at, i, e);
}
static void sift_up(fxs_mesh_tree *r, uint32_t i) { open_heap_sift_up(r->open, r->open_at, i); }
static fxs_mesh_tree_open heap_pop(fxs_mesh_tree *r) {
  return open_heap_pop(r->open, r->open_at, &r->open_count);
}

void fxs_mesh_tree_begin(fxs_mesh_tree *tree, const fxs_nav_mesh *mesh, uint32_t goal,
                         fix16_t radius) {
  uint32_t tc = mesh->triangle_count;
  memset(tree->state, 0, tc);
  memset(tree->open_at, 0, (size_t)tc * sizeof *tree->open_at);
  tree->triangle_count = tc;
  tree->goal = goal;
  tree->diameter = 2 * (int64_t)(radius > 0 ? radius : 0);
  tree->settled = 0;
  tree->cost[goal] = 0;
  tree->parent[goal] = NONE;
  fxs_mesh_tree_open e = {0, goal, 0};
  tree->open_count = 1;
  heap_set(tree, 0, e);
  tree->state[goal] = ST_OPEN;
  tree->status = FXS_MESH_TREE_BUILDING;
}

// Settles the cheapest open triangle and opens (or lowers) its neighbours.
static void settle(fxs_mesh_tree *tree, const fxs_nav_mesh *m) {
  fxs_mesh_tree_open top = heap_pop(tree);
  uint32_t t = top.triangle;
  tree->state[t] = ST_SETTLED;
  tree->settled++;
  const fxs_nav_triangle *tr = &m->triangles[t];
  uint32_t in = tree->parent[t] == NONE ? 3u : side_to(m, t, tree->parent[t]);
  fxs_vec2 p = point_of(tree, m, t);
  int64_t d = tree->diameter;
  for (uint32_t s = 0; s < 3u; s++) {
    uint32_t n = tr->n[s];
    if (n == NONE || ((tr->constrained >> s) & 1u) || s == in) continue;
    if (tree->state[n] & ST_SETTLED) continue;
    if (!fxs_mesh_route_length_at_least(vtx(m, t, s + 1u), vtx(m, t, s + 2u), d)) continue;
    if (in < 3u && d > 0 && !fxs_mesh_route_traversal_clear(m, t, in, s, d)) continue;
    uint64_t cost = top.cost + fxs_mesh_route_distance(p, side_middle(m, t, s));
    if ((tree->state[n] & ST_OPEN) && cost >= tree->cost[n]) continue;
    tree->cost[n] = cost;
    tree->parent[n] = t;
    fxs_mesh_tree_open e = {cost, n, 0};
    if (tree->state[n] & ST_OPEN) {
      uint32_t at = tree->open_at[n] - 1u;
      tree->open[at] = e;
      sift_up(tree, at);
    } else { // at most one entry a triangle: the heap holds triangle_count entries
      tree->state[n] = ST_OPEN;
      tree->open[tree->open_count] = e;
      sift_up(tree, tree->open_count++);
    }
  }
}

uint32_t fxs_mesh_tree_step(fxs_mesh_tree *tree, const fxs_nav_mesh *mesh, uint32_t budget) {
  uint32_t done = 0;
  if (tree->status != FXS_MESH_TREE_BUILDING) return 0;
  while (done < budget && tree->open_count > 0) {
    settle(tree, mesh);
    done++;
  }
  if (tree->open_count == 0) tree->status = FXS_MESH_TREE_READY;
  return done;
}

bool fxs_mesh_tree_reaches(const fxs_mesh_tree *tree, uint32_t t) {
  return t < tree->triangle_count && (tree->state[t] & ST_SETTLED) != 0;
}

static int same(fxs_vec2 a, fxs_vec2 b) { return a.x == b.x && a.y == b.y; }

// What the segment from `from` (in triangle `here`) to `to` (in triangle `goal`) meets, walked
// across the mesh for at most FXS_MESH_TREE_SIGHT_STEPS triangles: each step leaves through the
// side whose line `to` lies strictly beyond and whose ends lie strictly on either side of the
// segment (exact orientations). FXS_MESH_SEEN when it reaches `goal` across unconstrained sides
// only, each at least 2 r long and crossed strictly between its ends shrunk by r (as a portal of
// the funnel); FXS_MESH_HIDDEN when it first meets a constrained side, the mesh's border, or a
// side too short for the body (or crossed too near an end); FXS_MESH_UNDECIDED for a segment
// through a vertex or along a side, or a longer walk.
static fxs_mesh_view view_along(const fxs_nav_mesh *mesh, uint32_t here, fxs_vec2 from, fxs_vec2 to,
                                uint32_t goal, int64_t r) {
  uint32_t t = here;
  for (uint32_t steps = 0; steps < FXS_MESH_TREE_SIGHT_STEPS; steps++) {
    if (t == goal) return FXS_MESH_SEEN;
    uint32_t exit = 3u;
    for (uint32_t s = 0; s < 3u && exit == 3u; s++) {
      fxs_vec2 a = vtx(mesh, t, s + 1u), b = vtx(mesh, t, s + 2u);
      if (fxs_mesh_orient(a, b, to) >= 0) continue; // `to` on the triangle's side of it
      int oa = fxs_mesh_orient(from, to, a), ob = fxs_mesh_orient(from, to, b);
      if (oa == 0 || ob == 0) return FXS_MESH_UNDECIDED;
      if (oa != ob) exit = s;
    }
    if (exit == 3u) return FXS_MESH_UNDECIDED;
    const fxs_nav_triangle *tr = &mesh->triangles[t];
    if (((tr->constrained >> exit) & 1u) || tr->n[exit] == NONE) return FXS_MESH_HIDDEN;
    // The body passes the side as through a portal: at least 2 r long, crossed between its
    // ends shrunk by r.
    fxs_vec2 rv = vtx(mesh, t, exit + 1u), lv = vtx(mesh, t, exit + 2u), l, rt;
    if (!fxs_mesh_route_length_at_least(lv, rv, 2 * r)) return FXS_MESH_HIDDEN;
    fxs_mesh_route_portal_points(lv, rv, r, &l, &rt);
    int ol = fxs_mesh_orient(from, to, l), orr = fxs_mesh_orient(from, to, rt);
    if (ol == 0 || orr == 0) return FXS_MESH_UNDECIDED;
    if (ol == orr) return FXS_MESH_HIDDEN;
    t = tr->n[exit];
  }
  return FXS_MESH_UNDECIDED;
}

fxs_mesh_view fxs_mesh_view_of(const fxs_nav_mesh *mesh, uint32_t here, fxs_vec2 from, fxs_vec2 to,
                               uint32_t goal, fix16_t radius) {
  if (here >= mesh->triangle_count || goal >= mesh->triangle_count) return FXS_MESH_UNDECIDED;
  return view_along(mesh, here, from, to, goal, radius > 0 ? radius : 0);
}

bool fxs_mesh_sight(const fxs_nav_mesh *mesh, uint32_t here, fxs_vec2 from, fxs_vec2 to,
                    uint32_t goal, fix16_t radius) {
  return fxs_mesh_view_of(mesh, here, from, to, goal, radius) == FXS_MESH_SEEN;
}

fxs_vec2 fxs_mesh_tree_aim(const fxs_mesh_tree *tree, const fxs_nav_mesh *mesh, uint32_t here,
                           fxs_vec2 from, fxs_vec2 target, fix16_t radius, bool *last) {
  // The portals of the corridor: sides from each triangle to its parent, then the end point.
  fxs_vec2 pl[FXS_MESH_TREE_LOOK + 1u], pr[FXS_MESH_TREE_LOOK + 1u];
  uint32_t n = 0, t = here;
  int64_t r = radius > 0 ? radius : 0;
  if (view_along(mesh, here, from, target, tree->goal, r) == FXS_MESH_SEEN) {
    // the goal in sight: straight to the target
    *last = true;
    return target;
  }
  while (t != tree->goal && n < FXS_MESH_TREE_LOOK) {
    uint32_t next = tree->parent[t], s = side_to(mesh, t, next);
    fxs_mesh_route_portal_points(vtx(mesh, t, s + 2u), vtx(mesh, t, s + 1u), r, &pl[n], &pr[n]);
    n++;
    t = next;
  }
  *last = t == tree->goal;
  fxs_vec2 end = target;
  if (!*last) end = side_middle(mesh, t, side_to(mesh, t, tree->parent[t]));
  pl[n] = pr[n] = end;
  n++;
  fxs_vec2 apex = from, fl = from, fr = from;
  for (uint32_t i = 0; i < n; i++) {
    fxs_vec2 l = pl[i], rt = pr[i];
    if (fxs_mesh_orient(apex, fr, rt) >= 0) {
      if (same(apex, fr) || fxs_mesh_orient(apex, fl, rt) <= 0) {
        fr = rt;
      } else { // crossed over the left: the left is the first corner
        *last = false;
        return fl;
      }
    }
    if (fxs_mesh_orient(apex, fl, l) <= 0) {
      if (same(apex, fl) || fxs_mesh_orient(apex, fr, l) >= 0) {
        fl = l;
      } else {
        *last = false;
        return fr;
      }
    }
  }
  return end;
}
