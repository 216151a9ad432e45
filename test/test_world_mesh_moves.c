// Moves that share fields and formations on a mesh world (simulation version 8,
// FXS_RULES_MESH_MOVE_FIELDS, FXS_RULES_MESH_MOVE_SPOTS, FXS_RULES_MESH_FORMATIONS;
// world_nav_mesh_fields.h "Moves", world_move.c, world_formation.h): the members of a move
// group follow one tree toward the destination and leave it for their own spots, which are
// clear of walls and obstacles; formation members get squeezed slots and mesh routes. A world
// stepping by version 7's rules moves as before, bit for bit.
#include <string.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "result.h"
#include "command_build.h"
#include "world.h"
#include "snapshot.h"
#include "world_internal.h"
#include "world_nav_fields.h"
#include "world_slots.h"
#include "world_nav_mesh_fields.h"
#include "fxs_nav_test.h"
#include "fxs_test_tasks.h"

// A mesh world of 800 x 800: 200 agents, 40 obstacles, 4 walls, up to 16 workers, 4 searches
// of 400 open entries, routes of up to 64 points, 2 group fields.
static const fxs_world_capacity cap = {200, 40, 0, 0, 4, 16, 0, 0, 4, 400, 64, 2, FXS_NAV_KIND_MESH,
                                       0};
static uint64_t memory[210000]; // 1.68 MB: the world takes 1,650,680 bytes on 64-bit
static uint64_t memory2[210000];
static uint8_t snap[1u << 17];
static fxs_world world, other;
static fxs_agent_handle units[200];

#define UNITS 200u

static void init(fxs_world *w, uint64_t *mem, size_t size) {
  fxs_world_def def = fxs_default_world_def();
  def.seed = 11;
  def.bounds_max = nav_point(800, 800);
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) > 0);
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= size);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(w, &def, &cap, mem, size));
}

// The world steps by version `version`'s rules.
static void rules(fxs_world *w, uint32_t version) {
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_simulation_version(w, version));
  TEST_ASSERT_EQUAL_UINT32(version, fxs_world_simulation_version(w));
}

// 200 navigators of radius 3 in a 20 x 10 block west of a wall (x = 500, y 200..600), all at
// rest on their own points; east of the wall 36 pillars of radius 6 on a 6 x 6 lattice 40
// apart round (650, 400), so the destination's spots lie in many small triangles; routing
// radius 3, a budget of 2000 a tick.
static void scene(fxs_world *w, uint32_t version) {
  rules(w, version);
  fxs_command c = fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(10), 80, 80, FXS_INT(3), 2000);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, c));
  nav_wall(w, 500, 200, 500, 600);
  for (int i = 0; i < 36; ++i) {
    fxs_obstacle o = {nav_point(550 + 40 * (i % 6), 300 + 40 * (i / 6)), FXS_INT(6)};
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_add_obstacle(o)));
  }
  for (uint32_t i = 0; i < UNITS; ++i) {
    int x = 60 + 12 * (int)(i % 20u), y = 340 + 12 * (int)(i / 20u);
    fxs_spawn_def s = fxs_default_spawn_def();
    s.position = nav_point(x, y), s.max_speed = FXS_INT(2), s.radius = FXS_INT(3);
    c = fxs_command_spawn(&s);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(w, &c, &units[i]));
    fxs_orca_def d = fxs_default_orca_def();
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_add_navigate(units[i], fxs_default_blend(),
                                                                    FXS_INT(20), &d)));
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_set_target_point(units[i], s.position)));
  }
}

// The click: every unit to (650, 400), one group, gap 10, in the next step.
static void click(fxs_world *w) {
  static fxs_command moves[UNITS];
  for (uint32_t i = 0; i < UNITS; ++i)
    moves[i] = fxs_command_move(units[i], 3u, nav_point(650, 400), FXS_INT(10));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(w, moves, UNITS, 0));
}

// Units that have moved (a non-zero velocity after some tick) in `ticks` ticks of w, the click
// in the first.
static uint32_t moving_after(fxs_world *w, uint32_t ticks) {
  static uint8_t moved[UNITS];
  memset(moved, 0, sizeof moved);
  uint32_t count = 0;
  for (uint32_t t = 0; t < ticks; ++t) {
    if (t == 0) click(w);
    else fxs_world_step(w, 0, 0, 0);
    for (uint32_t i = 0; i < UNITS; ++i) {
      const fxs_agent *a = fxs_world_agent(w, units[i]);
      if (!moved[i] && !fxs_vec2_is_zero(a->velocity)) moved[i] = 1, count++;
    }
  }
  return count;
}

// Members whose spot lies nearer a pillar's centre than its radius and the routing radius (6 +
// 3), or nearer the wall than the routing radius (doubles: the test's own referee).
static uint32_t blocked_spots(const fxs_world *w) {
  uint32_t blocked = 0;
  for (uint32_t i = 0; i < UNITS; ++i) {
    double x = fxs_test_to_double(w->agents[i].target_point.x);
    double y = fxs_test_to_double(w->agents[i].target_point.y);
    bool in = x > 497 && x < 503 && y > 197 && y < 603;
    for (int k = 0; k < 36 && !in; ++k) {
      double dx = x - (550 + 40 * (k % 6)), dy = y - (300 + 40 * (k / 6));
      in = dx * dx + dy * dy < 81.0;
    }
    blocked += in;
  }
  return blocked;
}

void setUp(void) { init(&world, memory, sizeof memory); }
void tearDown(void) {}

void test_every_unit_of_a_200_unit_move_on_a_mesh_moves_within_5_ticks(void) {
  scene(&world, 8);
  TEST_ASSERT_EQUAL_UINT32(UNITS, moving_after(&world, 5));
  TEST_ASSERT_EQUAL_UINT32(0, blocked_spots(&world)); // every spot clear of the pillars
  const fxs_vec2 *dest = fxs_world_mesh_move_points(&world);
  for (uint32_t i = 0; i < UNITS; ++i) { // all on the group's tree, none searching
    TEST_ASSERT_EQUAL_HEX32(FXS_NAV_MESH_MOVE, world.nav.moves[i]);
    TEST_ASSERT_TRUE(fxs_vec2_equal(nav_point(650, 400), dest[i]));
    TEST_ASSERT_EQUAL(FXS_ROUTE_NONE, world.nav.routes[i].status);
  }
}

void test_by_version_7s_rules_a_mesh_move_waits_for_searches(void) {
  scene(&world, 7);
  uint32_t moving = moving_after(&world, 5);
  char line[64];
  snprintf(line, sizeof line, "%u of %u moving after 5 ticks", (unsigned)moving, UNITS);
  TEST_MESSAGE(line);
  TEST_ASSERT_TRUE(moving < UNITS / 2u);
  TEST_ASSERT_TRUE(blocked_spots(&world) > 0u); // spots inside pillars, as before
  for (uint32_t i = 0; i < UNITS; ++i) TEST_ASSERT_EQUAL_HEX32(FXS_NAV_NO_MOVE, world.nav.moves[i]);
}

void test_a_version_7_mesh_world_steps_the_click_as_main_did_bit_for_bit(void) {
  // The hashes main computed for this run (simulation version 7, the library of main before
  // version 8's rules, built and run on this scene): ticks 101 and 401 of the click.
  scene(&world, 7);
  click(&world);
  for (int t = 1; t <= 400; ++t) {
    fxs_world_step(&world, 0, 0, 0);
    if (t == 100) TEST_ASSERT_EQUAL_HEX64(0xc018854aa395d37du, fxs_world_hash(&world));
  }
  TEST_ASSERT_EQUAL_HEX64(0xc5ae2679e937345eu, fxs_world_hash(&world));
}

// ---- version 8 only below (the run above is main's)

// Units within a radius of their spots after `ticks` ticks of the click by version's rules.
static uint32_t east; // units east of the wall (x > 500) at the end of the last landed_after

static uint32_t landed_after(uint32_t version, int ticks) {
  init(&world, memory, sizeof memory);
  scene(&world, version);
  moving_after(&world, 1);
  for (int t = 1; t < ticks; ++t) fxs_world_step(&world, 0, 0, 0);
  uint32_t landed = 0;
  east = 0;
  for (uint32_t i = 0; i < UNITS; ++i) {
    const fxs_agent_slot *s = &world.agents[i];
    east += s->body.position.x > FXS_INT(500);
    landed += fxs_vec2_within(s->body.position, s->target_point, s->body.radius);
  }
  char line[128];
  snprintf(line, sizeof line,
           "version %u: %u of %u within a radius of their spots by tick %d, %u east",
           (unsigned)version, (unsigned)landed, UNITS, ticks, (unsigned)east);
  TEST_MESSAGE(line);
  return landed;
}

void test_members_land_on_their_spots_round_the_wall_on_a_mesh(void) {
  // By version 7's rules 20 units never find their way round the wall (their searches end
  // nearest the destination west of it) and the spots inside pillars are never reached; by
  // version 8's every unit is round it, none through, and the spots clear of the pillars.
  TEST_ASSERT_EQUAL_UINT32(154, landed_after(7, 1500));
  TEST_ASSERT_EQUAL_UINT32(180, east);
  TEST_ASSERT_EQUAL_UINT32(199, landed_after(8, 1500));
  TEST_ASSERT_EQUAL_UINT32(UNITS, east);
}

void test_a_mesh_move_is_state_in_the_hash_and_the_snapshot(void) {
  scene(&world, 8);
  size_t before = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &before));
  TEST_ASSERT_EQUAL_UINT16(FXS_SNAPSHOT_VERSION_NAV_MESH_FIELDS, snap[4] | snap[5] << 8);
  moving_after(&world, 3);
  size_t size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  TEST_ASSERT_EQUAL_UINT16(FXS_SNAPSHOT_VERSION_NAV_MESH_MOVES, snap[4] | snap[5] << 8);
  uint64_t hash = fxs_world_hash(&world);
  fxs_vec2 *dest = fxs_world_mesh_move_points(&world);
  world.nav.moves[7] = FXS_NAV_NO_MOVE; // flipped: another state
  TEST_ASSERT_NOT_EQUAL(hash, fxs_world_hash(&world));
  world.nav.moves[7] = FXS_NAV_MESH_MOVE;
  dest[7].x += 1;
  TEST_ASSERT_NOT_EQUAL(hash, fxs_world_hash(&world));
  dest[7].x -= 1;
  TEST_ASSERT_EQUAL_HEX64(hash, fxs_world_hash(&world));
  // Restored into junk-filled memory: the same moves and hash, tick after tick.
  memset(memory2, 0xA5, sizeof memory2);
  init(&other, memory2, sizeof memory2);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, size, 0));
  TEST_ASSERT_EQUAL_MEMORY(world.nav.moves, other.nav.moves, sizeof(uint32_t) * UNITS);
  TEST_ASSERT_EQUAL_MEMORY(dest, fxs_world_mesh_move_points(&other), sizeof(fxs_vec2) * UNITS);
  for (int t = 0; t < 60; ++t) {
    fxs_world_step(&world, 0, 0, 0), fxs_world_step(&other, 0, 0, 0);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  }
  // A destination outside the bounds, or a flag other than 0 and 1, is refused by name.
  size_t at = 0, last = size - 9u * (UNITS - 7u); // unit 7's entry in the moves section
  TEST_ASSERT_EQUAL_UINT8(1, snap[last]);
  uint8_t kept = snap[last + 4];
  snap[last + 4] = 0x40; // x: 16384 units and more
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_restore(&other, snap, size, &at));
  TEST_ASSERT_EQUAL(last, at);
  snap[last + 4] = kept, snap[last] = 2;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_restore(&other, snap, size, &at));
  TEST_ASSERT_EQUAL(last, at);
  snap[last] = 1;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, size, &at));
  fxs_world_capacity c;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_snapshot_capacity(snap, size, &c));
  TEST_ASSERT_EQUAL_UINT32(FXS_NAV_KIND_MESH, c.nav_kind);
  TEST_ASSERT_EQUAL_UINT32(2, c.nav_fields);
}

void test_a_new_target_a_despawn_or_a_map_change_on_a_mesh(void) {
  scene(&world, 8);
  moving_after(&world, 2);
  TEST_ASSERT_EQUAL_HEX32(FXS_NAV_MESH_MOVE, world.nav.moves[0]);
  TEST_ASSERT_EQUAL(FXS_OK,
                    nav_apply(&world, fxs_command_set_target_point(units[0], nav_point(50, 50))));
  TEST_ASSERT_EQUAL_HEX32(FXS_NAV_NO_MOVE, world.nav.moves[0]);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_despawn(units[1])));
  TEST_ASSERT_EQUAL_HEX32(FXS_NAV_NO_MOVE, world.nav.moves[1]);
  // A map change renumbers the triangles: the moves stay, their tree is found again.
  fxs_obstacle o = {nav_point(300, 100), FXS_INT(20)};
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_add_obstacle(o)));
  fxs_world_step(&world, 0, 0, 0);
  for (uint32_t i = 2; i < UNITS; ++i) {
    TEST_ASSERT_EQUAL_HEX32(FXS_NAV_MESH_MOVE, world.nav.moves[i]);
    TEST_ASSERT_NOT_EQUAL(FXS_NAV_NO_FIELD, world.internal->nav.agent_field[i]);
  }
  // A move of one goes alone (its own search), as before.
  fxs_command c = fxs_command_move(units[2], 9u, nav_point(700, 700), 0);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, &c, 1, 0));
  TEST_ASSERT_EQUAL_HEX32(FXS_NAV_NO_MOVE, world.nav.moves[2]);
}

// The straight run (inline) and a run on `workers` workers that, every 7 ticks, runs 3 ticks
// ahead, restores the snapshot taken before them and runs them again: the same hash after
// every tick. Returns the straight run's hash at the end.
static uint64_t rollback_run(uint32_t workers) {
  init(&world, memory, sizeof memory);
  init(&other, memory2, sizeof memory2);
  odd_tasks t = {0, 0, workers};
  fxs_task_system tasks = {odd_enqueue, odd_finish, workers, &t};
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_tasks(&other, &tasks));
  scene(&world, 8);
  scene(&other, 8);
  click(&world);
  click(&other);
  for (uint32_t tick = 0; tick < 200; ++tick) {
    if (tick % 7u == 0) {
      size_t size = 0;
      TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&other, snap, sizeof snap, &size));
      for (int ahead = 0; ahead < 3; ++ahead) fxs_world_step(&other, 0, 0, 0);
      TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, size, 0));
    }
    fxs_world_step(&world, 0, 0, 0);
    fxs_world_step(&other, 0, 0, 0);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  }
  return fxs_world_hash(&world);
}

void test_a_mesh_move_with_rollbacks_equals_the_straight_run_on_1_2_and_16_workers(void) {
  uint64_t one = rollback_run(1);
  TEST_ASSERT_EQUAL_HEX64(one, rollback_run(2));
  TEST_ASSERT_EQUAL_HEX64(one, rollback_run(16));
}

// ------------------------------------------------------------------ formations on a mesh

// An agent at (x, y), speed 2.5, force 0.2, radius 8.
static fxs_agent_handle body(fxs_world *w, int x, int y) {
  fxs_spawn_def s = fxs_default_spawn_def();
  s.position = nav_point(x, y), s.max_speed = FXS_INT(5) / 2, s.max_force = FXS_INT(1) / 5;
  fxs_agent_handle h = {0};
  fxs_command c = fxs_command_spawn(&s);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(w, &c, &h));
  return h;
}

// A member of group 1 following `leader`: `shape`, `spacing` units.
static fxs_agent_handle member(fxs_world *w, int x, int y, fxs_agent_handle leader,
                               fxs_formation_shape shape, int spacing) {
  fxs_agent_handle h = body(w, x, y);
  fxs_formation_def d = fxs_default_formation_def();
  d.shape = shape, d.spacing = FXS_INT(spacing), d.group = 1;
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_add_formation(h, fxs_default_blend(), &d)));
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_set_target_agent(h, leader)));
  return h;
}

// Routing radius 8 (the bodies'), a budget of 2000.
static void mesh_routing(fxs_world *w, uint32_t version) {
  rules(w, version);
  fxs_command c = fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(10), 80, 80, FXS_INT(8), 2000);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, c));
}

// A column slot 100 units behind a leader at (300, 200) facing +x falls at (200, 200), beyond
// a wall at x = 250. The segment is sampled at 26 points 100/26 units apart (half the routing
// radius, 8, or a little less); the 13th, on the wall (x = 250), is the first the leader does
// not see; the radius is 2.08 samples, 3 rounded up, so the slot is the 9th: 300 - 900/26 units,
// rounded to the nearest 1/65536 (19660800 - 2268554). By version 7's rules the slot is the
// formation's own.
void test_a_slot_beyond_a_wall_is_squeezed_toward_the_leader_on_a_mesh(void) {
  for (uint32_t version = 7; version <= 8; ++version) {
    init(&world, memory, sizeof memory);
    mesh_routing(&world, version);
    nav_wall(&world, 250, 0, 250, 800);
    fxs_agent_handle leader = body(&world, 300, 200);
    fxs_agent_handle m = member(&world, 320, 260, leader, FXS_FORMATION_COLUMN, 100);
    fxs_vec2 slot;
    TEST_ASSERT_TRUE(fxs_world_formation_slot(&world, m, &slot));
    TEST_ASSERT_EQUAL_INT32(version == 8 ? 17392246 : FXS_INT(200), slot.x);
    TEST_ASSERT_EQUAL_INT32(FXS_INT(200), slot.y);
  }
}

// A wedge of four behind a navigate leader that goes from (150, 300) through a 60-unit door
// (x = 400, y 370..430) to (650, 300): by version 8's rules the members are routed through the
// door and stand in their slots at the end; by version 7's they steer straight at their slots
// and stay behind the wall.
static uint32_t wedge_in_slots(uint32_t version, bool *routed) {
  init(&world, memory, sizeof memory);
  mesh_routing(&world, version);
  nav_wall(&world, 400, 0, 400, 370);
  nav_wall(&world, 400, 430, 400, 800);
  fxs_agent_handle leader = body(&world, 150, 300);
  fxs_orca_def d = fxs_default_orca_def();
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_add_navigate(leader, fxs_default_blend(),
                                                                       FXS_INT(40), &d)));
  TEST_ASSERT_EQUAL(FXS_OK,
                    nav_apply(&world, fxs_command_set_target_point(leader, nav_point(650, 300))));
  fxs_agent_handle m[4];
  for (int i = 0; i < 4; ++i) {
    m[i] = member(&world, 120 - 30 * (i / 2), 270 + 60 * (i % 2), leader, FXS_FORMATION_WEDGE, 30);
  }
  *routed = false;
  for (int t = 0; t < 1200; ++t) {
    fxs_world_step(&world, 0, 0, 0);
    for (int i = 0; i < 4; ++i) {
      *routed = *routed || world.nav.routes[fxs_world_slot_of(&world, m[i].value)].count > 0;
    }
  }
  uint32_t in = 0;
  for (int i = 0; i < 4; ++i) {
    fxs_vec2 slot;
    TEST_ASSERT_TRUE(fxs_world_formation_slot(&world, m[i], &slot));
    in += fxs_vec2_within(fxs_world_agent(&world, m[i])->position, slot, FXS_INT(1));
  }
  return in;
}

void test_formation_members_follow_mesh_routes_through_a_door_to_their_slots(void) {
  bool routed;
  TEST_ASSERT_EQUAL_UINT32(4, wedge_in_slots(8, &routed));
  TEST_ASSERT_TRUE(routed);
  TEST_ASSERT_TRUE(wedge_in_slots(7, &routed) < 4u);
  TEST_ASSERT_FALSE(routed);
}
