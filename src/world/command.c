#include "fixsteer/command.h"

#include <string.h>

#include "bytes.h"

static const char *const names[FXS_CMD_COUNT] = {
#define FXS_COMMAND_NAME_(id, name, doc) name,
    FXS_COMMAND_LIST(FXS_COMMAND_NAME_)
#undef FXS_COMMAND_NAME_
};

fxs_command fxs_command_make(fxs_command_type type, uint8_t source, uint16_t sequence) {
  fxs_command c;
  memset(&c, 0, sizeof c);
  c.type = (uint8_t)type;
  c.source = source;
  c.sequence = sequence;
  return c;
}

const char *fxs_command_name(uint8_t type) {
  return type < FXS_CMD_COUNT ? names[type] : "unknown";
}

// The encoding's layout: type, source, sequence, agent, ref, then the arguments.
#define AT_SEQUENCE 2u
#define AT_AGENT 4u
#define AT_REF 8u
#define AT_ARGS 12u
typedef char
    fxs_command_layout_check[AT_ARGS + 4u * FXS_COMMAND_ARGS == FXS_COMMAND_BYTES ? 1 : -1];

// Fixed offsets, one little-endian load or store per field: commands are encoded and decoded
// for every tick of every replay and packet.
void fxs_command_encode(const fxs_command *c, uint8_t out[FXS_COMMAND_BYTES]) {
  out[0] = c->type;
  out[1] = c->source;
  fxs_store_le(out + AT_SEQUENCE, c->sequence, 2);
  fxs_store_le(out + AT_AGENT, c->agent, 4);
  fxs_store_le(out + AT_REF, c->ref, 4);
  for (uint32_t i = 0; i < FXS_COMMAND_ARGS; ++i) {
    fxs_store_le(out + AT_ARGS + 4u * i, (uint32_t)c->arg[i], 4);
  }
}

// Portable two's-complement decoding (no implementation-defined conversion).
static int32_t to_i32(uint32_t v) {
  return v <= 0x7FFFFFFFu ? (int32_t)v : (int32_t)((int64_t)v - INT64_C(4294967296));
}

fxs_result fxs_command_decode(const uint8_t in[FXS_COMMAND_BYTES], fxs_command *c) {
  c->type = in[0];
  c->source = in[1];
  c->sequence = fxs_load_le16(in + AT_SEQUENCE);
  c->agent = fxs_load_le32(in + AT_AGENT);
  c->ref = fxs_load_le32(in + AT_REF);
  for (uint32_t i = 0; i < FXS_COMMAND_ARGS; ++i) {
    c->arg[i] = to_i32(fxs_load_le32(in + AT_ARGS + 4u * i));
  }
  return c->type < FXS_CMD_COUNT ? FXS_OK : FXS_ERR_BAD_COMMAND;
}

// Two little-endian encodings of a 32-bit field compare byte by byte, least significant
// byte first: that is the numeric order of the byte-reversed value.
static uint32_t encoded_order(uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}

static int compare_encoded(uint32_t a, uint32_t b) {
  uint32_t x = encoded_order(a), y = encoded_order(b);
  return x < y ? -1 : 1;
}

int fxs_command_compare(const fxs_command *a, const fxs_command *b) {
  if (a->source != b->source) return a->source < b->source ? -1 : 1;
  if (a->sequence != b->sequence) return a->sequence < b->sequence ? -1 : 1;
  // Identical keys: order by content, so even duplicated keys sort the same everywhere. The
  // content order is that of the encodings under memcmp (type, agent, ref, then arguments),
  // compared field by field without encoding.
  if (a->type != b->type) return a->type < b->type ? -1 : 1;
  if (a->agent != b->agent) return compare_encoded(a->agent, b->agent);
  if (a->ref != b->ref) return compare_encoded(a->ref, b->ref);
  for (int i = 0; i < FXS_COMMAND_ARGS; ++i) {
    if (a->arg[i] != b->arg[i]) return compare_encoded((uint32_t)a->arg[i], (uint32_t)b->arg[i]);
  }
  return 0;
}

// Moves c[root] down the max-heap c[0, count) to where it belongs.
static void sift_down(fxs_command *c, uint32_t root, uint32_t count) {
  fxs_command v = c[root];
  while (root < count / 2u) { // root has a child: 2 * root + 1 < count, no overflow
    uint32_t child = 2u * root + 1u;
    if (child + 1u < count && fxs_command_compare(&c[child], &c[child + 1u]) < 0) ++child;
    if (fxs_command_compare(&v, &c[child]) >= 0) break;
    c[root] = c[child];
    root = child;
  }
  c[root] = v;
}

void fxs_command_sort(fxs_command *commands, uint32_t count) {
  uint32_t sorted = 1;
  while (sorted < count && fxs_command_compare(&commands[sorted - 1u], &commands[sorted]) <= 0) {
    ++sorted;
  }
  if (sorted >= count) return; // the usual case: commands arrive in order
  // Heap sort: at most about 2 n log2 n comparisons whatever the input (a peer or a replay
  // may send 65,535 commands in one tick in the worst order), no recursion, no memory.
  for (uint32_t root = count / 2u; root-- > 0;) sift_down(commands, root, count);
  for (uint32_t end = count - 1u; end > 0; --end) {
    fxs_command top = commands[0];
    commands[0] = commands[end];
    commands[end] = top;
    sift_down(commands, 0, end);
  }
}
