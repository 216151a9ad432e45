// Network play of `fixsteer host` / `join` (cmd_net.h): what its files share. cmd_net.c
// reads the options and runs the game loop; net_play.c is one process's side of the match
// (world, session, inputs, report); net_roster.c follows the other peers through the match
// (a player that leaves and comes back, a spectator that arrives, the host's admissions);
// net_join.c writes and reads join offers and joins a match under way; net_address.c reads
// addresses; net_lobby.c gathers the players and links every pair; net_message.c writes and
// reads the text messages of channel 1. Built only with ENet (not under FXS_TOOL_NO_ENET).
#ifndef FIXSTEER_TOOL_NET_H
#define FIXSTEER_TOOL_NET_H

#ifndef FXS_TOOL_NO_ENET

#include <enet/enet.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/session.h"
#include "exit_codes.h"

#define NET_MAX_PLAYERS FXS_SESSION_MAX_PLAYERS
#define NET_MAX_SPECTATORS 8
#define NET_MAX_PEERS FXS_SESSION_MAX_PEERS
#define NET_MAX_ARRIVALS 8 // connections the host holds before giving them a slot
// Held arrivals from one address: a newcomer from an address that holds this many makes room
// by closing that address's oldest, so a flood from one address cannot crowd out the others.
#define NET_ARRIVALS_PER_ADDRESS 4
#define NET_SCENARIO_BYTES 64 // a built-in scenario's name, or a scene file's, and its NUL
#define NET_IP_BYTES 16       // "255.255.255.255" and its NUL
// The ranges of the match's settings: the host's options and the match message alike.
#define NET_MAX_TICKS 10000000u
#define NET_MAX_DELAY 30u
#define NET_MAX_TICK_MS 1000u
#define NET_MAX_WAIT_MS 600000u // --rejoin-ms, --progress-window-ms

// A joiner's connect data: the port it listens on, and this bit when it comes to watch.
#define NET_CONNECT_SPECTATE 0x10000u

// Why a process closes a link: sent as the ENet disconnect data, so that the others can say
// why it left. ENet reports 0 for a peer it timed out itself.
enum {
  NET_LEAVE_UNKNOWN = 0,
  NET_LEAVE_DONE = 1,        // the match is over for it
  NET_LEAVE_REFUSED = 2,     // the match message was malformed
  NET_LEAVE_FAILED = 3,      // it stopped for a reason of its own
  NET_LEAVE_FULL = 4,        // the host has no free slot for a joiner
  NET_LEAVE_OVER = 5,        // the host's match is over: too late to join
  NET_LEAVE_LOST = 0x100,    // | p: it lost player p
  NET_LEAVE_DROPPED = 0x200, // | p: player p held the match below its progress floor
  // | V (V < 2^24): it runs simulation version V, not the one of the match message
  NET_LEAVE_SIMULATION = 0x1000000,
  NET_LEAVE_MATH = 6,          // it runs other math (another math fingerprint)
  NET_LEAVE_SCENE = 7,         // it holds another scene than the match message's (or none)
  NET_LEAVE_BAD_JOIN = 8,      // a joiner announced a tick its offers do not give it
  NET_LEAVE_BAD_OFFER = 0x300, // | k: a joiner refused the join offer of peer k
};

// The exit code of a process whose peer left for reason `data`: EXIT_VERSION when the peer
// runs another simulation version or other math, else EXIT_NET.
int net_leave_code(uint32_t data);

// A connection the host has not given a slot yet (it arrived during the match).
typedef struct arrival {
  ENetPeer *peer;
  uint32_t data;  // its connect data: port | NET_CONNECT_SPECTATE
  uint32_t since; // when it connected, ms
} arrival;

// What every process of the match agrees on (the match message), and its own links.
typedef struct match {
  uint8_t index, players, spectators;
  uint32_t ticks, delay, session_id, tick_ms;
  uint32_t rejoin_ms;          // how long a player that left may take to come back (0: none)
  uint32_t progress_window_ms; // the progress bound (fxs_session_def), the same for everyone
  uint32_t progress_min_ticks;
  int rollback;
  // This process joins a match under way (from join offers, not from tick 0); `present`
  // then names the peers in the match (bit q), each of which sends it an offer.
  bool late;
  uint32_t present;
  char scenario[NET_SCENARIO_BYTES];
  // The scene: a built-in scenario (scene_file false, `scenario` its name), or a scene file
  // every process holds itself: `scenario` its base name, scene_hash the FNV-1a 64 of its
  // bytes (what identifies it), `scene` what this process loaded from its own copy. A joiner
  // sets these from its own --scenario (scene_given) before the match message comes, and
  // refuses a message that names another scene.
  bool scene_file, scene_given;
  uint64_t scene_hash;
  const struct scenario *scene;
  // Where each joiner listens, as the host saw it (index 0, the host, is not used: every
  // joiner already has its link to the host).
  ENetAddress addresses[NET_MAX_PEERS];
  ENetHost *host;
  ENetPeer *links[NET_MAX_PEERS];
  // The host: connections that arrived and wait for a slot (a player's that is vacant, or a
  // spectator's).
  arrival arrivals[NET_MAX_ARRIVALS];
  uint32_t arrival_count;
  // A joiner: a message on channel 1 from a peer that linked with us before the match message
  // came (its join offer), kept for net_join.c.
  ENetPacket *early[NET_MAX_PEERS];
} match;

// Players and spectators of the match.
static inline uint32_t net_peer_count(const match *m) {
  return (uint32_t)m->players + m->spectators;
}

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

// Marks a link with the peer index it leads to; the index of a link, or -1.
void *net_link_tag(uint32_t index);
int net_link_index(const ENetPeer *p);

// What a disconnect's data says about why the peer left ("it lost player 2", ...).
const char *net_leave_reason(uint32_t data, char *buf, size_t size);

// Closes every link and held arrival, telling the peers why (NET_LEAVE_*; a link already
// closing keeps its reason), and gives that a moment (100 ms) to go out.
void net_leave(match *m, uint32_t reason);

// The host: keeps a connection that arrives once the players are numbered (a spectator, or a
// player coming back) for net_roster.c to give a slot. Memory stays bounded without turning
// anyone away for good: when NET_ARRIVALS_PER_ADDRESS are held from its address, or
// NET_MAX_ARRIVALS in all, the oldest of them (of that address, else of all) is closed
// (NET_LEAVE_FULL) to make room, so a flood of connections that never get a slot only
// pushes itself out, and a newcomer is always held long enough to be given a free slot.
void net_hold_arrival(match *m, ENetPeer *peer, uint32_t data, uint32_t now);

// Forgets a held arrival (it disconnected, or it got its slot).
void net_drop_arrival(match *m, const ENetPeer *peer);

// The host: numbers the joiners as they connect (their connect data is their port), then
// sends each the match. Bounded by `wait_ms`.
int net_host_lobby(match *m, uint32_t wait_ms);

// A joiner: connects to the host at `host` with its own listening port (| NET_CONNECT_SPECTATE
// when it comes to watch), waits for the match message. A malformed one is reported and
// refused at once (EXIT_NET).
int net_join_lobby(match *m, const ENetAddress *host, uint32_t connect_data, uint32_t wait_ms);

// A joiner that reached the host at a non-loopback address reaches a peer the host saw on
// loopback (it runs on the host's machine) at the host's address.
void net_localize(ENetAddress *peer, const ENetAddress *host);

// Every joiner connects to the joiners numbered below it; waits until all links are up.
int net_link_players(match *m, uint32_t wait_ms, const char *cmd);

// Sends text (with its NUL) or bytes reliably on channel 1.
void net_send_reliable(ENetPeer *to, const void *bytes, size_t len);

// ------------------------------------------------ the messages (net_message.c)

// Most bytes of a text message, its NUL included.
#define NET_MESSAGE_BYTES 512

// Writes the match message for peer `to` into buf (NET_MESSAGE_BYTES); returns its length
// with the NUL, which is sent too.
size_t net_write_start(const match *m, uint32_t to, char *buf);

// Reads a match message into *m (its fields, not its links). False when it is not a valid
// one; `error` then says which field is wrong, its value and what is allowed, and *leave the
// reason to give the host: NET_LEAVE_SIMULATION | ours or NET_LEAVE_MATH when the host runs
// another simulation version or other math (both are named), else NET_LEAVE_REFUSED.
bool net_read_start(match *m, const uint8_t *msg, size_t len, char *error, size_t error_size,
                    uint32_t *leave);

// The messages of a match under way, on channel 1:
//   FXJOIN Q A.B.C.D:PORT S  the host to every peer: peer Q joins, listens there, and starts
//                          from the host's state of tick S
//   FXLEFT Q               the host to every peer: the join of peer Q was given up
//   FXJOINED S             a joiner to every peer: it joined at tick S
typedef enum net_control_kind { NET_JOIN, NET_LEFT, NET_JOINED } net_control_kind;
typedef struct net_control {
  net_control_kind kind;
  uint32_t peer;       // JOIN, LEFT
  ENetAddress address; // JOIN
  uint32_t tick;       // JOIN: the tick of the joiner's state (the host's offer); JOINED
} net_control;

// Writes a control message into buf (NET_MESSAGE_BYTES); its length with the NUL.
size_t net_write_control(const net_control *c, char *buf);

// Reads a control message of a match of `peers` peers. False when it is not a valid one;
// `error` then says what is wrong.
bool net_read_control(const uint8_t *msg, size_t len, uint32_t peers, net_control *out, char *error,
                      size_t error_size);

#endif // FXS_TOOL_NO_ENET

#endif
