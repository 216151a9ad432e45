// The state hash v2 of a world, for tests whose pinned hashes were computed with it: they keep
// proving the states unchanged since fxs_world_hash moved to the state hash v3.
#ifndef FXS_TEST_HASH_V2_H
#define FXS_TEST_HASH_V2_H

#include <stdint.h>

#include "unity.h"

#include "hash.h"
#include "snapshot.h"

static inline uint64_t hash_v2(const fxs_world *w) {
  uint64_t h = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_hash_as(w, FXS_STATE_HASH_V2, &h));
  return h;
}

#endif
