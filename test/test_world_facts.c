#include <string.h>
#include "unity.h"
#include "vec2.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "world_facts.h"
#include "fxs_nav_test.h"
#include "fxs_test_tasks.h"

// The neighbor facts of a world with navigation (world_facts.h) are scratch, taken for every
// live agent in sense before any steering reads them, and every reader gets from them what it
// read from the slots before the table existed. The scene makes every reader ask: four groups
// of mixed radii crossing round four walled blocks to each other's corners (making way, piles,
// the crush order, the cluster lattice, contact), four plain ORCA agents of another priority
// among them, agents despawned and spawned on the way. Three runs of it step to the same hash
// tick by tick, and to the hash the library gave before the table: one left alone, one whose
// table is junk before every tick and whose phases run on workers in odd ranges, one without
// the table (its readers read the slots).

void setUp(void) {}
void tearDown(void) {}

#define AGENTS 68
#define CELLS (60 * 60)
#define MEMORY_WORDS 131000u // 1.05 MB; the world takes 1,041,776 bytes on 64-bit hosts
#define WORKERS 3u
static const fxs_world_capacity cap = {AGENTS, 0, 0,     0,  16, WORKERS, 0,
                                       CELLS,  2, CELLS, 64, 4,  0,       0};
static uint64_t memory[2][MEMORY_WORDS]; // both within an MCU's 4 MiB
static fxs_world worlds[2];
static fxs_agent_handle handles[AGENTS];
#define TICKS 2000u
static uint64_t hashes[TICKS];

static void wall(fxs_world *w, int ax, int ay, int bx, int by) {
  fxs_wall x = {nav_point(ax, ay), nav_point(bx, by)};
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_add_wall(x)));
}

static void scene(fxs_world *w, uint64_t *mem) {
  fxs_world_def def = fxs_default_world_def();
  def.seed = 3;
  def.bounds_min = nav_point(-120, -120), def.bounds_max = nav_point(120, 120);
  def.neighbor_radius = FXS_INT(15);
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= sizeof memory[0]);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(w, &def, &cap, mem, sizeof memory[0]));
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_set_nav_grid(nav_point(-120, -120), FXS_INT(4),
                                                                  60, 60, FXS_INT(2), 4096)));
  for (int sx = -1; sx <= 1; sx += 2)
    for (int sy = -1; sy <= 1; sy += 2) {
      int x0 = 10 * sx, x1 = 40 * sx, y0 = 10 * sy, y1 = 40 * sy;
      wall(w, x0, y0, x1, y0), wall(w, x1, y0, x1, y1), wall(w, x1, y1, x0, y1);
      wall(w, x0, y1, x0, y0);
    }
  for (int i = 0; i < AGENTS; ++i) {
    int g = i % 4, k = i / 4, sx = g % 2 ? -1 : 1, sy = g / 2 ? -1 : 1;
    bool plain = k >= 16; // the last four: ORCA agents of priority 2 crossing the middle
    fxs_spawn_def s = fxs_default_spawn_def();
    s.position = plain ? nav_point(sx * 100, -sy * 5)
                       : nav_point(sx * (55 + 10 * (k / 4)), sy * (55 + 10 * (k % 4)));
    s.radius = FXS_INT(2) + (fix16_t)(k % 3) * (FXS_ONE / 2); // 2, 2.5, 3
    s.max_speed = FXS_ONE / 2 + (fix16_t)(k % 2) * (FXS_ONE / 4), s.max_force = FXS_ONE / 4;
    fxs_agent_handle h = {0};
    fxs_command c = fxs_command_spawn(&s);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(w, &c, &h));
    handles[i] = h;
    fxs_orca_def d = fxs_default_orca_def();
    d.time_horizon = FXS_INT(20), d.neighbor_distance = FXS_INT(15), d.max_neighbors = 10;
    if (plain) {
      d.priority = FXS_INT(2);
      TEST_ASSERT_EQUAL(FXS_OK,
                        nav_apply(w, fxs_command_add_orca(h, fxs_default_blend(), &d, FXS_INT(4))));
      TEST_ASSERT_EQUAL(
          FXS_OK, nav_apply(w, fxs_command_set_target_point(h, nav_point(-sx * 100, -sy * 5))));
      continue;
    }
    TEST_ASSERT_EQUAL(FXS_OK,
                      nav_apply(w, fxs_command_add_navigate(h, fxs_default_blend(), FXS_ONE, &d)));
    TEST_ASSERT_EQUAL(FXS_OK,
                      nav_apply(w, fxs_command_set_target_point(h, nav_point(-sx * 75, -sy * 75))));
  }
}

// Junk of every kind in every entry: a pattern that changes with the tick.
static void spoil(fxs_world *w, uint32_t tick) {
  fxs_agent_facts *t = w->internal->facts;
  TEST_ASSERT_NOT_NULL(t);
  memset(t, (int)(0x5Au ^ (tick * 37u)), sizeof *t * w->capacity.agents);
}

// The tick's commands: three of the groups' agents despawned at tick 500, three spawned at
// tick 800 (into their slots) going to the first group's corner.
static uint32_t commands_of(uint32_t tick, fxs_command *out) {
  static const uint32_t gone[3] = {5, 22, 41};
  if (tick == 500) {
    for (uint32_t k = 0; k < 3; ++k) out[k] = fxs_command_despawn(handles[gone[k]]);
    return 3;
  }
  return 0;
}

static void spawn_three(fxs_world *w) {
  for (int k = 0; k < 3; ++k) {
    fxs_spawn_def s = fxs_default_spawn_def();
    s.position = nav_point(60 + 8 * k, 60), s.radius = FXS_INT(2) + FXS_ONE / 4 * k;
    s.max_speed = FXS_ONE / 2, s.max_force = FXS_ONE / 4;
    fxs_agent_handle h = {0};
    fxs_command c = fxs_command_spawn(&s);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(w, &c, &h));
    fxs_orca_def d = fxs_default_orca_def();
    d.time_horizon = FXS_INT(20), d.neighbor_distance = FXS_INT(15), d.max_neighbors = 10;
    TEST_ASSERT_EQUAL(FXS_OK,
                      nav_apply(w, fxs_command_add_navigate(h, fxs_default_blend(), FXS_ONE, &d)));
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_set_target_point(h, nav_point(-75, -75))));
  }
}

// One tick of the scene's run.
static void step(fxs_world *w, uint32_t tick) {
  fxs_command c[3];
  uint32_t n = commands_of(tick, c);
  if (tick == 800) spawn_three(w);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(w, c, n, 0));
}

// The scene's hash after TICKS ticks in the library before the table (the build of d88d9a2,
// the same scene and commands): the table changes no bit.
#define HASH_BEFORE_THE_TABLE UINT64_C(0x575fa125228a42a6)

void test_junk_in_the_table_on_workers_and_no_table_at_all_step_alike(void) {
  scene(&worlds[0], memory[0]);
  scene(&worlds[1], memory[1]);
  odd_tasks t = {0, 0, WORKERS};
  fxs_task_system tasks = {odd_enqueue, odd_finish, WORKERS, &t};
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_tasks(&worlds[1], &tasks));
  for (uint32_t tick = 0; tick < TICKS; ++tick) {
    spoil(&worlds[1], tick);
    step(&worlds[0], tick);
    step(&worlds[1], tick);
    hashes[tick] = fxs_world_hash(&worlds[0]);
    TEST_ASSERT_EQUAL_HEX64_MESSAGE(hashes[tick], fxs_world_hash(&worlds[1]),
                                    "a tick read an entry sense had not taken");
  }
  TEST_ASSERT_EQUAL_HEX64(HASH_BEFORE_THE_TABLE, hashes[TICKS - 1u]);
  // The scene did what it is for: the groups crossed the jam in the middle to their goals.
  uint32_t home = 0;
  for (uint32_t i = 0; i < AGENTS; ++i) {
    const fxs_agent *a = &worlds[0].agents[i].body;
    if (fxs_vec2_within(a->position, fxs_world_nav_target(&worlds[0], i), FXS_INT(30))) home++;
  }
  TEST_ASSERT_EQUAL_UINT32(AGENTS, home);
  // Without the table (its readers read the slots, as before it existed): the same hashes.
  scene(&worlds[1], memory[1]);
  worlds[1].internal->facts = 0;
  for (uint32_t tick = 0; tick < TICKS; ++tick) {
    step(&worlds[1], tick);
    TEST_ASSERT_EQUAL_HEX64_MESSAGE(hashes[tick], fxs_world_hash(&worlds[1]),
                                    "a fact differs from what the slots say");
  }
}

void test_the_table_holds_what_the_slots_say_after_sense(void) {
  scene(&worlds[0], memory[0]);
  uint32_t navigates = 0, solid = 0, on_spot = 0, rests = 0;
  for (uint32_t tick = 0; tick < 700; ++tick) {
    fxs_world_step(&worlds[0], 0, 0, 0);
    // The entries of this tick's sense against the slots as they were then: the bodies have
    // moved since, so only what the step does not change is compared every tick.
    for (uint32_t i = 0; i < AGENTS; ++i) {
      fxs_agent_facts f = worlds[0].internal->facts[i];
      TEST_ASSERT_EQUAL_INT32(worlds[0].agents[i].body.radius, f.radius);
      TEST_ASSERT_TRUE(fxs_vec2_equal(fxs_world_nav_target(&worlds[0], i), f.goal));
      TEST_ASSERT_EQUAL_INT32(fxs_orca_priority_of(&worlds[0], i), f.priority);
      navigates += (f.flags & FXS_FACT_NAVIGATES) != 0;
      solid += (f.flags & FXS_FACT_SOLID) != 0;
      on_spot += (f.flags & FXS_FACT_ON_SPOT) != 0;
      rests += (f.flags & FXS_FACT_RESTS) != 0;
    }
  }
  TEST_ASSERT_EQUAL_UINT32(64u * 700u, navigates); // the four ORCA agents do not navigate
  TEST_ASSERT_EQUAL_UINT32(AGENTS * 700u, solid);  // every one is solid
  TEST_ASSERT_TRUE(on_spot > 0 && rests > 0);      // the piles formed
}

void test_a_world_without_navigation_keeps_no_table(void) {
  fxs_world_capacity plain = {AGENTS, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  TEST_ASSERT_EQUAL_UINT32(20u, (uint32_t)sizeof(fxs_agent_facts)); // docs/navigation.md
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&worlds[0], &def, &plain, memory[0], sizeof memory[0]));
  TEST_ASSERT_NULL(worlds[0].internal->facts);
}
