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

void fxs_command_encode(const fxs_command *c, uint8_t out[FXS_COMMAND_BYTES]) {
  fxs_writer w = fxs_writer_make(out, FXS_COMMAND_BYTES, 0);
  fxs_put_u8(&w, c->type);
  fxs_put_u8(&w, c->source);
  fxs_put_u16(&w, c->sequence);
  fxs_put_u32(&w, c->agent);
  fxs_put_u32(&w, c->ref);
  for (int i = 0; i < FXS_COMMAND_ARGS; ++i) fxs_put_i32(&w, c->arg[i]);
}

fxs_result fxs_command_decode(const uint8_t in[FXS_COMMAND_BYTES], fxs_command *c) {
  fxs_reader r = fxs_reader_make(in, FXS_COMMAND_BYTES);
  c->type = fxs_get_u8(&r);
  c->source = fxs_get_u8(&r);
  c->sequence = fxs_get_u16(&r);
  c->agent = fxs_get_u32(&r);
  c->ref = fxs_get_u32(&r);
  for (int i = 0; i < FXS_COMMAND_ARGS; ++i) c->arg[i] = fxs_get_i32(&r);
  return c->type < FXS_CMD_COUNT ? FXS_OK : FXS_ERR_BAD_COMMAND;
}

int fxs_command_compare(const fxs_command *a, const fxs_command *b) {
  if (a->source != b->source) return a->source < b->source ? -1 : 1;
  if (a->sequence != b->sequence) return a->sequence < b->sequence ? -1 : 1;
  // Identical keys: order by content, so even duplicated keys sort the same everywhere.
  uint8_t ea[FXS_COMMAND_BYTES], eb[FXS_COMMAND_BYTES];
  fxs_command_encode(a, ea);
  fxs_command_encode(b, eb);
  return memcmp(ea, eb, FXS_COMMAND_BYTES);
}

void fxs_command_sort(fxs_command *commands, uint32_t count) {
  for (uint32_t i = 1; i < count; ++i) {
    fxs_command key = commands[i];
    uint32_t j = i;
    while (j > 0 && fxs_command_compare(&commands[j - 1], &key) > 0) {
      commands[j] = commands[j - 1];
      --j;
    }
    commands[j] = key;
  }
}
