// Internal: the world's agent slots as handles see them, and the data derived from the
// slots' alive flags that makes spawning O(1) amortised: a count of live agents and a
// hierarchical bitmap of free slots. Derived data is not state: spawn and despawn keep it,
// fxs_world_rebuild_derived recomputes it after the slots were written directly (restore).
#ifndef FIXSTEER_WORLD_SLOTS_H
#define FIXSTEER_WORLD_SLOTS_H

#include <stdint.h>

#include "fixsteer/world.h"

/// Levels of the free-slot bitmap for the largest world: 32^5 >= FXS_MAX_AGENTS.
#define FXS_FREE_LEVELS_MAX 5u

/// Words (uint32) of the free-slot bitmap of a world with `agents` slots, all levels.
uint32_t fxs_free_slots_words(uint32_t agents);

/// Lays out the bitmap levels in world->internal->free_slots (already pointing at
/// fxs_free_slots_words words) for world->capacity.agents slots.
void fxs_free_slots_layout(fxs_world *world);

/// Recomputes the live count and the free-slot bitmap from the slots' alive flags.
void fxs_world_rebuild_derived(fxs_world *world);

/// The free slot of lowest index, or -1 when every slot is alive.
int32_t fxs_free_slots_lowest(const fxs_world *world);

/// Records that slot `index` became alive (spawn) or free (despawn); keeps the live count.
void fxs_free_slots_take(fxs_world *world, uint32_t index);
/// See fxs_free_slots_take.
void fxs_free_slots_give(fxs_world *world, uint32_t index);

/// The handle of slot `index` with `generation` (taken modulo 2^FXS_HANDLE_GENERATION_BITS).
fxs_agent_handle fxs_world_make_handle(uint32_t index, uint32_t generation);

/// Slot index a handle value names, or -1 when it is 0, out of range or stale.
int32_t fxs_world_slot_of(const fxs_world *world, uint32_t value);

/// The random stream id of slot `index` with `generation`: (generation << 22) | index.
uint32_t fxs_world_stream_id(uint32_t index, uint32_t generation);

#endif
