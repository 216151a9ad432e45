#include "world_slots.h"
#include "world_internal.h"

// The free-slot bitmap. Level 0 has one bit per slot, set while the slot is free; each
// word of level k + 1 has one bit per word of level k, set while that word is not zero. The
// top level is a single word. The lowest free slot is found by descending from the top,
// taking the lowest set bit of one word per level: 5 words for 4 million slots. Slot
// indices decide neighbor tie-breaks and random streams, so "lowest free index" is the rule
// spawn has always followed; the bitmap only finds that slot without a scan.

#define BITS 32u

typedef char fxs_free_levels_fit[sizeof(((fxs_world_internal *)0)->free_level_at) ==
                                         FXS_FREE_LEVELS_MAX * sizeof(uint32_t)
                                     ? 1
                                     : -1];

static uint32_t words_for(uint32_t bits) { return bits / BITS + (bits % BITS != 0); }

uint32_t fxs_free_slots_words(uint32_t agents) {
  uint32_t total = 0, n = words_for(agents);
  if (n == 0) n = 1;
  for (;;) {
    total += n;
    if (n == 1) return total;
    n = words_for(n);
  }
}

void fxs_free_slots_layout(fxs_world *world) {
  uint32_t n = words_for(world->capacity.agents), at = 0, level = 0;
  if (n == 0) n = 1;
  for (;;) {
    world->internal->free_level_at[level++] = at;
    at += n;
    if (n == 1 || level == FXS_FREE_LEVELS_MAX) break;
    n = words_for(n);
  }
  FXS_ASSERT(n == 1);
  world->internal->free_levels = level;
}

// Index of the lowest set bit of v (v != 0), by halving: the same answer on every target.
static uint32_t lowest_bit(uint32_t v) {
  uint32_t i = 0;
  if ((v & 0xFFFFu) == 0) i += 16, v >>= 16;
  if ((v & 0xFFu) == 0) i += 8, v >>= 8;
  if ((v & 0xFu) == 0) i += 4, v >>= 4;
  if ((v & 0x3u) == 0) i += 2, v >>= 2;
  if ((v & 0x1u) == 0) i += 1;
  return i;
}

static uint32_t *level_words(const fxs_world *world, uint32_t level) {
  return world->internal->free_slots + world->internal->free_level_at[level];
}

int32_t fxs_free_slots_lowest(const fxs_world *world) {
  uint32_t level = world->internal->free_levels - 1u, index = 0;
  if (level_words(world, level)[0] == 0) return -1;
  for (;;) {
    index = index * BITS + lowest_bit(level_words(world, level)[index]);
    if (level == 0) return (int32_t)index;
    --level;
  }
}

void fxs_free_slots_take(fxs_world *world, uint32_t index) {
  for (uint32_t level = 0; level < world->internal->free_levels; ++level) {
    uint32_t *word = &level_words(world, level)[index / BITS];
    *word &= ~(UINT32_C(1) << (index % BITS));
    if (*word != 0) break; // the levels above still see a free slot below
    index /= BITS;
  }
  world->live_count++;
}

void fxs_free_slots_give(fxs_world *world, uint32_t index) {
  for (uint32_t level = 0; level < world->internal->free_levels; ++level) {
    uint32_t *word = &level_words(world, level)[index / BITS];
    uint32_t before = *word;
    *word |= UINT32_C(1) << (index % BITS);
    if (before != 0) break; // the levels above already see this word as non-empty
    index /= BITS;
  }
  world->live_count--;
}

void fxs_world_rebuild_derived(fxs_world *world) {
  world->internal->nav.sharers_stale = 1; // the goal groups (world_sharers.h)
  uint32_t agents = world->capacity.agents, live = 0;
  uint32_t *bits = level_words(world, 0);
  uint32_t n = words_for(agents);
  for (uint32_t w = 0; w < (n ? n : 1u); ++w) bits[w] = 0;
  for (uint32_t i = 0; i < agents; ++i) {
    if (world->agents[i].alive) live++;
    else bits[i / BITS] |= UINT32_C(1) << (i % BITS);
  }
  // Each upper level summarises the one below it.
  for (uint32_t level = 1; level < world->internal->free_levels; ++level) {
    const uint32_t *below = level_words(world, level - 1u);
    uint32_t *above = level_words(world, level);
    uint32_t m = words_for(n);
    for (uint32_t w = 0; w < m; ++w) above[w] = 0;
    for (uint32_t w = 0; w < n; ++w) {
      if (below[w]) above[w / BITS] |= UINT32_C(1) << (w % BITS);
    }
    n = m;
  }
  world->live_count = live;
}

fxs_agent_handle fxs_world_make_handle(uint32_t index, uint32_t generation) {
  fxs_agent_handle h;
  h.value = ((generation & FXS_HANDLE_GENERATION_MASK) << FXS_HANDLE_INDEX_BITS) | (index + 1u);
  return h;
}

int32_t fxs_world_slot_of(const fxs_world *world, uint32_t value) {
  uint32_t index = value & FXS_HANDLE_INDEX_MASK;
  if (index == 0 || index > world->capacity.agents) return -1;
  const fxs_agent_slot *s = &world->agents[index - 1u];
  uint32_t generation = value >> FXS_HANDLE_INDEX_BITS;
  if (!s->alive || (s->generation & FXS_HANDLE_GENERATION_MASK) != generation) return -1;
  return (int32_t)(index - 1u);
}

uint32_t fxs_world_stream_id(uint32_t index, uint32_t generation) {
  return ((generation & FXS_HANDLE_GENERATION_MASK) << FXS_HANDLE_INDEX_BITS) | index;
}
