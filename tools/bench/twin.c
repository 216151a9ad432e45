// Float twins of the fixed-point kernels, for the benchmark only (never part of the library).
// Each function mirrors one in src/ and names it; the formulas and the loop structure are the
// library's, written as a float programmer would (a length is computed once and reused).
// On the Cortex-M3 this file is compiled with -mfloat-abi=soft.
#include <math.h>
#include <string.h>

#include "bench.h"

typedef struct fvec {
  float x, y;
} fvec;

static fvec fv(float x, float y) {
  fvec v;
  v.x = x, v.y = y;
  return v;
}
static fvec fv_add(fvec a, fvec b) { return fv(a.x + b.x, a.y + b.y); }
static fvec fv_sub(fvec a, fvec b) { return fv(a.x - b.x, a.y - b.y); }
static fvec fv_scale(fvec a, float s) { return fv(a.x * s, a.y * s); }
static float fv_length(fvec a) { return sqrtf(a.x * a.x + a.y * a.y); }

// fxs_vec2_truncate.
static fvec fv_truncate(fvec v, float max_length) {
  float l2 = v.x * v.x + v.y * v.y;
  if (l2 <= max_length * max_length) return v;
  return fv_scale(v, max_length / sqrtf(l2));
}

// fxs_vec2_within: |a - b| <= radius, with the same per-axis early exit.
static int fv_within(fvec a, fvec b, float radius) {
  float dx = fabsf(a.x - b.x), dy = fabsf(a.y - b.y);
  if (dx > radius || dy > radius) return 0;
  return dx * dx + dy * dy <= radius * radius;
}

static float from_raw(fix16_t raw) { return (float)raw / 65536.0f; }

// fxs_seek (fxs_arrive with no slowing radius): desired = normalize(target - p) * max_speed.
static fvec fseek(const bench_fagent *a, fvec target) {
  fvec offset = fv_sub(target, fv(a->px, a->py));
  float d = fv_length(offset);
  fvec desired = d > 0.0f ? fv_scale(offset, a->max_speed / d) : fv(0.0f, 0.0f);
  return fv_sub(desired, fv(a->vx, a->vy));
}

// fxs_agent_integrate with FXS_ORIENT_FIXED (the only orientation mode the twins run).
static void fintegrate(bench_fagent *a, fvec steering, fvec external, float velocity_scale) {
  float mass = a->mass > 0.0f ? a->mass : 1.0f;
  fvec force = fv_truncate(steering, a->max_force);
  force = fv(force.x / mass, force.y / mass);
  fvec velocity = fv(a->vx, a->vy);
  if (velocity_scale != 1.0f) velocity = fv_scale(velocity, velocity_scale);
  fvec steered = fv_truncate(fv_add(velocity, force), a->max_speed);
  // Calm rest: a velocity that turns by more than 90 degrees in one tick stops.
  velocity = velocity.x * steered.x + velocity.y * steered.y < 0.0f ? fv(0.0f, 0.0f) : steered;
  // External forces come after the speed cap (a gust pushes past max_speed).
  velocity = fv_add(velocity, fv(external.x / mass, external.y / mass));
  a->vx = velocity.x, a->vy = velocity.y;
  a->px += velocity.x, a->py += velocity.y;
  a->rotation = 0.0f;
}

static bench_fagent fagent_from(const bench_start *s) {
  fxs_agent d = fxs_default_agent();
  bench_fagent a;
  a.px = from_raw(s->position.x), a.py = from_raw(s->position.y);
  a.vx = from_raw(s->velocity.x), a.vy = from_raw(s->velocity.y);
  a.orientation = 0.0f, a.rotation = 0.0f;
  a.mass = from_raw(BENCH_MASS), a.radius = from_raw(BENCH_RADIUS);
  a.max_speed = from_raw(BENCH_MAX_SPEED), a.max_force = from_raw(BENCH_MAX_FORCE);
  a.max_rotation = from_raw(d.max_rotation);
  a.max_angular_acceleration = from_raw(d.max_angular_acceleration);
  a.max_turn_rate = from_raw(d.max_turn_rate);
  a.orientation_mode = FXS_ORIENT_FIXED;
  return a;
}

// ------------------------------------------------------------------ seek + integrate

void bench_float_seek_init(bench_fagent *agents, float *targets_xy, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    bench_start s = bench_initial(n, i);
    agents[i] = fagent_from(&s);
    targets_xy[2 * i] = from_raw(s.target.x);
    targets_xy[2 * i + 1] = from_raw(s.target.y);
  }
}

void bench_float_seek_run(bench_fagent *agents, const float *targets_xy, uint32_t n,
                          uint32_t ticks) {
  for (uint32_t t = 0; t < ticks; ++t) {
    for (uint32_t i = 0; i < n; ++i) {
      fvec force = fseek(&agents[i], fv(targets_xy[2 * i], targets_xy[2 * i + 1]));
      fintegrate(&agents[i], force, fv(0.0f, 0.0f), 1.0f);
    }
  }
}

float bench_float_length_sum(const float *xy, uint32_t n) {
  float sum = 0.0f;
  for (uint32_t i = 0; i < n; ++i) sum += fv_length(fv(xy[2 * i], xy[2 * i + 1]));
  return sum;
}

// ------------------------------------------------------------------ flocking (flocking.c)

// fxs_separation.
static fvec fseparation(const bench_fagent *self, uint32_t self_id, const bench_fneighbor *nb,
                        uint32_t count, float radius) {
  fvec force = fv(0.0f, 0.0f);
  if (radius <= 0.0f) return force;
  fvec at = fv(self->px, self->py);
  for (uint32_t i = 0; i < count; ++i) {
    const bench_fneighbor *n = &nb[i];
    if (n->id == self_id || !fv_within(at, fv(n->px, n->py), radius)) continue;
    fvec away = fv_sub(at, fv(n->px, n->py));
    float d = fv_length(away), len = d;
    if (d == 0.0f) away = fv(self_id < n->id ? -1.0f : 1.0f, 0.0f), len = 1.0f;
    // Reynolds' push of flocking.h: max_speed * (radius / d - 1), capped.
    float cap = self->max_speed * (float)FXS_SEPARATION_MAX_PUSH;
    float strength = d > 0.0f ? self->max_speed * (radius - d) / d : cap;
    if (strength > cap) strength = cap;
    force = fv_add(force, fv_scale(away, strength / len));
  }
  return force;
}

typedef struct fneighborhood {
  float px, py, vx, vy;
  int32_t count;
} fneighborhood;

static fneighborhood fgather(const bench_fagent *self, uint32_t self_id, const bench_fneighbor *nb,
                             uint32_t count, float radius) {
  fneighborhood h = {0.0f, 0.0f, 0.0f, 0.0f, 0};
  fvec at = fv(self->px, self->py);
  for (uint32_t i = 0; i < count; ++i) {
    const bench_fneighbor *n = &nb[i];
    if (n->id == self_id || !fv_within(at, fv(n->px, n->py), radius)) continue;
    h.px += n->px, h.py += n->py, h.vx += n->vx, h.vy += n->vy;
    h.count += 1;
  }
  return h;
}

// fxs_alignment.
static fvec falignment(const bench_fagent *self, uint32_t self_id, const bench_fneighbor *nb,
                       uint32_t count, float radius) {
  fneighborhood h = fgather(self, self_id, nb, count, radius);
  if (h.count == 0) return fv(0.0f, 0.0f);
  return fv_sub(fv(h.vx / (float)h.count, h.vy / (float)h.count), fv(self->vx, self->vy));
}

// fxs_cohesion.
static fvec fcohesion(const bench_fagent *self, uint32_t self_id, const bench_fneighbor *nb,
                      uint32_t count, float radius) {
  fneighborhood h = fgather(self, self_id, nb, count, radius);
  if (h.count == 0) return fv(0.0f, 0.0f);
  return fseek(self, fv(h.px / (float)h.count, h.py / (float)h.count));
}

// ------------------------------------------------------------------ manager (manager.c)

typedef struct fcontribution {
  uint8_t behavior, priority;
  float weight;
  fvec requested, applied;
} fcontribution;

typedef struct fmanager {
  uint8_t count;
  fvec external_force;
  float velocity_scale;
  fcontribution entries[16];
} fmanager;

static void fmanager_add(fmanager *m, uint8_t behavior, fvec steering, float weight,
                         uint8_t priority) {
  if (m->count >= 16) return;
  fcontribution *c = &m->entries[m->count++];
  c->behavior = behavior, c->priority = priority, c->weight = weight;
  c->requested = fv_scale(steering, weight);
  c->applied = fv(0.0f, 0.0f);
}

// fxs_manager_update with FXS_COMBINE_WEIGHTED_SUM (the flock's mode).
static void fmanager_update(fmanager *m, bench_fagent *agent) {
  fvec total = fv(0.0f, 0.0f);
  for (unsigned i = 0; i < m->count; ++i) {
    m->entries[i].applied = m->entries[i].requested;
    total = fv_add(total, m->entries[i].requested);
  }
  fintegrate(agent, total, m->external_force, m->velocity_scale);
}

// ------------------------------------------------------------------ the world loop (world.c)

static size_t align8(size_t n) { return (n + 7u) & ~(size_t)7u; }
static uint32_t grid_cells(uint32_t n) { return 2u * n < 64u ? 64u : 2u * n; }

size_t bench_fworld_memory_size(uint32_t n) {
  return align8(sizeof(bench_fslot) * n) + align8(sizeof(bench_fagent) * n) +
         align8(sizeof(bench_fneighbor) * n) + align8(sizeof(uint32_t) * (grid_cells(n) + 1u)) +
         2u * align8(sizeof(uint32_t) * n);
}

static bench_fbehavior fbehavior(fxs_behavior kind, fix16_t weight, fix16_t p0) {
  bench_fbehavior b;
  b.kind = (uint8_t)kind, b.priority = 0, b.weight = from_raw(weight);
  for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) b.p[i] = 0.0f;
  b.p[0] = from_raw(p0);
  return b;
}

void bench_fworld_init_flock(bench_fworld *w, uint32_t n, void *memory) {
  uint8_t *at = (uint8_t *)memory;
  w->agents = (bench_fslot *)(void *)at, at += align8(sizeof(bench_fslot) * n);
  w->next = (bench_fagent *)(void *)at, at += align8(sizeof(bench_fagent) * n);
  w->view = (bench_fneighbor *)(void *)at, at += align8(sizeof(bench_fneighbor) * n);
  w->cell_start = (uint32_t *)(void *)at, at += align8(sizeof(uint32_t) * (grid_cells(n) + 1u));
  w->cell_items = (uint32_t *)(void *)at, at += align8(sizeof(uint32_t) * n);
  w->view_cell = (uint32_t *)(void *)at;
  w->capacity = n, w->grid_max_cells = grid_cells(n), w->tick = 0;
  w->min_x = 0.0f, w->min_y = 0.0f;
  w->max_x = (float)bench_side(n), w->max_y = (float)bench_side(n);
  w->neighbor_radius = (float)BENCH_NEIGHBOR_RADIUS;
  for (uint32_t i = 0; i < n; ++i) {
    bench_start s = bench_initial(n, i);
    bench_fslot *slot = &w->agents[i];
    slot->alive = 1, slot->combine_mode = 0, slot->behavior_count = 3;
    slot->pending_fx = 0.0f, slot->pending_fy = 0.0f;
    slot->body = fagent_from(&s);
    slot->behaviors[0] =
        fbehavior(FXS_BEHAVIOR_SEPARATION, BENCH_SEPARATION_WEIGHT, BENCH_SEPARATION_RADIUS);
    slot->behaviors[1] = fbehavior(FXS_BEHAVIOR_ALIGNMENT, FXS_ONE, BENCH_ALIGNMENT_RADIUS);
    slot->behaviors[2] = fbehavior(FXS_BEHAVIOR_COHESION, FXS_ONE, BENCH_COHESION_RADIUS);
  }
}

typedef struct fgrid {
  float size, inv_size, min_x, min_y;
  uint32_t w, h;
} fgrid;

// grid_of: cells of the neighbor radius, doubled until they fit.
static fgrid fgrid_of(const bench_fworld *w) {
  fgrid g;
  float width = w->max_x - w->min_x, height = w->max_y - w->min_y;
  if (width < 1.0f) width = 1.0f;
  if (height < 1.0f) height = 1.0f;
  g.min_x = w->min_x, g.min_y = w->min_y;
  g.size = w->neighbor_radius > 1.0f ? w->neighbor_radius : 1.0f;
  for (;;) {
    float cw = ceilf(width / g.size), ch = ceilf(height / g.size);
    if (cw * ch <= (float)w->grid_max_cells) {
      g.w = (uint32_t)cw, g.h = (uint32_t)ch, g.inv_size = 1.0f / g.size;
      return g;
    }
    g.size *= 2.0f;
  }
}

static uint32_t fcell_coord(float v, float min, float inv_size, uint32_t cells) {
  float c = v < min ? 0.0f : (v - min) * inv_size;
  return c >= (float)cells ? cells - 1u : (uint32_t)c;
}

static uint32_t fsense(bench_fworld *w) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < w->capacity; ++i) {
    const bench_fslot *s = &w->agents[i];
    if (!s->alive) continue;
    bench_fneighbor *v = &w->view[n++];
    v->px = s->body.px, v->py = s->body.py, v->vx = s->body.vx, v->vy = s->body.vy, v->id = i;
  }
  return n;
}

static void fbuild_grid(bench_fworld *w, const fgrid *g, uint32_t view_count) {
  uint32_t cells = g->w * g->h;
  for (uint32_t c = 0; c <= cells; ++c) w->cell_start[c] = 0;
  for (uint32_t v = 0; v < view_count; ++v) {
    uint32_t c = fcell_coord(w->view[v].py, g->min_y, g->inv_size, g->h) * g->w +
                 fcell_coord(w->view[v].px, g->min_x, g->inv_size, g->w);
    w->view_cell[v] = c;
    w->cell_start[c + 1]++;
  }
  for (uint32_t c = 0; c < cells; ++c) w->cell_start[c + 1] += w->cell_start[c];
  for (uint32_t v = 0; v < view_count; ++v) w->cell_items[w->cell_start[w->view_cell[v]]++] = v;
  for (uint32_t c = cells; c > 0; --c) w->cell_start[c] = w->cell_start[c - 1];
  w->cell_start[0] = 0;
}

// offer: keeps the FXS_MAX_NEIGHBORS nearest, by squared distance then id.
static void foffer(bench_fneighbor *out, float *key, uint32_t *n, const bench_fneighbor *c,
                   float k) {
  uint32_t slot = *n < FXS_MAX_NEIGHBORS ? (*n)++ : FXS_MAX_NEIGHBORS;
  if (slot == FXS_MAX_NEIGHBORS) {
    if (k > key[*n - 1] || (k == key[*n - 1] && c->id > out[*n - 1].id)) return;
    slot = *n - 1;
  }
  while (slot > 0 && (key[slot - 1] > k || (key[slot - 1] == k && out[slot - 1].id > c->id))) {
    key[slot] = key[slot - 1];
    out[slot] = out[slot - 1];
    --slot;
  }
  key[slot] = k;
  out[slot] = *c;
}

// The library's search (world_grid.c) in float: agents within the radius are collected
// without a branch on the test, then ranked against each other by one key, the bits of the
// squared distance above the id (a non-negative float's bits order as the float does);
// past TWIN_FOUND of them, through the sorted list by insertion.
#define TWIN_FOUND 32u

static uint64_t fkey(float dist_sq, uint32_t id) {
  uint32_t bits;
  memcpy(&bits, &dist_sq, sizeof bits);
  return ((uint64_t)bits << 32) | id;
}

static uint32_t fneighbors_of(const bench_fworld *w, const fgrid *g, uint32_t self,
                              bench_fneighbor *out) {
  float key[FXS_MAX_NEIGHBORS], found_sq[TWIN_FOUND];
  uint32_t n = 0, m = 0, found[TWIN_FOUND];
  int flushed = 0;
  fvec at = fv(w->agents[self].body.px, w->agents[self].body.py);
  float r = w->neighbor_radius;
  uint32_t x0 = fcell_coord(at.x - r, g->min_x, g->inv_size, g->w);
  uint32_t x1 = fcell_coord(at.x + r, g->min_x, g->inv_size, g->w);
  uint32_t y0 = fcell_coord(at.y - r, g->min_y, g->inv_size, g->h);
  uint32_t y1 = fcell_coord(at.y + r, g->min_y, g->inv_size, g->h);
  for (uint32_t cy = y0; cy <= y1; ++cy) {
    for (uint32_t cx = x0; cx <= x1; ++cx) {
      uint32_t cell = cy * g->w + cx;
      for (uint32_t i = w->cell_start[cell]; i < w->cell_start[cell + 1]; ++i) {
        const bench_fneighbor *c = &w->view[w->cell_items[i]];
        fvec d = fv_sub(fv(c->px, c->py), at);
        float dist_sq = d.x * d.x + d.y * d.y;
        found[m] = w->cell_items[i], found_sq[m] = dist_sq;
        // fv_within's test, without its early exits
        m += (uint32_t)(c->id != self) & (uint32_t)(fabsf(d.x) <= r) & (uint32_t)(fabsf(d.y) <= r) &
             (uint32_t)(dist_sq <= r * r);
        if (m == TWIN_FOUND) {
          for (uint32_t k = 0; k < m; ++k) foffer(out, key, &n, &w->view[found[k]], found_sq[k]);
          m = 0, flushed = 1;
        }
      }
    }
  }
  if (flushed) {
    for (uint32_t k = 0; k < m; ++k) foffer(out, key, &n, &w->view[found[k]], found_sq[k]);
    return n;
  }
  uint64_t k64[TWIN_FOUND];
  uint32_t rank[TWIN_FOUND];
  for (uint32_t i = 0; i < m; ++i) rank[i] = 0, k64[i] = fkey(found_sq[i], w->view[found[i]].id);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = i + 1u; j < m; ++j) {
      uint32_t j_first = (uint32_t)(k64[j] < k64[i]);
      rank[i] += j_first, rank[j] += 1u - j_first;
    }
  }
  for (uint32_t i = 0; i < m; ++i) {
    if (rank[i] < FXS_MAX_NEIGHBORS) out[rank[i]] = w->view[found[i]];
  }
  return m < FXS_MAX_NEIGHBORS ? m : FXS_MAX_NEIGHBORS;
}

// steer_agent, for the behaviors of the flock.
static void fsteer_agent(bench_fworld *w, uint32_t index, const fgrid *g) {
  bench_fslot *s = &w->agents[index];
  bench_fagent *next = &w->next[index];
  *next = s->body;
  bench_fneighbor nb[FXS_MAX_NEIGHBORS];
  uint32_t nc = fneighbors_of(w, g, index, nb);
  fmanager m;
  m.count = 0, m.external_force = fv(0.0f, 0.0f), m.velocity_scale = 1.0f;
  for (uint8_t i = 0; i < s->behavior_count; ++i) {
    const bench_fbehavior *b = &s->behaviors[i];
    fvec f;
    switch ((fxs_behavior)b->kind) {
      case FXS_BEHAVIOR_SEPARATION:
        f = fseparation(&s->body, index, nb, nc, b->p[0]);
        break;
      case FXS_BEHAVIOR_ALIGNMENT:
        f = falignment(&s->body, index, nb, nc, b->p[0]);
        break;
      case FXS_BEHAVIOR_COHESION:
        f = fcohesion(&s->body, index, nb, nc, b->p[0]);
        break;
      default:
        f = fv(0.0f, 0.0f);
        break;
    }
    fmanager_add(&m, b->kind, f, b->weight, b->priority);
  }
  m.external_force = fv_add(m.external_force, fv(s->pending_fx, s->pending_fy));
  fmanager_update(&m, next);
}

static float fclamp(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

static void fintegrate_world(bench_fworld *w) {
  for (uint32_t i = 0; i < w->capacity; ++i) {
    bench_fslot *s = &w->agents[i];
    if (!s->alive) continue;
    s->body = w->next[i];
    s->pending_fx = 0.0f, s->pending_fy = 0.0f;
    s->body.px = fclamp(s->body.px, w->min_x, w->max_x);
    s->body.py = fclamp(s->body.py, w->min_y, w->max_y);
  }
}

void bench_fworld_run(bench_fworld *w, uint32_t ticks) {
  for (uint32_t t = 0; t < ticks; ++t) {
    uint32_t view_count = fsense(w);
    fgrid g = fgrid_of(w);
    fbuild_grid(w, &g, view_count);
    for (uint32_t i = 0; i < w->capacity; ++i) {
      if (w->agents[i].alive) fsteer_agent(w, i, &g);
    }
    fintegrate_world(w);
    w->tick++;
  }
}

double bench_fworld_mean_neighbors(const bench_fworld *w) {
  bench_fworld *m = (bench_fworld *)(uintptr_t)w; // the grid arrays are scratch space
  uint32_t view_count = fsense(m);
  fgrid g = fgrid_of(w);
  fbuild_grid(m, &g, view_count);
  float r = w->neighbor_radius;
  uint64_t total = 0;
  for (uint32_t v = 0; v < view_count; ++v) {
    fvec at = fv(w->view[v].px, w->view[v].py);
    uint32_t x0 = fcell_coord(at.x - r, g.min_x, g.inv_size, g.w);
    uint32_t x1 = fcell_coord(at.x + r, g.min_x, g.inv_size, g.w);
    uint32_t y0 = fcell_coord(at.y - r, g.min_y, g.inv_size, g.h);
    uint32_t y1 = fcell_coord(at.y + r, g.min_y, g.inv_size, g.h);
    for (uint32_t cy = y0; cy <= y1; ++cy) {
      for (uint32_t cx = x0; cx <= x1; ++cx) {
        uint32_t cell = cy * g.w + cx;
        for (uint32_t i = w->cell_start[cell]; i < w->cell_start[cell + 1]; ++i) {
          const bench_fneighbor *c = &w->view[w->cell_items[i]];
          total += c->id != w->view[v].id && fv_within(at, fv(c->px, c->py), r);
        }
      }
    }
  }
  return view_count ? (double)total / view_count : 0.0;
}
