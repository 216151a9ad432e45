#include "world_formation.h"

#include "fixsteer/formation.h"
#include "fixsteer/nav_path.h"
#include "fixsteer/seek.h"
#include "world_nav.h"
#include "world_nav_mesh.h"
#include "world_rules.h"
#include "world_slots.h"

// True when the slot holds a formation behavior of `group`.
static bool in_group(const fxs_agent_slot *s, fix16_t group) {
  for (uint8_t i = 0; i < s->behavior_count; ++i) {
    const fxs_behavior_slot *b = &s->behaviors[i];
    if (b->kind == FXS_BEHAVIOR_FORMATION && b->p[FXS_PARAM(FORMATION, group)] == group)
      return true;
  }
  return false;
}

// The parameters of the agent's formation behavior, its path's nodes as the user's offsets.
static fxs_formation_def def_of(const fxs_world *world, const fxs_agent_slot *s, const fix16_t *p) {
  fxs_formation_def d = fxs_default_formation_def();
  d.shape = (fxs_formation_shape)(p[FXS_PARAM(FORMATION, shape)] / FXS_ONE);
  d.spacing = p[FXS_PARAM(FORMATION, spacing)],
  d.slowing_radius = p[FXS_PARAM(FORMATION, slowing_radius)],
  d.group = (uint32_t)(p[FXS_PARAM(FORMATION, group)] / FXS_ONE);
  d.arrival_radius = p[FXS_PARAM(FORMATION, arrival_radius)];
  if (d.shape == FXS_FORMATION_USER && s->path_index < world->path_count) {
    const fxs_world_path *wp = &world->paths[s->path_index];
    d.offsets = &world->nodes[wp->first_node];
    d.offset_count = wp->count;
  }
  return d;
}

// The navigation grid with current costs, or NULL (no navigation, or no grid). The planning
// phase rebuilds changed costs before the agents steer.
static const fxs_nav_grid *grid_of(const fxs_world *world) {
  if (world->capacity.nav_cells == 0 || world->nav.grid.width == 0) return 0;
  return &world->nav.grid;
}

// A mesh world routing its agents, by simulation version 8's rules (FXS_RULES_MESH_FORMATIONS).
static bool mesh_routes(const fxs_world *world) {
  return fxs_world_is_mesh(&world->capacity) && world->nav.budget != 0 &&
         fxs_rules_since(world, FXS_RULES_MESH_FORMATIONS);
}

// Most sample points on a squeezed segment.
#define SQUEEZE_SAMPLES 64

// The segment from -> to cut back to its last point whose cell `from`'s cell sees: `to` when
// its cell is in sight; else the segment is sampled at N points (every half cell, at most
// SQUEEZE_SAMPLES; sample k at from + (to - from) k / N, each component rounded half away
// from zero) and the sample before the first one outside the grid or out of sight is kept
// (`from` itself when the first one is). `from` outside the grid: `to` unchanged.
// Sample k of N on the segment from `from` by (dx, dy): from + (dx, dy) k / N, each component
// rounded half away from zero (|d| < 2^33, k <= N <= 64: exact).
static fxs_vec2 sample(fxs_vec2 from, int64_t dx, int64_t dy, int64_t k, int64_t n) {
  int64_t ox = dx * k, oy = dy * k;
  ox = ox >= 0 ? (ox + n / 2) / n : -((-ox + n / 2) / n);
  oy = oy >= 0 ? (oy + n / 2) / n : -((-oy + n / 2) / n);
  return fxs_vec2_make((fix16_t)(from.x + ox), (fix16_t)(from.y + oy));
}

static fxs_vec2 squeeze(const fxs_nav_grid *g, fxs_vec2 from, fxs_vec2 to) {
  uint32_t fx, fy, tx, ty;
  if (!fxs_nav_grid_cell_of(g, from, &fx, &fy)) return to;
  if (fxs_nav_grid_cell_of(g, to, &tx, &ty) && fxs_nav_line_of_sight(g, fx, fy, tx, ty)) return to;
  int64_t dx = (int64_t)to.x - from.x, dy = (int64_t)to.y - from.y;
  fix16_t step = g->cell_size / 2 > 0 ? g->cell_size / 2 : 1;
  int64_t n = (int64_t)fxs_vec2_distance(from, to) / step + 1;
  if (n > SQUEEZE_SAMPLES) n = SQUEEZE_SAMPLES;
  fxs_vec2 kept = from;
  for (int64_t k = 1; k <= n; ++k) {
    fxs_vec2 p = sample(from, dx, dy, k, n);
    if (!fxs_nav_grid_cell_of(g, p, &tx, &ty) || !fxs_nav_line_of_sight(g, fx, fy, tx, ty)) break;
    kept = p;
  }
  return kept;
}

// squeeze on a mesh world routing its agents: `to` when `from` sees it (fxs_world_mesh_sees, the
// routing radius r), else the segment is sampled at N points (every r / 2, at least one raw
// unit, at most SQUEEZE_SAMPLES; rounded as above) and the slot is the sample r (rounded up
// to whole samples) before the first one out of sight: clear of the wall that hides it by
// about r, as the grid's inflated cells keep it; `from` itself when there is none.
static fxs_vec2 mesh_squeeze(const fxs_world *world, fxs_vec2 from, fxs_vec2 to) {
  if (fxs_world_mesh_sees(world, from, to)) return to;
  int64_t dx = (int64_t)to.x - from.x, dy = (int64_t)to.y - from.y;
  int64_t r = world->nav.radius, length = fxs_vec2_distance(from, to);
  int64_t step = r / 2 > 0 ? r / 2 : 1;
  int64_t n = length / step + 1;
  if (n > SQUEEZE_SAMPLES) n = SQUEEZE_SAMPLES;
  int64_t hidden = n + 1; // the first sample out of sight
  for (int64_t k = 1; k <= n && hidden > n; ++k) {
    if (!fxs_world_mesh_sees(world, from, sample(from, dx, dy, k, n))) hidden = k;
  }
  int64_t back = length > 0 ? (r * n + length - 1) / length : 0; // samples in r, rounded up
  int64_t kept = hidden - 1 - back;
  return kept > 0 ? sample(from, dx, dy, kept, n) : from;
}

// The member's slot (squeezed with a grid, or a mesh by version 8's rules, and a leader) and its
// formation's parameters.
static bool member_slot(const fxs_world *world, uint32_t index, const fxs_agent *leader,
                        const fix16_t *p, fxs_formation_def *d, fxs_vec2 *slot) {
  const fxs_agent_slot *self = &world->agents[index];
  int32_t leader_slot = leader ? fxs_world_slot_of(world, self->target_agent) : -1;
  const fxs_agent *members[FXS_FORMATION_MAX_MEMBERS];
  uint32_t count = 0, who = FXS_FORMATION_MAX_MEMBERS;
  // The scan stops at the cap: later members take no part, and neither does this agent if it
  // is one of them.
  for (uint32_t i = 0; i < world->capacity.agents && count < FXS_FORMATION_MAX_MEMBERS; ++i) {
    const fxs_agent_slot *s = &world->agents[i];
    if (!s->alive || (int32_t)i == leader_slot || !in_group(s, p[FXS_PARAM(FORMATION, group)]))
      continue;
    if (i == index) who = count;
    members[count++] = &s->body;
  }
  if (who >= count) return false;
  *d = def_of(world, self, p);
  if (!fxs_formation_slot(members, count, who, leader, d, slot)) return false;
  const fxs_nav_grid *g = grid_of(world);
  if (g && leader) *slot = squeeze(g, leader->position, *slot);
  else if (leader && mesh_routes(world)) *slot = mesh_squeeze(world, leader->position, *slot);
  return true;
}

fxs_vec2 fxs_world_formation_steering(const fxs_world *world, uint32_t index,
                                      const fxs_agent *leader, const fix16_t *p) {
  fxs_formation_def d;
  fxs_vec2 slot;
  if (!member_slot(world, index, leader, p, &d, &slot)) return fxs_vec2_zero();
  const fxs_agent *self = &world->agents[index].body;
  fxs_vec2 to;
  bool last;
  // A route exists only while the planning phase found the slot out of sight.
  if (leader && grid_of(world) && !fxs_world_nav_navigates(&world->agents[index]) &&
      fxs_world_nav_waypoint(world, index, &to, &last)) {
    return fxs_seek(self, to);
  }
  if (leader && mesh_routes(world) && !fxs_world_nav_navigates(&world->agents[index]) &&
      fxs_world_mesh_waypoint(world, index, &to, &last)) {
    return fxs_seek(self, to);
  }
  return fxs_formation_arrive(self, slot, leader ? leader->velocity : fxs_vec2_zero(), &d);
}

// The agent's first formation behavior and live leader.
static bool formation_of(const fxs_world *world, uint32_t index, const fix16_t **p,
                         const fxs_agent **leader) {
  const fxs_agent_slot *s = &world->agents[index];
  *p = 0;
  for (uint8_t i = 0; i < s->behavior_count && !*p; ++i) {
    if (s->behaviors[i].kind == FXS_BEHAVIOR_FORMATION) *p = s->behaviors[i].p;
  }
  int32_t l = s->target_agent ? fxs_world_slot_of(world, s->target_agent) : -1;
  *leader = l < 0 ? 0 : &world->agents[l].body;
  return *p != 0;
}

bool fxs_world_formation_slot_of(const fxs_world *world, uint32_t index, fxs_vec2 *slot) {
  const fix16_t *p;
  const fxs_agent *leader;
  fxs_formation_def d;
  if (!world->agents[index].alive || !formation_of(world, index, &p, &leader)) return false;
  return member_slot(world, index, leader, p, &d, slot);
}

bool fxs_world_formation_route_goal(const fxs_world *world, uint32_t index, uint32_t *goal_cell) {
  const fix16_t *p;
  const fxs_agent *leader;
  fxs_formation_def d;
  fxs_vec2 slot;
  const fxs_nav_grid *g = grid_of(world);
  if (!g || !formation_of(world, index, &p, &leader) || !leader ||
      !member_slot(world, index, leader, p, &d, &slot)) {
    return false;
  }
  uint32_t mx, my, sx, sy;
  fxs_nav_grid_cell_of(g, world->agents[index].body.position, &mx, &my);
  fxs_nav_grid_cell_of(g, slot, &sx, &sy);
  *goal_cell = sy * g->width + sx;
  return !fxs_nav_line_of_sight(g, mx, my, sx, sy);
}

bool fxs_world_formation_slot(const fxs_world *world, fxs_agent_handle handle, fxs_vec2 *slot) {
  int32_t i = fxs_world_slot_of(world, handle.value);
  return i >= 0 && fxs_world_formation_slot_of(world, (uint32_t)i, slot);
}

bool fxs_world_formation_mesh_goal(const fxs_world *world, uint32_t index, fxs_vec2 *slot) {
  const fix16_t *p;
  const fxs_agent *leader;
  fxs_formation_def d;
  if (!mesh_routes(world) || !formation_of(world, index, &p, &leader) || !leader ||
      !member_slot(world, index, leader, p, &d, slot)) {
    return false;
  }
  return !fxs_world_mesh_sees(world, world->agents[index].body.position, *slot);
}
