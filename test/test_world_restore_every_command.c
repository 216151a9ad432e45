// The sibling of test_world_restore_random.c, whose streams keep to navigation: here the
// seeded streams issue every command type of command.h and, through add_behavior, every
// behavior kind of behavior.h, with parameters mostly in their ranges (behavior_params.h)
// and sometimes at or beyond their edges (the world refuses those, and nothing else
// changes). The worlds vary too: every snapshot layout (navigation with and without group
// fields, a flow field alone, neither), clamped or free, neighbor radii from 0 to 1000,
// paths, commands from three sources with owned agents, and steps through a task system of
// two workers. Every tick the world is saved and restored into a second world, which must
// save the same bytes and hash the same, and both step on with the tick's commands to the
// same hash and the same per-command results; now and then a third world rolls back a few
// ticks and steps through them again, as a session does, to the same hash.
#include <stdio.h>
#include <string.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "vec2.h"
#include "rng.h"
#include "agent.h"
#include "behavior.h"
#include "behavior_params.h"
#include "manager.h"
#include "avoidance.h"
#include "path.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "world_internal.h"
#include "nav_grid.h"
#include "snapshot.h"
#include "input_limits.h"
#include "fxs_nav_test.h"

// The worlds: 12 agents, 4 obstacles, 3 paths of 16 nodes together, 6 walls, 2 workers, in
// the four snapshot layouts: navigation (small searches and routes, as in the sibling) with
// 2 group fields (layout 6) and without (5), a flow field alone (4), neither (3); then
// navigation without a flow field, and the least of everything (5 agents, 1 open entry,
// routes of 2 waypoints).
#define AGENTS 12u
#define SOURCES 3u
#define MOST 11u  // commands a tick at most
#define SEEDS 96u // of 300 ticks each, then 4 of 800 ticks with few commands
static const fxs_world_capacity shapes[6] = {
    {AGENTS, 4, 3, 16, 6, 2, 400, 400, 2, 48, 3, 2},
    {AGENTS, 4, 3, 16, 6, 2, 400, 400, 2, 48, 3, 0},
    {AGENTS, 4, 3, 16, 6, 2, 144, 0, 0, 0, 0, 0},
    {AGENTS, 4, 3, 16, 6, 2, 0, 0, 0, 0, 0, 0},
    {AGENTS, 4, 3, 16, 6, 2, 0, 400, 2, 48, 3, 2}, // navigation without a flow field
    {5, 1, 1, 4, 1, 2, 64, 100, 1, 1, 2, 1}};      // the least of everything
#define BACK 4u                                    // ticks a roll back goes back at most
static fxs_world_capacity cap;                     // the run's
static fxs_world_capacity spare_cap;               // the other and the replay world's
static uint64_t memory[19000], memory2[19000], memory3[19000];
static uint8_t snap[16384];
static uint8_t snap2[16384];
static uint8_t past[BACK][16384]; // the snapshots of the last BACK ticks
static size_t past_size[BACK];
static fxs_command past_commands[BACK][MOST]; // and their commands
static uint32_t past_count[BACK];
static fxs_world world, other, replay;
static fxs_rng rng;
static fxs_agent_handle recent[8]; // handles seen lately: some of them go stale
static bool wild; // the run's agents, obstacles and walls spread over 40,000 units, fast and large

void setUp(void) {}
void tearDown(void) {}

// Every draw in its own statement: the order in which a call's arguments (or an operator's
// operands) are evaluated is the compiler's choice, and the streams must be the same on
// every platform.
static uint32_t below(uint32_t n) { return fxs_rng_below(&rng, n); }
static bool one_in(uint32_t n) { return below(n) == 0; }
static fix16_t between(fix16_t lo, fix16_t hi) { return fxs_rng_fix16(&rng, lo, hi); }

static fxs_vec2 random_vec(fix16_t lo, fix16_t hi) {
  fix16_t x = between(lo, hi);
  return fxs_vec2_make(x, between(lo, hi));
}

// Mostly inside the 400 x 400 world, sometimes well outside it.
static fxs_vec2 any_point(void) {
  if (wild && one_in(3)) return random_vec(FXS_INT(-20000), FXS_INT(20000));
  if (one_in(16)) return random_vec(FXS_INT(-300), FXS_INT(700));
  int x = (int)below(400);
  return nav_point(x, (int)below(400));
}

// One of a few shared goals, so that groups form and share fields.
static fxs_vec2 goal_point(void) {
  static const int g[5][2] = {{350, 350}, {30, 370}, {370, 30}, {200, 200}, {100, 100}};
  uint32_t k = below(5);
  return nav_point(g[k][0], g[k][1]);
}

// A value at the edge of what anything accepts.
static fix16_t edge_value(void) {
  static const fix16_t v[8] = {0, 1, -1, FXS_ONE / 2, -FXS_ONE, FXS_INT(30000), FXS_MAX, FXS_MIN};
  return v[below(8)];
}

// A live agent mostly; sometimes a free slot (0), a handle seen earlier, or any 32 bits.
static fxs_agent_handle pick_agent(const fxs_world *w) {
  uint32_t r = below(24);
  fxs_agent_handle h = fxs_world_handle_at(w, below(AGENTS));
  if (r == 0) {
    h = recent[below(8)];
  } else if (r == 1) {
    h.value = fxs_rng_next(&rng);
  } else if (h.value != 0 && r == 2) {
    recent[below(8)] = h;
  }
  return h;
}

// ------------------------------------------------------------------ behaviors

// Whole numbers in [minimum, maximum] for counts and choices; elsewhere a span of the
// unit's usual values inside the range; sometimes the edges, one step beyond them, or a
// value at the edge of everything (refused where out of range).
static fix16_t random_param(const fxs_behavior_param *p) {
  switch (below(24)) {
    case 0:
      return p->minimum;
    case 1:
      return p->maximum;
    case 2:
      return p->minimum > FXS_MIN ? p->minimum - 1 : FXS_MIN;
    case 3:
      return p->maximum < FXS_MAX ? p->maximum + 1 : FXS_MAX;
    case 4:
      return edge_value();
    default:
      break;
  }
  if (strcmp(p->unit, "count") == 0 || strcmp(p->unit, "choice") == 0) {
    uint32_t top = (uint32_t)(p->maximum / FXS_ONE);
    return FXS_INT((int32_t)below(top + 1u));
  }
  int64_t span = FXS_INT(200); // units
  if (strcmp(p->unit, "ticks") == 0) span = FXS_INT(60);
  if (strcmp(p->unit, "radians") == 0) span = FXS_TWO_PI;
  if (strcmp(p->unit, "force") == 0) span = FXS_INT(2);
  if (strcmp(p->unit, "factor") == 0) span = FXS_INT(16);
  int64_t lo = p->minimum < -span ? -span : p->minimum; // offset pursuit's slot: either side
  int64_t hi = (int64_t)p->maximum < lo + span ? (int64_t)p->maximum : lo + span;
  return between((fix16_t)lo, (fix16_t)hi);
}

// A behavior of `kind` (any number): priority, weight and half the parameters drawn, the
// others the defaults; unused parameters are sometimes not 0 (refused).
static fxs_command behavior_of(fxs_agent_handle a, uint32_t kind) {
  fxs_behavior_slot s = fxs_behavior_slot_default((fxs_behavior)kind);
  s.kind = (uint8_t)kind;
  s.priority = one_in(16) ? 255u : (uint8_t)below(3);
  uint32_t w = below(12);
  s.weight = w == 0   ? 0
             : w == 1 ? -FXS_ONE
             : w == 2 ? FXS_MAX
                      : between(FXS_RATIO(1, 4), FXS_INT(2));
  uint32_t n = fxs_behavior_param_count((fxs_behavior)kind);
  for (uint32_t i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) {
    if (i >= n) {
      if (one_in(64)) s.p[i] = FXS_ONE;
    } else if (one_in(2)) {
      s.p[i] = random_param(fxs_behavior_param_info((fxs_behavior)kind, i));
    }
  }
  return fxs_command_add_behavior(a, &s);
}

// A behavior of any kind, NONE, the manager's labels and two kinds past the table included.
static fxs_command random_behavior(fxs_agent_handle a) {
  return behavior_of(a, below(FXS_BEHAVIOR_COUNT + 2u));
}

// One of the behaviors that use the world's paths, grids, fields and groups.
static fxs_command world_behavior(fxs_agent_handle a) {
  static const uint8_t kinds[8] = {FXS_BEHAVIOR_NAVIGATE,  FXS_BEHAVIOR_NAVIGATE,
                                   FXS_BEHAVIOR_FORMATION, FXS_BEHAVIOR_PATH,
                                   FXS_BEHAVIOR_ORCA,      FXS_BEHAVIOR_FLOW_FIELD,
                                   FXS_BEHAVIOR_WALKER,    FXS_BEHAVIOR_SEPARATION};
  return behavior_of(a, kinds[below(8)]);
}

// ------------------------------------------------------------------ agents

static fxs_command random_spawn(void) {
  fxs_spawn_def s = fxs_default_spawn_def();
  s.position = any_point();
  s.velocity = random_vec(FXS_INT(-6), FXS_INT(6));
  s.max_speed = between(0, FXS_INT(6));
  s.max_force = between(0, FXS_ONE);
  s.mass = one_in(4) ? between(FXS_RATIO(1, 4), FXS_INT(4)) : FXS_ONE;
  s.radius = between(0, FXS_INT(12));
  s.owned = (uint8_t)one_in(4);
  if (wild && one_in(2)) {
    s.velocity = random_vec(FXS_INT(-300), FXS_INT(300));
    s.max_speed = between(0, FXS_INT(400));
    s.max_force = between(0, FXS_INT(100));
    s.mass = between(1, FXS_INT(1000));
    s.radius = between(0, FXS_INT(600));
  }
  return fxs_command_spawn(&s);
}

// Limits and an orientation mode; each limit kept or drawn.
static fxs_command random_limits(fxs_agent_handle a) {
  fxs_agent_limits_def d = fxs_default_agent_limits_def();
  if (one_in(2)) d.max_speed = between(0, FXS_INT(6));
  if (one_in(2)) d.max_force = between(0, FXS_ONE);
  if (one_in(3)) d.mass = between(FXS_RATIO(1, 8), FXS_INT(4));
  if (one_in(3)) d.radius = between(0, FXS_INT(12));
  if (one_in(2)) d.max_rotation = between(0, FXS_RATIO(1, 2));
  if (one_in(2)) d.max_angular_acceleration = between(0, FXS_RATIO(1, 4));
  if (one_in(2)) d.max_turn_rate = between(0, FXS_RATIO(1, 2));
  d.orientation = (fxs_orientation_mode)below(3);
  if (one_in(8)) { // turning limits far past a turn a tick
    d.max_rotation = between(0, FXS_INT(100));
    d.max_angular_acceleration = between(0, FXS_INT(100));
    d.max_turn_rate = between(0, FXS_INT(100));
  }
  return fxs_command_set_limits(a, &d);
}

// An owner of the three sources, shared, or a source past 255 (refused).
static fxs_command random_owner(fxs_agent_handle a) {
  uint32_t k = below(SOURCES + 2u);
  uint32_t owner = k < SOURCES ? k : k == SOURCES ? FXS_OWNER_SHARED : 256u;
  return fxs_command_set_owner(a, owner);
}

// ------------------------------------------------------------------ fields and navigation

// The navigation grid's shape (for fill_field toward a goal), another shape (some larger
// than the capacity), or none.
static fxs_command random_field_grid(const fxs_world *w) {
  const fxs_nav_grid *g = &w->nav.grid;
  switch (below(4)) {
    case 0:
      return fxs_command_remove_field();
    case 1: {
      fxs_vec2 origin = any_point();
      fix16_t cell = FXS_INT(5 + (int)below(36));
      uint32_t columns = 1 + below(24);
      return fxs_command_set_field_grid(origin, cell, columns, 1 + below(24));
    }
    default:
      return fxs_command_set_field_grid(g->origin, g->cell_size ? g->cell_size : FXS_INT(20),
                                        g->width ? g->width : 12, g->height ? g->height : 12);
  }
}

static fxs_command random_field_cells(const fxs_world *w) {
  uint32_t fw = w->field.width ? w->field.width : 4, fh = w->field.height ? w->field.height : 4;
  uint32_t x = below(fw), y = below(fh);
  uint32_t columns = 1 + below(fw - x), rows = 1 + below(fh - y);
  fxs_vec2 flow = one_in(8) ? fxs_vec2_zero() : random_vec(FXS_INT(-2), FXS_INT(2));
  return fxs_command_set_field_cells(x, y, columns, rows, flow);
}

static fxs_command random_fill(void) {
  switch (below(5)) {
    case 0:
      return fxs_command_fill_field_uniform(random_vec(FXS_INT(-2), FXS_INT(2)));
    case 1:
      return fxs_command_fill_field_toward(any_point());
    case 2: {
      fxs_vec2 center = any_point();
      fix16_t swirl = between(FXS_INT(-2), FXS_INT(2));
      return fxs_command_fill_field_vortex(center, swirl, between(FXS_INT(-2), FXS_INT(2)));
    }
    case 3:
      return fxs_command_fill_field_goal(goal_point());
    default: {
      fxs_command c = fxs_command_fill_field_toward(any_point());
      c.ref = 4; // no such fill
      return c;
    }
  }
}

// A navigation grid (columns, rows, cell size; 30 x 30 is beyond every capacity) or none.
static fxs_command random_grid(void) {
  static const uint32_t shapes_of_grid[4][3] = {
      {20, 20, 20}, {10, 10, 40}, {16, 12, 25}, {30, 30, 14}};
  uint32_t k = below(5);
  if (k == 4) return fxs_command_remove_nav_grid();
  fix16_t radius = FXS_INT((int)below(10));
  fxs_vec2 origin = one_in(4) ? nav_point(-20, -10) : nav_point(0, 0);
  const uint32_t *s = shapes_of_grid[k];
  return fxs_command_set_nav_grid(origin, FXS_INT(s[2]), s[0], s[1], radius, 1 + below(40));
}

static fxs_command random_costs(const fxs_world *w) {
  uint32_t gw = w->nav.grid.width ? w->nav.grid.width : 1;
  uint32_t gh = w->nav.grid.height ? w->nav.grid.height : 1;
  uint32_t x = below(gw), y = below(gh);
  uint32_t columns = 1 + below(gw - x), rows = 1 + below(gh - y);
  uint32_t cost = one_in(3) ? 0u : 1u + below(5);
  if (one_in(16)) cost = one_in(2) ? 254u : 255u;
  return fxs_command_set_nav_costs(x, y, columns, rows, cost);
}

// ------------------------------------------------------------------ commands

// One field of a command set to an edge value: an argument, the reference or the agent.
static void disturb(fxs_command *c) {
  static const uint32_t refs[8] = {0, 1, 2, 0xFFu, 0x100u, 0xFFFFu, 0x10000u, UINT32_MAX};
  uint32_t which = below(FXS_COMMAND_ARGS + 2u);
  if (which < FXS_COMMAND_ARGS) {
    c->arg[which] = edge_value();
  } else if (which == FXS_COMMAND_ARGS) {
    c->ref = refs[below(8)];
  } else {
    c->agent = one_in(2) ? 0u : fxs_rng_next(&rng);
  }
}

// A command of type `type`; FXS_CMD_COUNT gives one of a type past the list (refused).
static fxs_command command_of(uint32_t type, const fxs_world *w, fxs_agent_handle a) {
  fxs_agent_handle none = {0};
  switch (type) {
    case FXS_CMD_SPAWN:
      return random_spawn();
    case FXS_CMD_DESPAWN:
      return fxs_command_despawn(a);
    case FXS_CMD_SET_TARGET_POINT:
      return fxs_command_set_target_point(a, one_in(2) ? goal_point() : any_point());
    case FXS_CMD_SET_TARGET_AGENT:
      return fxs_command_set_target_agent(a, one_in(6) ? none : pick_agent(w));
    case FXS_CMD_CLEAR_BEHAVIORS:
      return fxs_command_clear_behaviors(a, (fxs_combine_mode)below(3));
    case FXS_CMD_ADD_BEHAVIOR:
      return random_behavior(a);
    case FXS_CMD_SET_PATH: {
      uint32_t p = below(w->path_count + 2u); // path_count itself is no path: refused
      return fxs_command_set_path(a, p > w->path_count ? FXS_NO_PATH : p);
    }
    case FXS_CMD_ADD_OBSTACLE: {
      fxs_obstacle o;
      o.center = any_point();
      o.radius = wild ? between(0, FXS_INT(3000)) : between(0, FXS_INT(30));
      return fxs_command_add_obstacle(o);
    }
    case FXS_CMD_REMOVE_OBSTACLE:
      return fxs_command_remove_obstacle(below(cap.obstacles + 1u));
    case FXS_CMD_APPLY_FORCE:
      return fxs_command_apply_force(a, random_vec(FXS_INT(-4), FXS_INT(4)));
    case FXS_CMD_SET_LIMITS:
      return random_limits(a);
    case FXS_CMD_ADD_WALL: {
      fxs_wall x;
      x.a = any_point();
      x.b = one_in(8) ? x.a : any_point();
      return fxs_command_add_wall(x);
    }
    case FXS_CMD_REMOVE_WALL:
      return fxs_command_remove_wall(below(cap.walls + 1u));
    case FXS_CMD_SET_FIELD_GRID:
      return random_field_grid(w);
    case FXS_CMD_SET_FIELD_CELLS:
      return random_field_cells(w);
    case FXS_CMD_FILL_FIELD:
      return random_fill();
    case FXS_CMD_SET_SECOND_TARGET:
      return fxs_command_set_second_target(a, one_in(6) ? none : pick_agent(w));
    case FXS_CMD_SET_OWNER:
      return random_owner(a);
    case FXS_CMD_SET_NAV_GRID:
      return random_grid();
    case FXS_CMD_SET_NAV_COSTS:
      return random_costs(w);
    case FXS_CMD_MOVE: {
      uint32_t group = below(3);
      fxs_vec2 to = goal_point();
      fix16_t gap = one_in(16) ? FXS_INT(1024) + (fix16_t)below(2) : FXS_INT((int)below(6));
      return fxs_command_move(a, group, to, gap);
    }
    default: {
      fxs_command c = fxs_command_make((fxs_command_type)(FXS_CMD_COUNT + below(8)), 0, 0);
      c.agent = a.value; // no such type: refused
      return c;
    }
  }
}

// A command of any type: add_behavior (and the behaviors of world_behavior), clear_behaviors,
// set_target_agent and spawn more often, and now and then a type past the list or one field
// at an edge value.
static fxs_command random_command(const fxs_world *w) {
  static const uint8_t extra[8] = {
      FXS_CMD_ADD_BEHAVIOR,    FXS_CMD_ADD_BEHAVIOR,     FXS_CMD_ADD_BEHAVIOR, FXS_CMD_ADD_BEHAVIOR,
      FXS_CMD_CLEAR_BEHAVIORS, FXS_CMD_SET_TARGET_AGENT, FXS_CMD_SPAWN,        FXS_CMD_COUNT};
  fxs_agent_handle a = pick_agent(w);
  uint32_t k = below(FXS_CMD_COUNT + 9u);
  fxs_command c = k == FXS_CMD_COUNT + 8u
                      ? world_behavior(a)
                      : command_of(k < FXS_CMD_COUNT ? k : extra[k - FXS_CMD_COUNT], w, a);
  // Mostly from the agent's owner (a player commands its own units), else from any source.
  uint32_t owner = FXS_OWNER_SHARED;
  fxs_world_agent_owner(w, a, &owner);
  c.source = (uint8_t)below(SOURCES);
  if (owner != FXS_OWNER_SHARED && !one_in(4)) c.source = (uint8_t)owner;
  c.sequence = (uint16_t)below(4);
  if (one_in(24)) disturb(&c);
  return c;
}

// ------------------------------------------------------------------ worlds

// Clamped or free, neighbor radius from 0 to 1000, bounds of the 400 x 400 world mostly.
static fxs_world_def random_def(uint64_t seed) {
  static const int radii[5] = {0, 8, 40, 100, 1000};
  fxs_world_def d = fxs_default_world_def();
  d.seed = seed;
  d.bounds_max = nav_point(400, 400);
  d.clamp_to_bounds = (uint8_t)below(2);
  d.neighbor_radius = FXS_INT(radii[below(5)]);
  uint32_t b = below(6);
  if (b == 0) d.bounds_min = nav_point(-200, -200), d.bounds_max = nav_point(200, 200);
  if (b == 1) d.bounds_min = nav_point(100, 100), d.bounds_max = nav_point(104, 400);
  if (wild) d.bounds_min = nav_point(-16000, -16000), d.bounds_max = nav_point(16000, 16000);
  return d;
}

// Up to four paths (the fourth, or too many nodes, is refused: full), of 0 to 6 nodes.
static void random_paths(fxs_world *w) {
  uint32_t count = below(5);
  for (uint32_t i = 0; i < count; ++i) {
    fxs_vec2 nodes[6];
    uint16_t n = (uint16_t)below(7);
    for (uint16_t k = 0; k < n; ++k) nodes[k] = any_point();
    fxs_path_mode mode = (fxs_path_mode)below(3);
    fix16_t radius = FXS_INT((int)below(20));
    fxs_result r = fxs_world_add_path(w, nodes, n, mode, radius, 0);
    TEST_ASSERT_TRUE(r == FXS_OK || r == FXS_ERR_FULL);
  }
}

// A task system of two workers that runs the second half of each phase first.
static void *two_enqueue(fxs_task_fn *task, uint32_t count, uint32_t min_range, void *task_context,
                         void *user_context) {
  uint32_t half = count / 2u;
  (void)min_range;
  ++*(uint32_t *)user_context;
  task(half, count, 1, task_context);
  if (half > 0) task(0, half, 0, task_context);
  return 0; // everything has run
}

static void two_finish(void *handle, void *user_context) {
  (void)handle;
  (void)user_context;
}

// What the runs reached, so that the test fails if the streams stop covering what they are
// for: each command type applied and refused, each slot kind and orientation mode applied,
// refusals for another source's agent, every snapshot layout, phases through the tasks, roll
// backs, and the states of count_states.
typedef struct reached {
  uint32_t applied[FXS_CMD_COUNT], refused[FXS_CMD_COUNT];
  uint32_t kinds[FXS_BEHAVIOR_COUNT], modes[3], not_owner, layouts[7], phases, roll_backs;
  uint32_t searching, routes, fields_ready, fields_building, on_paths, walking, owned;
} reached;
static reached seen;
static uint64_t digest; // every run's final hash folded in: the same on every platform

static void count_results(const fxs_command *c, const fxs_result *r, uint32_t n) {
  for (uint32_t k = 0; k < n; ++k) {
    if (c[k].type >= FXS_CMD_COUNT) continue;
    seen.applied[c[k].type] += r[k] == FXS_OK;
    seen.refused[c[k].type] += r[k] != FXS_OK;
    seen.not_owner += r[k] == FXS_ERR_NOT_OWNER;
    if (r[k] != FXS_OK) continue;
    if (c[k].type == FXS_CMD_ADD_BEHAVIOR) seen.kinds[c[k].ref & 0xFFu]++;
    if (c[k].type == FXS_CMD_SET_LIMITS) seen.modes[c[k].ref]++;
  }
}

// States the steps reached: routes being searched and ready, group fields ready and being
// built, agents on paths, walkers with a waypoint, owned agents.
static void count_states(const fxs_world *w) {
  for (uint32_t i = 0; i < w->capacity.agents; ++i) {
    const fxs_agent_slot *s = &w->agents[i];
    if (!s->alive) continue;
    seen.on_paths += s->path_index != FXS_NO_PATH;
    seen.walking += s->walker.has_waypoint;
    seen.owned += s->owned;
    if (w->capacity.nav_cells == 0) continue;
    seen.searching += w->nav.routes[i].status == FXS_ROUTE_SEARCHING;
    seen.routes += w->nav.routes[i].status == FXS_ROUTE_READY;
  }
  for (uint32_t k = 0; k < w->capacity.nav_fields; ++k) {
    const fxs_nav_field_slot *f = &w->nav.field_slots[k];
    seen.fields_ready += f->live && f->ready;
    seen.fields_building += f->live && !f->ready;
  }
}

// The first differing field of the two worlds in the failure message.
static void assert_same(const char *where) {
  uint64_t a = fxs_world_hash(&world), b = fxs_world_hash(&other);
  if (a == b) return;
  fxs_world_difference d;
  char message[192];
  if (fxs_world_first_difference(&world, &other, &d)) {
    snprintf(message, sizeof message, "%s: agent %d %s %lld != %lld", where, (int)d.agent, d.field,
             (long long)d.a, (long long)d.b);
  } else {
    snprintf(message, sizeof message, "%s: hashes differ", where);
  }
  TEST_FAIL_MESSAGE(message);
}

// Saves the world, restores it into the other, which must save the same bytes, also through
// the other writers of the state (hashed on the way into a buffer of exactly its size,
// compared, measured); returns the snapshot's size.
static size_t save_and_restore(const char *where) {
  size_t size = 0, size2 = 0, at = 0;
  char message[160];
  TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size), where);
  TEST_ASSERT_TRUE_MESSAGE(size <= fxs_world_snapshot_bound(&cap), where);
  fxs_result r = fxs_world_restore(&other, snap, size, &at);
  snprintf(message, sizeof message, "%s: restore refused at byte %u", where, (unsigned)at);
  TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, r, message);
  assert_same(where);
  TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, fxs_world_save(&other, snap2, sizeof snap2, &size2), where);
  TEST_ASSERT_EQUAL_UINT32_MESSAGE(size, size2, where);
  TEST_ASSERT_EQUAL_MEMORY_MESSAGE(snap, snap2, size, where);
  uint64_t hashed = 0;
  memset(snap2, 0, size);
  r = fxs_world_save_hashed(&other, snap2, size, &size2, &hashed);
  TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, r, where);
  TEST_ASSERT_EQUAL_MEMORY_MESSAGE(snap, snap2, size, where);
  TEST_ASSERT_EQUAL_HEX64_MESSAGE(fxs_world_hash(&world), hashed, where);
  TEST_ASSERT_TRUE_MESSAGE(fxs_world_matches_snapshot(&other, snap, size, 0), where);
  TEST_ASSERT_EQUAL_UINT32_MESSAGE(size, fxs_world_snapshot_size(&other), where);
  seen.layouts[snap[4] < 7u ? snap[4] : 0]++;
  return size;
}

// A session's roll back: the state of 1 to BACK ticks ago restored into the replay world,
// whose caches come from whatever tick it reached last (or, for the neighbor searches' reach
// hints, any value: world.h), and stepped on through the recorded commands (through the
// tasks at times) must reach the world's state at tick t.
static void roll_back(int t, const char *where) {
  uint32_t back = 1u + below(t < (int)BACK ? (uint32_t)t : BACK);
  uint32_t from = (uint32_t)(t - (int)back) % BACK;
  size_t at = 0;
  fxs_result r = fxs_world_restore(&replay, past[from], past_size[from], &at);
  TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, r, where);
  fxs_task_system tasks = {two_enqueue, two_finish, 2, &seen.phases};
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_tasks(&replay, one_in(2) ? &tasks : 0));
  if (one_in(4)) {
    for (uint32_t i = 0; i < cap.agents; ++i) {
      uint32_t bits = fxs_rng_next(&rng);
      replay.internal->slot_reach[i] = bits >> below(32);
    }
  }
  for (uint32_t i = back; i > 0; --i) {
    uint32_t k = (uint32_t)(t - (int)i) % BACK;
    fxs_command c[MOST];
    memcpy(c, past_commands[k], sizeof c);
    fxs_world_step(&replay, c, past_count[k], 0);
  }
  TEST_ASSERT_EQUAL_HEX64_MESSAGE(fxs_world_hash(&world), fxs_world_hash(&replay), where);
  seen.roll_backs++;
}

// A world of the seed's shape (two seeds in a row share one) and a random definition, with
// paths, with navigation a grid, and 8 agents (5 in the least world), each with one of the
// world's behaviors (with navigation, the first five navigate to one goal: a group with a
// field) and a random one. The other and the
// replay world are laid out afresh only for a new shape: the second seed of a pair restores
// into worlds that hold the first one's last states.
static void make_worlds(uint64_t seed) {
  cap = shapes[(seed / 2u) % 6u];
  wild = one_in(6);
  fxs_world_def def = random_def(seed);
  fxs_world_def plain = fxs_default_world_def(); // the restore brings the definition
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) > 0 && fxs_world_memory_size(&cap) <= sizeof memory);
  TEST_ASSERT_TRUE(fxs_world_snapshot_bound(&cap) <= sizeof snap);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
  if (memcmp(&cap, &spare_cap, sizeof cap) != 0) {
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&other, &plain, &cap, memory2, sizeof memory2));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&replay, &plain, &cap, memory3, sizeof memory3));
    spare_cap = cap;
  }
  random_paths(&world);
  memset(recent, 0, sizeof recent);
  if (cap.nav_cells != 0) {
    uint32_t side = cap.nav_cells >= 400 ? 20 : 10;
    fix16_t cell = FXS_INT(400 / (int)side);
    fxs_command grid = fxs_command_set_nav_grid(nav_point(0, 0), cell, side, side, FXS_INT(6), 30);
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, grid));
  }
  for (uint32_t i = 0; i < 8 && i < cap.agents; ++i) {
    fxs_command c = random_spawn();
    fxs_agent_handle h = {0};
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
    bool group = cap.nav_cells != 0 && i < 5;
    fxs_behavior_slot navigate = fxs_behavior_slot_default(FXS_BEHAVIOR_NAVIGATE);
    for (int k = 0; k < 2; ++k) {
      c = k == 0 ? (group ? fxs_command_add_behavior(h, &navigate) : world_behavior(h))
                 : random_behavior(h);
      c.source = world.agents[i].owner;
      fxs_world_apply(&world, &c, 0); // refused at times (bad values, mixed sets)
    }
    c = fxs_command_set_target_point(h, group ? nav_point(350, 350) : goal_point());
    c.source = world.agents[i].owner;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0));
  }
}

// `ticks` ticks of seed `seed`, up to `most` commands a tick (0: one every 12 ticks or so).
static void run(uint64_t seed, int ticks, uint32_t most) {
  fxs_rng_seed(&rng, seed * 7919u + 5u);
  make_worlds(seed);
  // 0: inline; 1: the world steps through the tasks; 2: in turns of 10 ticks, one of the two.
  uint32_t tasks_mode = below(3);
  fxs_task_system tasks = {two_enqueue, two_finish, 2, &seen.phases};
  char where[96];
  for (int t = 0; t < ticks; ++t) {
    snprintf(where, sizeof where, "seed %u, tick %d", (unsigned)seed, t);
    size_t size = save_and_restore(where);
    if (t > 0 && one_in(8)) roll_back(t, where);
    memcpy(past[t % BACK], snap, size);
    past_size[t % BACK] = size;
    fxs_command a[MOST], b[MOST];
    fxs_result ra[MOST], rb[MOST];
    uint32_t n = most == 0 ? (below(12) == 0) : below(most + 1u);
    for (uint32_t k = 0; k < n; ++k) {
      a[k] = b[k] = past_commands[t % BACK][k] = random_command(&world);
    }
    past_count[t % BACK] = n;
    bool turn = (t / 10) % 2 == 0;
    bool on_world = tasks_mode == 1 || (tasks_mode == 2 && turn);
    bool on_other = tasks_mode == 2 && !turn;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_tasks(&world, on_world ? &tasks : 0));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_tasks(&other, on_other ? &tasks : 0));
    fxs_result fa = fxs_world_step(&world, a, n, ra);
    fxs_result fb = fxs_world_step(&other, b, n, rb);
    TEST_ASSERT_EQUAL_MESSAGE(fa, fb, where);
    for (uint32_t k = 0; k < n; ++k) TEST_ASSERT_EQUAL_MESSAGE(ra[k], rb[k], where);
    assert_same(where);
    count_results(a, ra, n);
    count_states(&world);
  }
  digest = (digest << 7 | digest >> 57) ^ fxs_world_hash(&world);
}

void test_every_tick_of_random_streams_of_every_command_restores_and_steps_on_the_same(void) {
  for (uint64_t seed = 1; seed <= SEEDS; ++seed) run(seed, 300, 3u + (uint32_t)(seed % 3u) * 4u);
  for (uint64_t seed = 200; seed <= 203; ++seed) run(seed, 800, 0);
  for (uint32_t k = 0; k < FXS_CMD_COUNT; ++k) {
    char message[96];
    snprintf(message, sizeof message, "%s applied %u, refused %u", fxs_command_name((uint8_t)k),
             seen.applied[k], seen.refused[k]);
    TEST_ASSERT_TRUE_MESSAGE(seen.applied[k] > 0 && seen.refused[k] > 0, message);
  }
  for (uint32_t k = 0; k < FXS_BEHAVIOR_COUNT; ++k) {
    if (!fxs_behavior_is_slot_kind(k)) continue;
    TEST_ASSERT_TRUE_MESSAGE(seen.kinds[k] > 0, fxs_behavior_name((fxs_behavior)k));
  }
  FXS_TEST_REPORT("behaviors added %u, refused %u; refused for another source %u",
                  seen.applied[FXS_CMD_ADD_BEHAVIOR], seen.refused[FXS_CMD_ADD_BEHAVIOR],
                  seen.not_owner);
  FXS_TEST_REPORT(
      "snapshots of layouts 3-6: %u %u %u %u; phases through the tasks %u; roll "
      "backs %u",
      seen.layouts[3], seen.layouts[4], seen.layouts[5], seen.layouts[6], seen.phases,
      seen.roll_backs);
  FXS_TEST_REPORT(
      "agent ticks: searching %u, on a route %u, on a path %u, walking %u, owned %u;"
      " group fields ready %u, being built %u",
      seen.searching, seen.routes, seen.on_paths, seen.walking, seen.owned, seen.fields_ready,
      seen.fields_building);
  FXS_TEST_REPORT("final hashes' digest %08x%08x (the same on every platform)",
                  (unsigned)(digest >> 32), (unsigned)digest);
  TEST_ASSERT_TRUE(seen.modes[0] > 0 && seen.modes[1] > 0 && seen.modes[2] > 0);
  TEST_ASSERT_TRUE(seen.not_owner > 0 && seen.phases > 0 && seen.roll_backs > 0);
  TEST_ASSERT_TRUE(seen.layouts[3] > 0 && seen.layouts[4] > 0 && seen.layouts[5] > 0 &&
                   seen.layouts[6] > 0);
  TEST_ASSERT_TRUE(seen.searching > 0 && seen.routes > 0 && seen.on_paths > 0 && seen.walking > 0 &&
                   seen.owned > 0);
  TEST_ASSERT_TRUE(seen.fields_ready > 0 && seen.fields_building > 0);
}
