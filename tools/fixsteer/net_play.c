// One process's side of a match (net_play.h): its world, session and replay, the inputs it
// submits and the line that reports the match.
//
// Inputs: every player runs the scenario's game logic on its own world. Player 0 submits the
// set-up (the logic's commands on the empty world), with every spawn owned and, after the
// spawns, a set_owner that hands each agent whose slot % players != 0 to that player. From
// then on each player submits the commands for the agents it owns (fxs_world_agent_owner;
// commands without an agent, or for a shared or no longer living one, are player 0's), so the
// world itself refuses a command of anyone else (FXS_ERR_NOT_OWNER). Spectators submit nothing.
#define _DEFAULT_SOURCE

#include <stdio.h>

#include "net_play.h"
#include "session.h"

#ifndef FXS_TOOL_NO_ENET

#include <stdlib.h>
#include <string.h>

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

fxs_session_def player_session_def(player *p, const match *m) {
  fxs_session_def d = fxs_default_session_def();
  d.mode = m->rollback ? FXS_SESSION_ROLLBACK : FXS_SESSION_LOCKSTEP;
  d.players = m->players;
  d.spectators = m->spectators;
  d.local = m->index;
  d.session_id = m->session_id;
  d.delay = (uint16_t)m->delay;
  d.window = NET_WINDOW;
  d.max_commands = NET_MAX_COMMANDS;
  d.max_packet_bytes = (uint16_t)NET_PACKET_BYTES;
  d.max_packet_inputs = 64;
  d.max_packet_hashes = 64;
  d.tick_limit = m->ticks;
  // The --drip-at test hook plays the peer that holds the match back: it does not hold itself
  // to the bound (a peer that means to stall a match would not either).
  d.progress_window_ms = p->drip_at >= 0 ? 0u : m->progress_window_ms;
  d.progress_min_ticks = m->progress_min_ticks;
  d.snapshot_bytes = m->rollback ? p->scratch_size : 0u;
  d.replay = &p->writer;
  d.before_step = flip_bit;
  d.hook_user = p;
  return d;
}

int player_open(player *p, const match *m, const net_options *o, const char *cmd) {
  memset(p, 0, offsetof(player, buf));
  p->pending = -1;
  p->desync_at = o->desync_at, p->cheat_at = o->cheat_at, p->drip_at = o->drip_at;
  p->timeout_ms = (uint32_t)o->timeout_ms;
  p->admitting = -1;
  p->status = o->status;
  p->sc = m->scene ? m->scene : scenario_find(m->scenario); // a scene file, or a built-in
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
  // Room for the fullest state the scenario's capacities allow.
  p->scratch_size = fxs_world_snapshot_bound(cap);
  p->scratch = malloc(p->scratch_size);
  if (!p->scratch || !output_open(&p->out, o->out)) return EXIT_BAD;
  return EXIT_OK;
}

int player_start(player *p, match *m, const net_options *o, const char *cmd) {
  int code = player_open(p, m, o, cmd);
  if (code != EXIT_OK) return code;
  roster_start(p, m, enet_time_get());
  if (m->late) return net_join_session(p, m, 4u * p->timeout_ms, cmd);
  if (fxs_replay_writer_begin(&p->writer, write_file, p->out.f, &p->world, 250, p->scratch,
                              p->scratch_size) != FXS_OK) {
    return fprintf(stderr, "fixsteer %s: cannot write %s\n", cmd, o->out), EXIT_BAD;
  }
  fxs_session_def d = player_session_def(p, m);
  size_t need = fxs_session_memory_size(&d);
  p->session_memory = need ? calloc(1, need) : 0;
  if (!p->session_memory || fxs_session_init(&p->session, &d, p->session_memory, need) != FXS_OK) {
    return fprintf(stderr, "fixsteer %s: cannot set up the session\n", cmd), EXIT_BAD;
  }
  // Spectator slots are empty until a spectator arrives (net_roster.c).
  for (uint32_t q = m->players; q < net_peer_count(m); ++q)
    fxs_session_peer_left(&p->session, (uint8_t)q);
  return EXIT_OK;
}

// Begins the replay on the world as it is (after a join: at the tick joined).
bool player_begin_replay(player *p) {
  return fxs_replay_writer_begin(&p->writer, write_file, p->out.f, &p->world, 250, p->scratch,
                                 p->scratch_size) == FXS_OK;
}

void player_end(player *p) {
  free(p->world_memory);
  free(p->session_memory);
  free(p->commands);
  free(p->scratch);
}

// ------------------------------------------------------------------ inputs

// Adds a command to this tick's input; a scenario that issues more than a player may send in
// a tick is a bug of the scenario: say so rather than drop input.
static void add(player *p, uint32_t *n, fxs_command c, const char *cmd) {
  if (*n == NET_MAX_COMMANDS) {
    fprintf(stderr,
            "fixsteer %s: the scenario issues more than %d commands for one player in a tick\n",
            cmd, NET_MAX_COMMANDS);
    exit(EXIT_BAD);
  }
  p->mine[(*n)++] = c;
}

// The set-up, all of it player 0's: every spawn owned, then each agent handed to its player.
// The session applies a player's commands in the order submitted, so the k-th spawn gets the
// k-th of the handles the world's next spawns will get (nothing lands on the world before the
// set-up: ticks below the delay carry no input).
static uint32_t setup(player *p, const match *m, uint32_t all, const char *cmd) {
  uint32_t n = 0, spawns = 0;
  for (uint32_t i = 0; i < all; ++i) {
    fxs_command c = p->commands[i];
    if (c.type == FXS_CMD_SPAWN) c.ref = FXS_SPAWN_OWNED, spawns++;
    add(p, &n, c, cmd);
  }
  fxs_agent_handle handles[NET_MAX_COMMANDS];
  uint32_t got = fxs_world_next_spawn_handles(&p->world, spawns, handles);
  for (uint32_t k = 0; k < got; ++k) {
    uint32_t to = ((handles[k].value & FXS_HANDLE_INDEX_MASK) - 1u) % m->players;
    if (to != 0) add(p, &n, fxs_command_set_owner(handles[k], to), cmd);
  }
  return n;
}

// The player that submits a command: the owner of its agent, player 0 for the rest.
static uint32_t submitter(const fxs_world *w, const fxs_command *c) {
  uint32_t owner = 0;
  fxs_agent_handle h = {c->agent};
  if (c->agent == 0 || fxs_world_agent_owner(w, h, &owner) != FXS_OK || owner == FXS_OWNER_SHARED)
    return 0;
  return owner;
}

// The --cheat-at test hook: commands for an agent of another player (refused on every peer).
static void cheat(player *p, const match *m, uint32_t *n, const char *cmd) {
  for (uint32_t i = 0; i < p->world.capacity.agents; ++i) {
    fxs_agent_handle h = fxs_world_handle_at(&p->world, i);
    uint32_t owner = 0;
    if (!h.value || fxs_world_agent_owner(&p->world, h, &owner) != FXS_OK || owner == m->index ||
        owner == FXS_OWNER_SHARED)
      continue;
    add(p, n, fxs_command_set_target_point(h, fxs_vec2_make(0, 0)), cmd);
    add(p, n, fxs_command_despawn(h), cmd);
    fprintf(stderr,
            "fixsteer %s: test hook: tick %u: a despawn and a target of player %u's agent 0x%x\n",
            cmd, fxs_session_input_tick(&p->session), owner, h.value);
    return;
  }
}

// Runs the scenario's logic on the world now (tick w) and keeps this player's share of its
// commands for tick w + delay. Ticks 1..delay see a world the set-up has not reached yet, so
// the logic waits.
static int collect(player *p, const match *m, const char *cmd) {
  uint32_t w = p->world.tick, n = 0;
  if (w != 0 && w <= m->delay) return 0;
  uint32_t all = p->sc->commands(p->sc, &p->world, &p->state, p->commands);
  if (w == 0) {
    n = m->index == 0 ? setup(p, m, all, cmd) : 0u;
  } else {
    for (uint32_t i = 0; i < all; ++i) {
      if (submitter(&p->world, &p->commands[i]) == m->index) add(p, &n, p->commands[i], cmd);
    }
  }
  if (p->cheat_at >= 0 && fxs_session_input_tick(&p->session) == (uint32_t)p->cheat_at)
    cheat(p, m, &n, cmd);
  return (int)n;
}

// The --drip-at test hook: from that tick on, one input per (timeout - 100) ms, just inside
// the time-out, while the session still sends its keepalives.
static bool dripping(player *p, uint32_t now) {
  if (p->drip_at < 0 || fxs_session_input_tick(&p->session) < (uint32_t)p->drip_at) return false;
  uint32_t gap = p->timeout_ms > 100u ? p->timeout_ms - 100u : 0u;
  if (p->last_drip && now - p->last_drip < gap) return true;
  p->last_drip = now ? now : 1u;
  return false;
}

fxs_result player_tick(player *p, const match *m, uint32_t now, bool hold, const char *cmd) {
  bool wants = !hold && fxs_session_wants_input(&p->session);
  if (wants && p->pending < 0 && !dripping(p, now)) p->pending = collect(p, m, cmd);
  if (wants && p->pending >= 0) {
    fxs_result r = fxs_session_submit(&p->session, p->mine, (uint32_t)p->pending);
    if (r == FXS_OK) p->pending = -1;
    else if (r != FXS_ERR_FULL) return r;
  }
  return fxs_session_advance(&p->session, &p->world, now);
}

// ------------------------------------------------------------------ the end

const char *player_peer_name(const match *m, uint32_t q, char *buf) {
  snprintf(buf, 16, "%s %u", q < m->players ? "player" : "spectator", q);
  return buf;
}

int player_stop(player *p, uint32_t leave, const char *cmd, const char *label, const char *why) {
  snprintf(p->stopped, sizeof p->stopped, "%s", label);
  p->leave = leave;
  fprintf(stderr, "fixsteer %s: %s: %s\n", cmd, p->stopped, why);
  return EXIT_NET;
}

int player_lost(player *p, uint32_t q, const char *cmd, const char *why) {
  char label[64];
  snprintf(label, sizeof label, "lost player %u at tick %u", q, p->session.current);
  return player_stop(p, NET_LEAVE_LOST + q, cmd, label, why);
}

// The END chunk holds the hash of the world it is given, which must be the state after the
// last recorded tick. In lockstep the world is there (every step settles at once); in
// rollback it may be up to max_prediction ticks ahead, and the session's snapshot ring holds
// the state at the start of every tick stepped on a prediction, the first unsettled one
// included.
const char *player_end_at_settled(player *p) {
  const fxs_session *s = &p->session;
  uint32_t t = s->settled;
  if (t == s->joined_at) return "no tick was settled";
  if (p->writer.ticks != t - s->joined_at) return "the replay does not hold every settled tick";
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

// ", refused: player 2: 2 (the last: tick 700, player 2's despawn of agent 0x1: why)".
static void report_refusals(const fxs_session *s, const match *m) {
  if (!s->last_refusal.any) return;
  const fxs_session_refusal *r = &s->last_refusal;
  printf(", refused:");
  for (uint32_t q = 0; q < m->players; ++q) {
    if (s->stats.refused[q]) printf(" player %u: %u,", q, s->stats.refused[q]);
  }
  printf(" the last at tick %u: player %u's %s of agent 0x%x: %s", r->tick, r->player,
         fxs_command_name(r->type), r->agent, fxs_result_message(r->result));
}

void player_report(const player *p, const match *m, const char *cmd, const char *out, uint32_t ms) {
  const fxs_session *s = &p->session;
  uint64_t bytes = 0;
  uint32_t rtt = 0, played = s->settled - s->joined_at, links = 0;
  for (uint32_t q = 0; q < net_peer_count(m); ++q) {
    bytes += s->peers[q].bytes_sent;
    links += s->peers[q].packets_sent > 0;
    if (s->peers[q].rtt_ms > rtt) rtt = s->peers[q].rtt_ms;
  }
  if (m->index < m->players) printf("%s: player %u of %u, ", cmd, m->index, m->players);
  else printf("%s: spectator %u of a %u-player match, ", cmd, m->index, m->players);
  if (s->joined_at) printf("joined at tick %u, ", s->joined_at);
  printf(
      "%s, delay %u, %u ticks in %.1f s, final hash 0x%016llx, %.1f bytes per tick per peer, "
      "%u stalls (%u ms), %u rollbacks (%u ticks re-simulated, deepest %u), round trip <= %u "
      "ms, replay %s",
      m->rollback ? "rollback" : "lockstep", m->delay, played, ms / 1000.0,
      (unsigned long long)s->def.replay->last_hash,
      (double)bytes / (played ? played : 1u) / (links ? links : 1u), s->stats.stalls,
      s->stats.stall_ms, s->stats.rollbacks, s->stats.resimulated, s->stats.max_rollback, rtt, out);
  report_refusals(s, m);
  const fxs_session_desync *d = fxs_session_desync_report(s);
  if (d) {
    printf(", desync at tick %u with peers", d->tick);
    for (uint32_t q = 0; q < FXS_SESSION_MAX_PEERS; ++q) {
      if (d->peers >> q & 1u) printf(" %u", q);
    }
  }
  printf("\n");
}

void player_write_status(player *p, uint32_t now) {
  uint32_t t = p->session.settled;
  if (!p->status || t == p->status_tick || now - p->status_ms < 50u) return;
  char temp[4096];
  snprintf(temp, sizeof temp, "%s.part", p->status);
  FILE *f = fopen(temp, "w");
  if (!f) return;
  bool ok = fprintf(f, "%u\n", t) > 0;
  if (fclose(f) == 0 && ok && rename(temp, p->status) == 0) p->status_tick = t, p->status_ms = now;
}

#endif
