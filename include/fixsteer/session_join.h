/// @file session_join.h
/// Joining a match under way: a spectator that arrives late, or a player that comes back
/// after losing its connection or its process (docs/lockstep.md, "Joining mid-match"). The
/// other peers each write a join offer; the joiner starts its session from them; the others
/// take it back with fxs_session_readmit. Offers travel however the caller likes (the
/// fixsteer tool sends them reliably over ENet); they are untrusted input, checked in full.
#ifndef FIXSTEER_SESSION_JOIN_H
#define FIXSTEER_SESSION_JOIN_H

#include "fixsteer/api.h"
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/result.h"
#include "fixsteer/session.h"
#include "fixsteer/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// "FXSJ" read as a little-endian u32: the first bytes of a join offer.
#define FXS_SESSION_OFFER_MAGIC 0x4A535846u
/// Join offer layout version written and accepted: 3, layout 2 (state hashes of the state
/// hash v3) whose header ends with the sender's simulation version (u32) and math
/// fingerprint (u64): an offer of another simulation version is refused with
/// FXS_ERR_SIMULATION_VERSION, one of other math with FXS_ERR_BAD_FINGERPRINT
/// (fxs_session_sender_build names them). Version 1: layout 2 with the state hash v2.
#define FXS_SESSION_OFFER_VERSION 3u

/// Where fxs_session_join found a fault: the result, which offer (index into `offers`) and
/// the byte offset in it.
typedef struct fxs_session_join_error {
  fxs_result result; ///< FXS_OK when nothing failed.
  uint32_t offer;    ///< The offer at fault.
  size_t offset;     ///< Byte offset in that offer.
} fxs_session_join_error;

/// The parts of a join offer (fxs_session_offer_field names the one a byte belongs to).
typedef enum fxs_session_offer_part {
  FXS_OFFER_HEADER = 0,    ///< The fixed header; `at` is the byte's offset in it.
  FXS_OFFER_HASH = 1,      ///< The sender's state hash of tick `tick`.
  FXS_OFFER_FRAMES = 2,    ///< The head of player `player`'s frame list (first tick, count).
  FXS_OFFER_FRAME = 3,     ///< Player `player`'s input frame of tick `tick`.
  FXS_OFFER_STATE = 4,     ///< The state (its size or its bytes).
  FXS_OFFER_CHECKSUM = 5,  ///< The checksum, or a byte past the end.
  FXS_OFFER_UNREADABLE = 6 ///< Bytes before it do not decode: nothing can be said.
} fxs_session_offer_part;

/// Which field of a join offer a byte offset falls in, for naming what fxs_session_join
/// refused (fxs_session_join_error.offset): "player 2's input of tick 303".
typedef struct fxs_session_offer_field {
  uint8_t part;   ///< An fxs_session_offer_part.
  uint8_t player; ///< FXS_OFFER_FRAMES, FXS_OFFER_FRAME: the player.
  uint32_t tick;  ///< FXS_OFFER_HASH, FXS_OFFER_FRAME: the tick.
  uint32_t at;    ///< FXS_OFFER_HEADER: the offset in the header (docs/lockstep.md's table).
} fxs_session_offer_field;

/// Names the field of `offer` (len bytes, as received) that holds byte `offset`. Reads only the
/// lengths it needs, in bounded time; a part that does not decode gives FXS_OFFER_UNREADABLE.
FXS_API fxs_session_offer_field fxs_session_offer_field_at(const uint8_t *offer, size_t len,
                                                           size_t offset);

/// Writes this peer's join offer for peer `joiner` (a spectator that arrives late, or a player
/// that comes back after fxs_session_peer_left): the input frames of every player it still
/// holds, its last `window` state hashes and, when `world` is not NULL, the state at the start
/// of its first unsettled tick (one peer, usually the host, sends the state; every other player
/// sends an offer without it). buf NULL: only *len, the size needed. FXS_ERR_BUFFER_TOO_SMALL,
/// FXS_ERR_BAD_SEQUENCE when the state of that tick is no longer at hand.
FXS_API fxs_result fxs_session_write_offer(const fxs_session *session, const fxs_world *world,
                                           uint8_t joiner, uint8_t *buf, size_t cap, size_t *len);

/// Starts a session mid-match (as fxs_session_init, for peer def->local) from the offers of
/// the other peers (docs/security.md, "Joining: what is taken from whom"). Exactly one offer
/// carries the state, taken at its tick S into `world` (initialized by the caller with the
/// match's definition and capacity, paths added) only when every other offer holds its own
/// hash of tick S - 1 and it equals the state's (else FXS_ERR_UNCONFIRMED naming the state's
/// offer, or FXS_ERR_HASH_MISMATCH naming the offer that differs). A player's frames from S on
/// come from that player's own offer, which every other copy must match and none may pass;
/// the frames of a player without an offer (the joiner itself, a player away) only when every
/// offer holds them identically, to the same end. Any frame one offer alone claims is refused
/// with FXS_ERR_UNCONFIRMED naming that offer and the byte (fxs_session_offer_field_at names
/// the field): no single peer can forge another player's input or an unconfirmed state (a
/// match with one other peer has nobody to confirm anything: its offer is taken as it is).
/// From S on, every tick is compared with every peer as usual. Every other peer starts
/// present: mark those that are away (a spectator slot nobody holds) with
/// fxs_session_peer_left right after, or the session waits for their hashes. A replay is
/// begun by the caller on the world after this call. On failure *error names the offer and byte.
FXS_API fxs_result fxs_session_join(fxs_session *session, const fxs_session_def *def, void *memory,
                                    size_t size, fxs_world *world, const uint8_t *const *offers,
                                    const size_t *lengths, uint32_t count,
                                    fxs_session_join_error *error);

/// Marks a peer that disconnected: nothing is sent to it and no tick waits for its hashes
/// (a player's input is still waited for: the match pauses until it comes back or the caller
/// ends it). Spectators that have not arrived yet are marked so at the start.
FXS_API fxs_result fxs_session_peer_left(fxs_session *session, uint8_t peer);

/// Takes back a peer that joined (fxs_session_join) at tick `tick`, which it announces: its
/// hashes are compared from that tick on and ours are sent again from there.
/// FXS_ERR_BAD_SEQUENCE, changing nothing, when the peer did not leave (fxs_session_peer_left),
/// or `tick` is past our settled tick (every offer confirmed the joiner's state, ours too),
/// past the end of its input frames we hold, or more than a window before our settled tick.
FXS_API fxs_result fxs_session_readmit(fxs_session *session, uint8_t peer, uint32_t tick);

#ifdef __cplusplus
}
#endif

#endif
