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
  fxs_result result;  ///< FXS_OK when nothing failed.
  uint32_t offer;     ///< The offer at fault.
  size_t offset;      ///< Byte offset in that offer.
} fxs_session_join_error;

/// Writes this peer's join offer for peer `joiner` (a spectator that arrives late, or a player
/// that comes back after fxs_session_peer_left): the input frames of every player it still
/// holds, its last `window` state hashes and, when `world` is not NULL, the state at the start
/// of its first unsettled tick (one peer, usually the host, sends the state; every other player
/// sends an offer without it). buf NULL: only *len, the size needed. FXS_ERR_BUFFER_TOO_SMALL,
/// FXS_ERR_BAD_SEQUENCE when the state of that tick is no longer at hand.
FXS_API fxs_result fxs_session_write_offer(const fxs_session *session, const fxs_world *world,
                                   uint8_t joiner, uint8_t *buf, size_t cap, size_t *len);

/// Starts a session mid-match (as fxs_session_init, for peer def->local) from the offers of
/// the other peers. Exactly one offer carries the state, taken at its tick S into `world`
/// (initialized by the caller with the match's definition and capacity, paths added) only if
/// every offer that holds the state hash of tick S - 1 agrees with it; each player's frames
/// from S on are taken as far as some offer holds them, and two offers that disagree on a
/// frame are refused. Nothing is trusted that one peer alone could forge beyond its own
/// inputs: from S on, every tick is compared with every peer as usual. Every other peer starts
/// present: mark those that are away (a spectator slot nobody holds) with
/// fxs_session_peer_left right after, or the session waits for their hashes. A replay is
/// begun by the caller on the world after this call. On failure *error names the offer and byte.
FXS_API fxs_result fxs_session_join(fxs_session *session, const fxs_session_def *def, void *memory,
                            size_t size, fxs_world *world, const uint8_t *const *offers,
                            const size_t *lengths, uint32_t count, fxs_session_join_error *error);

/// Marks a peer that disconnected: nothing is sent to it and no tick waits for its hashes
/// (a player's input is still waited for: the match pauses until it comes back or the caller
/// ends it). Spectators that have not arrived yet are marked so at the start.
FXS_API fxs_result fxs_session_peer_left(fxs_session *session, uint8_t peer);

/// Takes back a peer that joined (fxs_session_join) at tick `tick`, which it announces: its
/// hashes are compared from that tick on and ours are sent again from there.
/// FXS_ERR_BAD_SEQUENCE when `tick` is past our settled tick or more than a window before it.
FXS_API fxs_result fxs_session_readmit(fxs_session *session, uint8_t peer, uint32_t tick);

#ifdef __cplusplus
}
#endif

#endif
