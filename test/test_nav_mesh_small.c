// The navigation mesh's property test at a size a 16 KiB Cortex-M0 holds: meshes of up to
// 48 vertices over seeded random sets of 6 walls and an obstacle (the degenerate cases of
// test_nav_mesh.c), checked with exact arithmetic, and their digest pinned: the same bytes
// on the M0, the M3 and the desktop.
#include <stdint.h>
#include <stdio.h>

#include "unity.h"

#include "hash.h"
#include "fxs_test_util.h"

void setUp(void) {}
void tearDown(void) {}

#define CAP_VERTICES 48u
#define MAX_WALLS 6u
#define MAX_OBSTACLES 1u
#define MESH_BLOCK_BYTES 7424u
#include "fxs_nav_mesh_check.h"

#define CASES 300u
#define SEED UINT64_C(0x736D616C6C6D65)
#define SMALL_DIGEST UINT64_C(0x2DED2A964CB1C8A9)

void test_small_random_wall_sets_give_the_same_valid_meshes_on_every_target(void) {
  fxs_hasher all = fxs_hasher_make();
  uint32_t most = run_random_cases(SEED, CASES, &all);
  FXS_TEST_REPORT("nav mesh small: %lu random cases, at most %lu vertices, digest %08lx%08lx",
                  (unsigned long)CASES, (unsigned long)most, (unsigned long)(all.state >> 32),
                  (unsigned long)(all.state & 0xFFFFFFFFu));
  TEST_ASSERT_EQUAL_HEX64(SMALL_DIGEST, all.state);
}
