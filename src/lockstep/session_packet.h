// Internal: what the session's packet code (session_packet.c) and its stepping code
// (session.c) share. Input frames live in a ring per player, state hashes in a ring per
// peer; tick t of either sits at index t % window.
#ifndef FIXSTEER_SESSION_PACKET_H
#define FIXSTEER_SESSION_PACKET_H

#include <stdint.h>

#include "fixsteer/session.h"

// True when peer `peer` is a player.
static inline bool fxs_session_is_player(const fxs_session *s, uint32_t peer) {
  return peer < s->def.players;
}

// The ring index of tick t of `row` (a player for inputs, a peer for hashes).
static inline uint32_t fxs_session_slot(const fxs_session *s, uint32_t row, uint32_t t) {
  return row * s->def.window + t % s->def.window;
}

// The commands of player p's frame for tick t (max_commands of room).
static inline fxs_command *fxs_session_frame(const fxs_session *s, uint32_t p, uint32_t t) {
  return s->commands + (size_t)fxs_session_slot(s, p, t) * s->def.max_commands;
}

// The oldest tick of player p's inputs the session still needs (to step, record or resend).
uint32_t fxs_session_oldest_input(const fxs_session *s, uint32_t p);

// Notes that player p's input for tick t (count commands) arrived: schedules a rollback when
// t was already stepped with a different (empty) prediction.
void fxs_session_input_arrived(fxs_session *s, uint32_t p, uint32_t t, uint16_t count);

// Compares every peer's hashes that have arrived with ours for the settled ticks.
void fxs_session_compare_hashes(fxs_session *s);

// The snapshot of the state at the start of tick t, or NULL when the ring no longer has it.
const uint8_t *fxs_session_saved_state(const fxs_session *s, uint32_t t, size_t *size);

// FNV-1a 64 of the bytes folded to 32 bits: the checksum that ends packets and join offers.
uint32_t fxs_session_checksum(const uint8_t *bytes, size_t size);

// A command in packets and offers: its type (u8), a u16 mask of its non-zero fields (bit 0
// agent, bit 1 ref, bits 2..9 arg[0..7]) and those fields as u32. Size, write (returns the
// size), and read from `avail` bytes (*used: its size; source and sequence are given).
size_t fxs_session_command_size(const fxs_command *c);
size_t fxs_session_put_command(const fxs_command *c, uint8_t *b);
fxs_result fxs_session_get_command(const uint8_t *b, size_t avail, uint8_t source,
                                   uint16_t sequence, fxs_command *c, size_t *used);

// Starts the session's clock at the first time-bearing call.
void fxs_session_start_clock(fxs_session *s, uint32_t now_ms);

#endif
