// Join offers over ENet (net_play.h): every peer in the match writes one for a joiner and
// sends it reliably on channel 1 (ENet fragments a large one); the host's carries the state.
// The joiner waits for the offer of every peer the match message names, starts its session
// from them (fxs_session_join), begins its replay on the world it got, and tells every peer
// the tick it starts at (FXJOINED S), upon which they take it back (net_roster.c).
//
// Offers come from the network: one larger than this match's offers can be (the session's
// rings and the largest state the scenario's world can reach) is refused before it is kept,
// and fxs_session_join checks every byte of the rest.
#define _DEFAULT_SOURCE

#include <stdio.h>

#include "net_play.h"

#ifndef FXS_TOOL_NO_ENET

#include <stdlib.h>
#include <string.h>

#include "fixsteer/fingerprint.h"
#include "fixsteer/session_join.h"
#include "fixsteer/version.h"

// Bytes of an offer's fixed part and of each player's frame list header (docs/lockstep.md,
// "Joining mid-match": the offer layout).
#define OFFER_HEADER 28u
#define OFFER_PLAYER 6u

size_t net_offer_bound(const fxs_session_def *d, size_t state_bytes) {
  size_t frame = 2u + (size_t)d->max_commands * FXS_SESSION_COMMAND_MAX_BYTES;
  return OFFER_HEADER + (size_t)d->window * 8u +
         (size_t)d->players * (OFFER_PLAYER + (size_t)d->window * frame) + 4u + state_bytes +
         FXS_SESSION_CHECKSUM_BYTES;
}

// Test hook: FIXSTEER_TEST_FORGE_OFFER=P:N makes this process's offers claim N more input
// frames of player P than it holds (each a despawn of P's first agent), as a hostile peer
// would: the joiner must refuse them. Returns the count of player P's frames to restore.
static uint32_t forge_frames(player *p, uint32_t *forged) {
  const char *hook = getenv("FIXSTEER_TEST_FORGE_OFFER");
  unsigned who = 0, n = 0;
  fxs_session *s = &p->session;
  if (!hook || sscanf(hook, "%u:%u", &who, &n) != 2 || who >= s->def.players || n == 0 || n > 8u ||
      s->def.max_commands == 0)
    return *forged = FXS_SESSION_MAX_PLAYERS, 0u;
  uint32_t end = s->peers[who].received;
  for (uint32_t k = 0; k < n; ++k) {
    uint32_t t = end + k, slot = who * s->def.window + t % s->def.window;
    fxs_command *c = s->commands + (size_t)slot * s->def.max_commands;
    *c = fxs_command_make(FXS_CMD_DESPAWN, (uint8_t)who, 0);
    c->agent = 0x10000u | (uint32_t)(who + 1u);
    s->counts[slot] = 1;
  }
  s->peers[who].received = end + n;
  *forged = who;
  return end;
}

// Test hook: FIXSTEER_TEST_UNCONFIRMED_STATE=N makes this process's first state offer carry a
// state N ticks past its settled tick, as a hostile host would: it steps its world N ticks with
// no input at all (inputs nobody confirmed) and claims those ticks settled, with their hashes.
// No other peer settled them, so the joiner must refuse the state. The world, the settled tick
// and the hash ring are put back after the offer is written (unforge_state); later offers are
// honest. forged->n == 0: nothing was forged.
typedef struct forged_state {
  uint8_t *saved; // the world before the forged ticks (fxs_world_save)
  size_t size;
  uint32_t n;
  uint64_t hashes[8]; // the hash ring's slots the forged ticks overwrote
} forged_state;

static void forge_state(player *p, forged_state *f) {
  static bool done = false;
  const char *hook = getenv("FIXSTEER_TEST_UNCONFIRMED_STATE");
  fxs_session *s = &p->session;
  unsigned n = 0;
  f->n = 0, f->saved = 0;
  if (done || !hook || sscanf(hook, "%u", &n) != 1 || n == 0 || n > 8u || n >= s->def.window ||
      s->current != s->settled)
    return;
  f->size = fxs_world_snapshot_size(&p->world);
  if (!(f->saved = malloc(f->size)) ||
      fxs_world_save(&p->world, f->saved, f->size, &f->size) != FXS_OK) {
    free(f->saved), f->saved = 0;
    return;
  }
  done = true;
  for (uint32_t k = 0; k < n; ++k) {
    uint32_t slot = s->def.local * s->def.window + (s->settled + k) % s->def.window;
    f->hashes[k] = s->hashes[slot];
    fxs_world_step(&p->world, 0, 0, 0);
    s->hashes[slot] = fxs_world_hash(&p->world);
  }
  f->n = n;
  s->settled += n;
}

static void unforge_state(player *p, forged_state *f) {
  fxs_session *s = &p->session;
  if (f->n) {
    s->settled -= f->n;
    for (uint32_t k = 0; k < f->n; ++k)
      s->hashes[s->def.local * s->def.window + (s->settled + k) % s->def.window] = f->hashes[k];
    size_t at = 0;
    if (fxs_world_restore(&p->world, f->saved, f->size, &at) != FXS_OK) {
      fprintf(stderr, "fixsteer: the test hook cannot put the world back (byte %zu)\n", at);
      exit(EXIT_BAD);
    }
  }
  free(f->saved);
}

bool net_send_offer(player *p, match *m, uint32_t joiner, bool with_state, const char *cmd) {
  const fxs_world *w = with_state ? &p->world : 0;
  size_t need = 0, len = 0;
  uint8_t *buf = 0;
  uint32_t forged = FXS_SESSION_MAX_PLAYERS, end = forge_frames(p, &forged);
  forged_state fs = {0, 0, 0, {0}};
  if (with_state) forge_state(p, &fs);
  fxs_result r = fxs_session_write_offer(&p->session, w, (uint8_t)joiner, 0, 0, &need);
  if (r == FXS_OK) r = (buf = malloc(need)) ? FXS_OK : FXS_ERR_BUFFER_TOO_SMALL;
  if (r == FXS_OK) r = fxs_session_write_offer(&p->session, w, (uint8_t)joiner, buf, need, &len);
  if (forged < FXS_SESSION_MAX_PLAYERS) p->session.peers[forged].received = end;
  unforge_state(p, &fs);
  if (r == FXS_OK) {
    net_send_reliable(m->links[joiner], buf, len);
    p->offered[joiner] = true;
    if (with_state) p->offer_tick[joiner] = p->session.settled;
  } else {
    char name[16];
    fprintf(stderr, "fixsteer %s: cannot write a join offer for %s at tick %u: %s\n", cmd,
            player_peer_name(m, joiner, name), p->session.settled, fxs_result_message(r));
  }
  free(buf);
  return r == FXS_OK;
}

// ------------------------------------------------------------------ the joiner

typedef struct offers {
  uint8_t *bytes[NET_MAX_PEERS];
  size_t length[NET_MAX_PEERS];
  uint32_t got; // bit q: peer q's offer is here
} offers;

static void offers_free(offers *o) {
  for (uint32_t q = 0; q < NET_MAX_PEERS; ++q) free(o->bytes[q]);
}

static bool is_offer(const ENetPacket *pk) {
  static const uint8_t magic[4] = {'F', 'X', 'S', 'J'}; // FXS_SESSION_OFFER_MAGIC, little-endian
  return pk->dataLength >= 4 && memcmp(pk->data, magic, 4) == 0;
}

// Keeps the offer of peer k; EXIT_NET when it is larger than any offer of this match can be.
static int keep_offer(offers *o, const match *m, uint32_t k, const ENetPacket *pk, size_t bound,
                      const char *cmd) {
  char name[16];
  if (!(m->present >> k & 1u) || (o->got >> k & 1u)) return EXIT_OK; // not asked for, or again
  if (pk->dataLength > bound) {
    fprintf(stderr,
            "fixsteer %s: the join offer of %s is %zu bytes, more than an offer of this match "
            "can hold (%zu)\n",
            cmd, player_peer_name(m, k, name), pk->dataLength, bound);
    return EXIT_NET;
  }
  o->bytes[k] = malloc(pk->dataLength);
  if (!o->bytes[k]) return fprintf(stderr, "fixsteer %s: out of memory\n", cmd), EXIT_NET;
  memcpy(o->bytes[k], pk->data, pk->dataLength);
  o->length[k] = pk->dataLength;
  o->got |= 1u << k;
  return EXIT_OK;
}

// Names the peers whose offers did not come.
static int offers_missing(const offers *o, const match *m, uint32_t wait_ms, const char *cmd) {
  char name[16];
  fprintf(stderr, "fixsteer %s: no join offer within %u ms from", cmd, wait_ms);
  for (uint32_t q = 0; q < net_peer_count(m); ++q) {
    if ((m->present >> q & 1u) && !(o->got >> q & 1u))
      fprintf(stderr, " %s", player_peer_name(m, q, name));
  }
  fprintf(stderr, "\n");
  return EXIT_NET;
}

static int on_event(offers *o, match *m, ENetEvent *ev, size_t bound, const char *cmd) {
  int k = net_link_index(ev->peer);
  char why[96], name[16];
  int code = EXIT_OK;
  if (ev->type == ENET_EVENT_TYPE_CONNECT && k < 0 && ev->data > 0 &&
      ev->data < net_peer_count(m) && ev->data != m->index && !m->links[ev->data]) {
    m->links[ev->data] = ev->peer; // a peer of the match, come to send its offer
    ev->peer->data = net_link_tag(ev->data);
  } else if (ev->type == ENET_EVENT_TYPE_RECEIVE) {
    if (k >= 0 && ev->channelID == 1 && is_offer(ev->packet))
      code = keep_offer(o, m, (uint32_t)k, ev->packet, bound, cmd);
    enet_packet_destroy(ev->packet); // game packets come again once we are in
  } else if (ev->type == ENET_EVENT_TYPE_DISCONNECT && k >= 0) {
    fprintf(stderr, "fixsteer %s: %s closed the connection before we joined: %s\n", cmd,
            k == 0 ? "the host" : player_peer_name(m, (uint32_t)k, name),
            net_leave_reason(ev->data, why, sizeof why));
    m->links[k] = 0;
    code = EXIT_NET;
  }
  return code;
}

// Waits for the offer of every peer present, starting with those that came before the match
// message did.
static int gather(offers *o, match *m, size_t bound, uint32_t wait_ms, const char *cmd) {
  uint32_t start = enet_time_get();
  ENetEvent ev;
  int code = EXIT_OK;
  for (uint32_t k = 0; k < NET_MAX_PEERS; ++k) {
    if (m->early[k] && code == EXIT_OK && is_offer(m->early[k]))
      code = keep_offer(o, m, k, m->early[k], bound, cmd);
    if (m->early[k]) enet_packet_destroy(m->early[k]);
    m->early[k] = 0;
  }
  if (code != EXIT_OK) return code;
  while (o->got != m->present) {
    if (enet_time_get() - start > wait_ms) return offers_missing(o, m, wait_ms, cmd);
    int r = enet_host_service(m->host, &ev, 20);
    for (; r > 0 && code == EXIT_OK; r = enet_host_service(m->host, &ev, 0))
      code = on_event(o, m, &ev, bound, cmd);
    if (code != EXIT_OK) return code;
    if (r < 0) return fprintf(stderr, "fixsteer %s: the network failed\n", cmd), EXIT_NET;
  }
  return EXIT_OK;
}

// " (player 2's input of tick 303)": the field of an offer that holds byte `offset`.
static void describe_field(const uint8_t *offer, size_t len, size_t offset, char *buf,
                           size_t size) {
  static const char *const header[] = {"magic",          "magic",  "magic",  "magic",
                                       "layout version", "sender", "joiner", "flags"};
  fxs_session_offer_field f = fxs_session_offer_field_at(offer, len, offset);
  if (f.part == FXS_OFFER_HEADER && f.at < 8) snprintf(buf, size, " (its %s)", header[f.at]);
  else if (f.part == FXS_OFFER_HEADER)
    snprintf(buf, size, " (its %s)",
             f.at < 12   ? "session id"
             : f.at < 16 ? "length"
             : f.at < 20 ? "settled tick"
             : f.at < 26 ? "hash range"
             : f.at < 28 ? "player count"
             : f.at < 32 ? "simulation version"
                         : "math fingerprint");
  else if (f.part == FXS_OFFER_HASH)
    snprintf(buf, size, " (its state hash of tick %u)", (unsigned)f.tick);
  else if (f.part == FXS_OFFER_FRAMES)
    snprintf(buf, size, " (its list of player %u's input)", (unsigned)f.player);
  else if (f.part == FXS_OFFER_FRAME)
    snprintf(buf, size, " (player %u's input of tick %u)", (unsigned)f.player, (unsigned)f.tick);
  else if (f.part == FXS_OFFER_STATE) snprintf(buf, size, " (the state)");
  else if (f.part == FXS_OFFER_CHECKSUM) snprintf(buf, size, " (its checksum)");
}

// Starts the session from the offers, in peer order; names the offer and byte at fault.
static int join(player *p, match *m, const offers *o, const char *cmd) {
  const uint8_t *list[NET_MAX_PEERS];
  size_t lengths[NET_MAX_PEERS];
  uint32_t from[NET_MAX_PEERS], n = 0;
  for (uint32_t q = 0; q < net_peer_count(m); ++q) {
    if (!(o->got >> q & 1u)) continue;
    list[n] = o->bytes[q], lengths[n] = o->length[q], from[n++] = q;
  }
  fxs_session_def d = player_session_def(p, m);
  size_t need = fxs_session_memory_size(&d);
  p->session_memory = need ? calloc(1, need) : 0;
  if (!p->session_memory)
    return fprintf(stderr, "fixsteer %s: cannot set up the session\n", cmd), EXIT_BAD;
  fxs_session_join_error e;
  fxs_result r =
      fxs_session_join(&p->session, &d, p->session_memory, need, &p->world, list, lengths, n, &e);
  if (r == FXS_OK) return EXIT_OK;
  char name[16];
  uint32_t k = e.offer < n ? from[e.offer] : 0u;
  char builds[160] = "";
  uint32_t theirs = 0;
  uint64_t math = 0;
  bool other_build = r == FXS_ERR_SIMULATION_VERSION || r == FXS_ERR_BAD_FINGERPRINT;
  if (other_build && e.offer < n &&
      fxs_session_sender_build(list[e.offer], lengths[e.offer], &theirs, &math)) {
    if (r == FXS_ERR_SIMULATION_VERSION)
      snprintf(builds, sizeof builds, ": written by simulation version %u; this build runs %u",
               (unsigned)theirs, (unsigned)FXS_SIMULATION_VERSION);
    else
      snprintf(builds, sizeof builds, ": fingerprint 0x%016llx; this build's 0x%016llx",
               (unsigned long long)math, (unsigned long long)fxs_math_fingerprint());
  }
  char field[96] = "";
  if (e.offer < n) describe_field(list[e.offer], lengths[e.offer], e.offset, field, sizeof field);
  fprintf(stderr,
          "fixsteer %s: cannot join the match: the offer of %s (offer %u of %u), byte %zu%s: "
          "%s%s\n",
          cmd, e.offer < n ? player_peer_name(m, k, name) : "no peer", e.offer, n, e.offset, field,
          fxs_result_message(r), builds);
  // The others are told whose offer was refused, so that they blame it, not us.
  if (e.offer < n && !other_build) p->leave = NET_LEAVE_BAD_OFFER + k;
  return other_build ? EXIT_VERSION : EXIT_NET;
}

int net_join_session(player *p, match *m, uint32_t wait_ms, const char *cmd) {
  offers o;
  memset(&o, 0, sizeof o);
  fxs_session_def d = player_session_def(p, m);
  int code = gather(&o, m, net_offer_bound(&d, p->scratch_size), wait_ms, cmd);
  if (code == EXIT_OK) code = join(p, m, &o, cmd);
  offers_free(&o);
  if (code != EXIT_OK) return code;
  if (!player_begin_replay(p))
    return fprintf(stderr, "fixsteer %s: cannot write the replay\n", cmd), EXIT_BAD;
  uint32_t now = enet_time_get(), tick = p->session.joined_at;
  // Test hook: FIXSTEER_TEST_JOINED_TICK=D announces a tick D off the one we joined at (a
  // joiner that lies or errs): the peers must refuse it and blame it alone.
  const char *lie = getenv("FIXSTEER_TEST_JOINED_TICK");
  if (lie) tick += (uint32_t)atol(lie);
  char msg[NET_MESSAGE_BYTES], name[16];
  net_control c = {NET_JOINED, 0, {0, 0}, tick};
  size_t len = net_write_control(&c, msg);
  for (uint32_t q = 0; q < net_peer_count(m); ++q) {
    if (q == m->index) continue;
    if (!(m->present >> q & 1u)) {
      fxs_session_peer_left(&p->session, (uint8_t)q); // away, or a spectator slot nobody holds
      continue;
    }
    p->since[q] = now;
    net_send_reliable(m->links[q], msg, len);
  }
  enet_host_flush(m->host);
  fprintf(stderr, "fixsteer %s: joined the match as %s at tick %u\n", cmd,
          player_peer_name(m, m->index, name), tick);
  return EXIT_OK;
}

#endif
