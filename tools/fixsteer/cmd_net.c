// fixsteer host / join (cmd_net.h). The transport is ENet over IPv4: the host listens on
// --bind:--port (127.0.0.1 unless told); every joiner listens on a port of its own and
// connects to the host, which numbers the players in the order they connect and, once all
// are there, sends each one the match (net_lobby.c, net_message.c): scenario, ticks, delay,
// mode, session id, the spectator slots, how long a player that left may take to come back,
// the progress bound, and where every joiner listens as the host saw it. The joiners then
// connect to each other, so every pair of players has a link, and the match starts. Game
// packets are fxs_session packets sent unreliable and unsequenced on channel 0 (the session
// resends what is lost); the match message, the news of joins and the join offers go
// reliable on channel 1.
//
// This file reads the options and runs the game loop; net_play.c holds the process's world,
// session, inputs (ownership) and report; net_roster.c the other peers (leaving, coming back,
// spectators arriving); net_join.c the join offers. Every process records the match as a
// replay; when the match ends early, the replay ends at the last settled tick, so that it
// still verifies.
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

#include "fixsteer/fixsteer.h"
#include "fixsteer/session.h"
#include "fixsteer/hash.h"
#include "cli.h"
#include "net.h"
#include "net_settings.h"
#include "net_play.h"
#include "scenario.h"
#include "scenario_file.h"

// ------------------------------------------------------------------ options

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
      {"--spectators", offsetof(net_options, spectators), 0, NET_MAX_SPECTATORS},
      {"--rejoin-ms", offsetof(net_options, rejoin_ms), 0, NET_MAX_WAIT_MS},
      {"--progress-window-ms", offsetof(net_options, progress_window_ms), 0, NET_MAX_WAIT_MS},
      {"--progress-min-ticks", offsetof(net_options, progress_min_ticks), 1, NET_MAX_TICKS},
      // Test hooks (docs/lockstep.md): command another player's agent at a tick; from a tick
      // on, send one input just inside each time-out.
      {"--cheat-at", offsetof(net_options, cheat_at), 0, NET_MAX_TICKS},
      {"--drip-at", offsetof(net_options, drip_at), 0, NET_MAX_TICKS},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
    if (strcmp(name, table[i].name) != 0) continue;
    *slot = (long *)(void *)((char *)o + table[i].offset);
    *min = table[i].min, *max = table[i].max;
    return true;
  }
  return false;
}

static int parse(const char *cmd, int argc, char **argv, net_options *o) {
  memset(o, 0, sizeof o[0]);
  o->delay = -1, o->desync_at = -1, o->tick_ms = -1,
  o->timeout_ms = NET_DEFAULT_TIMEOUT_MS; // -1: not given
  o->spectators = -1, o->rejoin_ms = -1, o->progress_window_ms = -1, o->progress_min_ticks = -1;
  o->cheat_at = -1, o->drip_at = -1;
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
    if (strcmp(a, "--spectate") == 0) {
      o->spectate = 1;
      continue;
    }
    if (strncmp(a, "--", 2) != 0) return fail_usage(cmd, "unexpected argument", a);
    const char *eq = strchr(a, '=');
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    if (n >= sizeof name) return fail_usage(cmd, "unknown option", a);
    memcpy(name, a, n), name[n] = '\0';
    if (eq) v = eq + 1;
    else if (i + 1 < argc) v = argv[++i];
    else return fail_usage(cmd, "missing value for", a);
    long *slot, min, max;
    if (strcmp(name, "--scenario") == 0) o->scenario = v;
    else if (strcmp(name, "--out") == 0) o->out = v;
    else if (strcmp(name, "--host") == 0) o->host = v;
    else if (strcmp(name, "--bind") == 0) o->bind = v;
    else if (strcmp(name, "--status") == 0) // test hook: the last settled tick, now and then
      o->status = v;
    else if (!numeric_option(o, name, &slot, &min, &max))
      return fail_usage(cmd, "unknown option", name);
    else if (!number(v, min, max, slot)) {
      char msg[96];
      snprintf(msg, sizeof msg, "%s needs a whole number from %ld to %ld", name, min, max);
      return fail_usage(cmd, msg, v);
    }
  }
  return EXIT_OK;
}

// ------------------------------------------------------------------ the scene

#ifndef FXS_TOOL_NO_YAML
// Reads all of `f`, at most `limit` bytes; NULL (and errno, or EFBIG) when it cannot.
static unsigned char *read_all(FILE *f, size_t limit, size_t *size) {
  size_t cap = 0, n = 0;
  unsigned char *data = 0;
  for (;;) {
    if (n == cap) {
      // Doubling up to one byte past the limit: enough to tell a file over it.
      size_t grow = !cap ? 65536u : cap > limit / 2u ? limit + 1u : cap * 2u;
      unsigned char *more = realloc(data, grow);
      if (!more) return free(data), errno = ENOMEM, NULL;
      data = more, cap = grow;
    }
    size_t got = fread(data + n, 1, cap - n, f);
    n += got;
    if (n > limit) return free(data), errno = EFBIG, NULL;
    if (got == 0) break;
  }
  if (ferror(f)) {
    int why = errno;
    free(data);
    errno = why ? why : EIO;
    return NULL;
  }
  *size = n;
  return data;
}

// A scene file's name in the match message: its base name, printable and without spaces.
static void scene_name(const char *path, char *out) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = 0;
  for (; base[n] && n + 1u < NET_SCENARIO_BYTES; ++n) {
    unsigned char c = (unsigned char)base[n];
    out[n] = c > 0x20 && c < 0x7F ? (char)c : '_';
  }
  out[n] = '\0';
  if (n == 0) snprintf(out, NET_SCENARIO_BYTES, "scene");
}
#endif

// The scene --scenario names: a built-in scenario, or a scene file read whole (within the
// scene reader's byte limit), hashed (FNV-1a 64 of its bytes: what the match message
// carries, so that every process plays the same file) and loaded from those same bytes.
// Prints what is wrong and returns EXIT_BAD.
static int load_scene(const char *cmd, const char *path, match *m) {
  m->scene_given = true;
  if (scenario_find(path) && strlen(path) < NET_SCENARIO_BYTES) {
    snprintf(m->scenario, sizeof m->scenario, "%s", path);
    return EXIT_OK;
  }
#ifdef FXS_TOOL_NO_YAML
  fprintf(stderr,
          "fixsteer %s: --scenario %s: not a built-in scenario, and this fixsteer was built "
          "without scene files (NO_YAML=1)\n",
          cmd, path);
  return EXIT_BAD;
#else
  FILE *f = fopen(path, "rb");
  size_t size = 0;
  unsigned char *data = f ? read_all(f, SCENARIO_FILE_MAX_BYTES, &size) : 0;
  int why = errno;
  if (f) fclose(f);
  if (!data) {
    fprintf(stderr,
            "fixsteer %s: --scenario %s: not a built-in scenario (see: fixsteer list)%s%s\n", cmd,
            path, f ? " and the file cannot be read: " : " nor a file: ",
            why == EFBIG ? "larger than the scene reader's 64 MiB" : strerror(why));
    return EXIT_BAD;
  }
  fxs_hasher h = fxs_hasher_make();
  fxs_hash_bytes(&h, data, size);
  char error[512];
  const scenario *sc = scenario_file_load_buffer(path, data, size, 0, error, sizeof error);
  free(data);
  if (!sc) return fprintf(stderr, "fixsteer %s: %s\n", cmd, error), EXIT_BAD;
  m->scene = sc, m->scene_file = true, m->scene_hash = h.state;
  scene_name(path, m->scenario);
  return EXIT_OK;
#endif
}

// Frees the scene file a process loaded.
static void free_scene(match *m) {
#ifndef FXS_TOOL_NO_YAML
  if (m->scene) scenario_file_free(m->scene);
#endif
  m->scene = 0;
}

// ------------------------------------------------------------------ playing

static void send_all(player *p, match *m, uint32_t now) {
  for (uint8_t q = 0; q < net_peer_count(m); ++q) {
    size_t len = 0;
    if (q == m->index || !m->links[q]) continue;
    if (fxs_session_poll_send(&p->session, q, now, p->buf, sizeof p->buf, &len) == FXS_OK && len) {
      enet_peer_send(m->links[q], 0, enet_packet_create(p->buf, len, ENET_PACKET_FLAG_UNSEQUENCED));
    }
  }
  enet_host_flush(m->host);
}

// The progress bound stopped the match: names every peer that held it back ("dropped player
// 2: the match settled 3 ticks in the last 2000 ms (floor 100), waiting on its input").
static int dropped(player *p, const match *m, uint32_t now, const char *cmd) {
  const fxs_session *s = &p->session;
  fxs_session_wait w;
  fxs_session_wait_info(s, now, &w);
  uint32_t first = m->index;
  char name[16];
  for (uint32_t q = 0; q < net_peer_count(m); ++q) {
    if (!(s->stalled_peers >> q & 1u)) continue;
    if (first == m->index) first = q;
    fprintf(stderr,
            "fixsteer %s: dropped %s: the match settled %u ticks in the last %u ms (floor %u), "
            "waiting on %s\n",
            cmd, player_peer_name(m, q, name), s->settled - s->progress_since,
            now - s->progress_since_ms, s->def.progress_min_ticks,
            q == m->index           ? "our own input"
            : (w.missing >> q & 1u) ? "its input"
                                    : "its hashes");
  }
  snprintf(p->stopped, sizeof p->stopped, "dropped %s at tick %u", player_peer_name(m, first, name),
           s->current);
  p->leave = NET_LEAVE_DROPPED + first;
  return EXIT_NET;
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
// acknowledged. A peer that left is not waited for.
static bool settled_with_everyone(const player *p, const match *m) {
  const fxs_session *s = &p->session;
  for (uint32_t q = 0; q < net_peer_count(m); ++q) {
    const fxs_session_peer *pe = &s->peers[q];
    if (q == m->index || !m->links[q] || p->peer_state[q] != PEER_PRESENT) continue;
    if (pe->dirty || pe->acked_inputs < s->peers[m->index].received ||
        pe->acked_hashes < s->settled)
      return false;
  }
  return true;
}

// The game loop: one tick every tick_ms (0: as fast as the inputs allow), packets in and
// out every pass, until every peer's hashes of every tick are compared. Then lingers up to
// a second until the peers have acknowledged all of ours, so they can finish too. While a
// player is away or a peer joins, the match pauses on purpose: the progress bound and the
// no-progress check are excused.
static int loop(player *p, match *m, const char *cmd) {
  uint32_t next = enet_time_get(), complete_at = 0, last_move = next, mark = 0;
  for (;;) {
    uint32_t now = enet_time_get();
    // The roster first: a peer silent past the time-out is away (or lost) before the progress
    // bound looks at the stall it causes, so that when both fall due in one pass (a process
    // the machine held up) the time-out judges the silent peer and its pause is excused.
    int code = roster_check(p, m, now, cmd);
    if (code != EXIT_OK) return code;
    bool paused = roster_paused(p, m), due = m->tick_ms == 0 || (int32_t)(now - next) >= 0;
    if (paused) fxs_session_restart_progress(&p->session, now), last_move = now;
    if (due) {
      fxs_result r = player_tick(p, m, now, roster_holding(p, m), cmd);
      if (r == FXS_OK) {
        next += m->tick_ms;
        if ((int32_t)(now - next) > 250) next = now; // do not race to catch up after a long stall
      } else if (r == FXS_ERR_STALLED) {
        return dropped(p, m, now, cmd);
      } else if (r != FXS_ERR_WAITING && r != FXS_ERR_LIMIT) {
        fprintf(stderr, "fixsteer %s: the session stopped at tick %u: %s\n", cmd,
                p->session.current, fxs_result_message(r));
        return EXIT_BAD;
      }
    }
    send_all(p, m, now);
    print_desync(p, cmd);
    player_write_status(p, now);
    uint32_t moved = p->session.current + p->session.settled;
    if (moved != mark) mark = moved, last_move = now;
    if (fxs_session_complete(&p->session)) {
      if (!complete_at) complete_at = now;
      if (settled_with_everyone(p, m) || now - complete_at > 1000u) return EXIT_OK;
    } else if (now - last_move > 2u * p->timeout_ms) {
      char why[64];
      snprintf(why, sizeof why, "no progress for %u ms", now - last_move);
      return player_stop(p, NET_LEAVE_FAILED, cmd, "stopped", why);
    }
    uint32_t wait = m->tick_ms == 0 ? 1u : (due ? 0u : (next - now > 5u ? 5u : next - now));
    code = roster_pump(p, m, wait, cmd);
    if (code != EXIT_OK) return code;
  }
}

// Plays the match and writes the replay; the exit code says how it ended. A match that ends
// early (a peer lost, or dropped by the progress bound) still leaves a replay, up to the last
// settled tick.
static int run_match(match *m, const net_options *o, const char *cmd) {
  static player p;
  uint32_t start = enet_time_get();
  int code = player_start(&p, m, o, cmd);
  bool begun = code == EXIT_OK, early = false;
  if (begun) code = loop(&p, m, cmd);
  const char *why_not = "the match failed";
  if (code == EXIT_OK) why_not = fxs_replay_writer_end(&p.writer, &p.world) == FXS_OK ? 0 : why_not;
  else if (code == EXIT_NET && begun) early = true, why_not = player_end_at_settled(&p);
  bool saved = p.out.f && output_finish(&p.out, !why_not) && !why_not;
  if (code == EXIT_OK && !saved) code = EXIT_BAD;
  if (code == EXIT_OK) {
    player_report(&p, m, cmd, o->out, enet_time_get() - start);
    if (fxs_session_desync_report(&p.session)) code = EXIT_DIVERGED;
  } else if (early && saved) {
    fprintf(stderr, "fixsteer %s: %s: replay written up to tick %u (%s)\n", cmd, p.stopped,
            p.session.settled, o->out);
  } else if (early) {
    fprintf(stderr, "fixsteer %s: %s: no replay written: %s\n", cmd, p.stopped,
            why_not ? why_not : "the file cannot be written");
  }
  uint32_t leave = code == EXIT_OK || code == EXIT_DIVERGED ? NET_LEAVE_DONE
                   : p.leave                                ? p.leave
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

// The host's settings of the match from its options, with their defaults: the progress
// floor is a quarter of the ticks the window holds at the tick rate (the library's 20 when
// ticks are not paced).
static void host_settings(match *m, const net_options *o) {
  m->players = (uint8_t)o->players, m->ticks = (uint32_t)o->ticks;
  m->spectators = (uint8_t)(o->spectators < 0 ? 0 : o->spectators);
  m->delay = (uint32_t)(o->delay < 0 ? NET_DEFAULT_DELAY : o->delay);
  m->tick_ms = (uint32_t)(o->tick_ms < 0 ? NET_DEFAULT_TICK_MS : o->tick_ms);
  m->rollback = o->rollback;
  m->rejoin_ms = (uint32_t)(o->rejoin_ms < 0 ? NET_DEFAULT_REJOIN_MS : o->rejoin_ms);
  m->progress_window_ms = (uint32_t)(o->progress_window_ms < 0 ? NET_DEFAULT_PROGRESS_WINDOW_MS
                                                               : o->progress_window_ms);
  uint32_t floor =
      m->tick_ms ? m->progress_window_ms / m->tick_ms / 4u : NET_DEFAULT_PROGRESS_UNPACED;
  m->progress_min_ticks = o->progress_min_ticks > 0 ? (uint32_t)o->progress_min_ticks
                          : floor                   ? floor
                                                    : 1u;
  m->session_id = (enet_time_get() ^ ((uint32_t)getpid() * 2654435761u)) | 1u;
}

int cmd_host(int argc, char **argv) {
  net_options o;
  if (parse("host", argc, argv, &o) != EXIT_OK) return EXIT_BAD;
  if (o.help) return print_command_help("host", stdout);
  if (!o.players || !o.port || !o.scenario || !o.ticks || !o.out) {
    return fail_usage("host", "needs --players, --port, --scenario, --ticks and --out", 0);
  }
  if (o.host || o.spectate) {
    return fail_usage("host",
                      "the host listens on --bind ADDRESS and plays (--host and --spectate are "
                      "the joiners' options)",
                      0);
  }
  match m;
  memset(&m, 0, sizeof m);
  if (load_scene("host", o.scenario, &m) != EXIT_OK) return EXIT_BAD;
  if (m.scene_file)
    fprintf(stderr, "fixsteer host: scene file %s (%s), hash 0x%016llx\n", o.scenario, m.scenario,
            (unsigned long long)m.scene_hash);
  int code = start_enet("host");
  ENetAddress at;
  if (code == EXIT_OK)
    code = net_resolve("host", "--bind", o.bind ? o.bind : NET_DEFAULT_BIND, &at);
  at.port = (uint16_t)o.port;
  if (code == EXIT_OK && listen_at(&m, "host", at, o.bind, 0) != EXIT_OK) code = EXIT_NET;
  if (code != EXIT_OK) return free_scene(&m), code;
  host_settings(&m, &o);
  uint32_t wait = 4u * (uint32_t)o.timeout_ms;
  code = net_host_lobby(&m, wait);
  if (code == EXIT_OK) code = net_link_players(&m, wait, "host");
  if (code == EXIT_OK) code = run_match(&m, &o, "host");
  else net_leave(&m, NET_LEAVE_FAILED);
  enet_host_destroy(m.host);
  free_scene(&m);
  return code;
}

int cmd_join(int argc, char **argv) {
  net_options o;
  if (parse("join", argc, argv, &o) != EXIT_OK) return EXIT_BAD;
  if (o.help) return print_command_help("join", stdout);
  if (!o.host || !o.port || !o.out) return fail_usage("join", "needs --host, --port and --out", 0);
  if (o.players || o.ticks || o.rollback || o.delay >= 0 || o.tick_ms >= 0 || o.spectators >= 0 ||
      o.rejoin_ms >= 0 || o.progress_window_ms >= 0 || o.progress_min_ticks >= 0) {
    return fail_usage("join",
                      "the host chooses players, spectators, scenario, ticks, delay, mode, "
                      "--rejoin-ms and the progress bound (--scenario names the scene file the "
                      "host plays, which the joiner must hold)",
                      0);
  }
  match m;
  memset(&m, 0, sizeof m);
  if (o.scenario && load_scene("join", o.scenario, &m) != EXIT_OK) return EXIT_BAD;
  if (start_enet("join") != EXIT_OK) return free_scene(&m), EXIT_NET;
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
  if (code != EXIT_OK) return free_scene(&m), code;
  host.port = (uint16_t)o.port, at.port = 0;
  uint16_t port = 0;
  if (listen_at(&m, "join", at, o.bind, &port) != EXIT_OK) return free_scene(&m), EXIT_NET;
  uint32_t wait = 4u * (uint32_t)o.timeout_ms;
  code = net_join_lobby(&m, &host, port | (o.spectate ? NET_CONNECT_SPECTATE : 0u), wait);
  // In a match under way the peers connect to us, to send their offers (net_join.c).
  if (code == EXIT_OK && !m.late) code = net_link_players(&m, wait, "join");
  if (code == EXIT_OK && o.spectate && m.index < m.players) {
    fprintf(stderr, "fixsteer join: asked to watch, the host gave us player slot %u\n", m.index);
    code = EXIT_NET;
  }
  if (code == EXIT_OK) code = run_match(&m, &o, "join");
  else net_leave(&m, NET_LEAVE_FAILED);
  enet_host_destroy(m.host);
  free_scene(&m);
  return code;
}

#endif
