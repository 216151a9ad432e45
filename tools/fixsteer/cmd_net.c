// fixsteer host / join (cmd_net.h). The transport is ENet over IPv4: the host listens on
// --bind:--port (127.0.0.1 unless told); every joiner listens on a port of its own and
// connects to the host, which numbers the players in the order they connect and, once all
// are there, sends each one the match (net_lobby.c, net_message.c): scenario, ticks, delay,
// mode, session id, and where every joiner listens as the host saw it. The joiners then
// connect to each other, so every pair of players has a link, and the match starts. Game
// packets are fxs_session packets sent unreliable and unsequenced on channel 0 (the session
// resends what is lost); the match message goes reliable on channel 1.
//
// Inputs: every player runs the scenario's game logic on its own world. Player 0 submits
// the scenario's set-up (its tick-0 commands); afterwards each player submits only the
// commands for the agents it owns (agent slot % players == player; commands without an
// agent belong to player 0). The logic first runs again once the set-up has landed (delay
// ticks later). Every process records the match as a replay; when a peer is lost, the
// replay ends at the last settled tick, so that it still verifies.
#define _DEFAULT_SOURCE

#include "cmd_net.h"

#include <stdio.h>

#ifdef FXS_TOOL_NO_ENET
// Built without ENet (NO_ENET=1, or no libenet for this compiler): no network play.
static int no_enet(const char *cmd) {
  fprintf(stderr,
          "fixsteer %s: this fixsteer was built without ENet (NO_ENET=1): no network play\n", cmd);
  return 2;
}
int cmd_host(int argc, char **argv) {
  (void)argc, (void)argv;
  return no_enet("host");
}
int cmd_join(int argc, char **argv) {
  (void)argc, (void)argv;
  return no_enet("join");
}
#else

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output.h"
#include "fixsteer/fixsteer.h"
#include "fixsteer/session.h"
#include "net.h"
#include "scenario.h"

#define NET_MAX_COMMANDS 256  // per player per tick: room for the largest built-in set-up
#define NET_PACKET_BYTES \
  (FXS_SESSION_MIN_PACKET + 2u + NET_MAX_COMMANDS * FXS_SESSION_COMMAND_MAX_BYTES)
#define NET_WINDOW 64

typedef struct net_options {
  const char *scenario, *out, *host, *bind;
  long players, port, ticks, delay, desync_at, tick_ms, timeout_ms;
  int rollback, help;
} net_options;

// ------------------------------------------------------------------ options

static int usage_error(const char *cmd, const char *usage, const char *msg, const char *arg) {
  fprintf(stderr, "fixsteer %s: %s%s%s\nusage: %s\n", cmd, msg, arg ? ": " : "", arg ? arg : "",
          usage);
  return EXIT_BAD;
}

static bool number(const char *v, long min, long max, long *out) {
  char *end = 0;
  errno = 0;
  long n = strtol(v, &end, 10);
  if (errno || !*v || *end || n < min || n > max) return false;
  *out = n;
  return true;
}

// The numeric options: name, where it goes, range.
static bool numeric_option(net_options *o, const char *name, long **slot, long *min, long *max) {
  static const struct {
    const char *name;
    size_t offset;
    long min, max;
  } table[] = {
      {"--players", offsetof(net_options, players), 2, NET_MAX_PLAYERS},
      {"--port", offsetof(net_options, port), 1024, 65535},
      {"--ticks", offsetof(net_options, ticks), 1, NET_MAX_TICKS},
      {"--delay", offsetof(net_options, delay), 0, NET_MAX_DELAY},
      {"--desync-at", offsetof(net_options, desync_at), 0, NET_MAX_TICKS},
      {"--tick-ms", offsetof(net_options, tick_ms), 0, NET_MAX_TICK_MS},
      {"--timeout-ms", offsetof(net_options, timeout_ms), 100, 600000},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
    if (strcmp(name, table[i].name) != 0) continue;
    *slot = (long *)(void *)((char *)o + table[i].offset);
    *min = table[i].min, *max = table[i].max;
    return true;
  }
  return false;
}

static int parse(const char *cmd, const char *usage, int argc, char **argv, net_options *o) {
  memset(o, 0, sizeof o[0]);
  o->delay = -1, o->desync_at = -1, o->tick_ms = -1, o->timeout_ms = 5000;  // -1: not given
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i], *v = 0;
    char name[32];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      o->help = 1;
      continue;
    }
    if (strcmp(a, "--rollback") == 0) {
      o->rollback = 1;
      continue;
    }
    if (strncmp(a, "--", 2) != 0) return usage_error(cmd, usage, "unexpected argument", a);
    const char *eq = strchr(a, '=');
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    if (n >= sizeof name) return usage_error(cmd, usage, "unknown option", a);
    memcpy(name, a, n), name[n] = '\0';
    if (eq)
      v = eq + 1;
    else if (i + 1 < argc)
      v = argv[++i];
    else
      return usage_error(cmd, usage, "missing value for", a);
    long *slot, min, max;
    if (strcmp(name, "--scenario") == 0)
      o->scenario = v;
    else if (strcmp(name, "--out") == 0)
      o->out = v;
    else if (strcmp(name, "--host") == 0)
      o->host = v;
    else if (strcmp(name, "--bind") == 0)
      o->bind = v;
    else if (!numeric_option(o, name, &slot, &min, &max))
      return usage_error(cmd, usage, "unknown option", name);
    else if (!number(v, min, max, slot)) {
      char msg[96];
      snprintf(msg, sizeof msg, "%s needs a whole number from %ld to %ld", name, min, max);
      return usage_error(cmd, usage, msg, v);
    }
  }
  return EXIT_OK;
}

// ------------------------------------------------------------------ playing

typedef struct player {
  const scenario *sc;
  fxs_world world;
  void *world_memory;
  fxs_session session;
  void *session_memory;
  scenario_state state;
  fxs_command *commands;  // SCENARIO_MAX_COMMANDS: one tick of the scenario's logic
  fxs_command mine[NET_MAX_COMMANDS];
  int pending;  // commands in mine[] not yet accepted by the session, or -1
  fxs_replay_writer writer;
  uint8_t *scratch;
  size_t scratch_size;
  output out;
  long desync_at;
  bool desync_printed;
  // Why the match stopped early ("lost player 2 at tick 812"), and what we tell the others
  // when we close our links (NET_LEAVE_*).
  char stopped[96];
  uint32_t leave;
  uint8_t buf[NET_PACKET_BYTES];
} player;

// Flips one bit of the first live agent's x position whenever tick `desync_at` is stepped
// (re-simulations included, so a rollback does not undo it).
static void flip_bit(void *user, fxs_world *w, uint32_t tick, bool resimulating) {
  const player *p = (const player *)user;
  (void)resimulating;
  if (p->desync_at < 0 || tick != (uint32_t)p->desync_at) return;
  for (uint32_t i = 0; i < w->capacity.agents; ++i) {
    if (w->agents[i].alive) {
      w->agents[i].body.position.x ^= 1;
      return;
    }
  }
  w->agents[0].generation ^= 1;
}

static bool write_file(void *user, const uint8_t *bytes, size_t size) {
  return fwrite(bytes, 1, size, (FILE *)user) == size;
}

static fxs_session_def session_def(player *p, const match *m) {
  fxs_session_def d = fxs_default_session_def();
  d.mode = m->rollback ? FXS_SESSION_ROLLBACK : FXS_SESSION_LOCKSTEP;
  d.players = m->players;
  d.local = m->index;
  d.session_id = m->session_id;
  d.delay = (uint16_t)m->delay;
  d.window = NET_WINDOW;
  d.max_commands = NET_MAX_COMMANDS;
  d.max_packet_bytes = (uint16_t)NET_PACKET_BYTES;
  d.max_packet_inputs = 64;
  d.max_packet_hashes = 64;
  d.tick_limit = m->ticks;
  d.snapshot_bytes = m->rollback ? p->scratch_size : 0u;
  d.replay = &p->writer;
  d.before_step = flip_bit;
  d.hook_user = p;
  return d;
}

static int player_start(player *p, const match *m, const net_options *o, const char *cmd) {
  memset(p, 0, offsetof(player, buf));
  p->pending = -1;
  p->desync_at = o->desync_at;
  p->sc = scenario_find(m->scenario);
  if (!p->sc)
    return fprintf(stderr, "fixsteer %s: unknown built-in scenario '%s'\n", cmd, m->scenario),
           EXIT_BAD;
  fxs_world_def wd;
  const fxs_world_capacity *cap = &p->sc->capacity;
  p->sc->configure(p->sc, &wd);
  size_t world_size = fxs_world_memory_size(cap);
  p->world_memory = calloc(1, world_size);
  p->commands = malloc(sizeof(fxs_command) * SCENARIO_MAX_COMMANDS);
  if (!p->world_memory || !p->commands ||
      fxs_world_init(&p->world, &wd, cap, p->world_memory, world_size) != FXS_OK) {
    return fprintf(stderr, "fixsteer %s: cannot set up the world\n", cmd), EXIT_BAD;
  }
  p->sc->add_paths(p->sc, &p->world);
  // Room for the fullest state the scenario can reach: every agent alive with a full set.
  p->scratch_size = fxs_world_snapshot_size(&p->world) + (size_t)cap->agents * 512u +
                    (size_t)cap->obstacles * 16u + (size_t)cap->walls * 24u +
                    (size_t)cap->field_cells * 8u + 4096u;
  p->scratch = malloc(p->scratch_size);
  if (!p->scratch || !output_open(&p->out, o->out)) return EXIT_BAD;
  if (fxs_replay_writer_begin(&p->writer, write_file, p->out.f, &p->world, 250, p->scratch,
                              p->scratch_size) != FXS_OK) {
    return fprintf(stderr, "fixsteer %s: cannot write %s\n", cmd, o->out), EXIT_BAD;
  }
  fxs_session_def d = session_def(p, m);
  size_t need = fxs_session_memory_size(&d);
  p->session_memory = need ? calloc(1, need) : 0;
  if (!p->session_memory || fxs_session_init(&p->session, &d, p->session_memory, need) != FXS_OK) {
    return fprintf(stderr, "fixsteer %s: cannot set up the session\n", cmd), EXIT_BAD;
  }
  return EXIT_OK;
}

static void player_end(player *p) {
  free(p->world_memory);
  free(p->session_memory);
  free(p->commands);
  free(p->scratch);
}

// The player owning a command: its agent's slot modulo the players (no agent: player 0).
static uint32_t owner(const fxs_command *c, uint32_t players) {
  uint32_t slot = c->agent & 0xFFFFu;
  return slot ? (slot - 1u) % players : 0u;
}

// Runs the scenario's logic on the world now (tick w) and keeps this player's share of its
// commands for tick w + delay. Tick 0 is the set-up, all of it player 0's; ticks 1..delay
// see a world the set-up has not reached yet, so the logic waits.
static int collect(player *p, const match *m, const char *cmd) {
  uint32_t w = p->world.tick, n = 0;
  if (w != 0 && w <= m->delay) return 0;
  uint32_t all = p->sc->commands(p->sc, &p->world, &p->state, p->commands);
  for (uint32_t i = 0; i < all; ++i) {
    bool mine = w == 0 ? m->index == 0 : owner(&p->commands[i], m->players) == m->index;
    if (!mine) continue;
    if (n == NET_MAX_COMMANDS) {
      fprintf(stderr,
              "fixsteer %s: the scenario issues more than %d commands for one player in a tick\n",
              cmd, NET_MAX_COMMANDS);
      exit(EXIT_BAD);
    }
    p->mine[n++] = p->commands[i];
  }
  return (int)n;
}

// Submits (once the logic has run for this tick) and tries to step one tick.
static fxs_result tick_once(player *p, const match *m, uint32_t now, const char *cmd) {
  if (p->pending < 0 && fxs_session_wants_input(&p->session)) p->pending = collect(p, m, cmd);
  if (p->pending >= 0) {
    fxs_result r = fxs_session_submit(&p->session, p->mine, (uint32_t)p->pending);
    if (r == FXS_OK)
      p->pending = -1;
    else if (r != FXS_ERR_FULL)
      return r;
  }
  return fxs_session_advance(&p->session, &p->world, now);
}

static void send_all(player *p, match *m, uint32_t now) {
  for (uint8_t q = 0; q < m->players; ++q) {
    size_t len = 0;
    if (q == m->index || !m->links[q]) continue;
    if (fxs_session_poll_send(&p->session, q, now, p->buf, sizeof p->buf, &len) == FXS_OK && len) {
      enet_peer_send(m->links[q], 0, enet_packet_create(p->buf, len, ENET_PACKET_FLAG_UNSEQUENCED));
    }
  }
  enet_host_flush(m->host);
}

// True when peer q has given us everything of the match.
static bool finished(const player *p, uint32_t q) {
  return p->session.peers[q].hashes_compared >= p->session.def.tick_limit;
}

// Ends the match early: notes why (for the last word and the others) and says it now.
static int stop(player *p, uint32_t leave, const char *cmd, const char *why) {
  if (leave >= NET_LEAVE_LOST) {
    snprintf(p->stopped, sizeof p->stopped, "lost player %u at tick %u", leave - NET_LEAVE_LOST,
             p->session.current);
  } else {
    snprintf(p->stopped, sizeof p->stopped, "stopped at tick %u", p->session.current);
  }
  p->leave = leave;
  fprintf(stderr, "fixsteer %s: %s: %s\n", cmd, p->stopped, why);
  return EXIT_NET;
}

// Peer q disconnected before the end. When it left because it lost another player, that
// player is the one named, so that every survivor names the same one.
static int peer_left(player *p, const match *m, uint32_t q, uint32_t data, const char *cmd) {
  char why[96];
  uint32_t r = data - NET_LEAVE_LOST;
  if (data >= NET_LEAVE_LOST && r < m->players && r != m->index && r != q) {
    snprintf(why, sizeof why, "player %u left, having lost it", q);
    return stop(p, data, cmd, why);
  }
  return stop(p, NET_LEAVE_LOST + q, cmd, net_leave_reason(data, why, sizeof why));
}

// Waits up to wait_ms for ENet events and handles them all. EXIT_NET when a peer we still
// need disconnects.
static int pump(player *p, match *m, uint32_t wait_ms, const char *cmd) {
  ENetEvent ev;
  int r = enet_host_service(m->host, &ev, wait_ms);
  for (; r > 0; r = enet_host_service(m->host, &ev, 0)) {
    int q = net_link_index(ev.peer);
    if (ev.type == ENET_EVENT_TYPE_RECEIVE) {
      if (q >= 0 && q < m->players && q != m->index && ev.channelID == 0) {
        fxs_session_receive(&p->session, (uint8_t)q, ev.packet->data, ev.packet->dataLength,
                            enet_time_get());
      }
      enet_packet_destroy(ev.packet);
    } else if (ev.type == ENET_EVENT_TYPE_DISCONNECT && q >= 0 && q < m->players) {
      m->links[q] = 0;
      if (!finished(p, (uint32_t)q)) return peer_left(p, m, (uint32_t)q, ev.data, cmd);
    }
  }
  return r < 0 ? stop(p, NET_LEAVE_FAILED, cmd, "the network failed") : EXIT_OK;
}

// A peer silent for longer than the timeout (and not finished) is lost.
static int check_peers(player *p, match *m, uint32_t now, uint32_t timeout, const char *cmd) {
  fxs_session_wait w;
  fxs_session_wait_info(&p->session, now, &w);
  for (uint32_t q = 0; q < m->players; ++q) {
    if (q == m->index || finished(p, q) || w.silent_ms[q] <= timeout) continue;
    char why[64];
    snprintf(why, sizeof why, "no packet for %u ms%s", w.silent_ms[q],
             w.waiting && (w.missing >> q & 1u) ? ", its input is missing" : "");
    return stop(p, NET_LEAVE_LOST + q, cmd, why);
  }
  return EXIT_OK;
}

static void print_desync(player *p, const char *cmd) {
  const fxs_session_desync *d = fxs_session_desync_report(&p->session);
  if (!d || p->desync_printed) return;
  p->desync_printed = true;
  printf("%s: DESYNC at tick %u: our hash 0x%016llx, differing peers:", cmd, d->tick,
         (unsigned long long)d->local_hash);
  for (uint32_t q = 0; q < FXS_SESSION_MAX_PEERS; ++q) {
    if (d->peers >> q & 1u) printf(" %u (0x%016llx)", q, (unsigned long long)d->remote_hash[q]);
  }
  printf("\n");
  fflush(stdout);
}

// True when every peer still connected holds all our inputs and hashes and has its own
// acknowledged. A peer that has left did so complete, so it had everything of ours.
static bool settled_with_everyone(const player *p, const match *m) {
  const fxs_session *s = &p->session;
  for (uint32_t q = 0; q < m->players; ++q) {
    const fxs_session_peer *pe = &s->peers[q];
    if (q == m->index || !m->links[q]) continue;
    if (pe->dirty || pe->acked_inputs < s->peers[m->index].received ||
        pe->acked_hashes < s->settled)
      return false;
  }
  return true;
}

// The game loop: one tick every tick_ms (0: as fast as the inputs allow), packets in and
// out every pass, until every peer's hashes of every tick are compared. Then lingers up to
// a second until the peers have acknowledged all of ours, so they can finish too.
static int loop(player *p, match *m, const net_options *o, const char *cmd) {
  uint32_t next = enet_time_get(), complete_at = 0, last_move = next, mark = 0;
  uint32_t timeout = (uint32_t)o->timeout_ms;
  for (;;) {
    uint32_t now = enet_time_get();
    bool due = m->tick_ms == 0 || (int32_t)(now - next) >= 0;
    if (due) {
      fxs_result r = tick_once(p, m, now, cmd);
      if (r == FXS_OK) {
        next += m->tick_ms;
        if ((int32_t)(now - next) > 250) next = now;  // do not race to catch up after a long stall
      } else if (r != FXS_ERR_WAITING && r != FXS_ERR_LIMIT) {
        fprintf(stderr, "fixsteer %s: the session stopped at tick %u: %s\n", cmd,
                p->session.current, fxs_result_message(r));
        return EXIT_BAD;
      }
    }
    send_all(p, m, now);
    print_desync(p, cmd);
    uint32_t moved = p->session.current + p->session.settled;
    if (moved != mark) mark = moved, last_move = now;
    if (fxs_session_complete(&p->session)) {
      if (!complete_at) complete_at = now;
      if (settled_with_everyone(p, m) || now - complete_at > 1000u) return EXIT_OK;
    } else if (now - last_move > 2u * timeout) {
      char why[64];
      snprintf(why, sizeof why, "no progress for %u ms", now - last_move);
      return stop(p, NET_LEAVE_FAILED, cmd, why);
    }
    int code = check_peers(p, m, now, timeout, cmd);
    uint32_t wait = m->tick_ms == 0 ? 1u : (due ? 0u : (next - now > 5u ? 5u : next - now));
    if (code == EXIT_OK) code = pump(p, m, wait, cmd);
    if (code != EXIT_OK) return code;
  }
}

static void report(const player *p, const match *m, const char *cmd, const char *out, uint32_t ms) {
  const fxs_session *s = &p->session;
  uint64_t bytes = 0;
  uint32_t rtt = 0;
  for (uint32_t q = 0; q < m->players; ++q) {
    bytes += s->peers[q].bytes_sent;
    if (s->peers[q].rtt_ms > rtt) rtt = s->peers[q].rtt_ms;
  }
  printf(
      "%s: player %u of %u, %s, delay %u, %u ticks in %.1f s, final hash 0x%016llx, "
      "%.1f bytes per tick per peer, %u stalls (%u ms), %u rollbacks (%u ticks re-simulated, "
      "deepest %u), "
      "round trip <= %u ms, replay %s",
      cmd, m->index, m->players, m->rollback ? "rollback" : "lockstep", m->delay, s->settled,
      ms / 1000.0, (unsigned long long)s->def.replay->last_hash,
      (double)bytes / (s->settled ? s->settled : 1u) / (m->players - 1u), s->stats.stalls,
      s->stats.stall_ms, s->stats.rollbacks, s->stats.resimulated, s->stats.max_rollback, rtt, out);
  const fxs_session_desync *d = fxs_session_desync_report(s);
  if (d) {
    printf(", desync at tick %u with peers", d->tick);
    for (uint32_t q = 0; q < FXS_SESSION_MAX_PEERS; ++q) {
      if (d->peers >> q & 1u) printf(" %u", q);
    }
  }
  printf("\n");
}

// After a lost peer: ends the replay at the last settled tick, so that it verifies; NULL when
// it did, else why not. The END chunk holds the hash of the world it is given, which must be
// the state after the last recorded tick. In lockstep the world is there (every step settles
// at once); in rollback it may be up to max_prediction ticks ahead, and the session's
// snapshot ring holds the state at the start of every tick stepped on a prediction, the
// first unsettled one included.
static const char *end_at_settled(player *p) {
  const fxs_session *s = &p->session;
  uint32_t t = s->settled;
  if (t == 0) return "no tick was settled";
  if (p->writer.ticks != t) return "the replay does not hold every settled tick";
  if (p->world.tick != t) {
    uint32_t slot = s->snapshot_slots ? t % s->snapshot_slots : 0u;
    if (!s->snapshot_slots || s->snapshot_ticks[slot] != t) return "the settled state is not kept";
    const uint8_t *state = s->snapshots + (size_t)slot * s->def.snapshot_bytes;
    if (fxs_world_restore(&p->world, state, s->snapshot_sizes[slot], 0) != FXS_OK)
      return "the settled state does not restore";
  }
  if (fxs_world_hash(&p->world) != p->writer.last_hash)
    return "the settled state differs from the last recorded tick";
  return fxs_replay_writer_end(&p->writer, &p->world) == FXS_OK ? 0 : "the replay cannot be ended";
}

// Plays the match and writes the replay; the exit code says how it ended. A lost peer still
// leaves a replay, up to the last settled tick.
static int run_match(match *m, const net_options *o, const char *cmd) {
  static player p;
  uint32_t start = enet_time_get();
  int code = player_start(&p, m, o, cmd);
  bool begun = code == EXIT_OK, early = false;
  if (begun) code = loop(&p, m, o, cmd);
  const char *why_not = "the match failed";
  if (code == EXIT_OK)
    why_not = fxs_replay_writer_end(&p.writer, &p.world) == FXS_OK ? 0 : why_not;
  else if (code == EXIT_NET && begun)
    early = true, why_not = end_at_settled(&p);
  bool saved = p.out.f && output_finish(&p.out, !why_not) && !why_not;
  if (code == EXIT_OK && !saved) code = EXIT_BAD;
  if (code == EXIT_OK) {
    report(&p, m, cmd, o->out, enet_time_get() - start);
    if (fxs_session_desync_report(&p.session)) code = EXIT_DESYNC;
  } else if (early && saved) {
    fprintf(stderr, "fixsteer %s: %s: replay written up to tick %u (%s)\n", cmd, p.stopped,
            p.session.settled, o->out);
  } else if (early) {
    fprintf(stderr, "fixsteer %s: %s: no replay written: %s\n", cmd, p.stopped,
            why_not ? why_not : "the file cannot be written");
  }
  uint32_t leave = code == EXIT_OK || code == EXIT_DESYNC ? NET_LEAVE_DONE
                   : p.leave                              ? p.leave
                                                          : NET_LEAVE_FAILED;
  net_leave(m, leave);
  player_end(&p);
  return code;
}

static int start_enet(const char *cmd) {
  if (enet_initialize() != 0)
    return fprintf(stderr, "fixsteer %s: cannot start ENet\n", cmd), EXIT_NET;
  atexit(enet_deinitialize);
  return EXIT_OK;
}

// Opens the ENet host this process plays through, on `at`; says so when it cannot.
static int listen_at(match *m, const char *cmd, ENetAddress at, const char *bind, uint16_t *bound) {
  char ip[NET_IP_BYTES];
  m->host = net_listen(&at, bound);
  if (m->host && (!bound || *bound)) return EXIT_OK;
  fprintf(stderr, "fixsteer %s: cannot listen on %s:%u%s%s%s\n", cmd, net_ip(at.host, ip), at.port,
          bind ? " (--bind " : "", bind ? bind : "", bind ? ")" : "");
  return EXIT_NET;
}

int cmd_host(int argc, char **argv) {
  net_options o;
  if (parse("host", CMD_NET_HOST_USAGE, argc, argv, &o) != EXIT_OK) return EXIT_BAD;
  if (o.help) return printf("usage: %s\n%s\n", CMD_NET_HOST_USAGE, CMD_NET_HOST_SUMMARY), EXIT_OK;
  if (!o.players || !o.port || !o.scenario || !o.ticks || !o.out) {
    return usage_error("host", CMD_NET_HOST_USAGE,
                       "needs --players, --port, --scenario, --ticks and --out", 0);
  }
  if (o.host) {
    return usage_error("host", CMD_NET_HOST_USAGE,
                       "the host listens on --bind ADDRESS (--host is the joiners' option)", 0);
  }
  if (o.delay < 0) o.delay = 2;
  if (o.tick_ms < 0) o.tick_ms = 16;
  if (!scenario_find(o.scenario) || strlen(o.scenario) >= NET_SCENARIO_BYTES) {
    return usage_error("host", CMD_NET_HOST_USAGE, "not a built-in scenario (see: fixsteer list)",
                       o.scenario);
  }
  if (start_enet("host") != EXIT_OK) return EXIT_NET;
  match m;
  memset(&m, 0, sizeof m);
  ENetAddress at;
  int code = net_resolve("host", "--bind", o.bind ? o.bind : "127.0.0.1", &at);
  if (code != EXIT_OK) return code;
  at.port = (uint16_t)o.port;
  if (listen_at(&m, "host", at, o.bind, 0) != EXIT_OK) return EXIT_NET;
  m.players = (uint8_t)o.players, m.ticks = (uint32_t)o.ticks, m.delay = (uint32_t)o.delay;
  m.rollback = o.rollback, m.tick_ms = (uint32_t)o.tick_ms;
  m.session_id = (enet_time_get() ^ ((uint32_t)getpid() * 2654435761u)) | 1u;
  snprintf(m.scenario, sizeof m.scenario, "%s", o.scenario);
  uint32_t wait = 4u * (uint32_t)o.timeout_ms;
  code = net_host_lobby(&m, wait);
  if (code == EXIT_OK) code = net_link_players(&m, wait, "host");
  if (code == EXIT_OK)
    code = run_match(&m, &o, "host");
  else
    net_leave(&m, NET_LEAVE_FAILED);
  enet_host_destroy(m.host);
  return code;
}

int cmd_join(int argc, char **argv) {
  net_options o;
  if (parse("join", CMD_NET_JOIN_USAGE, argc, argv, &o) != EXIT_OK) return EXIT_BAD;
  if (o.help) return printf("usage: %s\n%s\n", CMD_NET_JOIN_USAGE, CMD_NET_JOIN_SUMMARY), EXIT_OK;
  if (!o.host || !o.port || !o.out)
    return usage_error("join", CMD_NET_JOIN_USAGE, "needs --host, --port and --out", 0);
  if (o.players || o.scenario || o.ticks || o.rollback || o.delay >= 0 || o.tick_ms >= 0) {
    return usage_error("join", CMD_NET_JOIN_USAGE,
                       "the host chooses players, scenario, ticks, delay and mode", 0);
  }
  if (start_enet("join") != EXIT_OK) return EXIT_NET;
  ENetAddress host, at;
  int code = net_resolve("join", "--host", o.host, &host);
  if (code == EXIT_OK && host.host == 0) {
    fprintf(stderr, "fixsteer join: --host %s: not an address to connect to\n", o.host);
    code = EXIT_BAD;
  }
  // Unless told, listen where the host can reach us: on loopback for a host on this
  // machine, else on every interface (a socket bound to loopback reaches no other machine).
  const char *own = o.bind ? o.bind : net_is_loopback(host.host) ? "127.0.0.1" : "0.0.0.0";
  if (code == EXIT_OK) code = net_resolve("join", "--bind", own, &at);
  if (code != EXIT_OK) return code;
  host.port = (uint16_t)o.port, at.port = 0;
  match m;
  memset(&m, 0, sizeof m);
  uint16_t port = 0;
  if (listen_at(&m, "join", at, o.bind, &port) != EXIT_OK) return EXIT_NET;
  uint32_t wait = 4u * (uint32_t)o.timeout_ms;
  code = net_join_lobby(&m, &host, port, wait);
  if (code == EXIT_OK) code = net_link_players(&m, wait, "join");
  if (code == EXIT_OK)
    code = run_match(&m, &o, "join");
  else
    net_leave(&m, NET_LEAVE_FAILED);
  enet_host_destroy(m.host);
  return code;
}

#endif
