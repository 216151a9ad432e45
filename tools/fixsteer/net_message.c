// The text messages of channel 1 (net.h). The match message is one line the host sends each
// joiner, reliably on ENet channel 1, once every player has joined (or when a joiner arrives
// during the match):
//
//   FXSTART 5 SIMULATION MATH PLAYERS SPECTATORS INDEX TICKS DELAY ROLLBACK SESSION TICK_MS
//           REJOIN_MS WINDOW_MS MIN_TICKS SCENARIO SCENE LATE PRESENT A.B.C.D:PORT...
//
// fields separated by one space and the text ended by a NUL byte: the version of this
// layout, the host's simulation version and math fingerprint (0x and 16 hex digits: the
// handshake, a joiner of another build refuses the match naming both), the players, the spectator
// slots, the joiner's own index, the match's ticks, input delay, mode (1: rollback), session id,
// tick length in ms, how long a player that left may take to come back, the progress bound (window
// in ms, fewest ticks in it), the scene (a built-in scenario's name and '-', or a scene file's base
// name and the FNV-1a 64 hash of its bytes, 0x and 16 hex digits: the joiner must hold the same
// file, layout 5 on), whether the match is under way (1: join from offers), the peers in the match
// (bit q: peer q), then, for a match that starts (LATE 0), where each joiner 1..PLAYERS-1 listens,
// as the host saw it. The control messages of a match under way (FXJOIN, FXLEFT, FXJOINED)
// follow the same rules. They come from the network, so every field is checked, and a bad
// one is named with its value and its range.
#define _DEFAULT_SOURCE

#include <stdio.h>

#include "net.h"

#ifndef FXS_TOOL_NO_ENET

#include <string.h>

#include "fixsteer/fingerprint.h"
#include "fixsteer/version.h"
#include "scenario.h"

// 5: the SCENE field (scene files), and FXJOIN names the tick of the joiner's state. A message
// of layout 4 (a fixsteer that plays built-in scenarios only) is refused naming both layouts.
#define NET_MESSAGE_VERSION 5u
#define SHOWN 24 // most bytes of a bad field quoted in an error

size_t net_write_start(const match *m, uint32_t to, char *buf) {
  char scene[24] = "-";
  if (m->scene_file) snprintf(scene, sizeof scene, "0x%016llx", (unsigned long long)m->scene_hash);
  int n = snprintf(buf, NET_MESSAGE_BYTES,
                   "FXSTART %u %u 0x%016llx %u %u %u %u %u %d %u %u %u %u %u %s %s %d %u",
                   NET_MESSAGE_VERSION, (unsigned)FXS_SIMULATION_VERSION,
                   (unsigned long long)fxs_math_fingerprint(), m->players, m->spectators, to,
                   m->ticks, m->delay, m->rollback, m->session_id, m->tick_ms, m->rejoin_ms,
                   m->progress_window_ms, m->progress_min_ticks, m->scenario, scene,
                   m->late ? 1 : 0, m->present);
  for (uint32_t k = 1; !m->late && k < m->players && n > 0 && n < NET_MESSAGE_BYTES; ++k) {
    char ip[NET_IP_BYTES];
    n += snprintf(buf + n, NET_MESSAGE_BYTES - (size_t)n, " %s:%u",
                  net_ip(m->addresses[k].host, ip), m->addresses[k].port);
  }
  // At most 8 players, a 63-byte name and an 18-byte hash: about 360 bytes, so it always fits.
  return n > 0 && n < NET_MESSAGE_BYTES ? (size_t)n + 1u : 0u;
}

// A cursor over the message's fields; `error` receives what is wrong.
typedef struct reader {
  const char *at, *end; // end: the NUL
  char *error;
  size_t size;
} reader;

// The next field (up to the next space); false when the message ends before it.
static bool field(reader *r, const char *name, const char **text, size_t *len) {
  if (r->at >= r->end) {
    snprintf(r->error, r->size, "it ends before the field '%s'", name);
    return false;
  }
  const char *s = r->at;
  while (s < r->end && *s != ' ') ++s;
  *text = r->at, *len = (size_t)(s - r->at);
  r->at = s < r->end ? s + 1 : s;
  if (*len == 0) snprintf(r->error, r->size, "the field '%s' is empty", name);
  return *len > 0;
}

static bool number(reader *r, const char *name, uint32_t min, uint32_t max, uint32_t *out) {
  const char *t;
  size_t n;
  if (!field(r, name, &t, &n)) return false;
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    if (t[i] < '0' || t[i] > '9') {
      snprintf(r->error, r->size, "the field '%s' is '%.*s', not a whole number", name,
               n > SHOWN ? SHOWN : (int)n, t);
      return false;
    }
    if (v <= 0xFFFFFFFFu) v = v * 10u + (uint64_t)(t[i] - '0');
  }
  if (v < min || v > max) {
    snprintf(r->error, r->size, "the field '%s' is %.*s, allowed %u..%u", name,
             n > SHOWN ? SHOWN : (int)n, t, min, max);
    return false;
  }
  *out = (uint32_t)v;
  return true;
}

// The listening address of a joiner (`who` k: "player 2", "peer 9"), A.B.C.D:PORT.
static bool address(reader *r, const char *who, uint32_t k, ENetAddress *out) {
  char name[32], why[96];
  const char *t;
  size_t n;
  snprintf(name, sizeof name, "address of %s %u", who, k);
  if (!field(r, name, &t, &n)) return false;
  const char *colon = memchr(t, ':', n);
  int shown = n > SHOWN ? SHOWN : (int)n;
  if (!colon) {
    snprintf(r->error, r->size, "the field '%s' is '%.*s', not A.B.C.D:PORT", name, shown, t);
    return false;
  }
  if (!net_parse_ipv4(t, (size_t)(colon - t), &out->host, why, sizeof why)) {
    snprintf(r->error, r->size, "the field '%s' is '%.*s': not an IPv4 address: %s", name, shown, t,
             why);
    return false;
  }
  if (out->host == 0) {
    snprintf(r->error, r->size, "the field '%s' is '%.*s': 0.0.0.0 is not an address to connect to",
             name, shown, t);
    return false;
  }
  reader port = {colon + 1, t + n, r->error, r->size};
  uint32_t p;
  snprintf(name, sizeof name, "port of %s %u", who, k);
  if (!number(&port, name, 1, 65535, &p)) return false;
  out->port = (uint16_t)p;
  return true;
}

// Rejects what is not one line of printable text ended by its NUL.
static bool text_ok(const uint8_t *msg, size_t len, char *error, size_t size) {
  if (len == 0 || len > NET_MESSAGE_BYTES) {
    snprintf(error, size, "%zu bytes long, allowed 1..%d", len, NET_MESSAGE_BYTES);
    return false;
  }
  if (msg[len - 1] != '\0') return snprintf(error, size, "it does not end with a NUL byte"), false;
  for (size_t i = 0; i + 1 < len; ++i) {
    if (msg[i] < 0x20 || msg[i] > 0x7E) {
      snprintf(error, size, "byte %zu is 0x%02x, not printable text", i, msg[i]);
      return false;
    }
  }
  return true;
}

// 0x and 16 hex digits.
static bool hex64(const char *t, size_t n, uint64_t *out) {
  if (n != 18 || t[0] != '0' || t[1] != 'x') return false;
  uint64_t v = 0;
  for (size_t i = 2; i < n; ++i) {
    char c = t[i];
    uint32_t d = c >= '0' && c <= '9'   ? (uint32_t)(c - '0')
                 : c >= 'a' && c <= 'f' ? (uint32_t)(c - 'a' + 10)
                 : c >= 'A' && c <= 'F' ? (uint32_t)(c - 'A' + 10)
                                        : 16u;
    if (d > 15u) return false;
    v = v << 4 | d;
  }
  *out = v;
  return true;
}

// A joiner's own scene (own: what its --scenario named) against the host's (got): the same
// scene file (equal hashes), or the same built-in scenario (any, without --scenario).
static bool same_scene(reader *r, const match *own, const match *got) {
  unsigned long long host = got->scene_hash, ours = own->scene_hash;
  if (got->scene_file && own->scene_file && host == ours) return true;
  if (!got->scene_file && !own->scene_file &&
      (!own->scene_given || strcmp(own->scenario, got->scenario) == 0))
    return true;
  if (got->scene_file && own->scene_file)
    snprintf(r->error, r->size,
             "the host's scene file '%s' hashes 0x%016llx; this joiner's '%s' hashes 0x%016llx: "
             "not the same file",
             got->scenario, host, own->scenario, ours);
  else if (got->scene_file)
    snprintf(r->error, r->size,
             "the host plays the scene file '%s' (hash 0x%016llx); this joiner holds %s%s%s: join "
             "with --scenario and a copy of that file",
             got->scenario, host, own->scene_given ? "the built-in scenario '" : "no scene file",
             own->scene_given ? own->scenario : "", own->scene_given ? "'" : "");
  else if (own->scene_file)
    snprintf(r->error, r->size,
             "the host plays the built-in scenario '%s'; this joiner holds the scene file '%s' "
             "(hash 0x%016llx)",
             got->scenario, own->scenario, ours);
  else
    snprintf(r->error, r->size,
             "the host plays the built-in scenario '%s'; this joiner was given '%s'", got->scenario,
             own->scenario);
  return false;
}

// The SCENARIO and SCENE fields: a built-in scenario's name and '-', or a scene file's base
// name and the hash of its bytes. A scene that is not the joiner's own sets *leave to
// NET_LEAVE_SCENE.
static bool scene_fields(reader *r, const match *own, match *got, uint32_t *leave) {
  const char *t, *h;
  size_t n, hn;
  if (!field(r, "scenario", &t, &n) || !field(r, "scene", &h, &hn)) return false;
  if (n >= NET_SCENARIO_BYTES) {
    snprintf(r->error, r->size, "the field 'scenario' is '%.*s...', longer than %d bytes", SHOWN, t,
             NET_SCENARIO_BYTES - 1);
    return false;
  }
  memcpy(got->scenario, t, n), got->scenario[n] = '\0';
  got->scene_file = !(hn == 1 && h[0] == '-');
  if (got->scene_file && !hex64(h, hn, &got->scene_hash)) {
    snprintf(r->error, r->size,
             "the field 'scene' is '%.*s', not - (a built-in scenario) nor 0x and 16 hex digits "
             "(a scene file's hash)",
             hn > SHOWN ? SHOWN : (int)hn, h);
    return false;
  }
  if (!got->scene_file && !scenario_find(got->scenario)) {
    snprintf(r->error, r->size,
             "the field 'scenario' is '%.*s', not a built-in scenario (fixsteer list)",
             n > SHOWN ? SHOWN : (int)n, t);
    return false;
  }
  if (same_scene(r, own, got)) return true;
  *leave = NET_LEAVE_SCENE;
  return false;
}

// The tag and the layout version: names a version of another fixsteer as such.
static bool tag_and_version(reader *r, const char *want) {
  const char *tag;
  size_t n, w = strlen(want);
  uint32_t version;
  if (!field(r, "tag", &tag, &n)) return false;
  if (n != w || memcmp(tag, want, w) != 0) {
    snprintf(r->error, r->size, "it starts with '%.*s', not %s", n > SHOWN ? SHOWN : (int)n, tag,
             want);
    return false;
  }
  if (!number(r, "version", 0, 0xFFFFFFFFu, &version)) return false;
  if (version == NET_MESSAGE_VERSION) return true;
  snprintf(r->error, r->size,
           "the field 'version' is %u, allowed %u..%u (host and joiner are different versions "
           "of fixsteer%s)",
           version, NET_MESSAGE_VERSION, NET_MESSAGE_VERSION,
           version == 4u ? "; layout 4 is a fixsteer before scene files" : "");
  return false;
}

// The peers in the match: the host always, none past the last peer; a match that starts has
// every player and no spectator yet, a match under way never the joiner itself.
static bool present_field(reader *r, match *got) {
  uint32_t peers = net_peer_count(got), players = (1u << got->players) - 1u;
  if (!number(r, "present", 1, (1u << peers) - 1u, &got->present)) return false;
  const char *why = 0;
  if (!(got->present & 1u)) why = "the host (bit 0) is missing";
  else if (got->late && (got->present >> got->index & 1u)) why = "it holds the joiner itself";
  else if (!got->late && got->present != players)
    why = "a match that starts has every player and no spectator";
  if (why) snprintf(r->error, r->size, "the field 'present' is %u: %s", got->present, why);
  return why == 0;
}

// The host's build: its simulation version and math fingerprint must be this build's. A
// mismatch sets *leave to the reason the joiner gives the host.
static bool build_fields(reader *r, uint32_t *leave) {
  uint32_t simulation;
  const char *t;
  size_t n;
  if (!number(r, "simulation", 0, 0xFFFFFFFFu, &simulation)) return false;
  if (simulation != FXS_SIMULATION_VERSION) {
    snprintf(r->error, r->size, "the host runs simulation version %u; this build runs %u",
             simulation, (unsigned)FXS_SIMULATION_VERSION);
    *leave = NET_LEAVE_SIMULATION | ((uint32_t)FXS_SIMULATION_VERSION & 0xFFFFFFu);
    return false;
  }
  if (!field(r, "math", &t, &n)) return false;
  char ours[24];
  snprintf(ours, sizeof ours, "0x%016llx", (unsigned long long)fxs_math_fingerprint());
  if (n != strlen(ours) || t[0] != '0' || t[1] != 'x') {
    snprintf(r->error, r->size, "the field 'math' is '%.*s', not 0x and 16 hex digits",
             n > SHOWN ? SHOWN : (int)n, t);
    return false;
  }
  if (memcmp(t, ours, n) != 0) {
    snprintf(r->error, r->size, "the host runs other math: fingerprint %.*s; this build's %s",
             (int)n, t, ours);
    *leave = NET_LEAVE_MATH;
    return false;
  }
  return true;
}

bool net_read_start(match *m, const uint8_t *msg, size_t len, char *error, size_t error_size,
                    uint32_t *leave) {
  *leave = NET_LEAVE_REFUSED;
  if (!text_ok(msg, len, error, error_size)) return false;
  reader r = {(const char *)msg, (const char *)msg + len - 1u, error, error_size};
  match got = *m;
  uint32_t players, spectators, index, delay, rollback, late;
  if (!tag_and_version(&r, "FXSTART") || !build_fields(&r, leave) ||
      !number(&r, "players", 2, NET_MAX_PLAYERS, &players) ||
      !number(&r, "spectators", 0, NET_MAX_SPECTATORS, &spectators) ||
      !number(&r, "index", 1, players + spectators - 1u, &index) ||
      !number(&r, "ticks", 1, NET_MAX_TICKS, &got.ticks) ||
      !number(&r, "delay", 0, NET_MAX_DELAY, &delay) || !number(&r, "rollback", 0, 1, &rollback) ||
      !number(&r, "session", 1, 0xFFFFFFFFu, &got.session_id) ||
      !number(&r, "tick_ms", 0, NET_MAX_TICK_MS, &got.tick_ms) ||
      !number(&r, "rejoin_ms", 0, NET_MAX_WAIT_MS, &got.rejoin_ms) ||
      !number(&r, "window_ms", 0, NET_MAX_WAIT_MS, &got.progress_window_ms) ||
      !number(&r, "min_ticks", 1, NET_MAX_TICKS, &got.progress_min_ticks) ||
      !scene_fields(&r, m, &got, leave) ||
      !number(&r, "late", index >= players ? 1 : 0, 1, &late)) {
    return false;
  }
  got.players = (uint8_t)players, got.spectators = (uint8_t)spectators, got.index = (uint8_t)index;
  got.delay = delay, got.rollback = (int)rollback, got.late = late != 0;
  if (!present_field(&r, &got)) return false;
  for (uint32_t k = 1; !got.late && k < players; ++k) {
    if (!address(&r, "player", k, &got.addresses[k])) return false;
  }
  if (r.at < r.end) {
    snprintf(error, error_size, "unexpected text after the last field: '%.*s'",
             r.end - r.at > SHOWN ? SHOWN : (int)(r.end - r.at), r.at);
    return false;
  }
  *m = got;
  return true;
}

// ------------------------------------------------------------------ control messages

size_t net_write_control(const net_control *c, char *buf) {
  char ip[NET_IP_BYTES];
  int n = 0;
  if (c->kind == NET_JOIN)
    n = snprintf(buf, NET_MESSAGE_BYTES, "FXJOIN %u %u %s:%u %u", NET_MESSAGE_VERSION, c->peer,
                 net_ip(c->address.host, ip), c->address.port, c->tick);
  else if (c->kind == NET_LEFT)
    n = snprintf(buf, NET_MESSAGE_BYTES, "FXLEFT %u %u", NET_MESSAGE_VERSION, c->peer);
  else n = snprintf(buf, NET_MESSAGE_BYTES, "FXJOINED %u %u", NET_MESSAGE_VERSION, c->tick);
  return n > 0 && n < NET_MESSAGE_BYTES ? (size_t)n + 1u : 0u;
}

bool net_read_control(const uint8_t *msg, size_t len, uint32_t peers, net_control *out, char *error,
                      size_t error_size) {
  if (!text_ok(msg, len, error, error_size)) return false;
  reader r = {(const char *)msg, (const char *)msg + len - 1u, error, error_size};
  net_control got;
  memset(&got, 0, sizeof got);
  size_t n = strcspn((const char *)msg, " ");
  got.kind = n == 8 ? NET_JOINED : n == 6 && msg[2] == 'L' ? NET_LEFT : NET_JOIN;
  static const char *const tags[] = {"FXJOIN", "FXLEFT", "FXJOINED"};
  if (!tag_and_version(&r, tags[got.kind])) return false;
  bool ok = got.kind == NET_JOINED ? number(&r, "tick", 0, NET_MAX_TICKS, &got.tick)
                                   : number(&r, "peer", 1, peers - 1u, &got.peer);
  if (ok && got.kind == NET_JOIN)
    ok = address(&r, "peer", got.peer, &got.address) &&
         number(&r, "tick", 0, NET_MAX_TICKS, &got.tick);
  if (!ok) return false;
  if (r.at < r.end) {
    snprintf(error, error_size, "unexpected text after the last field: '%.*s'",
             r.end - r.at > SHOWN ? SHOWN : (int)(r.end - r.at), r.at);
    return false;
  }
  *out = got;
  return true;
}

#endif
