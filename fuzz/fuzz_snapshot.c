// Snapshots from another player (a keyframe, a rollback state, a join): capacity query,
// restore into a world of that capacity, a few steps, the hash. Checks that a failed restore
// leaves the world unchanged, that a restored state saves back to the same bytes, that a
// snapshot taken mid-run carries every bit of state the step depends on, and that a world
// rolled back to it steps on as the straight run.
#include "fuzz_common.h"

// Small capacities keep every execution fast; larger ones are refused and counted.
#define MAX_AGENTS 256u
#define MAX_OBSTACLES 256u
#define MAX_PATHS 64u
#define MAX_NODES 4096u
#define MAX_WALLS 256u
#define TICKS 4u

static unsigned long refused;

static void report_refused(void) {
  if (refused) fprintf(stderr, "snapshot: %lu inputs refused for their capacity\n", refused);
}

static bool capacity_small(const fxs_world_capacity *c) {
  return c->agents <= MAX_AGENTS && c->obstacles <= MAX_OBSTACLES && c->paths <= MAX_PATHS &&
         c->path_nodes <= MAX_NODES && c->walls <= MAX_WALLS && c->nav_cells <= 16384u &&
         c->nav_searches <= 4u && c->nav_waypoints <= 256u && c->nav_fields <= 4u &&
         c->nav_mesh_vertices <= 4096u;
}

// Restored state saves back to exactly the bytes it came from, and restores elsewhere equal.
static void check_round_trip(const fxs_world *a, fxs_world *b, const uint8_t *data, size_t size) {
  size_t saved_size;
  uint8_t *saved = fuzz_world_save(a, &saved_size);
  FUZZ_CHECK(saved_size == size && memcmp(saved, data, size) == 0,
             "restore then save changed the snapshot (%zu bytes in, %zu out)", size, saved_size);
  size_t at = 0;
  fxs_result r = fxs_world_restore(b, saved, saved_size, &at);
  FUZZ_CHECK(r == FXS_OK, "a saved snapshot does not restore: %s at %zu", fxs_result_message(r),
             at);
  FUZZ_CHECK(fxs_world_hash(a) == fxs_world_hash(b), "equal snapshots hash differently");
  fxs_world_difference d;
  FUZZ_CHECK(!fxs_world_first_difference(a, b, &d), "restored copy differs in %s", d.field);
  free(saved);
}

// Steps `a` half the ticks, copies it into `b` through a snapshot (b holds the input's state:
// its derived data, a mesh world's trees among them, kept, built on or rebuilt), steps both:
// same hashes. Then `a` is rolled back to that snapshot (its own trees ahead of it) and steps
// again: the hashes of the straight run.
static void check_snapshot_complete(fxs_world *a, fxs_world *b) {
  for (uint32_t t = 0; t < TICKS / 2; ++t) fxs_world_step(a, 0, 0, 0);
  size_t size;
  uint8_t *mid = fuzz_world_save(a, &size);
  size_t at = 0;
  fxs_result r = fxs_world_restore(b, mid, size, &at);
  FUZZ_CHECK(r == FXS_OK, "a stepped world's snapshot does not restore: %s at byte %zu of %zu",
             fxs_result_message(r), at, size);
  uint64_t straight[TICKS];
  for (uint32_t t = TICKS / 2; t < TICKS; ++t) {
    fxs_world_step(a, 0, 0, 0);
    fxs_world_step(b, 0, 0, 0);
    straight[t] = fxs_world_hash(a);
    FUZZ_CHECK(straight[t] == fxs_world_hash(b), "tick %u: a world and its restored copy diverge",
               a->tick);
  }
  r = fxs_world_restore(a, mid, size, &at);
  FUZZ_CHECK(r == FXS_OK, "a world's own snapshot does not restore: %s", fxs_result_message(r));
  free(mid);
  for (uint32_t t = TICKS / 2; t < TICKS; ++t) {
    fxs_world_step(a, 0, 0, 0);
    FUZZ_CHECK(fxs_world_hash(a) == straight[t], "tick %u: rolled back, the run diverges", a->tick);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int registered;
  if (!registered) registered = 1, atexit(report_refused);
  fxs_world_capacity cap;
  if (fxs_snapshot_capacity(data, size, &cap) != FXS_OK) return 0;
  if (!capacity_small(&cap)) return refused++, 0;
  fxs_world_def def = fxs_default_world_def();
  fuzz_world a, b;
  if (!fuzz_world_make(&a, &def, &cap)) return 0;
  if (!fuzz_world_make(&b, &def, &cap)) return fuzz_world_free(&a), 0;
  uint64_t empty = fxs_world_hash(&a.world);
  size_t at = (size_t)-1;
  fxs_result r = fxs_world_restore(&a.world, data, size, &at);
  if (r != FXS_OK) {
    FUZZ_CHECK(at <= size, "restore failed (%s) at offset %zu of %zu", fxs_result_message(r), at,
               size);
    FUZZ_CHECK(fxs_world_hash(&a.world) == empty, "a failed restore (%s) changed the world",
               fxs_result_message(r));
  } else {
    check_round_trip(&a.world, &b.world, data, size);
    check_snapshot_complete(&a.world, &b.world);
  }
  fuzz_world_free(&a);
  fuzz_world_free(&b);
  return 0;
}
