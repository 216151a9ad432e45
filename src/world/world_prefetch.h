// Internal: the prefetches of the step: its steering phase (world_steer.c), which visits the
// agents in the grid's cell order, its passes over the slots in slot order, and the aims'
// walks along a field's directions (world_nav_aims.c). Not part of the API.
#ifndef FIXSTEER_WORLD_PREFETCH_H
#define FIXSTEER_WORLD_PREFETCH_H

#include "fixsteer/world.h"
#include "world_internal.h"

#if defined(__GNUC__) || defined(__clang__)
#define FXS_PREFETCH(address) __builtin_prefetch(address)
#else
#define FXS_PREFETCH(address) ((void)(address))
#endif

// In cell order the slots come in no particular order, and each would be a cache miss:
// start loading the slot (and its next body) of an agent a few places ahead. A macro, not
// a function: a compiler sees a function of prefetches only as one without effects, and
// may drop its calls. `lone`: a step where every agent steers as a lone ORCA agent in place
// (world_crowd.h), which reads only the slot's first three lines (its fields up to its
// first behavior, offset 128 of 320) and writes no next body.
#define FXS_PREFETCH_AGENT(world, slot, lone)              \
  do {                                                     \
    const char *p_ = (const char *)&(world)->agents[slot]; \
    FXS_PREFETCH(p_);                                      \
    FXS_PREFETCH(p_ + 64);                                 \
    FXS_PREFETCH(p_ + 128);                                \
    if (!(lone)) {                                         \
      FXS_PREFETCH(p_ + 192);                              \
      FXS_PREFETCH(p_ + 256);                              \
      FXS_PREFETCH(p_ + sizeof(fxs_agent_slot) - 1u);      \
      FXS_PREFETCH(&(world)->internal->next[slot]);        \
    }                                                      \
  } while (0)

#define FXS_PREFETCH_AHEAD 4u

// The passes that visit the slots in slot order read a few of each 320-byte slot's five
// lines, too sparse for a core's stride prefetcher to keep ahead of on a large crowd: the
// line holding `member` (a member path of fxs_agent_slot, such as body.position) of the slot
// FXS_PREFETCH_SLOT_AHEAD places on is requested; none within that many of `end`, where the
// pass's range ends. i < end; i and end are read twice (pass plain variables).
#define FXS_PREFETCH_SLOT_AHEAD 16u
#define FXS_PREFETCH_SLOT(world, i, end, member)                            \
  do {                                                                      \
    if ((end) - (i) > FXS_PREFETCH_SLOT_AHEAD)                              \
      FXS_PREFETCH(&(world)->agents[(i) + FXS_PREFETCH_SLOT_AHEAD].member); \
  } while (0)

#endif
