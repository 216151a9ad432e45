#include <string.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "vec2.h"
#include "avoidance.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "nav_mesh.h"
#include "nav_mesh_route.h"
#include "nav_path.h"
#include "world_nav_mesh.h"
#include "snapshot.h"
#include "bytes.h"
#include "fxs_nav_test.h"
#include "version.h"

// A mesh world (400 x 400): 6 agents, 6 obstacles, 8 walls, the default vertex capacity
// (4 + 4 * 8 + 16 * 6 = 132), 2 searches of 200 open entries, routes of up to 16 points.
static const fxs_world_capacity cap = {6, 6, 0, 0, 8, 0, 0, 0, 2, 200, 16, 0, FXS_NAV_KIND_MESH, 0};
static uint64_t memory[60000];
static uint64_t memory2[60000];
static uint64_t mesh_memory[8000];
static uint8_t snap[131072], snap2[131072];
static fxs_world world, other;

static void init(fxs_world *w, uint64_t *mem, size_t size) {
  nav_world_init(w, 11, &cap, mem, size);
}

void setUp(void) { init(&world, memory, sizeof memory); }
void tearDown(void) {}

static void step(fxs_world *w, int ticks) {
  for (int t = 0; t < ticks; ++t) fxs_world_step(w, 0, 0, 0);
}

// Routing on: radius 8, `budget` a tick (the grid's fields are checked, not used).
static void mesh_on(fxs_world *w, uint32_t budget) { nav_grid(w, budget); }

static void mesh_obstacle(fxs_world *w, int x, int y, int r) {
  fxs_obstacle o = {nav_point(x, y), FXS_INT(r)};
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_add_obstacle(o)));
}

// The canonical digest of a mesh built from scratch of the world's live walls and obstacles.
static uint64_t rebuilt_digest(const fxs_world *w) {
  static fxs_wall walls[8];
  static fxs_obstacle obstacles[6];
  uint32_t wc = 0, oc = 0;
  for (uint32_t i = 0; i < w->capacity.walls; ++i)
    if (w->wall_alive[i]) walls[wc++] = w->walls[i];
  for (uint32_t i = 0; i < w->capacity.obstacles; ++i)
    if (w->obstacle_alive[i]) obstacles[oc++] = w->obstacles[i];
  fxs_nav_mesh m;
  fxs_nav_mesh_capacity mc = {fxs_world_mesh_vertices(&w->capacity), 0};
  TEST_ASSERT_TRUE(fxs_nav_mesh_memory_size(&mc) <= sizeof mesh_memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_init(&m, &mc, w->def.bounds_min, w->def.bounds_max,
                                              mesh_memory, sizeof mesh_memory));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_build(&m, walls, wc, obstacles, oc, 0));
  return fxs_nav_mesh_canonical_digest(&m);
}

// ------------------------------------------------------------------ the mesh in the world

void test_mesh_capacities_are_checked(void) {
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) > 0);
  TEST_ASSERT_EQUAL_UINT32(132, fxs_world_mesh_vertices(&cap));
  fxs_world_capacity c = cap;
  c.nav_cells = 100; // a mesh world has no grid
  TEST_ASSERT_EQUAL(0, fxs_world_memory_size(&c));
  c = cap, c.nav_fields = FXS_NAV_MAX_FIELDS + 1u; // group fields: as on a grid
  TEST_ASSERT_EQUAL(0, fxs_world_memory_size(&c));
  c = cap, c.nav_open = 2u * 132u - 6u + 1u; // more than the triangles
  TEST_ASSERT_EQUAL(0, fxs_world_memory_size(&c));
  c = cap, c.nav_searches = 0;
  TEST_ASSERT_EQUAL(0, fxs_world_memory_size(&c));
  c = cap, c.nav_mesh_vertices = 3;
  TEST_ASSERT_EQUAL(0, fxs_world_memory_size(&c));
  c = cap, c.nav_kind = 2;
  TEST_ASSERT_EQUAL(0, fxs_world_memory_size(&c));
  c = cap, c.nav_kind = FXS_NAV_KIND_GRID; // a grid world names no mesh vertices
  c.nav_cells = 100, c.nav_mesh_vertices = 40;
  TEST_ASSERT_EQUAL(0, fxs_world_memory_size(&c));
  // A mesh needs an area.
  fxs_world_def def = fxs_default_world_def();
  def.bounds_max = def.bounds_min;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_init(&other, &def, &cap, memory2, sizeof memory2));
}

void test_the_mesh_follows_every_map_change_and_equals_a_rebuild(void) {
  TEST_ASSERT_EQUAL_UINT32(4, world.nav.mesh.vertex_count); // the bounds rectangle
  TEST_ASSERT_EQUAL_UINT32(2, world.nav.mesh.triangle_count);
  nav_wall(&world, 200, 0, 200, 180);
  nav_wall(&world, 200, 220, 200, 400);
  nav_wall(&world, 50, 300, 350, 300); // crosses the second wall
  mesh_obstacle(&world, 120, 120, 20);
  mesh_obstacle(&world, 200, 200, 30); // overlaps both walls' ends
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_check(&world.nav.mesh));
  TEST_ASSERT_EQUAL_HEX64(rebuilt_digest(&world), fxs_nav_mesh_canonical_digest(&world.nav.mesh));
  uint32_t before = world.nav.mesh.vertex_count;
  fxs_command rm = fxs_command_remove_wall(2);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, rm));
  TEST_ASSERT_TRUE(world.nav.mesh.vertex_count < before);
  TEST_ASSERT_EQUAL_HEX64(rebuilt_digest(&world), fxs_nav_mesh_canonical_digest(&world.nav.mesh));
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_remove_obstacle(1)));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_check(&world.nav.mesh));
  TEST_ASSERT_EQUAL_HEX64(rebuilt_digest(&world), fxs_nav_mesh_canonical_digest(&world.nav.mesh));
  // The same items added again in another order: the same geometry.
  init(&other, memory2, sizeof memory2);
  mesh_obstacle(&other, 120, 120, 20);
  nav_wall(&other, 200, 220, 200, 400);
  nav_wall(&other, 200, 0, 200, 180);
  TEST_ASSERT_EQUAL_HEX64(fxs_nav_mesh_canonical_digest(&world.nav.mesh),
                          fxs_nav_mesh_canonical_digest(&other.nav.mesh));
}

void test_the_world_hands_out_its_mesh_read_only_and_a_grid_world_none(void) {
  const fxs_nav_mesh *m = fxs_world_nav_mesh(&world);
  TEST_ASSERT_EQUAL_PTR(&world.nav.mesh, m);
  TEST_ASSERT_EQUAL_UINT32(2, m->triangle_count); // the bounds rectangle
  nav_wall(&world, 200, 0, 200, 180);
  mesh_obstacle(&world, 120, 120, 20);
  uint64_t h = fxs_world_hash(&world);
  m = fxs_world_nav_mesh(&world); // the same mesh, now with the wall and the octagon
  TEST_ASSERT_EQUAL_PTR(&world.nav.mesh, m);
  TEST_ASSERT_EQUAL_UINT32(4 + 2 + 8, m->vertex_count);
  TEST_ASSERT_EQUAL_HEX64(rebuilt_digest(&world), fxs_nav_mesh_canonical_digest(m));
  TEST_ASSERT_EQUAL_HEX64(h, fxs_world_hash(&world)); // reading changed nothing
  // A grid world has no mesh.
  fxs_world_capacity grid = {6, 6, 0, 0, 8, 0, 0, 100, 2, 100, 16, 0, FXS_NAV_KIND_GRID, 0};
  nav_world_init(&other, 11, &grid, memory2, sizeof memory2);
  TEST_ASSERT_NULL(fxs_world_nav_mesh(&other));
}

void test_a_mesh_world_refuses_walls_and_obstacles_outside_its_bounds(void) {
  uint64_t before = fxs_world_hash(&world);
  fxs_wall w = {nav_point(100, 100), nav_point(500, 100)};
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, nav_apply(&world, fxs_command_add_wall(w)));
  fxs_obstacle o = {nav_point(-1, 100), FXS_INT(5)};
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, nav_apply(&world, fxs_command_add_obstacle(o)));
  TEST_ASSERT_EQUAL(FXS_ERR_CAPACITY, nav_apply(&world, fxs_command_set_nav_costs(0, 0, 1, 1, 3)));
  TEST_ASSERT_EQUAL_HEX64(before, fxs_world_hash(&world));
  TEST_ASSERT_EQUAL(0, world.wall_alive[0]);
  TEST_ASSERT_EQUAL(0, world.obstacle_alive[0]);
}

void test_an_addition_the_mesh_cannot_hold_is_taken_back(void) {
  fxs_world_capacity c = cap;
  c.nav_mesh_vertices = 12, c.nav_open = 18; // the corners and 8 more
  uint64_t mem[20000];
  fxs_world w;
  nav_world_init(&w, 3, &c, mem, sizeof mem);
  nav_wall(&w, 10, 10, 100, 10);
  uint64_t before = fxs_world_hash(&w);
  uint64_t digest = fxs_nav_mesh_canonical_digest(&w.nav.mesh);
  fxs_obstacle o = {nav_point(200, 200), FXS_INT(10)}; // 8 vertices: 14 in all
  TEST_ASSERT_EQUAL(FXS_ERR_CAPACITY, nav_apply(&w, fxs_command_add_obstacle(o)));
  TEST_ASSERT_EQUAL(0, w.obstacle_alive[0]);
  TEST_ASSERT_EQUAL_HEX64(digest, fxs_nav_mesh_canonical_digest(&w.nav.mesh));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_check(&w.nav.mesh));
  TEST_ASSERT_TRUE(before != fxs_world_hash(&w)); // a new map version all the same
}

// ------------------------------------------------------------------ state

void test_the_mesh_is_in_the_hash_and_the_snapshot(void) {
  nav_wall(&world, 200, 0, 200, 180);
  mesh_obstacle(&world, 120, 120, 20);
  uint64_t h = fxs_world_hash(&world);
  size_t size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  TEST_ASSERT_EQUAL_UINT16(FXS_SNAPSHOT_VERSION_NAV_MESH, snap[4] | snap[5] << 8);
  TEST_ASSERT_TRUE(size <= fxs_world_snapshot_bound(&cap));
  fxs_nav_mesh *m = &world.nav.mesh;
  m->vertices[5].x += 1;
  TEST_ASSERT_TRUE(h != fxs_world_hash(&world));
  m->vertices[5].x -= 1;
  m->triangles[3].constrained ^= 1u;
  TEST_ASSERT_TRUE(h != fxs_world_hash(&world));
  m->triangles[3].constrained ^= 1u;
  m->vertex_triangle[7] ^= 1u;
  TEST_ASSERT_TRUE(h != fxs_world_hash(&world));
  m->vertex_triangle[7] ^= 1u;
  TEST_ASSERT_EQUAL_HEX64(h, fxs_world_hash(&world));
  fxs_world_capacity read;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_snapshot_capacity(snap, size, &read));
  TEST_ASSERT_EQUAL_UINT32(FXS_NAV_KIND_MESH, read.nav_kind);
  TEST_ASSERT_EQUAL_UINT32(132, read.nav_mesh_vertices);
  TEST_ASSERT_EQUAL_UINT32(0, read.nav_cells);
}

// A run with routes, searches spread over ticks (budget 1) and a building placed mid-run.
static void scene(fxs_world *w) {
  nav_wall(w, 200, 0, 200, 180);
  nav_wall(w, 200, 220, 200, 400);
  mesh_on(w, 1);
  nav_navigator(w, 50, 50, 350, 350);
  nav_navigator(w, 50, 350, 350, 50);
  nav_navigator(w, 80, 200, 330, 200);
  nav_navigator(w, 350, 300, 40, 320);
}

static void building(fxs_world *w) { mesh_obstacle(w, 260, 200, 25); }

static bool any_search(const fxs_world *w) {
  for (uint32_t k = 0; k < w->capacity.nav_searches; ++k)
    if (w->nav.search_owner[k] != UINT32_MAX) return true;
  return false;
}

void test_a_restore_into_junk_memory_at_any_tick_equals_the_straight_run(void) {
  scene(&world);
  static const int checks[] = {1, 14, 27, 61, 74, 87, 100, 200, 330};
  uint32_t searching = 0, c = 0, n = sizeof checks / sizeof checks[0];
  for (int t = 0; t < 400; ++t) {
    if (t == 60) building(&world); // applied before the tick's step (and the snapshot)
    while (c < n && checks[c] < t) c++;
    if (c < n && t == checks[c]) {
      c++;
      searching += any_search(&world);
      size_t size = 0;
      TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
      memset(memory2, 0xA5, sizeof memory2);
      init(&other, memory2, sizeof memory2);
      size_t at = 0;
      TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, size, &at));
      TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
      TEST_ASSERT_EQUAL_HEX64(fxs_nav_mesh_digest(&world.nav.mesh),
                              fxs_nav_mesh_digest(&other.nav.mesh));
      for (int k = 0; k < 12; ++k) { // on together, tick by tick
        if (k > 0 && t + k == 60) building(&world), building(&other);
        step(&world, 1), step(&other, 1);
        TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
      }
      t += 11;
      continue;
    }
    step(&world, 1);
  }
  TEST_ASSERT_TRUE_MESSAGE(searching >= 3, "few snapshots with searches half done"); // printf-free
}

void test_a_snapshot_with_a_damaged_mesh_or_search_is_refused_and_changes_nothing(void) {
  scene(&world);
  step(&world, 2); // searches under way
  size_t size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  init(&other, memory2, sizeof memory2);
  building(&other);
  uint64_t before = fxs_world_hash(&other);
  // Every byte of the navigation section flipped in turn: refused, or read as a state that
  // saves back to the same bytes; never a change to the world when refused.
  size_t nav_at = size;
  {
    fxs_writer wr = fxs_writer_make(0, 0, 0);
    fxs_world_mesh_write(&world, &wr);
    nav_at = size - wr.position;
  }
  uint32_t refused = 0;
  for (size_t i = nav_at; i < size; ++i) {
    memcpy(snap2, snap, size);
    snap2[i] ^= (uint8_t)(1u << (i % 8u));
    size_t at = 0;
    fxs_result r = fxs_world_restore(&other, snap2, size, &at);
    if (r != FXS_OK) {
      refused++;
      TEST_ASSERT_TRUE(at >= nav_at && at <= size);
      TEST_ASSERT_EQUAL_HEX64(before, fxs_world_hash(&other));
      continue;
    }
    size_t again = 0;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&other, snap, sizeof snap, &again));
    TEST_ASSERT_EQUAL(size, again);
    TEST_ASSERT_EQUAL_MEMORY(snap2, snap, size);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_mesh_check(&other.nav.mesh));
    step(&other, 3); // runs
    init(&other, memory2, sizeof memory2);
    building(&other);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &again));
  }
  TEST_ASSERT_TRUE(refused > (size - nav_at) / 2);
  // Truncated anywhere: refused.
  for (size_t cut = nav_at; cut < size; cut += 7) {
    size_t at = 0;
    TEST_ASSERT_TRUE(fxs_world_restore(&other, snap, cut, &at) != FXS_OK);
    TEST_ASSERT_EQUAL_HEX64(before, fxs_world_hash(&other));
  }
}

// ------------------------------------------------------------------ routes

void test_agents_route_round_walls_and_a_building_placed_mid_run(void) {
  scene(&world);
  fxs_wall walls[2] = {{nav_point(200, 0), nav_point(200, 180)},
                       {nav_point(200, 220), nav_point(200, 400)}};
  fxs_vec2 targets[4] = {nav_point(350, 350), nav_point(350, 50), nav_point(330, 200),
                         nav_point(40, 320)};
  fxs_vec2 was[4];
  for (uint32_t i = 0; i < 4; ++i) was[i] = world.agents[i].body.position;
  for (int t = 0; t < 1200; ++t) {
    if (t == 60) building(&world);
    step(&world, 1);
    for (uint32_t i = 0; i < 4; ++i) {
      fxs_vec2 points[16];
      uint32_t next = 0;
      fxs_agent_handle h = fxs_world_handle_at(&world, i);
      uint32_t n = fxs_world_nav_route(&world, h, points, 16, &next);
      TEST_ASSERT_TRUE(n <= 16);
      for (uint32_t k = 1; k < n; ++k) {
        TEST_ASSERT_FALSE(nav_crosses(points[k - 1], points[k], walls[0]));
        TEST_ASSERT_FALSE(nav_crosses(points[k - 1], points[k], walls[1]));
      }
      // No body centre ever crosses a wall.
      fxs_vec2 p = world.agents[i].body.position;
      TEST_ASSERT_FALSE(nav_crosses(was[i], p, walls[0]));
      TEST_ASSERT_FALSE(nav_crosses(was[i], p, walls[1]));
      was[i] = p;
    }
  }
  for (uint32_t i = 0; i < 4; ++i) {
    fxs_vec2 p = world.agents[i].body.position;
    TEST_ASSERT_TRUE(fxs_vec2_within(p, targets[i], FXS_INT(2)));
  }
}

void test_a_route_search_stepped_in_pieces_equals_one_stepped_at_once(void) {
  nav_wall(&world, 200, 0, 200, 180);
  nav_wall(&world, 200, 220, 200, 400);
  nav_wall(&world, 100, 100, 300, 120);
  mesh_obstacle(&world, 260, 200, 25);
  static uint64_t a_mem[20000], b_mem[20000];
  uint32_t triangles = 2u * 132u - 6u;
  size_t bytes = fxs_mesh_route_memory_size(triangles, 200);
  TEST_ASSERT_TRUE(bytes <= sizeof a_mem);
  for (int radius = 0; radius <= 8; radius += 8) {
    fxs_mesh_route a, b;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_mesh_route_init(&a, a_mem, bytes, triangles, 200));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_mesh_route_init(&b, b_mem, bytes, triangles, 200));
    fxs_vec2 s = nav_point(30, 300), g = nav_point(370, 30);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_mesh_route_begin(&a, &world.nav.mesh, s, g, FXS_INT(radius)));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_mesh_route_begin(&b, &world.nav.mesh, s, g, FXS_INT(radius)));
    uint32_t pieces = 0;
    while (fxs_mesh_route_step(&a, &world.nav.mesh, 1) == FXS_NAV_SEARCHING) pieces++;
    fxs_mesh_route_step(&b, &world.nav.mesh, a.spent);
    TEST_ASSERT_TRUE(pieces >= 2);
    TEST_ASSERT_EQUAL(a.status, b.status);
    TEST_ASSERT_EQUAL_UINT32(a.spent, b.spent);
    TEST_ASSERT_EQUAL_UINT32(a.expanded, b.expanded);
    fxs_vec2 pa[32], pb[32];
    uint32_t na = fxs_mesh_route_points(&a, &world.nav.mesh, pa, 32);
    uint32_t nb = fxs_mesh_route_points(&b, &world.nav.mesh, pb, 32);
    TEST_ASSERT_EQUAL_UINT32(na, nb);
    TEST_ASSERT_TRUE(na >= 3);
    TEST_ASSERT_EQUAL_MEMORY(pa, pb, na * sizeof pa[0]);
  }
}

void test_a_snapshot_restores_into_a_mesh_world_of_other_bounds_and_refuses_a_flat_one(void) {
  scene(&world);
  step(&world, 3);
  size_t size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  fxs_world_def def = fxs_default_world_def(); // 4096 x 4096: the snapshot's bounds win
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&other, &def, &cap, memory2, sizeof memory2));
  size_t at = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, size, &at));
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  step(&world, 20), step(&other, 20);
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  // Bounds without an area (bounds_max.x = bounds_min.x = 0, bytes 22..25): refused.
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  uint64_t before = fxs_world_hash(&other);
  memset(snap + 22, 0, 4);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_restore(&other, snap, size, &at));
  TEST_ASSERT_EQUAL_HEX64(before, fxs_world_hash(&other));
}

// The section's size from the state, record by record: the sizes the snapshot bound uses.
void test_the_section_size_is_the_sum_the_bound_counts_on(void) {
  scene(&world);
  building(&world);
  step(&world, 2);
  const fxs_world_nav *n = &world.nav;
  uint64_t expect = 20u + 12u * (uint64_t)n->mesh.vertex_count + 28u * n->mesh.triangle_count;
  uint32_t searching = 0;
  for (uint32_t i = 0; i < cap.agents; ++i) {
    const fxs_nav_route *r = &n->routes[i];
    expect += r->status == FXS_ROUTE_NONE ? 1u : 29u + 8u * (uint64_t)r->count;
  }
  for (uint32_t k = 0; k < cap.nav_searches; ++k) {
    bool owned = n->search_owner[k] != UINT32_MAX;
    searching += owned;
    expect += owned ? 28u : 4u;
  }
  TEST_ASSERT_TRUE(searching > 0);
  fxs_writer w = fxs_writer_make(0, 0, 0);
  fxs_world_mesh_write(&world, &w);
  TEST_ASSERT_EQUAL_UINT64(expect, w.position);
  // Every record at its largest stays within the bound.
  uint64_t most = 20u + 12u * 132u + 28u * (2u * 132u - 6u) +
                  cap.agents * (29u + 8u * (uint64_t)cap.nav_waypoints) + 28u * cap.nav_searches;
  TEST_ASSERT_TRUE(most <= fxs_world_mesh_write_bound(&cap));
}

// The same bits on every target: a run with routes, searches and a building, pinned (x86-64;
// the m32 suite checks it on i686).
void test_a_mesh_run_has_the_same_hash_on_every_target(void) {
  scene(&world);
  for (int t = 0; t < 300; ++t) {
    if (t == 60) building(&world);
    step(&world, 1);
  }
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0xF374929F4521EF5C), fxs_world_hash(&world));
}

void test_a_route_is_searched_again_when_its_target_moves_past_the_radius(void) {
  mesh_on(&world, 100);
  nav_wall(&world, 200, 0, 200, 300);
  fxs_agent_handle h = nav_navigator(&world, 50, 50, 350, 50);
  step(&world, 3);
  const fxs_nav_route *r = &world.nav.routes[0];
  TEST_ASSERT_EQUAL(FXS_ROUTE_READY, r->status);
  fxs_vec2 goal = world.nav.goals[0];
  // 7 units: within the radius 8, the route stands (its last leg steers to the target).
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_set_target_point(h, nav_point(357, 50))));
  step(&world, 1);
  TEST_ASSERT_EQUAL(FXS_ROUTE_READY, r->status);
  TEST_ASSERT_TRUE(fxs_vec2_equal(goal, world.nav.goals[0]));
  // 9 units from the route's goal: searched again toward the new one.
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_set_target_point(h, nav_point(359, 50))));
  step(&world, 1);
  TEST_ASSERT_TRUE(fxs_vec2_equal(nav_point(359, 50), world.nav.goals[0]));
  // Outside the bounds: the goal is clamped into them.
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_set_target_point(h, nav_point(500, 50))));
  step(&world, 1);
  TEST_ASSERT_TRUE(fxs_vec2_equal(nav_point(400, 50), world.nav.goals[0]));
}

// Where an agent ends whose route to (350, 50), on its last leg, is put behind the end of a wall
// (as a crowd pushes one back round the corner it passed), in a world of simulation `version`:
// its way to the target runs into the wall, and its slide up along it into a corner.
static fxs_vec2 put_behind_a_wall(uint32_t version) {
  init(&world, memory, sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_simulation_version(&world, version));
  mesh_on(&world, 100);
  nav_wall(&world, 200, 0, 200, 300);
  nav_wall(&world, 100, 150, 200, 150); // a corner the slide along the wall ends in
  nav_navigator(&world, 250, 350, 350, 50);
  step(&world, 3);
  const fxs_nav_route *r = &world.nav.routes[0];
  TEST_ASSERT_EQUAL(FXS_ROUTE_READY, r->status);
  TEST_ASSERT_TRUE(r->next + 1u >= r->count); // the target in sight: the last leg
  world.agents[0].body.position = nav_point(150, 250);
  world.agents[0].body.velocity = fxs_vec2_zero();
  step(&world, 1000);
  return world.agents[0].body.position;
}

// Since simulation version 11 (FXS_RULES_LAST_LEG_SIGHT) a tick on the last leg with a wall
// between the agent and its point is a stall tick: the route is searched again from behind the
// wall and the agent arrives (by tick 350). Version 10 counted its slide along the wall as
// progress and its rest in the corner as arrival: it stayed there, at (191, 158), for ever.
void test_an_agent_put_behind_a_wall_on_its_last_leg_searches_again(void) {
  fxs_vec2 p = put_behind_a_wall(FXS_SIMULATION_VERSION);
  TEST_ASSERT_TRUE(fxs_vec2_within(p, nav_point(350, 50), FXS_INT(2)));
  p = put_behind_a_wall(10);
  TEST_ASSERT_TRUE(p.x < FXS_INT(200));
}
