// Network play of `fixsteer host` / `join` (cmd_net.h): what its files share. cmd_net.c
// reads the options and plays the match; net_address.c reads addresses; net_lobby.c
// gathers the players and links every pair; net_message.c writes and reads the match
// message the host sends each joiner. Built only with ENet (not under FXS_TOOL_NO_ENET).
#ifndef FIXSTEER_TOOL_NET_H
#define FIXSTEER_TOOL_NET_H

#ifndef FXS_TOOL_NO_ENET

#include <enet/enet.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/session.h"

// The tool's exit codes as host and join use them (cmd_net.h).
enum { EXIT_OK = 0, EXIT_DESYNC = 1, EXIT_BAD = 2, EXIT_NET = 3 };

#define NET_MAX_PLAYERS FXS_SESSION_MAX_PLAYERS
#define NET_SCENARIO_BYTES 64  // a built-in scenario's name and its NUL
#define NET_IP_BYTES 16        // "255.255.255.255" and its NUL
// The ranges of the match's settings: the host's options and the match message alike.
#define NET_MAX_TICKS 10000000u
#define NET_MAX_DELAY 30u
#define NET_MAX_TICK_MS 1000u

// Why a process closes a link: sent as the ENet disconnect data, so that the others can say
// why it left. ENet reports 0 for a peer it timed out itself.
enum {
  NET_LEAVE_UNKNOWN = 0,
  NET_LEAVE_DONE = 1,      // the match is over for it
  NET_LEAVE_REFUSED = 2,   // the match message was malformed
  NET_LEAVE_FAILED = 3,    // it stopped for a reason of its own
  NET_LEAVE_LOST = 0x100,  // | p: it lost player p
};

// What every process of the match agrees on (the match message), and its own links.
typedef struct match {
  uint8_t index, players;
  uint32_t ticks, delay, session_id, tick_ms;
  int rollback;
  char scenario[NET_SCENARIO_BYTES];
  // Where each joiner listens, as the host saw it (index 0, the host, is not used: every
  // joiner already has its link to the host).
  ENetAddress addresses[NET_MAX_PLAYERS];
  ENetHost *host;
  ENetPeer *links[NET_MAX_PLAYERS];
} match;

// -------------------------------------------------------- addresses (net_address.c)

// Reads the value of an address option (`--host`, `--bind`): an IPv4 address a.b.c.d or a
// host name, resolved to its IPv4 address. On failure prints what is wrong, naming the
// option and the value, and returns EXIT_BAD (not an address: a malformed IPv4 address, an
// IPv6 address, which this ENet cannot use) or EXIT_NET (a name that does not resolve).
int net_resolve(const char *cmd, const char *option, const char *value, ENetAddress *out);

// Reads a strict IPv4 address a.b.c.d (four numbers 0..255 in decimal) from the first `len`
// bytes of `text` into *host (network byte order). On failure writes why into `why`.
bool net_parse_ipv4(const char *text, size_t len, uint32_t *host, char *why, size_t why_size);

// The address as a.b.c.d, in `buf` (NET_IP_BYTES).
const char *net_ip(uint32_t host, char *buf);

// True for 127.0.0.0/8.
bool net_is_loopback(uint32_t host);

// ---------------------------------------------------------- the lobby (net_lobby.c)

// An ENet host listening on `at` (port 0: any free port); its port in *bound when not NULL.
ENetHost *net_listen(const ENetAddress *at, uint16_t *bound);

// Marks a link with the player index it leads to; the index of a link, or -1.
void *net_link_tag(uint32_t index);
int net_link_index(const ENetPeer *p);

// What a disconnect's data says about why the peer left ("it lost player 2", ...).
const char *net_leave_reason(uint32_t data, char *buf, size_t size);

// Closes every link, telling the peers why (NET_LEAVE_*; a link already closing keeps its
// reason), and gives that a moment (100 ms) to go out.
void net_leave(match *m, uint32_t reason);

// The host: numbers the joiners as they connect (their connect data is their port), then
// sends each the match. Bounded by `wait_ms`.
int net_host_lobby(match *m, uint32_t wait_ms);

// A joiner: connects to the host at `host` with its own listening port, waits for the
// match message. A malformed one is reported and refused at once (EXIT_NET).
int net_join_lobby(match *m, const ENetAddress *host, uint16_t own_port, uint32_t wait_ms);

// Every joiner connects to the joiners numbered below it; waits until all links are up.
int net_link_players(match *m, uint32_t wait_ms, const char *cmd);

// ------------------------------------------------ the match message (net_message.c)

// Most bytes of a match message, its NUL included.
#define NET_MESSAGE_BYTES 512

// Writes the match message for joiner `to` into buf (NET_MESSAGE_BYTES); returns its length
// with the NUL, which is sent too.
size_t net_write_start(const match *m, uint32_t to, char *buf);

// Reads a match message into *m (its fields, not its links). False when it is not a valid
// one; `error` then says which field is wrong, its value and what is allowed.
bool net_read_start(match *m, const uint8_t *msg, size_t len, char *error, size_t error_size);

#endif  // FXS_TOOL_NO_ENET

#endif
