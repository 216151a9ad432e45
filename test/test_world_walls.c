// The world's wall grid: it lists every wall near a box, once and in index order, and the wall
// work that goes through it (contact, ORCA's wall lines and its sight test) gives what a test
// of every wall gives.
#include <string.h>

#include "unity.h"

#include "agent.h"
#include "command_build.h"
#include "orca.h"
#include "orca_static.h"
#include "world.h"
#include "world_internal.h"
#include "world_contact.h"
#include "world_grid.h"
#include "world_walls.h"

#define WALLS 300u

static const fxs_world_capacity cap = {4, 0, 0, 0, WALLS};
static uint64_t memory[16384];
static fxs_world world;
static uint64_t seed;

static uint32_t next_random(void) {
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  return (uint32_t)(seed >> 16);
}

// A value in [lo, hi] world units, raw.
static fix16_t between(int lo, int hi) {
  return FXS_INT(lo) + (fix16_t)(next_random() % (uint32_t)(FXS_INT(hi - lo) + 1));
}

void setUp(void) {
  fxs_world_def def = fxs_default_world_def(); // 0..4096 on both axes
  seed = 0x9E3779B97F4A7C15u;
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
}
void tearDown(void) {}

// n walls, most of them short (up to `longest` units), one in 16 across up to the whole map,
// their ends inside the bounds and up to 100 units outside them.
static void scatter(uint32_t n, int longest) {
  for (uint32_t i = 0; i < n; ++i) {
    fxs_wall *w = &world.internal->live_walls[i];
    w->a = fxs_vec2_make(between(-100, 4196), between(-100, 4196));
    int reach = i % 16u == 5u ? 4296 : longest;
    w->b = fxs_vec2_make(w->a.x + between(-reach, reach), w->a.y + between(-reach, reach));
  }
}

static bool box_meets_wall(const fxs_box *b, const fxs_wall *w) {
  int64_t lo_x = w->a.x < w->b.x ? w->a.x : w->b.x, hi_x = w->a.x < w->b.x ? w->b.x : w->a.x;
  int64_t lo_y = w->a.y < w->b.y ? w->a.y : w->b.y, hi_y = w->a.y < w->b.y ? w->b.y : w->a.y;
  return lo_x <= b->hi_x && hi_x >= b->lo_x && lo_y <= b->hi_y && hi_y >= b->lo_y;
}

void test_the_grid_finds_every_wall_whose_box_meets_a_box_once_in_ascending_order(void) {
  scatter(WALLS, 120);
  fxs_wall_grid g = fxs_wall_grid_build(&world, WALLS);
  TEST_ASSERT_TRUE(g.w * g.h > 1u);
  static uint32_t out[WALLS];
  uint32_t listed = 0, met = 0;
  for (int k = 0; k < 400; ++k) {
    int64_t x = between(-200, 4296), y = between(-200, 4296), r = between(0, k % 8 == 0 ? 900 : 60);
    fxs_box box = {x - r, y - r, x + r, y + r};
    uint32_t n = fxs_wall_grid_find(&world, &g, &box, out, WALLS);
    TEST_ASSERT_TRUE(n <= WALLS);
    for (uint32_t i = 1; i < n; ++i) TEST_ASSERT_TRUE(out[i - 1u] < out[i]);
    uint32_t at = 0;
    for (uint32_t i = 0; i < WALLS; ++i) {
      if (!box_meets_wall(&box, &world.internal->live_walls[i])) continue;
      while (at < n && out[at] < i) at++;
      TEST_ASSERT_TRUE_MESSAGE(at < n && out[at] == i, "a wall that meets the box is missing");
      met++;
    }
    listed += n;
  }
  // The grid narrows the walls: most boxes list far fewer than all of them.
  TEST_ASSERT_TRUE(met > 0);
  TEST_ASSERT_TRUE(listed < 400u * WALLS / 4u);
}

void test_a_box_with_more_walls_than_the_room_asks_for_every_wall(void) {
  scatter(WALLS, 120);
  fxs_wall_grid g = fxs_wall_grid_build(&world, WALLS);
  uint32_t out[8];
  fxs_box all = {0, 0, FXS_INT(4096), FXS_INT(4096)};
  TEST_ASSERT_EQUAL_UINT32(FXS_ALL_WALLS, fxs_wall_grid_find(&world, &g, &all, out, 8));
}

void test_walls_across_the_map_coarsen_the_grid_within_its_entries(void) {
  for (uint32_t i = 0; i < WALLS; ++i) { // every wall a diagonal of the map, a little shifted
    world.internal->live_walls[i].a = fxs_vec2_make(FXS_INT((int)i), 0);
    world.internal->live_walls[i].b = fxs_vec2_make(FXS_INT(4096), FXS_INT(4096 - (int)i));
  }
  fxs_wall_grid g = fxs_wall_grid_build(&world, WALLS);
  TEST_ASSERT_TRUE(world.internal->wall_cell_start[g.w * g.h] <= fxs_wall_grid_max_entries(&cap));
  TEST_ASSERT_TRUE(g.w * g.h <= fxs_wall_grid_max_cells(&cap));
  uint32_t out[WALLS];
  fxs_box one = {FXS_INT(2000), FXS_INT(2000), FXS_INT(2001), FXS_INT(2001)};
  TEST_ASSERT_EQUAL_UINT32(WALLS, fxs_wall_grid_find(&world, &g, &one, out, WALLS));
}

void test_a_world_of_few_walls_has_no_wall_grid_and_keeps_its_size(void) {
  static uint64_t small[4096];
  fxs_world_capacity few = {4, 0, 0, 0, FXS_WALL_GRID_MIN_WALLS - 1u}, none = few, more = few;
  none.walls = 0, more.walls = FXS_WALL_GRID_MIN_WALLS;
  // 31 walls: their slots, alive flags (rounded to 8 bytes) and live copies, nothing more.
  TEST_ASSERT_EQUAL_UINT32(31u * 16u + 32u + 31u * 16u,
                           fxs_world_memory_size(&few) - fxs_world_memory_size(&none));
  TEST_ASSERT_TRUE(fxs_world_memory_size(&more) - fxs_world_memory_size(&few) > 32u * 64u);
  fxs_world w;
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&w, &def, &few, small, sizeof small));
  TEST_ASSERT_EQUAL_UINT32(0, w.internal->wall_max_cells);
  w.internal->live_walls[0].a = fxs_vec2_make(0, 0),
  w.internal->live_walls[0].b = fxs_vec2_make(FXS_INT(9), 0);
  fxs_wall_grid g = fxs_wall_grid_build(&w, 1);
  fxs_box box = {0, 0, FXS_INT(10), FXS_INT(10)};
  uint32_t out[4];
  TEST_ASSERT_EQUAL_UINT32(0, g.w);
  TEST_ASSERT_EQUAL_UINT32(FXS_ALL_WALLS, fxs_wall_grid_find(&w, &g, &box, out, 4));
}

// An agent of radius 4..8 and speed 1..4 somewhere on the map, heading anywhere.
static fxs_agent some_agent(void) {
  fxs_agent a = fxs_default_agent();
  a.position = fxs_vec2_make(between(0, 4096), between(0, 4096));
  a.radius = between(4, 8), a.max_speed = between(1, 4);
  a.velocity = fxs_vec2_make(between(-4, 4), between(-4, 4));
  return a;
}

void test_contact_through_the_wall_grid_moves_as_with_every_wall(void) {
  // Dense short walls, so that many moves meet one.
  for (uint32_t i = 0; i < WALLS; ++i) {
    fxs_wall *w = &world.internal->live_walls[i];
    w->a = fxs_vec2_make(between(1000, 1400), between(1000, 1400));
    w->b = fxs_vec2_make(w->a.x + between(-60, 60), w->a.y + between(-60, 60));
  }
  fxs_wall_grid g = fxs_wall_grid_build(&world, WALLS);
  fxs_obstacle_grid og = fxs_obstacle_grid_build(&world, 0);
  fxs_contact_world every = {&world, &og, 0, WALLS, 0, 0, 0, 0};
  fxs_contact_world near = every, found = every;
  near.walls = &g;
  // Walls found beforehand for a box round the agent, 0 to 60 units on each side (beyond the
  // move's reach, about 20 units, or short of it: then the grid's lookup): the fewest the
  // contract allows, those whose bounding box meets it.
  static fxs_wall kept[WALLS];
  fxs_walls_found walls_found;
  found.walls = &g, found.found = &walls_found;
  uint32_t scratch[FXS_NEAR_OBSTACLES], changed = 0, taken = 0;
  for (int k = 0; k < 3000; ++k) {
    fxs_agent before = some_agent();
    before.position = fxs_vec2_make(between(990, 1410), between(990, 1410));
    fxs_agent a = before, b = before, c = before;
    a.position = fxs_vec2_add(before.position, before.velocity), b.position = a.position;
    c.position = a.position;
    int64_t x = before.position.x, y = before.position.y;
    fxs_box box = {x - between(0, 60), y - between(0, 60), x + between(0, 60), y + between(0, 60)};
    uint32_t n = 0;
    for (uint32_t i = 0; i < WALLS; ++i) {
      const fxs_wall *w = &world.internal->live_walls[i];
      if ((w->a.x < box.lo_x && w->b.x < box.lo_x) || (w->a.x > box.hi_x && w->b.x > box.hi_x) ||
          (w->a.y < box.lo_y && w->b.y < box.lo_y) || (w->a.y > box.hi_y && w->b.y > box.hi_y))
        continue;
      kept[n++] = *w;
    }
    walls_found.walls = kept, walls_found.count = n, walls_found.box = box;
    // The scene's own check: enough boxes hold a reach of about 20 units that both ways are
    // taken (the found walls, and the grid where they fall short: a contact that took the found
    // walls without its cover test fails here).
    fxs_box reach = {x - FXS_INT(20), y - FXS_INT(20), x + FXS_INT(20), y + FXS_INT(20)};
    taken += fxs_walls_found_cover(&walls_found, &reach);
    bool ca = fxs_contact_resolve(&every, &before, &a, scratch, FXS_NEAR_OBSTACLES);
    bool cb = fxs_contact_resolve(&near, &before, &b, scratch, FXS_NEAR_OBSTACLES);
    bool cc = fxs_contact_resolve(&found, &before, &c, scratch, FXS_NEAR_OBSTACLES);
    TEST_ASSERT_EQUAL(ca, cb);
    TEST_ASSERT_EQUAL(ca, cc);
    TEST_ASSERT_EQUAL_INT32(a.position.x, b.position.x);
    TEST_ASSERT_EQUAL_INT32(a.position.y, b.position.y);
    TEST_ASSERT_EQUAL_INT32(a.velocity.x, b.velocity.x);
    TEST_ASSERT_EQUAL_INT32(a.velocity.y, b.velocity.y);
    TEST_ASSERT_EQUAL_INT32(a.position.x, c.position.x);
    TEST_ASSERT_EQUAL_INT32(a.position.y, c.position.y);
    TEST_ASSERT_EQUAL_INT32(a.velocity.x, c.velocity.x);
    TEST_ASSERT_EQUAL_INT32(a.velocity.y, c.velocity.y);
    changed += ca;
  }
  TEST_ASSERT_TRUE(changed > 100u);
  TEST_ASSERT_TRUE(taken > 300u && taken < 2700u); // both ways taken
}

void test_orca_through_the_wall_grid_sees_the_lines_and_sight_of_every_wall(void) {
  scatter(WALLS, 200);
  fxs_wall_grid g = fxs_wall_grid_build(&world, WALLS);
  fxs_orca_def def = fxs_default_orca_def();
  fxs_world_worker *worker = &world.internal->workers[0];
  static fxs_orca_scratch all, near;
  uint32_t narrowed = 0, lines = 0;
  for (int k = 0; k < 1500; ++k) {
    fxs_agent a = some_agent();
    def.obstacle_time_horizon = between(1, 20);
    uint32_t chosen = next_random() % 6u;
    for (uint32_t i = 0; i < chosen; ++i) {
      worker->neighbors[i].position =
          fxs_vec2_add(a.position, fxs_vec2_make(between(-150, 150), between(-150, 150)));
    }
    fxs_orca_statics every = {world.internal->live_walls, WALLS, 0, 0, 0}, st = every;
    fxs_walls_found found;
    fxs_walls_near_orca(&world, &g, &a, &def, worker, chosen, &st, &found);
    narrowed += st.wall_count < WALLS;
    // The walls narrowed to are the ones found (for contact), whose box holds the agent's.
    TEST_ASSERT_EQUAL(st.wall_count < WALLS, found.walls != 0);
    if (found.walls) {
      TEST_ASSERT_EQUAL_PTR(st.walls, found.walls);
      TEST_ASSERT_EQUAL_UINT32(st.wall_count, found.count);
      fxs_box own = {a.position.x, a.position.y, a.position.x, a.position.y};
      TEST_ASSERT_TRUE(fxs_walls_found_cover(&found, &own));
    }
    uint32_t n = fxs_orca_static_lines(&a, &every, &def, &all);
    TEST_ASSERT_EQUAL_UINT32(n, fxs_orca_static_lines(&a, &st, &def, &near));
    if (n) TEST_ASSERT_EQUAL_MEMORY(all.lines, near.lines, n * sizeof(fxs_orca_line));
    lines += n;
    for (uint32_t i = 0; i < chosen; ++i) {
      fxs_vec2 p = fxs_vec2_sub(worker->neighbors[i].position, a.position);
      TEST_ASSERT_EQUAL(fxs_orca_wall_between(&a, p.x, p.y, &every),
                        fxs_orca_wall_between(&a, p.x, p.y, &st));
    }
  }
  TEST_ASSERT_TRUE(narrowed > 1400u);
  TEST_ASSERT_TRUE(lines > 50u);
}

// The same ORCA crowd among the same 31 walls, in a world too small for a wall grid and in
// one that keeps it: every body the same, bit for bit, tick after tick (contact and ORCA
// through the grid, in the step).
#define CROWD 48u

static uint64_t world_memory[2][16384];

static void crowd_world(fxs_world *w, uint32_t wall_capacity, uint64_t *block, size_t size) {
  fxs_world_capacity c = {CROWD, 0, 0, 0, wall_capacity};
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_TRUE(fxs_world_memory_size(&c) <= size);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(w, &def, &c, block, size));
  seed = 0x2545F4914F6CDD1Du;
  for (uint32_t i = 0; i < FXS_WALL_GRID_MIN_WALLS - 1u; ++i) {
    fxs_wall wall;
    wall.a = fxs_vec2_make(between(120, 480), between(120, 480));
    wall.b = fxs_vec2_make(wall.a.x + between(-40, 40), wall.a.y + between(-40, 40));
    fxs_command cmd = fxs_command_add_wall(wall);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(w, &cmd, 0));
  }
  fxs_orca_def orca = fxs_default_orca_def();
  for (uint32_t i = 0; i < CROWD; ++i) {
    fxs_spawn_def s = fxs_default_spawn_def();
    s.position = fxs_vec2_make(FXS_INT(60 + (int)(i % 8u) * 60), FXS_INT(40 + (int)(i / 8u) * 8));
    s.radius = between(3, 6), s.max_speed = between(1, 3);
    fxs_agent_handle h = {0};
    fxs_command cmd = fxs_command_spawn(&s);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(w, &cmd, &h));
    cmd = fxs_command_add_orca(h, fxs_default_blend(), &orca, FXS_INT(20));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(w, &cmd, 0));
    cmd = fxs_command_set_target_point(h, fxs_vec2_make(between(60, 540), between(500, 560)));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(w, &cmd, 0));
  }
}

void test_a_crowd_among_walls_steps_the_same_with_and_without_the_wall_grid(void) {
  static fxs_world scan, grid;
  crowd_world(&scan, FXS_WALL_GRID_MIN_WALLS - 1u, world_memory[0], sizeof world_memory[0]);
  crowd_world(&grid, 4u * FXS_WALL_GRID_MIN_WALLS, world_memory[1], sizeof world_memory[1]);
  TEST_ASSERT_EQUAL_UINT32(0, scan.internal->wall_max_cells);
  TEST_ASSERT_TRUE(grid.internal->wall_max_cells > 0);
  uint32_t touching = 0;
  for (uint32_t t = 0; t < 300u; ++t) {
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&scan, 0, 0, 0));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&grid, 0, 0, 0));
    for (uint32_t i = 0; i < CROWD; ++i) {
      const fxs_agent *a = &scan.agents[i].body, *b = &grid.agents[i].body;
      TEST_ASSERT_EQUAL_INT32(a->position.x, b->position.x);
      TEST_ASSERT_EQUAL_INT32(a->position.y, b->position.y);
      TEST_ASSERT_EQUAL_INT32(a->velocity.x, b->velocity.x);
      TEST_ASSERT_EQUAL_INT32(a->velocity.y, b->velocity.y);
      TEST_ASSERT_EQUAL_INT32(a->orientation, b->orientation);
      for (uint32_t k = 0; k < FXS_WALL_GRID_MIN_WALLS - 1u; ++k) {
        const fxs_wall *w = &scan.walls[k];
        touching += fxs_vec2_within(fxs_vec2_closest_on_segment(a->position, w->a, w->b),
                                    a->position, a->radius + FXS_INT(2));
      }
    }
  }
  // The crowd met the walls: the grid had walls to find.
  TEST_ASSERT_TRUE(touching > 100u);
}
