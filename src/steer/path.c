#include "fixsteer/path.h"

#include "fixsteer/scalar.h"
#include "fixsteer/seek.h"
#include "fixsteer/vec2.h"

// The walk along the path from the projection to the target point passes at most this many
// nodes, so its cost is bounded whatever the lead and the node spacing.
#define PATH_WALK_NODES 64

fxs_path_def fxs_default_path_def(const fxs_vec2 *nodes, uint16_t count, fxs_path_mode mode) {
  fxs_path_def p;
  p.nodes = nodes;
  p.count = count;
  p.mode = (uint8_t)mode;
  p.radius = FXS_INT(10);
  p.slowing_radius = FXS_INT(60);
  p.walls = 0;
  p.wall_count = 0;
  p.keep_apart = 0;
  return p;
}

fxs_path_state fxs_path_start(void) {
  fxs_path_state s;
  s.current_node = 0;
  s.path_dir = 1;
  s.finished = 0;
  return s;
}

// The node after `node` in travel order, or -1 past the end of a stop or patrol path.
static int next_node(const fxs_path_def *path, int node, int dir) {
  int last = path->count - 1;
  switch ((fxs_path_mode)path->mode) {
    case FXS_PATH_LOOP:
      return node >= last ? 0 : node + 1;
    case FXS_PATH_PATROL: {
      int n = node + dir;
      return n < 0 || n > last ? -1 : n;
    }
    case FXS_PATH_STOP_AT_END:
    default:
      return node < last ? node + 1 : -1;
  }
}

// The node before `node` in travel order, or -1 before the first one.
static int prev_node(const fxs_path_def *path, int node, int dir) {
  int last = path->count - 1;
  switch ((fxs_path_mode)path->mode) {
    case FXS_PATH_LOOP:
      return node == 0 ? last : node - 1;
    case FXS_PATH_PATROL: {
      int n = node - dir;
      return n < 0 || n > last ? -1 : n;
    }
    case FXS_PATH_STOP_AT_END:
    default:
      return node > 0 ? node - 1 : -1;
  }
}

// Moves to the next node according to the mode (one node at most), turning at a patrol's
// ends and wrapping a loop.
static void advance(const fxs_path_def *path, fxs_path_state *s) {
  int last = path->count - 1;
  int current = s->current_node;
  switch ((fxs_path_mode)path->mode) {
    case FXS_PATH_LOOP:
      current = current >= last ? 0 : current + 1;
      break;
    case FXS_PATH_PATROL: {
      int next = current + s->path_dir;
      if (next < 0 || next > last) {
        // Turn round straight to the neighbour: re-seeking the node just reached (as a
        // literal reading of seed 004 would) only brakes the agent for a tick.
        s->path_dir = (int8_t)-s->path_dir;
        next = current + s->path_dir;
        if (next < 0 || next > last) next = current; // a one-node path
      }
      current = next;
      break;
    }
    case FXS_PATH_STOP_AT_END:
    default:
      if (current < last) current += 1;
      else s->finished = 1;
      break;
  }
  s->current_node = (uint16_t)current;
}

// ------------------------------------------------------------------ line of sight
// The sign of (b - a) x (c - a), exact for coordinates with their 2 low bits dropped: the
// differences stay below 2^31 and each product below 2^62.
static int orientation(fxs_vec2 a, fxs_vec2 b, fxs_vec2 c) {
  int64_t ax = a.x / 4, ay = a.y / 4;
  int64_t abx = b.x / 4 - ax, aby = b.y / 4 - ay, acx = c.x / 4 - ax, acy = c.y / 4 - ay;
  int64_t l = abx * acy, r = aby * acx;
  return l > r ? 1 : l < r ? -1 : 0;
}

// True when [p, q] and [a, b] cross at a point inside both (touching does not count).
static bool crosses(fxs_vec2 p, fxs_vec2 q, fxs_vec2 a, fxs_vec2 b) {
  return orientation(a, b, p) * orientation(a, b, q) < 0 &&
         orientation(p, q, a) * orientation(p, q, b) < 0;
}

// True when the wall end e is within `clearance` of [from, to] but not of `from`.
static bool end_in_the_way(fxs_vec2 e, fxs_vec2 from, fxs_vec2 to, fix16_t clearance) {
  if (clearance <= 0 || fxs_vec2_within(e, from, clearance)) return false;
  return fxs_vec2_within(fxs_vec2_closest_on_segment(e, from, to), e, clearance);
}

bool fxs_path_sees(const fxs_path_def *path, fxs_vec2 from, fxs_vec2 to, fix16_t clearance) {
  if (!path->walls) return true;
  for (uint32_t i = 0; i < path->wall_count; ++i) {
    const fxs_wall *w = &path->walls[i];
    if (crosses(from, to, w->a, w->b) || end_in_the_way(w->a, from, to, clearance) ||
        end_in_the_way(w->b, from, to, clearance)) {
      return false;
    }
  }
  return true;
}

// ------------------------------------------------------------------ projection and target
static uint64_t distance_sq(fxs_vec2 a, fxs_vec2 b) {
  return fxs_vec2_length_sq(fxs_vec2_sub(a, b));
}

fxs_vec2 fxs_path_project(const fxs_agent *self, const fxs_path_def *path, fxs_path_state *state,
                          fxs_vec2 point) {
  int dir = state->path_dir, to = state->current_node, from = prev_node(path, to, dir);
  fxs_vec2 best = from < 0 ? path->nodes[to]
                           : fxs_vec2_closest_on_segment(point, path->nodes[from], path->nodes[to]);
  uint64_t best_d = distance_sq(point, best);
  bool passed = from < 0 || fxs_vec2_equal(best, path->nodes[to]);
  int steps = 0;
  // A later segment is taken only once the point is past the end of every segment before it,
  // and only when strictly nearer and in sight: ties keep the progress, a path that crosses
  // itself is not cut short where it crosses, and a leg of the path behind a wall is never
  // taken for the one the agent is in.
  for (int k = 1; k < FXS_PATH_WINDOW && passed; ++k) {
    from = to;
    to = next_node(path, to, dir);
    if (to < 0) break;
    fxs_vec2 q = fxs_vec2_closest_on_segment(point, path->nodes[from], path->nodes[to]);
    uint64_t d = distance_sq(point, q);
    if (d < best_d && fxs_path_sees(path, self->position, q, 0)) best = q, best_d = d, steps = k;
    passed = fxs_vec2_equal(q, path->nodes[to]);
  }
  for (int k = 0; k < steps; ++k)
    state->current_node = (uint16_t)next_node(path, state->current_node, dir);
  return best;
}

fix16_t fxs_path_lead(const fxs_agent *self, const fxs_path_def *path) {
  return fxs_max(path->radius, fxs_mul(fxs_max(self->max_speed, 0), FXS_INT(8)));
}

// The point `lead` along the path from q, which lies on the segment that ends at node `to`;
// *clipped when the walk stopped at the end of a stop or patrol path.
static fxs_vec2 along(const fxs_path_def *path, fxs_vec2 q, int to, int dir, fix16_t lead,
                      bool *clipped) {
  *clipped = false;
  for (int passed = 0; passed < PATH_WALK_NODES; ++passed) {
    fxs_vec2 node = path->nodes[to];
    fix16_t left = fxs_vec2_distance(q, node);
    if (lead <= left) return left == 0 ? node : fxs_vec2_lerp(q, node, fxs_div(lead, left));
    lead = fxs_sub(lead, left);
    q = node;
    int next = next_node(path, to, dir);
    if (next < 0) {
      *clipped = true;
      return node;
    }
    to = next;
  }
  return q;
}

fxs_vec2 fxs_path_target(const fxs_agent *self, const fxs_path_def *path, fxs_path_state *state,
                         bool *at_end) {
  fxs_vec2 future =
      fxs_vec2_add(self->position, fxs_vec2_scale(self->velocity, FXS_INT(FXS_PATH_PREDICT_TICKS)));
  fxs_vec2 q = fxs_path_project(self, path, state, future);
  fix16_t lead = fxs_path_lead(self, path);
  fix16_t clearance = fxs_max(self->radius, 0);
  bool stop = path->mode == FXS_PATH_STOP_AT_END;
  // Pulled back by quarters of the lead while the agent cannot see it; the projection itself
  // is the last resort (a follower pushed behind a wall heads back to its segment).
  for (int quarter = 4; quarter >= 0; --quarter) {
    bool clipped;
    fxs_vec2 t = along(path, q, state->current_node, state->path_dir,
                       (fix16_t)((int64_t)lead * quarter / 4), &clipped);
    if (quarter == 0 || fxs_path_sees(path, self->position, t, clearance)) {
      *at_end = clipped && stop;
      return t;
    }
  }
  *at_end = false;
  return q;
}

fxs_vec2 fxs_follow_path_toward(const fxs_agent *self, const fxs_path_def *path,
                                fxs_path_state *state, fxs_vec2 *target) {
  *target = self->position;
  if (path->count == 0 || path->nodes == 0) return fxs_vec2_zero();
  if (state->current_node >= path->count) state->current_node = (uint16_t)(path->count - 1);
  if (state->path_dir != 1 && state->path_dir != -1) state->path_dir = 1;
  if (fxs_vec2_within(self->position, path->nodes[state->current_node], path->radius)) {
    advance(path, state);
  }
  bool at_end;
  *target = fxs_path_target(self, path, state, &at_end);
  if (at_end) return fxs_arrive(self, *target, path->slowing_radius);
  return fxs_seek(self, *target);
}

fxs_vec2 fxs_follow_path(const fxs_agent *self, const fxs_path_def *path, fxs_path_state *state) {
  fxs_vec2 target;
  return fxs_follow_path_toward(self, path, state, &target);
}

// True when `other` lies within 45 degrees of the direction d from p.
static bool in_cone(fxs_vec2 p, fxs_vec2 d, fxs_vec2 other) {
  fxs_vec2 e = fxs_vec2_sub(other, p);
  int64_t dot = fxs_vec2_dot(d, e), cross = fxs_vec2_cross(d, e);
  return dot > 0 && dot >= (cross < 0 ? -cross : cross);
}

// Resting followers are ordered by their progress along the path, measured on the segments
// from HOLD_BACK_NODES nodes behind the follower's current node to HOLD_AHEAD_NODES past that.
#define HOLD_BACK_NODES 2
#define HOLD_AHEAD_NODES 4

// Packed queues (fxs_path_hold_packed): a follower slower than max_speed / this holds.
#define PACKED_SLOW_DIVISOR 128
// Lanes either side of the path's centre line tried for room, at most (fxs_path_hold_packed).
#define PACKED_LANES 8

// How far along a stop path the point p lies, raw units from node `base`: p is projected on the
// nearest of the segments from `base` to HOLD_AHEAD_NODES nodes past it (ties: the earlier).
// Followers near each other measure each other on the same stretch of the path.
static int64_t progress_near(const fxs_path_def *path, int base, fxs_vec2 p) {
  int64_t arc = 0, best = 0;
  uint64_t best_d = UINT64_MAX;
  int end = base + HOLD_AHEAD_NODES < path->count - 1 ? base + HOLD_AHEAD_NODES : path->count - 1;
  if (end == base) return -(int64_t)fxs_vec2_distance(p, path->nodes[base]);
  for (int i = base; i < end; ++i) {
    fxs_vec2 a = path->nodes[i], b = path->nodes[i + 1];
    fxs_vec2 q = fxs_vec2_closest_on_segment(p, a, b);
    uint64_t d = distance_sq(p, q);
    if (d < best_d) best_d = d, best = arc + fxs_vec2_distance(a, q);
    arc += fxs_vec2_distance(a, b);
  }
  return best;
}

// True when the stop-path follower holds at the end of the path (fxs_path_hold's end rules).
static bool at_end(const fxs_agent *self, const fxs_path_def *path, const fxs_path_state *state) {
  fxs_vec2 end = path->nodes[path->count - 1];
  bool last_segment = state->current_node == path->count - 1;
  fix16_t touch = fxs_agent_touch(self);
  if (last_segment && fxs_vec2_within(self->position, end, touch / 4)) return true;
  // Within the path radius the end counts as reached: a follower there that no longer closes
  // in on it (it overshot, or the ones behind push it on) stops where it is.
  return last_segment && fxs_vec2_within(self->position, end, path->radius) &&
         fxs_vec2_dot(self->velocity, fxs_vec2_sub(end, self->position)) <= 0;
}

bool fxs_path_hold(const fxs_agent *self, const fxs_path_def *path, const fxs_path_state *state,
                   fxs_vec2 target, const fxs_path_rest *resting, uint32_t count) {
  if (path->mode != FXS_PATH_STOP_AT_END || path->count == 0 || path->nodes == 0) return false;
  if (at_end(self, path, state)) return true;
  fxs_vec2 end = path->nodes[path->count - 1];
  bool last_segment = state->current_node == path->count - 1;
  // (Distances below are in the follower's own touching distance, fxs_agent_touch.)
  fix16_t touch = fxs_agent_touch(self);
  fxs_vec2 toward = fxs_vec2_sub(target, self->position);
  // Aiming at the end itself, any resting follower in the way ends the approach: the end is
  // taken, and pressing round the ones there only jostles them.
  bool aiming_at_end = last_segment && fxs_vec2_equal(target, end);
  int base = state->current_node < path->count ? state->current_node : path->count - 1;
  base = base >= HOLD_BACK_NODES ? base - HOLD_BACK_NODES : 0;
  int64_t own_progress = 0; // measured once a resting follower is near enough to count
  bool measured = false;
  fix16_t speed = fxs_vec2_length(self->velocity);
  // Bodies a tick of travel and half a body radius apart: a follower that stops there does
  // not touch, and is out of reach of a separation of up to 3 body radii.
  fix16_t body = fxs_max(self->radius, 0);
  fix16_t reach = fxs_add(fxs_add(speed, touch / 2), fxs_add(body, body / 2));
  for (uint32_t i = 0; i < count; ++i) {
    const fxs_path_rest *r = &resting[i];
    if (!aiming_at_end && !in_cone(self->position, toward, r->position)) continue;
    // Near enough: its body would touch within a tick, or (a follower its separation keeps
    // this far from resting ones would circle them for good) within keep_apart of it.
    fix16_t within = fxs_add(reach, fxs_max(r->radius, 0));
    fix16_t apart = fxs_add(path->keep_apart, touch / 2);
    bool near = fxs_vec2_within(self->position, r->position, within) ||
                (path->keep_apart > 0 && fxs_vec2_within(self->position, r->position, apart));
    if (!near) continue;
    // Only a follower farther along the path counts: of two resting followers at most one
    // holds for the other, so a queue cannot lock in a ring.
    if (!measured) own_progress = progress_near(path, base, self->position), measured = true;
    if (progress_near(path, base, r->position) > own_progress) return true;
  }
  return false;
}

// The nearest point to p on the segments of a stop path from node `base` to HOLD_AHEAD_NODES
// nodes past it (ties: the earlier), in *q, and the direction of its segment; returns the
// squared distance, raw.
static uint64_t nearest_on_path(const fxs_path_def *path, int base, fxs_vec2 p, fxs_vec2 *q,
                                fxs_vec2 *direction) {
  int end = base + HOLD_AHEAD_NODES < path->count - 1 ? base + HOLD_AHEAD_NODES : path->count - 1;
  *q = path->nodes[base];
  *direction = fxs_vec2_zero();
  uint64_t best = distance_sq(p, *q);
  for (int i = base; i < end; ++i) {
    fxs_vec2 c = fxs_vec2_closest_on_segment(p, path->nodes[i], path->nodes[i + 1]);
    uint64_t d = distance_sq(p, c);
    if (i == base || d < best)
      best = d, *q = c, *direction = fxs_vec2_sub(path->nodes[i + 1], path->nodes[i]);
  }
  return best;
}

// True when no resting follower but `skip` lies within `gap` of p.
static bool room_at(fxs_vec2 p, fix16_t gap, const fxs_path_rest *resting, uint32_t count,
                    uint32_t skip) {
  for (uint32_t i = 0; i < count; ++i) {
    if (i != skip && fxs_vec2_within(p, resting[i].position, gap)) return false;
  }
  return true;
}

// True when the straight way from `from` to `to` passes through no resting follower's body
// (its centre farther than its radius from every point of the way), a resting follower nearest
// the way's start aside (one the follower leaves behind or beside it is not in its way).
static bool way_clear(fxs_vec2 from, fxs_vec2 to, const fxs_path_rest *resting, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    fxs_vec2 c = fxs_vec2_closest_on_segment(resting[i].position, from, to);
    if (!fxs_vec2_equal(c, from) &&
        fxs_vec2_within(c, resting[i].position, fxs_max(resting[i].radius, 0)))
      return false;
  }
  return true;
}

// fxs_path_hold_packed; with `in_reach` (fxs_path_hold_reachable), a follower almost stopped
// holds when a resting body lies on the way to its room.
static bool hold_packed(const fxs_agent *self, const fxs_path_def *path,
                        const fxs_path_state *state, fxs_vec2 *target, const fxs_path_rest *resting,
                        uint32_t count, bool in_reach) {
  if (path->mode != FXS_PATH_STOP_AT_END || path->count == 0 || path->nodes == 0) return false;
  fix16_t touch = fxs_agent_touch(self), body = fxs_max(self->radius, 0);
  if (state->current_node == path->count - 1 &&
      fxs_vec2_within(self->position, path->nodes[path->count - 1], touch / 4))
    return true;
  fix16_t speed = fxs_vec2_length(self->velocity);
  bool slow = speed <= fxs_max(self->max_speed, 0) / PACKED_SLOW_DIVISOR;
  int base = state->current_node < path->count ? state->current_node : path->count - 1;
  int back = base >= HOLD_BACK_NODES ? base - HOLD_BACK_NODES : 0;
  int64_t own = progress_near(path, back, self->position);
  fix16_t reach = fxs_add(fxs_add(speed, touch / 2), fxs_add(body, body / 2));
  fix16_t radius_path = fxs_max(path->radius, 0);
  bool blocked = false, found = false;
  fxs_vec2 best = *target;
  uint64_t best_d = 0;
  // Every resting follower farther along the path within keep_apart (or within a tick of
  // touching) blocks the way. Beside each lie lanes: across the path from its nearest point
  // on the path, every spacing (keep_apart, at least the two radii and a touching distance)
  // within the path radius. A lane's place clear of every resting follower and in sight of
  // the blocker is room to go to: the nearest one is taken.
  for (uint32_t i = 0; i < count; ++i) {
    const fxs_path_rest *r = &resting[i];
    fix16_t radius = fxs_max(r->radius, 0);
    // Any resting follower its body would touch within a tick, moving toward it, holds it
    // where it is, wherever it was going: soft bodies do not press into resting ones.
    fxs_vec2 to_r = fxs_vec2_sub(r->position, self->position);
    if (fxs_vec2_within(self->position, r->position,
                        fxs_add(fxs_add(speed, touch), fxs_add(body, radius))) &&
        fxs_vec2_dot(self->velocity, to_r) > 0)
      return true;
    fix16_t within = fxs_max(fxs_add(reach, radius), fxs_add(path->keep_apart, touch / 2));
    if (!fxs_vec2_within(self->position, r->position, within)) continue;
    if (progress_near(path, back, r->position) <= own) continue;
    if (slow || fxs_vec2_within(self->position, r->position, fxs_add(reach, radius)))
      blocked = true;
    fix16_t spacing = fxs_max(path->keep_apart, fxs_add(fxs_add(body, radius), touch));
    fxs_vec2 q, direction;
    nearest_on_path(path, back, r->position, &q, &direction);
    fxs_vec2 lane = fxs_vec2_set_length(fxs_vec2_make(-direction.y, direction.x), spacing);
    if (fxs_vec2_is_zero(lane)) continue;
    int lanes = (int)(radius_path / spacing); // 0 .. 32767
    if (lanes > PACKED_LANES) lanes = PACKED_LANES;
    // At the end of the path the lanes go on a row past the last node (where the path's
    // radius still reaches).
    int rows = fxs_vec2_equal(q, path->nodes[path->count - 1]) ? 2 : 1;
    fxs_vec2 row = fxs_vec2_set_length(direction, spacing);
    for (int k = 0; k < rows * (2 * lanes + 1); ++k) {
      int j = k % (2 * lanes + 1) - lanes;
      fxs_vec2 room = fxs_vec2_add(q, fxs_vec2_scale(lane, FXS_INT(j)));
      if (k > 2 * lanes) room = fxs_vec2_add(room, row);
      if (!room_at(room, fxs_sub(spacing, touch), resting, count, count)) continue;
      // In sight of the resting follower, and its whole body on this side of any wall.
      fxs_vec2 edge =
          fxs_vec2_add(room, fxs_vec2_set_length(fxs_vec2_sub(room, r->position), body));
      if (!fxs_path_sees(path, r->position, edge, body)) continue;
      uint64_t d = distance_sq(self->position, room);
      if (found && d >= best_d) continue;
      found = true, best = room, best_d = d;
    }
  }
  if (found) {
    // There: it holds (within two touching distances); else it goes there.
    if (fxs_vec2_within(self->position, best, fxs_add(touch, touch))) return true;
    // Almost stopped, a resting body straight between it and the room: its separation from
    // that one cancels the pull there, and it would swing to and fro, never at rest.
    if (in_reach && slow && !way_clear(self->position, best, resting, count)) return true;
    *target = best;
    return false;
  }
  // No room beside them: hold once about to touch one, or almost stopped within keep_apart;
  // or at the end (fxs_path_hold's rule; room beside a resting one there comes first).
  return blocked || at_end(self, path, state);
}

bool fxs_path_hold_packed(const fxs_agent *self, const fxs_path_def *path,
                          const fxs_path_state *state, fxs_vec2 *target,
                          const fxs_path_rest *resting, uint32_t count) {
  return hold_packed(self, path, state, target, resting, count, false);
}

bool fxs_path_hold_reachable(const fxs_agent *self, const fxs_path_def *path,
                             const fxs_path_state *state, fxs_vec2 *target,
                             const fxs_path_rest *resting, uint32_t count) {
  return hold_packed(self, path, state, target, resting, count, true);
}
