// Internal: decoding a command's arguments (every command's arguments are Q16.16 values,
// command.h): whole numbers carried as n << 16, and the rule that arguments a command does
// not use are 0, so that one command has one encoding.
#ifndef FIXSTEER_COMMAND_ARGS_H
#define FIXSTEER_COMMAND_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/command.h"

// A whole number n carried as a Q16.16 argument (n << 16) into *out; false for a fraction or
// n < 0.
static inline bool fxs_arg_whole(fix16_t arg, uint32_t *out) {
  if (arg < 0 || (arg & 0xFFFF) != 0) return false;
  *out = (uint32_t)arg >> 16;
  return true;
}

// True when arg[first..] are all 0.
static inline bool fxs_args_unused_zero(const fxs_command *c, int first) {
  for (int i = first; i < FXS_COMMAND_ARGS; ++i) {
    if (c->arg[i] != 0) return false;
  }
  return true;
}

#endif
