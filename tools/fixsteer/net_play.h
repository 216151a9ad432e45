// One process's side of a match of `fixsteer host` / `join` (net.h): its options, its world,
// session and replay (net_play.c), what it knows of every other peer (net_roster.c) and how
// it joins a match under way (net_join.c).
#ifndef FIXSTEER_TOOL_NET_PLAY_H
#define FIXSTEER_TOOL_NET_PLAY_H

#ifndef FXS_TOOL_NO_ENET

#include <stdbool.h>
#include <stdint.h>

#include "files.h"
#include "output.h"
#include "fixsteer/fixsteer.h"
#include "fixsteer/session.h"
#include "net.h"
#include "scenario.h"

#define NET_MAX_COMMANDS 256 // per player per tick: room for the largest built-in set-up
#define NET_PACKET_BYTES \
  (FXS_SESSION_MIN_PACKET + 2u + NET_MAX_COMMANDS * FXS_SESSION_COMMAND_MAX_BYTES)
#define NET_WINDOW 64

// The options of host and join. Numbers are -1 when not given, where the default depends on
// other options. cheat_at, drip_at and status are test hooks (docs/lockstep.md).
typedef struct net_options {
  const char *scenario, *out, *host, *bind, *status;
  long players, spectators, port, ticks, delay, desync_at, tick_ms, timeout_ms, rejoin_ms;
  long progress_window_ms, progress_min_ticks, cheat_at, drip_at;
  int rollback, spectate, help;
} net_options;

// What this process knows of another peer.
typedef enum peer_state {
  PEER_PRESENT, // in the match
  PEER_AWAY,    // a player that left: the match waits up to rejoin_ms for it to come back
  PEER_VACANT,  // a spectator slot nobody holds
  PEER_JOINING, // joining the match under way: offers sent, its tick not heard yet
  PEER_DONE,    // left with the match over for it
} peer_state;

typedef struct player {
  const scenario *sc;
  fxs_world world;
  void *world_memory;
  fxs_session session;
  void *session_memory;
  scenario_state state;
  fxs_command *commands; // SCENARIO_MAX_COMMANDS: one tick of the scenario's logic
  fxs_command mine[NET_MAX_COMMANDS];
  int pending; // commands in mine[] not yet accepted by the session, or -1
  fxs_replay_writer writer;
  uint8_t *scratch;
  size_t scratch_size;
  output out;
  long desync_at, cheat_at, drip_at;
  uint32_t timeout_ms, last_drip;
  bool desync_printed;
  // Why the match stopped early ("lost player 2 at tick 812"), and what we tell the others
  // when we close our links (NET_LEAVE_*).
  char stopped[96];
  uint32_t leave;
  // The other peers: state, since when (ms), and whether our join offer went out to it.
  uint8_t peer_state[NET_MAX_PEERS];
  uint32_t since[NET_MAX_PEERS];
  uint32_t away_since[NET_MAX_PEERS]; // when an away player left (a failed join keeps it)
  bool offered[NET_MAX_PEERS];
  uint32_t offer_tick[NET_MAX_PEERS];   // the tick of the state we offered it (the host)
  uint32_t join_failure[NET_MAX_PEERS]; // why its last join failed (NET_LEAVE_*), 0: none
  int admitting;                        // the host: the peer whose join is under way, or -1
  // The --status test hook: the file, and the settled tick last written to it.
  const char *status;
  uint32_t status_tick, status_ms;
  uint8_t buf[NET_PACKET_BYTES];
} player;

// ------------------------------------------------------------------ net_play.c

// Sets up the world, the replay and the session (from tick 0, or from the offers of the
// peers for a match under way); prints why not and returns the exit code on failure.
int player_start(player *p, match *m, const net_options *o, const char *cmd);
void player_end(player *p);

// Sets up the world and the output file only (the session comes from join offers).
int player_open(player *p, const match *m, const net_options *o, const char *cmd);

// Begins the replay on the world as it is (after a join: at the tick joined).
bool player_begin_replay(player *p);

// "player 2" or "spectator 3", in buf (at least 16 bytes).
const char *player_peer_name(const match *m, uint32_t q, char *buf);

// The session's definition for this process.
fxs_session_def player_session_def(player *p, const match *m);

// Submits (once the logic has run for this tick, unless `hold`) and tries to step one tick.
fxs_result player_tick(player *p, const match *m, uint32_t now, bool hold, const char *cmd);

// Ends the match early: notes why (label: "lost player 2 at tick 812"; for the last word),
// what to tell the others (NET_LEAVE_*), and says it now. Returns EXIT_NET.
int player_stop(player *p, uint32_t leave, const char *cmd, const char *label, const char *why);

// The label of a lost player q: "lost player 2 at tick 812".
int player_lost(player *p, uint32_t q, const char *cmd, const char *why);

// After an early stop: ends the replay at the last settled tick, so that it verifies; NULL
// when it did, else why not.
const char *player_end_at_settled(player *p);

// The line that closes a match that ended well.
void player_report(const player *p, const match *m, const char *cmd, const char *out, uint32_t ms);

// The --status test hook: writes the last settled tick to the status file now and then.
void player_write_status(player *p, uint32_t now);

// ------------------------------------------------------------------ net_roster.c

// The other peers at the start of the match: every player present, spectator slots vacant
// (or, joining a match under way, as the match message says).
void roster_start(player *p, match *m, uint32_t now);

// True while the match is paused on purpose: a player is away or a peer is joining.
bool roster_paused(const player *p, const match *m);

// True while a peer joins: every player holds its input back, so that the match stays within
// reach of the offers the joiner starts from.
bool roster_holding(const player *p, const match *m);

// Waits up to wait_ms for ENet events and handles them all: game packets, control messages,
// links that close, the host's arrivals. EXIT_NET when the match must end.
int roster_pump(player *p, match *m, uint32_t wait_ms, const char *cmd);

// Once a frame: peers silent past the timeout, away players past rejoin_ms, the host's
// admissions and joins that take too long. EXIT_NET when the match must end.
int roster_check(player *p, match *m, uint32_t now, const char *cmd);

// True when peer q has given us everything of the match.
bool roster_finished(const player *p, uint32_t q);

// ------------------------------------------------------------------ net_join.c

// Most bytes of a join offer of a session with definition d: what its rings hold, and a
// state of at most state_bytes (the largest the scenario's world can reach). Larger offers
// are refused.
size_t net_offer_bound(const fxs_session_def *d, size_t state_bytes);

// Writes our join offer for peer `joiner` (with the state when `with_state`) and sends it
// reliably on its link. False, having said why, when it cannot be written.
bool net_send_offer(player *p, match *m, uint32_t joiner, bool with_state, const char *cmd);

// A process joining a match under way: waits for the offer of every peer present, starts
// the session from them (fxs_session_join), begins the replay and tells every peer its tick.
int net_join_session(player *p, match *m, uint32_t wait_ms, const char *cmd);

#endif // FXS_TOOL_NO_ENET

#endif
