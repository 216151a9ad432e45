/// @file session.h
/// Lockstep and rollback sessions: 1 to 8 players and up to 8 spectators play one world by
/// exchanging their input commands and state hashes (docs/lockstep.md). The session does
/// no I/O, starts no threads and reads no clock: packets go out and come in through caller
/// buffers, and the caller passes the current time in milliseconds. Its memory is one
/// caller-owned block (fxs_session_memory_size).
///
/// Ticks: tick t is the t-th call of fxs_world_step (world->tick == t before it). The local
/// player submits the commands of tick current + delay while the world is at tick current,
/// so a delay of d ticks hides d ticks of latency; ticks 0..delay-1 carry no input.
///
/// Order: the session overwrites each submitted command's source with the player index and
/// its sequence with its position in the submitted list, so a tick's merged commands are
/// in canonical order (command.h) by player, then by submission order, on every peer.
///
/// Modes:
/// - LOCKSTEP: a tick is stepped only when every player's input for it has arrived.
/// - ROLLBACK (GGPO-style): a missing remote input is predicted and the tick is stepped at
///   once, at most max_prediction ticks beyond the last tick whose inputs are all known.
///   Prediction: a missing input is predicted to be "no commands". Commands are edits whose
///   effect persists in the world (a target, a behavior set, an obstacle), so a player who
///   issues nothing keeps doing what it did: "repeat the last input" for an edit-style input
///   is exactly the empty list. Repeating the last command list itself would spawn agents
///   twice and stack behaviors. (apply_force lasts one tick: a player who pushes every tick
///   is mispredicted each tick and corrected by rollback; prefer a target or behavior.)
///   When an input arrives that differs from the prediction (any non-empty list for an
///   already stepped tick), the world is restored from the snapshot of that tick and the
///   ticks up to the present are stepped again with the inputs now known.
/// - SYNCTEST: a single local player; after every step the last synctest_ticks ticks are
///   restored and stepped again and their hashes compared with the first run: any
///   difference (state the snapshot misses, nondeterminism) is reported as a desync.
///
/// Why the session drives the caller's world itself (fxs_world_step, fxs_world_save,
/// fxs_world_restore, fxs_world_hash) instead of handing requests to the caller as GGRS
/// does: the world is this library's own type and holds the whole simulated state, so
/// there is nothing a caller would do differently for "save", "load" and "advance". Doing
/// it here keeps the order right by construction (save before a predicted step, restore
/// the first mispredicted tick, hash and record only ticks whose inputs are all final),
/// which every caller of a request list would otherwise have to get right on its own.
/// Game state outside the world only decides inputs, and inputs are never decided twice,
/// so it never needs rolling back. before_step is the one hook into the stepping.
///
/// Confirmed ticks: a tick is settled once it has been stepped with every player's
/// confirmed input. Only settled ticks are hashed for the exchange and recorded into the
/// replay, so a rollback session writes the same replay as a lockstep one.
#ifndef FIXSTEER_SESSION_H
#define FIXSTEER_SESSION_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/command.h"
#include "fixsteer/replay.h"
#include "fixsteer/result.h"
#include "fixsteer/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most players of a session.
#define FXS_SESSION_MAX_PLAYERS 8
/// Most peers (players + spectators) of a session.
#define FXS_SESSION_MAX_PEERS 16
/// "FXSP" read as a little-endian u32: the first bytes of every packet.
#define FXS_SESSION_PACKET_MAGIC 0x50535846u
/// Packet layout version written and accepted: 3, layout 2 (state hashes of the state hash
/// v3, hash.h) whose header ends with the sender's simulation version (u32) and math
/// fingerprint (u64), so that every packet is the handshake: a peer of another simulation
/// version is refused with FXS_ERR_SIMULATION_VERSION, one with other math with
/// FXS_ERR_BAD_FINGERPRINT (fxs_session_sender_build names them). Version 1: layout 2 with
/// the state hash v2. Packets of another layout version are refused (FXS_ERR_BAD_VERSION)
/// and fxs_session_packet_version names the sender's.
#define FXS_SESSION_PACKET_VERSION 3u
/// Bytes of the packet header (docs/lockstep.md has the byte table).
#define FXS_SESSION_HEADER_BYTES 56u
/// Bytes of the checksum that ends every packet.
#define FXS_SESSION_CHECKSUM_BYTES 4u
/// Smallest packet: header and checksum, no inputs, no hashes.
#define FXS_SESSION_MIN_PACKET (FXS_SESSION_HEADER_BYTES + FXS_SESSION_CHECKSUM_BYTES)
/// Most bytes one command takes in a packet: type, field mask, agent, ref and 8 arguments.
#define FXS_SESSION_COMMAND_MAX_BYTES (3u + 4u * (2u + FXS_COMMAND_ARGS))
/// Largest packet (its length field is a u16).
#define FXS_SESSION_MAX_PACKET 65535u
/// Most ticks a session keeps in its rings.
#define FXS_SESSION_MAX_WINDOW 4096u
/// A tick value meaning "none".
#define FXS_SESSION_NO_TICK 0xFFFFFFFFu

/// How the session steps ticks whose inputs are not all known.
typedef enum fxs_session_mode {
  FXS_SESSION_LOCKSTEP = 0, ///< Wait for every input.
  FXS_SESSION_ROLLBACK = 1, ///< Predict, roll back and step again when wrong.
  FXS_SESSION_SYNCTEST = 2, ///< One local player; re-simulate every tick to check determinism.
} fxs_session_mode;

/// Called before every fxs_world_step the session makes, with the tick about to be stepped
/// and whether it is stepped again after a rollback or synctest restore. For tests and fault
/// injection (flip a bit to provoke a desync): a change made here is outside the lockstep
/// contract. Must not call the session.
typedef void (*fxs_session_step_hook)(void *user, fxs_world *world, uint32_t tick,
                                      bool resimulating);

/// Session configuration. Every peer of a session uses the same values, except local,
/// the replay and the hook.
typedef struct fxs_session_def {
  /// An fxs_session_mode. Default LOCKSTEP.
  uint8_t mode;
  /// Players, peers 0..players-1: 1..8 (a match needs 2; SYNCTEST takes 1). Default 2.
  uint8_t players;
  /// Spectators, peers players..: 0..8, players + spectators <= 16 (0 in SYNCTEST). Default 0.
  uint8_t spectators;
  /// This peer's index, < players + spectators. Default 0.
  uint8_t local;
  /// Chosen by the host; packets of another id are refused. Default 1.
  uint32_t session_id;
  /// Input delay, ticks: the local input is for tick current + delay. Default 2.
  uint16_t delay;
  /// ROLLBACK: most ticks stepped past the last tick whose inputs are all known, >= 1, and
  /// delay + max_prediction + 2 <= window. Default 8.
  uint16_t max_prediction;
  /// SYNCTEST: ticks restored and stepped again after each step, >= 1, and
  /// delay + synctest_ticks + 2 <= window. Default 2.
  uint16_t synctest_ticks;
  /// Ticks kept in every ring (inputs, hashes), <= 4096. Default 32.
  uint16_t window;
  /// Commands per player per tick, 1..65535 / players (a replay tick holds 65535). Default 16.
  uint16_t max_commands;
  /// Largest packet sent or accepted, bytes; it must hold the header, one frame of
  /// max_commands commands and the checksum. Default 1200.
  uint16_t max_packet_bytes;
  /// Input frames per packet sent or accepted, 1..255. Default 32.
  uint8_t max_packet_inputs;
  /// State hashes per packet sent or accepted, 1..255. Default 32.
  uint8_t max_packet_hashes;
  /// Unacknowledged data goes out again after max(this, 1.25 x round trip), ms. Default 20.
  uint32_t resend_ms;
  /// An acknowledgement waits this long for data to ride with, ms. Default 20.
  uint32_t ack_delay_ms;
  /// A packet goes out at least this often, ms, >= 1. Default 200.
  uint32_t keepalive_ms;
  /// Ticks of the match: no tick >= this is stepped (0: no end). Default 0.
  uint32_t tick_limit;
  /// The progress bound: the match must settle at least progress_min_ticks ticks in every
  /// window of this many ms (the first starts at the first call with a time), or
  /// fxs_session_advance stops it with FXS_ERR_STALLED and names the peers holding it back
  /// (fxs_session.stalled_peers). A peer that sends one packet just before every time-out
  /// cannot hold a match for ever. 0: no bound. Default 10000.
  uint32_t progress_window_ms;
  /// Fewest ticks settled per progress window (see progress_window_ms). Default 20.
  uint32_t progress_min_ticks;
  /// ROLLBACK / SYNCTEST: bytes of one snapshot slot, at least the largest
  /// fxs_world_snapshot_size the world reaches (> 0). Default 0.
  size_t snapshot_bytes;
  /// Begun by the caller on the world at tick 0; receives every settled tick. NULL: none.
  fxs_replay_writer *replay;
  /// See fxs_session_step_hook. NULL: none.
  fxs_session_step_hook before_step;
  /// Passed to before_step.
  void *hook_user;
} fxs_session_def;

/// The defaults listed on each field.
FXS_API fxs_session_def fxs_default_session_def(void);

/// FXS_OK when a definition is usable; else FXS_ERR_BAD_VALUE (a field outside the range
/// its comment gives, or a frame that cannot fit in max_packet_bytes).
FXS_API fxs_result fxs_session_def_check(const fxs_session_def *def);

/// What the session knows of one peer (itself included).
typedef struct fxs_session_peer {
  uint32_t received;         ///< Players: its inputs of ticks < this are here (local: submitted).
  uint32_t acked_inputs;     ///< It holds our inputs of ticks < this.
  uint32_t hashes_received;  ///< Its state hashes of ticks < this arrived (or were skipped).
  uint32_t hashes_compared;  ///< Its hashes of ticks < this were compared with ours.
  uint32_t acked_hashes;     ///< It holds our hashes of ticks < this.
  uint32_t tick;             ///< The tick it last said it was at.
  uint32_t last_heard_ms;    ///< now_ms of its last accepted packet.
  uint32_t last_sent_ms;     ///< now_ms of our last packet to it.
  uint32_t sent_inputs;      ///< Our inputs of ticks < this went out at least once.
  uint32_t sent_hashes;      ///< Our hashes of ticks < this went out at least once.
  bool heard;                ///< At least one packet of it was accepted.
  bool sent;                 ///< At least one packet went to it.
  bool dirty;                ///< It sent something new: acknowledge it.
  bool has_echo;             ///< echo_ms holds a send time of its.
  bool absent;               ///< It left (fxs_session_peer_left) and was not readmitted.
  uint32_t echo_ms;          ///< Its clock when it sent its newest packet (echoed back).
  uint32_t echo_at_ms;       ///< Our clock when that packet arrived.
  uint32_t rtt_ms;           ///< Smoothed round trip, ms (0: not measured yet).
  uint32_t packets_sent;     ///< Packets written for it.
  uint32_t packets_received; ///< Its packets accepted.
  uint32_t packets_rejected; ///< Its packets refused.
  uint64_t bytes_sent;       ///< Bytes written for it.
  uint64_t bytes_received;   ///< Bytes of its accepted packets.
} fxs_session_peer;

/// The first tick whose state hashes differ between this peer and others. It names the tick
/// and the hashes; to name the agent and field, compare two peers' replays (keyframes) with
/// `fixsteer diff`, or fxs_world_first_difference on their snapshots.
typedef struct fxs_session_desync {
  bool detected; ///< A difference was found.
  uint32_t tick; ///< The first tick (the state after stepping it) that differs.
  /// Bit q set: peer q's hash of that tick differs from ours (SYNCTEST: our own bit).
  uint32_t peers;
  /// Our hash of that tick (SYNCTEST: the first run's).
  uint64_t local_hash;
  /// Their hashes, for the peers in `peers` (SYNCTEST: the re-run's, at our own index).
  uint64_t remote_hash[FXS_SESSION_MAX_PEERS];
} fxs_session_desync;

/// Counters for reports and tuning.
typedef struct fxs_session_stats {
  uint32_t stalls;       ///< Waits that ended with a step (each counted once).
  uint32_t stall_ms;     ///< Their total length, ms.
  uint32_t rollbacks;    ///< Restores after a misprediction (ROLLBACK) or for a check (SYNCTEST).
  uint32_t resimulated;  ///< Ticks stepped again after them.
  uint32_t max_rollback; ///< Most ticks stepped again at once.
  uint32_t predicted;    ///< Ticks first stepped with at least one predicted input.
  uint32_t saves;        ///< Snapshots saved.
  /// Commands of each player the world refused (fxs_world_step), counted once per tick
  /// once its inputs are final: FXS_ERR_NOT_OWNER for another player's agent, and the rest.
  uint32_t refused[FXS_SESSION_MAX_PLAYERS];
} fxs_session_stats;

/// The last command the world refused, for reports ("player 1's despawn of agent 0x400001 at
/// tick 812: the command's source does not own the agent").
typedef struct fxs_session_refusal {
  bool any;          ///< A command was refused.
  uint32_t tick;     ///< The tick it was for.
  uint8_t player;    ///< Who sent it.
  uint8_t type;      ///< Its fxs_command_type.
  uint32_t agent;    ///< Its agent handle value.
  fxs_result result; ///< Why.
} fxs_session_refusal;

/// A session. Fields are readable; change them only through the functions below.
typedef struct fxs_session {
  fxs_session_def def;    ///< Configuration.
  uint8_t peer_count;     ///< players + spectators.
  uint32_t current;       ///< The world's tick: the next tick to step.
  uint32_t settled;       ///< Ticks < this are settled (final, hashed, recorded).
  uint32_t rollback_to;   ///< First tick to step again, or FXS_SESSION_NO_TICK.
  fxs_result error;       ///< First failure that stopped the session (FXS_OK: none).
  bool clock_started;     ///< A call with now_ms was made.
  uint32_t start_ms;      ///< now_ms of the first such call.
  bool waiting;           ///< The last fxs_session_advance waited.
  uint32_t wait_tick;     ///< The tick it waited for.
  uint32_t wait_since_ms; ///< When that wait began.
  fxs_session_peer peers[FXS_SESSION_MAX_PEERS]; ///< One per peer, the local one included.
  fxs_session_desync desync;                     ///< The first desync found.
  fxs_session_stats stats;                       ///< Counters.
  fxs_session_refusal last_refusal;              ///< The last refused command.
  uint32_t refusals_through;                     ///< Refusals of ticks < this are counted.
  uint32_t progress_since_ms;                    ///< Start of the current progress window.
  uint32_t progress_since;                       ///< Ticks settled then.
  uint32_t stalled_peers;    ///< FXS_ERR_STALLED: bit q set: peer q held the match back.
  uint32_t joined_at;        ///< The tick fxs_session_join started at (0: from the start).
  uint32_t readmitted;       ///< Bit q set: peer q was readmitted since the last call with a time.
  uint64_t math_fingerprint; ///< fxs_math_fingerprint(), computed once at init for the packets.
  // Rings in the caller's memory block.
  fxs_command *commands;    ///< players x window x max_commands: input frames.
  uint16_t *counts;         ///< players x window: commands of each frame.
  uint64_t *hashes;         ///< peers x window: each peer's hash of each tick.
  uint8_t *snapshots;       ///< slots x snapshot_bytes: state at the start of a tick.
  uint32_t *snapshot_ticks; ///< slots: the tick each slot holds, or FXS_SESSION_NO_TICK.
  size_t *snapshot_sizes;   ///< slots: bytes used in each slot.
  uint64_t *first_hashes;   ///< SYNCTEST: slots: hash after each tick's first step.
  fxs_command *merged;      ///< players x max_commands: one tick's merged commands.
  fxs_result *results;      ///< players x max_commands: the world's result for each of them.
  uint32_t snapshot_slots;  ///< Slots of the snapshot ring (0 in LOCKSTEP).
} fxs_session;

/// Bytes of memory a session with this definition needs (8-byte aligned block), or 0 when
/// the definition is not usable.
FXS_API size_t fxs_session_memory_size(const fxs_session_def *def);

/// Lays the session out in `memory` and starts it at tick 0 (the caller's world must be at
/// tick 0 and the same on every peer). FXS_ERR_BAD_VALUE for a bad definition,
/// FXS_ERR_BUFFER_TOO_SMALL when `size` is below fxs_session_memory_size.
FXS_API fxs_result fxs_session_init(fxs_session *session, const fxs_session_def *def, void *memory,
                                    size_t size);

/// True when the local peer is a player that may submit now: its next input tick is at most
/// current + delay and below tick_limit.
FXS_API bool fxs_session_wants_input(const fxs_session *session);

/// The tick the next fxs_session_submit fills.
FXS_API uint32_t fxs_session_input_tick(const fxs_session *session);

/// Submits the local player's commands (copied; count <= max_commands, 0 allowed) for tick
/// fxs_session_input_tick(). FXS_ERR_BAD_SEQUENCE when it does not want input now,
/// FXS_ERR_FULL when the ring still holds inputs peers have not acknowledged (try again
/// after receiving), FXS_ERR_LIMIT for too many commands, FXS_ERR_BAD_VALUE for a spectator.
FXS_API fxs_result fxs_session_submit(fxs_session *session, const fxs_command *commands,
                                      uint32_t count);

/// Steps the caller's world by one new tick when the inputs allow it, after any pending
/// rollback, and settles (hashes, records) the ticks whose inputs are all final. FXS_OK: a
/// tick was stepped. FXS_ERR_WAITING: inputs are missing (fxs_session_wait_info says
/// whose); FXS_ERR_LIMIT: tick_limit reached. Other results stop the session (a snapshot
/// larger than snapshot_bytes, a failing replay sink, a world not at the session's tick,
/// FXS_ERR_STALLED: the progress bound, with stalled_peers naming who held the match back).
FXS_API fxs_result fxs_session_advance(fxs_session *session, fxs_world *world, uint32_t now_ms);

/// Writes the next packet for `peer` into buf (cap >= max_packet_bytes) and its size into
/// *len; *len = 0 when nothing is due (call it every frame for every other peer). A packet
/// carries our unacknowledged inputs and hashes, redundantly, and our acknowledgements.
FXS_API fxs_result fxs_session_poll_send(fxs_session *session, uint8_t peer, uint32_t now_ms,
                                         uint8_t *buf, size_t cap, size_t *len);

/// Consumes a packet the transport says came from `peer`. Every packet is untrusted: a bad
/// one changes nothing and is refused with FXS_ERR_TRUNCATED, FXS_ERR_BAD_MAGIC,
/// FXS_ERR_BAD_VERSION, FXS_ERR_SIMULATION_VERSION, FXS_ERR_BAD_FINGERPRINT,
/// FXS_ERR_WRONG_SESSION, FXS_ERR_BAD_PACKET, FXS_ERR_BAD_LENGTH, FXS_ERR_LIMIT,
/// FXS_ERR_BAD_CHECKSUM, FXS_ERR_BAD_COMMAND or FXS_ERR_BAD_SEQUENCE.
FXS_API fxs_result fxs_session_receive(fxs_session *session, uint8_t peer, const uint8_t *bytes,
                                       size_t len, uint32_t now_ms);

/// The layout version a packet claims (its byte 4), for naming both versions when
/// fxs_session_receive refused it with FXS_ERR_BAD_VERSION; 0 when the bytes do not start
/// like a packet (too short, or not FXS_SESSION_PACKET_MAGIC).
FXS_API uint32_t fxs_session_packet_version(const uint8_t *bytes, size_t len);

/// The state hash version (hash.h) of packets of layout `packet_version`: FXS_STATE_HASH_V2
/// for 1, FXS_STATE_HASH_V3 for 2 and 3, 0 for any other.
FXS_API uint32_t fxs_session_packet_hash_version(uint32_t packet_version);

/// The simulation version and math fingerprint a packet (layout 3) or a join offer (layout
/// 3, session_join.h) says its sender runs, for naming both builds when it was refused with
/// FXS_ERR_SIMULATION_VERSION or FXS_ERR_BAD_FINGERPRINT. False (outputs untouched) when the
/// bytes do not start like either, or are of a layout without them. Checks nothing else.
FXS_API bool fxs_session_sender_build(const uint8_t *bytes, size_t len,
                                      uint32_t *simulation_version, uint64_t *fingerprint);

/// Why fxs_session_advance waits.
typedef struct fxs_session_wait {
  bool waiting;     ///< The last advance waited.
  uint32_t tick;    ///< The tick whose inputs are missing.
  uint32_t missing; ///< Bit p set: player p's input for `tick` has not arrived.
  /// Bit q set: peer q has not yet compared or acknowledged our hash of tick - window, whose
  /// ring slot `tick` needs (hashes are never skipped, so they hold the match back too).
  uint32_t hashes_missing;
  uint32_t since_ms;                         ///< When the wait began.
  uint32_t waited_ms;                        ///< now_ms - since_ms (wrapping arithmetic).
  uint32_t silent_ms[FXS_SESSION_MAX_PEERS]; ///< ms since each peer's last packet (since init if
                                             ///< never).
} fxs_session_wait;

/// Starts a new progress window now (fxs_session_def.progress_window_ms): for a caller that
/// pauses the match on purpose, e.g. while a player that left has time to come back, and
/// calls this as long as the pause lasts.
FXS_API void fxs_session_restart_progress(fxs_session *session, uint32_t now_ms);

/// Fills *out from the last fxs_session_advance.
FXS_API void fxs_session_wait_info(const fxs_session *session, uint32_t now_ms,
                                   fxs_session_wait *out);

/// The first desync found, or NULL when none.
FXS_API const fxs_session_desync *fxs_session_desync_report(const fxs_session *session);

/// True when tick_limit > 0 and every tick below it is settled.
FXS_API bool fxs_session_done(const fxs_session *session);

/// True when done and every other peer's hashes up to tick_limit were compared: nothing
/// more is needed from anyone.
FXS_API bool fxs_session_complete(const fxs_session *session);

/// True when every other peer acknowledged all our inputs and settled hashes.
FXS_API bool fxs_session_delivered(const fxs_session *session);

#ifdef __cplusplus
}
#endif

#endif
