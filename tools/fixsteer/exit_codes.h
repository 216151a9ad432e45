// The fixsteer tool's exit codes, the same for every command (`fixsteer --help` lists them,
// and each command's help the ones it can return).
#ifndef FIXSTEER_TOOL_EXIT_CODES_H
#define FIXSTEER_TOOL_EXIT_CODES_H

enum {
  EXIT_OK = 0,       // success
  EXIT_DIVERGED = 1, // a replay does not reproduce (the tick is named); host/join: a desync
  EXIT_BAD = 2,      // bad usage or bad input (the file, line or byte is named)
  EXIT_NET = 3,      // host/join: a peer lost or not joined in time, a malformed match
                     // message, an address that does not resolve
  EXIT_VERSION = 4   // another simulation version: a replay recorded by one (or recorded
                     // before simulation versions existed, and not reproduced), or a peer
                     // running one; not a desync
};

#endif
