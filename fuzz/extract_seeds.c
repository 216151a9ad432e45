// Seed inputs for the snapshot and command targets, cut from recorded replays (not a fuzz
// target; tools/fuzz.sh builds it without sanitizers). For each replay it writes:
//   SNAPSHOT_DIR/NAME-snap, SNAPSHOT_DIR/NAME-kTICK   the initial snapshot and each keyframe
//   COMMAND_DIR/NAME-raw, COMMAND_DIR/NAME-slots       up to 32 ticks of commands, each tick
//     ended by a record of type 0xFF; in -slots, agent handles become fuzz_commands.c's
//     slot references (top bit set, slot in the low byte).
//
// usage: extract_seeds SNAPSHOT_DIR COMMAND_DIR REPLAY...
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/replay.h"

#define MAX_TICKS 32u
#define MAX_RECORDS 2048u

static uint8_t *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t cap = 1u << 16, n;
  uint8_t *data = malloc(cap);
  *size = 0;
  while (data && (n = fread(data + *size, 1, cap - *size, f)) > 0) {
    *size += n;
    if (*size == cap) {
      uint8_t *grown = realloc(data, cap *= 2);
      if (!grown) free(data);
      data = grown;
    }
  }
  fclose(f);
  return data;
}

static int write_all(const char *dir, const char *name, const char *suffix, const uint8_t *data,
                     size_t size) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s-%s", dir, name, suffix);
  FILE *f = fopen(path, "wb");
  if (!f) return fprintf(stderr, "extract_seeds: cannot write %s\n", path), 1;
  size_t n = fwrite(data, 1, size, f);
  return (fclose(f) != 0 || n != size)
             ? (fprintf(stderr, "extract_seeds: %s: write error\n", path), 1)
             : 0;
}

// A handle value (slot + 1, generation above) as a slot reference.
static uint32_t as_slot(uint32_t handle) {
  uint32_t index = handle & 0xFFFFu;
  return index ? 0x80000000u | ((index - 1u) & 0xFFu) : 0;
}

static void append_commands(const fxs_replay_chunk *c, uint8_t *raw, uint8_t *slots,
                            size_t *records) {
  for (uint16_t i = 0; i < c->command_count && *records < MAX_RECORDS - 1; ++i) {
    const uint8_t *in = c->commands + (size_t)i * FXS_COMMAND_BYTES;
    fxs_command cmd;
    fxs_command_decode(in, &cmd);
    memcpy(raw + *records * FXS_COMMAND_BYTES, in, FXS_COMMAND_BYTES);
    cmd.agent = as_slot(cmd.agent);
    if (cmd.type == FXS_CMD_SET_TARGET_AGENT || cmd.type == FXS_CMD_SET_SECOND_TARGET)
      cmd.ref = as_slot(cmd.ref);
    fxs_command_encode(&cmd, slots + *records * FXS_COMMAND_BYTES);
    ++*records;
  }
  memset(raw + *records * FXS_COMMAND_BYTES, 0, FXS_COMMAND_BYTES); // ends the tick
  memset(slots + *records * FXS_COMMAND_BYTES, 0, FXS_COMMAND_BYTES);
  raw[*records * FXS_COMMAND_BYTES] = slots[*records * FXS_COMMAND_BYTES] = 0xFF;
  ++*records;
}

static int extract(const char *path, const char *snap_dir, const char *cmd_dir) {
  size_t size = 0;
  uint8_t *data = read_all(path, &size);
  if (!data) return fprintf(stderr, "extract_seeds: cannot read %s\n", path), 1;
  const char *slash = strrchr(path, '/');
  char name[256];
  snprintf(name, sizeof name, "%s", slash ? slash + 1 : path);
  char *dot = strrchr(name, '.');
  if (dot) *dot = '\0';
  fxs_replay_reader r;
  int bad = 0;
  if (fxs_replay_open(&r, data, size, false, 0, 0) != FXS_OK) {
    free(data);
    return fprintf(stderr, "extract_seeds: %s is not a replay\n", path), 1;
  }
  bad |= write_all(snap_dir, name, "snap", r.initial.snapshot, r.initial.snapshot_size);
  static uint8_t raw[MAX_RECORDS * FXS_COMMAND_BYTES], slots[MAX_RECORDS * FXS_COMMAND_BYTES];
  size_t records = 0;
  uint32_t ticks = 0;
  fxs_replay_chunk c;
  while (!r.ended && fxs_replay_next(&r, &c, 0) == FXS_OK) {
    if (c.tag == FXS_CHUNK_TICK && ticks < MAX_TICKS && records < MAX_RECORDS - 1) {
      append_commands(&c, raw, slots, &records);
      ++ticks;
    } else if (c.tag == FXS_CHUNK_KEYFRAME) {
      char suffix[32];
      snprintf(suffix, sizeof suffix, "k%u", c.tick);
      bad |= write_all(snap_dir, name, suffix, c.snapshot, c.snapshot_size);
    }
  }
  bad |= write_all(cmd_dir, name, "raw", raw, records * FXS_COMMAND_BYTES);
  bad |= write_all(cmd_dir, name, "slots", slots, records * FXS_COMMAND_BYTES);
  free(data);
  return bad;
}

int main(int argc, char **argv) {
  if (argc < 4)
    return fprintf(stderr, "usage: extract_seeds SNAPSHOT_DIR COMMAND_DIR REPLAY...\n"), 2;
  int bad = 0;
  for (int i = 3; i < argc; ++i) bad |= extract(argv[i], argv[1], argv[2]);
  return bad;
}
