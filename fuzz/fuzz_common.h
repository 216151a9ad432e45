// Shared by the libFuzzer targets: the entry point's prototype, a check that stops the run
// with a message when a property of the library does not hold, and the world helpers the
// targets use. Targets are built with clang's -fsanitize=fuzzer,address,undefined.
#ifndef FIXSTEER_FUZZ_COMMON_H
#define FIXSTEER_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/manager.h"
#include "fixsteer/replay.h"
#include "fixsteer/snapshot.h"
#include "fixsteer/world.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// A broken property is a finding like a sanitizer report: print it and abort, so libFuzzer
// saves the input as a crash.
#define FUZZ_CHECK(cond, ...)                                                         \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      fprintf(stderr, "fuzz check failed at %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                                   \
      fprintf(stderr, "\n");                                                          \
      abort();                                                                        \
    }                                                                                 \
  } while (0)

// Largest block a target hands the library (a world, a verification). The replay targets
// read with fuzz_limits(), under which the library itself must refuse anything larger
// before allocating: a verification that asks for more is a failed check.
#define FUZZ_MEMORY_LIMIT ((size_t)64 << 20)

// The library's reader limits, made small so that every execution is fast: the library
// refuses what exceeds them (FXS_ERR_LIMIT) before allocating or simulating. 256 agent-ticks
// are ten ticks of the largest seed scene (24 agents): enough for keyframes, END and a
// divergence. Worlds of up to 2,048 agents are still allocated and restored (the free-slot
// bitmap gets its third level above 1,024) though they cannot step; the other capacities
// stop at the sizes fuzz_snapshot.c restores (the step scans every obstacle and wall slot).
// The navigation and flow-field capacities admit every scene of scenarios/ (nav_crowd: 37,500
// cells, 8 fields of them, 1,000 agents of 64 waypoints) and keep a verification, two worlds,
// within FUZZ_MEMORY_LIMIT: about 25 MB a world at the largest of them all.
static inline fxs_limits fuzz_limits(void) {
  fxs_limits l = fxs_default_limits();
  l.max_agents = 2048;
  l.max_obstacles = 256;
  l.max_paths = 64;
  l.max_path_nodes = 4096;
  l.max_walls = 256;
  l.max_ticks = 32;
  l.max_agent_ticks = 256;
  l.max_field_cells = 65536;
  l.max_nav_cells = 40960;
  l.max_nav_search_cells = 4u * 40960u;
  l.max_nav_route_cells = 2048u * 64u;
  l.max_nav_field_cells = 8u * 40960u;
  return l;
}

// A world in its own heap block.
typedef struct fuzz_world {
  fxs_world world;
  void *memory;
} fuzz_world;

// Initialises `w` with `capacity`; 0 when the memory is over FUZZ_MEMORY_LIMIT or init fails.
static inline int fuzz_world_make(fuzz_world *w, const fxs_world_def *def,
                                  const fxs_world_capacity *capacity) {
  size_t size = fxs_world_memory_size(capacity);
  w->memory = 0;
  if (size == 0 || size > FUZZ_MEMORY_LIMIT) return 0;
  w->memory = malloc(size);
  if (!w->memory) return 0;
  if (fxs_world_init(&w->world, def, capacity, w->memory, size) != FXS_OK) {
    free(w->memory);
    w->memory = 0;
    return 0;
  }
  return 1;
}

static inline void fuzz_world_free(fuzz_world *w) {
  free(w->memory);
  w->memory = 0;
}

// The world's snapshot in a new heap block (*size receives its length).
static inline uint8_t *fuzz_world_save(const fxs_world *world, size_t *size) {
  *size = fxs_world_snapshot_size(world);
  uint8_t *bytes = malloc(*size ? *size : 1);
  FUZZ_CHECK(bytes != 0, "out of memory for a %zu-byte snapshot", *size);
  size_t written = 0;
  fxs_result r = fxs_world_save(world, bytes, *size, &written);
  FUZZ_CHECK(r == FXS_OK && written == *size, "save of a sized buffer failed: %s, %zu of %zu bytes",
             fxs_result_message(r), written, *size);
  return bytes;
}

// A growing byte buffer, the sink of a replay writer.
typedef struct fuzz_sink {
  uint8_t *data;
  size_t size, capacity;
} fuzz_sink;

static inline bool fuzz_sink_write(void *user, const uint8_t *bytes, size_t size) {
  fuzz_sink *s = (fuzz_sink *)user;
  if (s->capacity - s->size < size) {
    size_t capacity = s->capacity ? s->capacity : 4096;
    while (capacity - s->size < size) capacity *= 2;
    uint8_t *grown = realloc(s->data, capacity);
    if (!grown) return false;
    s->data = grown, s->capacity = capacity;
  }
  memcpy(s->data + s->size, bytes, size);
  s->size += size;
  return true;
}

// Verifies a replay the library itself wrote: every tick must re-simulate to the recorded
// hash. A failure means the recording and the re-simulation disagree on the same input.
static inline void fuzz_check_own_replay(const fuzz_sink *replay, uint32_t ticks) {
  size_t need = fxs_replay_verify_memory_size(replay->data, replay->size, 0);
  FUZZ_CHECK(need > 0, "a replay the writer produced does not open");
  if (need > FUZZ_MEMORY_LIMIT) return;
  void *memory = malloc(need);
  FUZZ_CHECK(memory != 0, "out of memory for verify (%zu bytes)", need);
  fxs_verify_report rep;
  fxs_result r = fxs_replay_verify(replay->data, replay->size, 0, memory, need, &rep);
  free(memory);
  FUZZ_CHECK(r == FXS_OK, "own replay does not verify: %s at byte %zu, tick %u (%zu bytes)",
             fxs_result_message(r), rep.error_offset, rep.first_bad_tick, replay->size);
  FUZZ_CHECK(rep.ticks == ticks, "own replay verified %u ticks, %u were recorded", rep.ticks,
             ticks);
}

#endif
