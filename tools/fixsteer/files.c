#define _POSIX_C_SOURCE 200809L

#include "files.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fixsteer/replay.h"
#include "fixsteer/snapshot.h"
#include "fixsteer/version.h"
#include "exit_codes.h"

// The header chunk: tag, length, 24-byte payload (format 4; 20 before), checksum
// (docs/replay-format.md).
#define HEADER_CHUNK_BYTES 40u

// Finds the chunk holding byte `offset`: its start in *start; false when the chunk headers
// before it cannot be walked.
static bool find_chunk(const file *f, size_t offset, size_t *start) {
  size_t at = 0;
  while (f->data && at + 8 <= f->size) {
    const uint8_t *p = f->data + at;
    uint64_t length =
        (uint64_t)p[4] | ((uint64_t)p[5] << 8) | ((uint64_t)p[6] << 16) | ((uint64_t)p[7] << 24);
    uint64_t end = (uint64_t)at + 16u + length;
    static const char *const tags[] = {"FXSH", "SNAP", "TICK", "KEYF", "END "};
    bool known = false;
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; ++i)
      known = known || memcmp(p, tags[i], 4) == 0;
    if (!known) return false;
    if (offset < end) {
      *start = at;
      return true;
    }
    at = (size_t)end;
  }
  return false;
}

// Names the chunk holding byte `offset` (" (in the SNAP chunk at byte 36)"), or "".
static void chunk_of(const file *f, size_t offset, char *out, size_t size) {
  size_t at;
  out[0] = '\0';
  if (find_chunk(f, offset, &at)) {
    snprintf(out, size, " (in the %.4s chunk at byte %zu)", (const char *)f->data + at, at);
  }
}

static unsigned u16_at(const file *f, size_t at) {
  return (unsigned)f->data[at] | (unsigned)f->data[at + 1] << 8;
}

// An unsupported version names the number that failed: the replay format's (bytes 12..13 of
// the header chunk) or, in a SNAP or KEYF chunk, the snapshot layout's (bytes 4..5 of the
// snapshot, which a KEYF chunk puts after its tick), each with what this build reads.
// Returns false when the offset lies in neither, or the field is not in the data.
static bool print_bad_version(const file *f, size_t offset) {
  size_t at;
  if (!find_chunk(f, offset, &at)) return false;
  const char *tag = (const char *)f->data + at;
  if (memcmp(tag, "FXSH", 4) == 0 && at + 14 <= f->size) {
    fprintf(stderr, "fixsteer: %s: byte %zu: %s %u (this build reads %u to %u): re-record it\n",
            f->name, at + 12, fxs_result_message(FXS_ERR_BAD_VERSION), u16_at(f, at + 12),
            (unsigned)FXS_REPLAY_OLDEST_VERSION, (unsigned)FXS_REPLAY_VERSION);
    return true;
  }
  bool snap = memcmp(tag, "SNAP", 4) == 0, keyf = memcmp(tag, "KEYF", 4) == 0;
  size_t layout = at + 8 + (keyf ? 4 : 0) + 4;
  if (!(snap || keyf) || layout + 2 > f->size) return false;
  fprintf(stderr,
          "fixsteer: %s: byte %zu (in the %.4s chunk at byte %zu): unsupported snapshot layout %u "
          "(this build reads layouts %u to %u): re-record it\n",
          f->name, layout, tag, at, u16_at(f, layout), (unsigned)FXS_SNAPSHOT_VERSION,
          (unsigned)FXS_SNAPSHOT_VERSION_NAV_MESH_MOVES);
  return true;
}

uint32_t file_replay_format(const file *f) {
  return f->data && f->size >= 14 && memcmp(f->data, "FXSH", 4) == 0 ? u16_at(f, 12) : 0u;
}

bool file_unversioned(const file *f) {
  uint32_t format = file_replay_format(f);
  return format != 0 && format < FXS_REPLAY_SIMULATION_VERSION_SINCE;
}

int file_unversioned_note(FILE *out, const file *f) {
  fprintf(out,
          "%s: recorded before simulation versions existed (replay format %u); this build runs "
          "simulation version %u and does not reproduce it: re-record it with this build\n",
          f->name, (unsigned)file_replay_format(f), (unsigned)FXS_SIMULATION_VERSION);
  return EXIT_VERSION;
}

// Another simulation version: both are named, and what to do.
static int print_simulation_version(const file *f, size_t offset, const char *where) {
  unsigned theirs = 0;
  if (offset + 4 <= f->size) {
    for (int i = 3; i >= 0; --i) theirs = theirs << 8 | f->data[offset + (size_t)i];
  }
  fprintf(stderr,
          "fixsteer: %s: byte %zu%s: recorded by simulation version %u; this build runs %u "
          "(and verifies replays of %u on): verify it with a build of simulation version %u, or "
          "re-record it\n",
          f->name, offset, where, theirs, (unsigned)FXS_SIMULATION_VERSION,
          (unsigned)FXS_SIMULATION_VERSION_OLDEST, theirs);
  return EXIT_VERSION;
}

int file_bad_input(const file *f, size_t offset, fxs_result r, const fxs_limit_error *limit) {
  char where[64];
  chunk_of(f, offset, where, sizeof where);
  if (r == FXS_ERR_SIMULATION_VERSION) return print_simulation_version(f, offset, where);
  if (r == FXS_ERR_LIMIT && limit && limit->field) {
    char flag[64];
    size_t n = 0;
    for (const char *c = limit->field; *c && n + 1 < sizeof flag; ++c)
      flag[n++] = *c == '_' ? '-' : *c;
    flag[n] = '\0';
    fprintf(stderr,
            "fixsteer: %s: byte %zu%s: %s: %s is %llu, asked for %llu (raise it with --%s)\n",
            f->name, offset, where, fxs_result_message(r), limit->field,
            (unsigned long long)limit->limit, (unsigned long long)limit->value, flag);
  } else if (r != FXS_ERR_BAD_VERSION || !print_bad_version(f, offset)) {
    fprintf(stderr, "fixsteer: %s: byte %zu%s: %s\n", f->name, offset, where,
            fxs_result_message(r));
  }
  return 2;
}

static bool fail(file *f, FILE *in, const char *what) {
  fprintf(stderr, "fixsteer: cannot read %s: %s\n", f->name, what);
  if (in) fclose(in);
  free(f->data);
  f->data = 0;
  return false;
}

// Grows f->data to hold `want` bytes and reads up to there; false on an I/O error.
static bool read_upto(file *f, FILE *in, size_t *capacity, size_t want) {
  if (want > *capacity) {
    uint8_t *grown = realloc(f->data, want);
    if (!grown) return false;
    f->data = grown;
    *capacity = want;
  }
  f->size += fread(f->data + f->size, 1, want - f->size, in);
  return !ferror(in);
}

bool file_read_replay(const char *name, const fxs_limits *limits, file *f) {
  f->name = name, f->data = 0, f->size = 0;
  FILE *in = fopen(name, "rb");
  if (!in) return fail(f, 0, strerror(errno));
  struct stat st;
  if (fstat(fileno(in), &st) != 0 || !S_ISREG(st.st_mode)) return fail(f, in, "not a regular file");
  size_t capacity = 0;
  if (!read_upto(f, in, &capacity, HEADER_CHUNK_BYTES)) return fail(f, in, strerror(errno));
  // The header alone decides whether the rest is worth reading: a reader that cannot get
  // past it reports the same error it would report for the whole file.
  fxs_replay_reader r;
  size_t at = 0;
  fxs_result e = fxs_replay_open(&r, f->data, f->size, false, limits, &at);
  if (e == FXS_ERR_BAD_MAGIC || e == FXS_ERR_BAD_VERSION || e == FXS_ERR_BAD_CHECKSUM ||
      (e == FXS_ERR_TRUNCATED && at < f->size)) {
    fclose(in);
    file_bad_input(f, at, e, 0);
    free(f->data);
    f->data = 0;
    return false;
  }
  uint64_t max = limits ? limits->max_bytes : FXS_DEFAULT_MAX_BYTES;
  size_t block = 1u << 20;
  while (!feof(in)) {
    uint64_t want = (uint64_t)f->size + block;
    if (want > max + 1u) want = max + 1u; // one byte past the limit shows it is exceeded
    if (!read_upto(f, in, &capacity, (size_t)want)) return fail(f, in, strerror(errno));
    if (f->size > max) {
      fclose(in);
      fxs_limit_error le = {"max_bytes", max, (uint64_t)st.st_size};
      file_bad_input(f, (size_t)max, FXS_ERR_LIMIT, &le);
      free(f->data);
      f->data = 0;
      return false;
    }
    if (f->size < want) break;
  }
  fclose(in);
  return true;
}

void file_free(file *f) {
  free(f->data);
  f->data = 0;
}
