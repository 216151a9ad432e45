#include "world_contact.h"
#include "world_internal.h"

#include "fixsteer/vec2.h"
#include "exact.h"
#include "vec2_measure.h"
#include "wide.h"

// The constraints of one move: moves m with m . normal >= -gap (raw) are allowed.
typedef struct contact_set {
  fxs_vec2 normal[FXS_CONTACT_MAX];
  int64_t gap[FXS_CONTACT_MAX];
  uint32_t count;
} contact_set;

static int64_t magnitude64(int64_t v) { return v < 0 ? -v : v; }

// m . n, raw, for a move m (components below 2^31) and a unit normal n.
static int64_t along(int64_t mx, int64_t my, fxs_vec2 n) {
  return fxs_div_round_i64(mx * n.x + my * n.y, 65536);
}

// Keeps the FXS_CONTACT_MAX tightest constraints (least gap; the earlier on equal gaps).
static void add_constraint(contact_set *c, fxs_vec2 n, int64_t gap) {
  uint32_t at = c->count;
  if (at == FXS_CONTACT_MAX) {
    at = 0;
    for (uint32_t i = 1; i < c->count; ++i) {
      if (c->gap[i] > c->gap[at]) at = i;
    }
    if (gap >= c->gap[at]) return;
  } else {
    c->count++;
  }
  c->normal[at] = n;
  c->gap[at] = gap;
}

// The unit normal of a contact whose closest point is the agent's own centre: against the
// move (the side it came from), else +x.
static fxs_vec2 normal_against(int64_t mx, int64_t my) {
  if (mx == 0 && my == 0) return fxs_vec2_make(FXS_ONE, 0);
  return fxs_vec2_normalize(fxs_vec2_make((fix16_t)-mx, (fix16_t)-my));
}

// The constraint of a point q (a wall's end, an obstacle's centre) with `extra` radius, when
// it lies within `reach` (raw) of p. body = the agent's radius + FXS_CONTACT_SLACK.
static void add_point(contact_set *c, fxs_vec2 p, fxs_vec2 q, int64_t extra, int64_t body,
                      int64_t reach, int64_t mx, int64_t my) {
  int64_t wx = (int64_t)p.x - q.x, wy = (int64_t)p.y - q.y;
  int64_t limit = reach + extra;
  if (magnitude64(wx) > limit || magnitude64(wy) > limit) return;
  unsigned shift = 0; // only for bodies or obstacles of more than 16384 units
  while (magnitude64(wx) >= (INT64_C(1) << 30) || magnitude64(wy) >= (INT64_C(1) << 30)) {
    wx /= 2, wy /= 2, shift++;
  }
  // Out of reach on the squared distance, before any square root (limit < 2^31 here).
  uint64_t ux = (uint64_t)magnitude64(wx), uy = (uint64_t)magnitude64(wy),
           lim = (uint64_t)(limit >> shift);
  if (limit < (INT64_C(1) << 31) && ux * ux + uy * uy > lim * lim + 2 * lim) return;
  fxs_vec2 w = fxs_vec2_make((fix16_t)wx, (fix16_t)wy);
  if (fxs_vec2_is_zero(w)) {
    add_constraint(c, normal_against(mx, my), -extra - body);
    return;
  }
  fxs_vec2_measure m = fxs_vec2_measure_inline(w); // one square root for the normal and length
  fxs_vec2 n = fxs_vec2_set_length_measured_inline(w, &m, FXS_ONE);
  int64_t dist = (int64_t)m.length << shift;
  if (dist - extra > reach) return;
  add_constraint(c, n, dist - extra - body);
}

// The constraint of another agent's body: as an obstacle's, its gap halved where the other
// keeps off this agent too (fxs_contact_body).
static void add_body(contact_set *c, fxs_vec2 p, const fxs_contact_body *b, int64_t body,
                     int64_t reach, int64_t mx, int64_t my) {
  contact_set one;
  one.count = 0;
  // The two bodies may overlap by the give (FXS_CONTACT_GIVE_DIVISOR), no more.
  int64_t radius = fxs_max(b->radius, 0);
  int64_t give = (body + radius) / FXS_CONTACT_GIVE_DIVISOR;
  add_point(&one, p, b->position, radius - give, body, reach, mx, my);
  if (one.count == 0) return;
  int64_t gap = one.gap[0];
  if (b->halves) gap = gap < 0 ? -((-gap) / 2) : gap / 2; // toward 0: never more than half
  add_constraint(c, one.normal[0], gap);
}

// The constraint of the wall a-b: its end's, or its own normal's when the closest point to p
// lies inside it.
static void add_wall(contact_set *c, fxs_vec2 p, const fxs_wall *w, int64_t body, int64_t reach,
                     int64_t mx, int64_t my) {
  int64_t lo_x = w->a.x < w->b.x ? w->a.x : w->b.x, hi_x = w->a.x < w->b.x ? w->b.x : w->a.x;
  int64_t lo_y = w->a.y < w->b.y ? w->a.y : w->b.y, hi_y = w->a.y < w->b.y ? w->b.y : w->a.y;
  if (p.x < lo_x - reach || p.x > hi_x + reach || p.y < lo_y - reach || p.y > hi_y + reach) return;
  fxs_vec2 q = fxs_vec2_closest_on_segment(p, w->a, w->b);
  if (fxs_vec2_equal(q, w->a) || fxs_vec2_equal(q, w->b)) {
    add_point(c, p, q, 0, body, reach, mx, my);
    return;
  }
  // Inside: the wall's normal, from a direction scaled to fit 32 bits. q lies on the wall's
  // line to within rounding and near p, so the distance p - q along the normal is exact to
  // a few LSB however long the wall is.
  int64_t ex = (int64_t)w->b.x - w->a.x, ey = (int64_t)w->b.y - w->a.y;
  while (magnitude64(ex) >= (INT64_C(1) << 31) || magnitude64(ey) >= (INT64_C(1) << 31)) {
    ex /= 2, ey /= 2;
  }
  fxs_vec2 n = fxs_vec2_normalize(fxs_vec2_make((fix16_t)-ey, (fix16_t)ex));
  int64_t s = along((int64_t)p.x - q.x, (int64_t)p.y - q.y, n);
  if (s < 0 || (s == 0 && along(mx, my, n) > 0)) n = fxs_vec2_negate(n), s = -s;
  if (s > reach) return;
  add_constraint(c, n, s - body);
}

// Every wall and obstacle within reach of the move.
static void gather(const fxs_contact_world *cw, fxs_vec2 p, int64_t body, int64_t reach, int64_t mx,
                   int64_t my, uint32_t *scratch, uint32_t room, contact_set *c) {
  const fxs_world *world = cw->world;
  // The walls whose boxes come within reach (add_wall's first test), in index order: those
  // found already where they cover the reach (the others among them fail that test), else
  // the grid's.
  fxs_box near = {(int64_t)p.x - reach, (int64_t)p.y - reach, (int64_t)p.x + reach,
                  (int64_t)p.y + reach};
  const fxs_wall *walls = world->internal->live_walls;
  const uint32_t *index = 0; // the grid's indices into walls, or none: walls in order
  uint32_t count = cw->wall_count;
  if (cw->found && fxs_walls_found_cover(cw->found, &near)) {
    walls = cw->found->walls, count = cw->found->count;
  } else if (cw->walls && cw->wall_count) {
    uint32_t n = fxs_wall_grid_find(world, cw->walls, &near, scratch, room);
    if (n != FXS_ALL_WALLS) index = scratch, count = n;
  }
  for (uint32_t k = 0; k < count; ++k)
    add_wall(c, p, &walls[index ? index[k] : k], body, reach, mx, my);
  if (cw->obstacle_count == 0) return;
  int64_t box_reach = reach + cw->grid->max_radius;
  fxs_box box = {(int64_t)p.x - box_reach, (int64_t)p.y - box_reach, (int64_t)p.x + box_reach,
                 (int64_t)p.y + box_reach};
  uint32_t n = fxs_obstacle_grid_find(world, cw->grid, &box, scratch, room);
  bool all = n == FXS_ALL_OBSTACLES;
  if (all) n = cw->obstacle_count;
  for (uint32_t k = 0; k < n; ++k) {
    const fxs_obstacle *o = &world->internal->live_obstacles[all ? k : scratch[k]];
    add_point(c, p, o->center, fxs_max(o->radius, 0), body, reach, mx, my);
  }
}

// Every nearby body within reach of the move.
static void gather_bodies(const fxs_contact_world *cw, fxs_vec2 p, int64_t body, int64_t reach,
                          int64_t mx, int64_t my, contact_set *c) {
  for (uint32_t i = 0; i < cw->body_count; ++i) add_body(c, p, &cw->bodies[i], body, reach, mx, my);
}

// The move projected into every constraint; true when one was active.
static bool project(const contact_set *c, int64_t *mx, int64_t *my) {
  bool active = false;
  for (int pass = 0; pass < FXS_CONTACT_PASSES; ++pass) {
    bool moved = false;
    for (uint32_t i = 0; i < c->count; ++i) {
      int64_t short_by = along(*mx, *my, c->normal[i]) + c->gap[i];
      if (short_by >= 0) continue;
      *mx -= fxs_div_round_i64(short_by * c->normal[i].x, 65536);
      *my -= fxs_div_round_i64(short_by * c->normal[i].y, 65536);
      moved = active = true;
    }
    if (!moved) break;
  }
  return active;
}

// True when the move keeps every constraint, to within the rounding the slack absorbs.
static bool allowed(const contact_set *c, int64_t mx, int64_t my, int64_t slack) {
  for (uint32_t i = 0; i < c->count; ++i) {
    if (along(mx, my, c->normal[i]) + c->gap[i] < -(slack / 4)) return false;
  }
  return true;
}

bool fxs_contact_resolve(const fxs_contact_world *cw, const fxs_agent *before, fxs_agent *next,
                         uint32_t *scratch, uint32_t room) {
  fxs_vec2 start = before->position;
  if (cw->wall_count == 0 && cw->obstacle_count == 0 && cw->body_count == 0) return false;
  int64_t mx = (int64_t)next->position.x - start.x, my = (int64_t)next->position.y - start.y;
  if (magnitude64(mx) + magnitude64(my) > FXS_CONTACT_MAX_MOVE) {
    fxs_vec2 m = fxs_vec2_set_length(fxs_exact_direction(start, next->position),
                                     (fix16_t)(FXS_CONTACT_MAX_MOVE / 2));
    mx = m.x, my = m.y;
  }
  int64_t radius = fxs_max(next->radius, 0), slack = fxs_agent_contact_slack(next);
  int64_t body = radius + slack;
  int64_t push_out = fxs_max(fxs_max(next->max_speed, 0), fxs_agent_touch(next));
  int64_t rest = fxs_agent_rest_speed(next);
  int64_t reach = body + magnitude64(mx) + magnitude64(my) + push_out + slack;
  contact_set c;
  c.count = 0;
  gather(cw, start, body, reach, mx, my, scratch, room, &c);
  // Static friction and calm rest are a wall's: against bodies alone the move slides on, so
  // that a crowd pressed together keeps flowing round itself.
  bool statics = c.count != 0;
  gather_bodies(cw, start, body, reach, mx, my, &c);
  for (uint32_t i = 0; i < c.count; ++i) {
    if (c.gap[i] < -push_out) c.gap[i] = -push_out;
  }
  int64_t x = mx, y = my;
  if (!project(&c, &x, &y)) {
    if (x == (int64_t)next->position.x - start.x && y == (int64_t)next->position.y - start.y) {
      return false;
    }
  } else if (!allowed(&c, x, y, slack)) {
    x = 0, y = 0;
  } else if (statics && magnitude64(x) <= rest && magnitude64(y) <= rest) {
    x = 0, y = 0;
  } else if (statics && x * before->velocity.x + y * before->velocity.y < 0) {
    x = 0, y = 0; // calm rest, as in the integrator: a slide that turns back stops first
  }
  next->velocity = fxs_vec2_make(fxs_saturate(x), fxs_saturate(y));
  next->position =
      fxs_vec2_make(fxs_saturate((int64_t)start.x + x), fxs_saturate((int64_t)start.y + y));
  return true;
}
