/// @file result.h
/// Expected failures: every fallible fixsteer function returns an fxs_result. The messages
/// come from one table.
#ifndef FIXSTEER_RESULT_H
#define FIXSTEER_RESULT_H

#include "fixsteer/api.h"

#ifdef __cplusplus
extern "C" {
#endif

/// X-macro: identifier, message.
#define FXS_RESULT_LIST(X)                                                                   \
  X(FXS_OK, "ok")                                                                            \
  X(FXS_ERR_BUFFER_TOO_SMALL, "buffer too small")                                            \
  X(FXS_ERR_FULL, "no free slot left")                                                       \
  X(FXS_ERR_STALE_HANDLE, "handle does not name a live agent")                               \
  X(FXS_ERR_BAD_COMMAND, "unknown command type")                                             \
  X(FXS_ERR_BAD_VALUE, "value out of range")                                                 \
  X(FXS_ERR_BAD_MAGIC, "not a fixsteer file (bad magic)")                                    \
  X(FXS_ERR_BAD_VERSION, "unsupported format version")                                       \
  X(FXS_ERR_BAD_FINGERPRINT, "recorded with different math (fingerprint mismatch)")          \
  X(FXS_ERR_TRUNCATED, "data ends early (truncated)")                                        \
  X(FXS_ERR_BAD_CHECKSUM, "checksum mismatch (corrupt data)")                                \
  X(FXS_ERR_BAD_LENGTH, "impossible length field")                                           \
  X(FXS_ERR_CAPACITY, "world capacity smaller than the data needs")                          \
  X(FXS_ERR_HASH_MISMATCH, "state hash differs from the recorded one")                       \
  X(FXS_ERR_BAD_CHUNK, "unknown chunk type")                                                 \
  X(FXS_ERR_BAD_SEQUENCE, "tick out of sequence")                                            \
  X(FXS_ERR_LIMIT, "exceeds a limit")                                                        \
  X(FXS_ERR_NO_TICKS, "the replay holds no ticks")                                           \
  X(FXS_ERR_KEYFRAME_MISMATCH, "keyframe differs from the re-simulated state")               \
  X(FXS_ERR_KEYFRAME_CADENCE, "keyframe missing or off the cadence its header promises")     \
  X(FXS_ERR_END_MISMATCH, "final hash in END differs from the re-simulated one")             \
  X(FXS_ERR_BAD_PACKET, "malformed session packet")                                          \
  X(FXS_ERR_WRONG_SESSION, "packet of another session")                                      \
  X(FXS_ERR_WAITING, "waiting for other players' input")                                     \
  X(FXS_ERR_MIXED_SET, "a kinematic behavior cannot share a set with other behaviors")       \
  X(FXS_ERR_NOT_OWNER, "the command's source does not own the agent")                        \
  X(FXS_ERR_STALLED, "the match confirmed fewer ticks than its progress floor")              \
  X(FXS_ERR_ABSENT, "the peer has left the session and was not readmitted")                  \
  X(FXS_ERR_OUTSIDE_GRID, "the cells lie outside the navigation grid")                       \
  X(FXS_ERR_SIMULATION_VERSION, "recorded by another simulation version (behavior differs)") \
  X(FXS_ERR_UNCONFIRMED, "not confirmed by the other peers (one peer alone claims it)")

/// Result codes.
typedef enum fxs_result {
#define FXS_RESULT_ENUM_(id, msg) id,
  FXS_RESULT_LIST(FXS_RESULT_ENUM_)
#undef FXS_RESULT_ENUM_
      FXS_RESULT_COUNT
} fxs_result;

/// The message of a result ("unknown result" outside the table).
FXS_API const char *fxs_result_message(fxs_result result);

#ifdef __cplusplus
}
#endif

#endif
