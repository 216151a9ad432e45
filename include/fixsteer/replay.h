/// @file replay.h
/// Replays (docs/replay-format.md): a writer that streams chunks through a callback, a
/// reader over a caller buffer that rejects bad data with a specific result and the byte
/// offset, and a verifier that re-simulates a replay and reports the first divergent tick
/// and, from the nearest keyframe, which agent and field differ. No file I/O here.
#ifndef FIXSTEER_REPLAY_H
#define FIXSTEER_REPLAY_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/command.h"
#include "fixsteer/input_limits.h"
#include "fixsteer/result.h"
#include "fixsteer/snapshot.h"
#include "fixsteer/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Replay format version written: 4, format 3 whose header also carries the simulation
/// version (FXS_SIMULATION_VERSION, version.h) after the keyframe interval.
#define FXS_REPLAY_VERSION 4u
/// Oldest replay format version read: 2, the same chunks with the state hash v2 (format 3:
/// the state hash v3). A replay is verified with the state hash of its own version
/// (fxs_replay_state_hash_version). Formats 2 and 3 were recorded before simulation versions
/// existed: their header has none (fxs_replay_reader.simulation_version 0).
#define FXS_REPLAY_OLDEST_VERSION 2u
/// The first replay format whose header carries the simulation version.
#define FXS_REPLAY_SIMULATION_VERSION_SINCE 4u
/// Most commands one tick may carry in a replay (the format's u16 count). A verifier needs
/// room for the largest tick of the replay it checks, not for this many.
#define FXS_REPLAY_MAX_COMMANDS 65535u
/// Largest chunk payload accepted (2^28 bytes).
#define FXS_REPLAY_MAX_CHUNK 0x10000000u

/// Chunk tags (four ASCII bytes read as a little-endian u32).
#define FXS_CHUNK_HEADER 0x48535846u   ///< "FXSH"
#define FXS_CHUNK_SNAPSHOT 0x50414E53u ///< "SNAP"
#define FXS_CHUNK_TICK 0x4B434954u     ///< "TICK"
#define FXS_CHUNK_KEYFRAME 0x4659454Bu ///< "KEYF"
#define FXS_CHUNK_END 0x20444E45u      ///< "END "

/// Receives the replay's bytes in order; returns false to abort writing.
typedef bool (*fxs_write_fn)(void *user, const uint8_t *bytes, size_t size);

/// The state hash version (hash.h) whose values a replay of format `replay_version` holds:
/// FXS_STATE_HASH_V2 for format 2, FXS_STATE_HASH_V3 for formats 3 and 4, 0 for a format
/// this library does not read.
FXS_API uint32_t fxs_replay_state_hash_version(uint32_t replay_version);

/// Streaming replay writer.
typedef struct fxs_replay_writer {
  fxs_write_fn write;         ///< Output callback.
  void *user;                 ///< Passed to write.
  uint32_t keyframe_interval; ///< Keyframe every this many ticks (0: none).
  uint32_t ticks;             ///< TICK chunks written.
  uint64_t last_hash;         ///< Hash after the last tick written.
  uint8_t *scratch;           ///< Buffer for snapshots (fxs_world_snapshot_size bytes).
  size_t scratch_size;        ///< Its size.
  fxs_result error;           ///< First failure; later calls do nothing.
} fxs_replay_writer;

/// Writes the header (with the simulation version `world` steps by) and the initial snapshot
/// of `world`.
FXS_API fxs_result fxs_replay_writer_begin(fxs_replay_writer *w, fxs_write_fn write, void *user,
                                           const fxs_world *world, uint32_t keyframe_interval,
                                           uint8_t *scratch, size_t scratch_size);

/// Records one stepped tick: the commands given to fxs_world_step (sorted by it) and the
/// state of `world` after the step; adds a keyframe when one is due.
FXS_API fxs_result fxs_replay_writer_tick(fxs_replay_writer *w, const fxs_world *world,
                                          const fxs_command *commands, uint32_t count);

/// Records one stepped tick from a snapshot of the state after it (fxs_world_save bytes of
/// the world at tick + 1) instead of the world itself: the same chunks fxs_replay_writer_tick
/// writes for that state. For sessions whose world has already stepped further.
FXS_API fxs_result fxs_replay_writer_tick_saved(fxs_replay_writer *w, uint32_t tick,
                                                const uint8_t *snapshot, size_t size,
                                                const fxs_command *commands, uint32_t count);

/// Writes the END chunk.
FXS_API fxs_result fxs_replay_writer_end(fxs_replay_writer *w, const fxs_world *world);

/// One chunk as the reader sees it. Pointers point into the caller's buffer.
typedef struct fxs_replay_chunk {
  uint32_t tag;            ///< FXS_CHUNK_*.
  size_t offset;           ///< Byte offset of the chunk in the replay.
  uint32_t tick;           ///< TICK / KEYF: the tick; END: ticks recorded.
  uint16_t command_count;  ///< TICK: commands.
  const uint8_t *commands; ///< TICK: command_count encoded commands.
  uint64_t hash;           ///< TICK: hash after the tick; END: final hash.
  const uint8_t *snapshot; ///< SNAP / KEYF: snapshot bytes.
  size_t snapshot_size;    ///< Their size.
} fxs_replay_chunk;

/// Sequential reader over a whole replay in memory.
typedef struct fxs_replay_reader {
  const uint8_t *data;        ///< The replay.
  size_t size;                ///< Its size.
  size_t position;            ///< Next chunk's offset.
  uint16_t version;           ///< From the header.
  uint64_t fingerprint;       ///< From the header.
  uint32_t keyframe_interval; ///< From the header.
  /// From the header (format 4 on): the simulation version of the recording build; 0 for
  /// formats 2 and 3, recorded before simulation versions existed.
  uint32_t simulation_version;
  fxs_replay_chunk initial;    ///< The SNAP chunk.
  fxs_world_capacity capacity; ///< The capacities the initial snapshot declares.
  fxs_limits limits;           ///< What this reader accepts.
  fxs_limit_error limit_error; ///< After FXS_ERR_LIMIT: which limit and the value asked for.
  bool ended;                  ///< END was read.
} fxs_replay_reader;

/// Reads and checks the header and the initial snapshot chunk, and the capacities it
/// declares against `limits` (NULL: fxs_default_limits()) before anything is allocated:
/// beyond them FXS_ERR_LIMIT, with r->limit_error naming the limit. With
/// check_fingerprint, a replay recorded with different math is refused
/// (FXS_ERR_BAD_FINGERPRINT), and one of format 4 on recorded by another simulation version
/// (r->simulation_version != FXS_SIMULATION_VERSION) with FXS_ERR_SIMULATION_VERSION.
FXS_API fxs_result fxs_replay_open(fxs_replay_reader *r, const uint8_t *data, size_t size,
                                   bool check_fingerprint, const fxs_limits *limits,
                                   size_t *error_offset);

/// Reads the next chunk (TICK, KEYF or END). After END, further calls fail with
/// FXS_ERR_BAD_LENGTH if data remains.
FXS_API fxs_result fxs_replay_next(fxs_replay_reader *r, fxs_replay_chunk *chunk,
                                   size_t *error_offset);

/// What fxs_replay_verify found.
typedef struct fxs_verify_report {
  fxs_result result;           ///< FXS_OK, a divergence (fxs_verify_diverged) or a format error.
  size_t error_offset;         ///< Byte offset of a format error, or of the diverging chunk.
  fxs_limit_error limit_error; ///< After FXS_ERR_LIMIT: which limit and the value asked for.
  uint32_t ticks;              ///< Ticks re-simulated.
  uint32_t first_bad_tick;     ///< The tick of the first divergence.
  uint64_t expected_hash;      ///< Recorded hash there (tick hash, END hash or keyframe's).
  uint64_t actual_hash;        ///< Re-simulated hash there.
  uint64_t final_hash;         ///< Hash after the last tick re-simulated.
  bool has_difference;         ///< A keyframe after the divergence named a field.
  uint32_t difference_tick;    ///< That keyframe's tick.
  fxs_world_difference difference; ///< recorded (b) against re-simulated (a).
} fxs_verify_report;

/// True for the results that mean "the recording and the re-simulation disagree":
/// FXS_ERR_HASH_MISMATCH (a tick), FXS_ERR_KEYFRAME_MISMATCH, FXS_ERR_KEYFRAME_CADENCE,
/// FXS_ERR_END_MISMATCH. Any other failure is a format or limit error.
FXS_API bool fxs_verify_diverged(fxs_result result);

/// Memory fxs_replay_verify needs for this replay (0 when the replay cannot be opened
/// within `limits`; NULL: the defaults).
FXS_API size_t fxs_replay_verify_memory_size(const uint8_t *data, size_t size,
                                             const fxs_limits *limits);

/// Re-simulates a replay from its initial snapshot and checks, against the re-simulation,
/// every tick's hash, every keyframe's bytes, the keyframe cadence the header promises and
/// the END chunk's tick count and final hash. The first disagreement is reported with its
/// tick; a replay without ticks is FXS_ERR_NO_TICKS. A replay recorded by an older simulation
/// version this build still runs (FXS_SIMULATION_VERSION_OLDEST on, version.h) is
/// re-simulated by that version's rules (fxs_world_set_simulation_version); older ones are
/// refused with FXS_ERR_SIMULATION_VERSION. Work is bounded by `limits` (NULL: the
/// defaults): at most max_ticks ticks and max_agent_ticks agent slots x ticks.
FXS_API fxs_result fxs_replay_verify(const uint8_t *data, size_t size, const fxs_limits *limits,
                                     void *memory, size_t memory_size, fxs_verify_report *report);

/// Told by fxs_replay_verify_progress after each re-simulated tick: `ticks` re-simulated so
/// far, and `offset`, the byte of the replay (of its `size`) read up to. It may not touch the
/// replay's bytes or the verifier's memory.
typedef void (*fxs_verify_progress_fn)(void *user, uint32_t ticks, size_t offset);

/// fxs_replay_verify, telling `progress` (NULL: nobody) after each tick how far it got, so a
/// long verification can show it. The same results and report as fxs_replay_verify.
FXS_API fxs_result fxs_replay_verify_progress(const uint8_t *data, size_t size,
                                              const fxs_limits *limits, void *memory,
                                              size_t memory_size, fxs_verify_report *report,
                                              fxs_verify_progress_fn progress, void *user);

#ifdef __cplusplus
}
#endif

#endif
