// What the two replay targets do with their bytes: read them chunk by chunk as `fixsteer
// dump` does (no fingerprint check), then verify them as `fixsteer verify` does, checking what the
// reader promises (results, offsets inside the data, pointers inside the data, lossless commands).
#ifndef FIXSTEER_FUZZ_REPLAY_CHECK_H
#define FIXSTEER_FUZZ_REPLAY_CHECK_H

#include "fuzz_common.h"

// fxs_math_fingerprint() is pure (same value on every call) and costs about 1.2 ms under the
// sanitizers, which the verifier paid on every execution. The replay targets are linked with
// -Wl,--wrap=fxs_math_fingerprint (tools/fuzz.sh), so every call, the library's included,
// lands here and gets the value the real function computed on the first call: the reader and
// the verifier still compare each replay's fingerprint with this build's.
uint64_t __real_fxs_math_fingerprint(void);
uint64_t __wrap_fxs_math_fingerprint(void);
uint64_t __wrap_fxs_math_fingerprint(void) {
  static uint64_t value;
  static int known;
  if (!known) value = __real_fxs_math_fingerprint(), known = 1;
  return value;
}

// Replays the library refused for exceeding fuzz_limits().
static unsigned long replay_refused;

static void replay_report_refused(void) {
  if (replay_refused) {
    fprintf(stderr, "replay: %lu inputs refused by the reader limits\n", replay_refused);
  }
}

static void replay_check_inside(const uint8_t *data, size_t size, const uint8_t *p, size_t n,
                                const char *what) {
  FUZZ_CHECK(p >= data && (size_t)(p - data) <= size && n <= size - (size_t)(p - data),
             "%s of %zu bytes at %td lies outside the %zu-byte replay", what, n, p - data, size);
}

static void replay_check_chunk(const uint8_t *data, size_t size, const fxs_replay_chunk *c) {
  FUZZ_CHECK(c->offset < size, "chunk offset %zu beyond %zu", c->offset, size);
  if (c->tag == FXS_CHUNK_TICK) {
    FUZZ_CHECK(c->command_count <= FXS_REPLAY_MAX_COMMANDS, "%u commands", c->command_count);
    replay_check_inside(data, size, c->commands, (size_t)c->command_count * FXS_COMMAND_BYTES,
                        "TICK commands");
    for (uint16_t i = 0; i < c->command_count; ++i) {
      const uint8_t *in = c->commands + (size_t)i * FXS_COMMAND_BYTES;
      fxs_command cmd;
      uint8_t out[FXS_COMMAND_BYTES];
      fxs_command_decode(in, &cmd);
      fxs_command_encode(&cmd, out);
      FUZZ_CHECK(memcmp(in, out, FXS_COMMAND_BYTES) == 0, "command %u does not re-encode", i);
    }
  } else if (c->tag == FXS_CHUNK_KEYFRAME) {
    replay_check_inside(data, size, c->snapshot, c->snapshot_size, "KEYF snapshot");
    fxs_world_capacity cap;
    fxs_snapshot_capacity(c->snapshot, c->snapshot_size, &cap);
  } else {
    FUZZ_CHECK(c->tag == FXS_CHUNK_END, "reader returned an unknown tag 0x%08x", c->tag);
  }
}

// Reads every chunk; stops at the first error or after END.
static void replay_read(const uint8_t *data, size_t size, bool check_fingerprint) {
  fxs_replay_reader r;
  size_t at = (size_t)-1;
  fxs_limits limits = fuzz_limits();
  fxs_result e = fxs_replay_open(&r, data, size, check_fingerprint, &limits, &at);
  if (e != FXS_OK) {
    FUZZ_CHECK(at <= size, "open failed (%s) at offset %zu of %zu", fxs_result_message(e), at,
               size);
    return;
  }
  replay_check_inside(data, size, r.initial.snapshot, r.initial.snapshot_size, "SNAP snapshot");
  // Every chunk takes at least 16 bytes, so a correct reader ends within size / 16 calls.
  for (size_t n = 0; n <= size / 16 + 1; ++n) {
    fxs_replay_chunk c;
    at = (size_t)-1;
    e = fxs_replay_next(&r, &c, &at);
    if (e != FXS_OK) {
      FUZZ_CHECK(at <= size, "next failed (%s) at offset %zu of %zu", fxs_result_message(e), at,
                 size);
      return;
    }
    FUZZ_CHECK(r.position <= size, "reader position %zu beyond %zu", r.position, size);
    replay_check_chunk(data, size, &c);
    if (c.tag == FXS_CHUNK_END) {
      FUZZ_CHECK(r.ended && r.position == size, "END read but the reader is not at the end");
      return;
    }
  }
  FUZZ_CHECK(0, "the reader returned more chunks than %zu bytes can hold", size);
}

static void replay_verify(const uint8_t *data, size_t size) {
  fxs_limits limits = fuzz_limits();
  size_t need = fxs_replay_verify_memory_size(data, size, &limits);
  fxs_verify_report rep;
  if (need == 0) {
    fxs_result r = fxs_replay_verify(data, size, &limits, 0, 0, &rep);
    FUZZ_CHECK(r != FXS_OK, "verify succeeded on a replay whose memory size is 0");
    if (r == FXS_ERR_LIMIT) replay_refused++;
    return;
  }
  FUZZ_CHECK(need <= FUZZ_MEMORY_LIMIT, "the limits let verify ask for %zu bytes", need);
  void *memory = malloc(need);
  FUZZ_CHECK(memory != 0, "out of memory for verify (%zu bytes)", need);
  fxs_result r = fxs_replay_verify(data, size, &limits, memory, need, &rep);
  free(memory);
  FUZZ_CHECK(r == rep.result, "verify returned %s, its report says %s", fxs_result_message(r),
             fxs_result_message(rep.result));
  if (r == FXS_ERR_LIMIT) {
    FUZZ_CHECK(rep.limit_error.field != 0, "a limit error names no limit");
    replay_refused++;
  }
  if (r != FXS_OK) {
    FUZZ_CHECK(rep.error_offset <= size, "verify failed (%s) at offset %zu of %zu",
               fxs_result_message(r), rep.error_offset, size);
  }
}

static void replay_exercise(const uint8_t *data, size_t size) {
  static int registered;
  if (!registered) registered = 1, atexit(replay_report_refused);
  replay_read(data, size, false); // as fixsteer dump; verify checks the fingerprint
  replay_verify(data, size);
}

#endif
