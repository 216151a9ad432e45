// The other peers through a match (net_play.h): game packets and control messages in, links
// that close or fall silent, players that leave and come back, spectators that arrive.
//
// A player whose link closes (or falls silent for the time-out) is away: every peer marks it
// (fxs_session_peer_left), the match pauses on its input, and the progress bound is excused
// (fxs_session_restart_progress every frame) for up to rejoin_ms. It comes back by running
// `fixsteer join` again: the host sees a connection while a player slot is vacant, gives it
// that slot, sends it the match message (LATE 1) and its join offer with the state, and tells
// every peer in the match (FXJOIN Q ADDRESS); each connects to the joiner and sends its offer
// (net_join.c). The joiner starts from the offers and tells everyone its tick (FXJOINED S);
// they take it back (fxs_session_readmit). A spectator joins the same way into a free
// spectator slot. While a join is under way every player holds its input back, so that the
// match waits for the joiner within reach of the offers; the host admits one joiner at a time.
// Without the host nobody can be admitted, so losing the host ends the match.
#define _DEFAULT_SOURCE

#include <stdio.h>

#include "net_play.h"

#ifndef FXS_TOOL_NO_ENET

#include <string.h>

#include "fixsteer/version.h"

void roster_start(player *p, match *m, uint32_t now) {
  for (uint32_t q = 0; q < net_peer_count(m); ++q) {
    bool here = q == m->index || (m->present >> q & 1u);
    p->peer_state[q] = here ? PEER_PRESENT : q < m->players ? PEER_AWAY : PEER_VACANT;
    p->since[q] = p->away_since[q] = now;
    p->offered[q] = false;
    p->join_failure[q] = 0;
  }
}

bool roster_paused(const player *p, const match *m) {
  for (uint32_t q = 0; q < net_peer_count(m); ++q) {
    if (p->peer_state[q] == PEER_AWAY || p->peer_state[q] == PEER_JOINING) return true;
  }
  return false;
}

bool roster_holding(const player *p, const match *m) {
  for (uint32_t q = 0; q < net_peer_count(m); ++q) {
    if (p->peer_state[q] == PEER_JOINING) return true;
  }
  return false;
}

bool roster_finished(const player *p, uint32_t q) {
  return p->session.peers[q].hashes_compared >= p->session.def.tick_limit;
}

// Closes our link to q (telling it why when it is still up) and forgets it.
static void drop_link(match *m, uint32_t q, uint32_t reason) {
  ENetPeer *link = m->links[q];
  m->links[q] = 0;
  if (!link) return;
  link->data = 0; // ENet reuses the peer record for later connections
  if (link->state != ENET_PEER_STATE_DISCONNECTED) enet_peer_disconnect_now(link, reason);
}

// Sends a control message to every peer in the match but `except`.
static void tell_everyone(player *p, match *m, const net_control *c, uint32_t except) {
  char msg[NET_MESSAGE_BYTES];
  size_t n = net_write_control(c, msg);
  for (uint32_t q = 1; q < net_peer_count(m); ++q) {
    if (q != m->index && q != except && p->peer_state[q] == PEER_PRESENT)
      net_send_reliable(m->links[q], msg, n);
  }
}

// A join that did not finish: the slot is free again (an away player keeps its deadline).
static void join_failed(player *p, match *m, uint32_t q, uint32_t reason) {
  drop_link(m, q, reason);
  p->peer_state[q] = q < m->players ? PEER_AWAY : PEER_VACANT;
  p->since[q] = enet_time_get();
  if (m->index != 0 || p->admitting != (int)q) return;
  net_control c = {NET_LEFT, q, {0, 0}, 0};
  tell_everyone(p, m, &c, q);
  p->admitting = -1;
}

// A peer that left because it lost (or dropped) another peer r: r is named, so that every
// survivor names the same one. EXIT_OK when the reason is not that.
static int left_for_another(player *p, const match *m, uint32_t q, uint32_t data, const char *cmd) {
  uint32_t kind = data & ~0xFFu, r = data & 0xFFu;
  if ((kind != NET_LEAVE_LOST && kind != NET_LEAVE_DROPPED) || r >= net_peer_count(m) ||
      r == m->index || r == q)
    return EXIT_OK;
  char label[64], why[64], name[16];
  bool lost = kind == NET_LEAVE_LOST;
  snprintf(label, sizeof label, "%s %s at tick %u", lost ? "lost" : "dropped",
           player_peer_name(m, r, name), p->session.current);
  snprintf(why, sizeof why, "player %u left, having %s it", q, lost ? "lost" : "dropped");
  return player_stop(p, data, cmd, label, why);
}

// Peer q is gone: its link closed with `data`, or it fell silent (`why` says which).
static int gone(player *p, match *m, uint32_t q, uint32_t data, const char *why, const char *cmd) {
  uint8_t was = p->peer_state[q];
  char name[16];
  drop_link(m, q, NET_LEAVE_LOST + q);
  if (was == PEER_AWAY || was == PEER_VACANT || was == PEER_DONE) return EXIT_OK;
  if (was == PEER_PRESENT && roster_finished(p, q)) return p->peer_state[q] = PEER_DONE, EXIT_OK;
  // A joiner that does not get in leaves the match as it was.
  if (was == PEER_JOINING) {
    fprintf(stderr, "fixsteer %s: %s did not finish joining: %s\n", cmd,
            player_peer_name(m, q, name), why);
    p->join_failure[q] = data;
    join_failed(p, m, q, NET_LEAVE_FAILED);
    return EXIT_OK;
  }
  // A peer refused our join (we are the joiner): the fault is ours or the offers', not its;
  // we leave without blaming anyone.
  if (data == NET_LEAVE_BAD_JOIN) {
    char refused[80];
    snprintf(refused, sizeof refused, "%s refused our join: the tick we announced",
             player_peer_name(m, q, name));
    return player_stop(p, NET_LEAVE_FAILED, cmd, "stopped", refused);
  }
  int code = q < m->players ? left_for_another(p, m, q, data, cmd) : EXIT_OK;
  if (code != EXIT_OK) return code;
  // Without the host nobody is admitted; a peer that refused the match will not come back.
  if (q < m->players && ((q == 0 && m->index != 0) || m->rejoin_ms == 0 ||
                         data == NET_LEAVE_REFUSED || data == NET_LEAVE_SCENE))
    return player_lost(p, q, cmd, why);
  fxs_session_peer_left(&p->session, (uint8_t)q);
  p->since[q] = p->away_since[q] = enet_time_get();
  if (q >= m->players) {
    p->peer_state[q] = PEER_VACANT;
    fprintf(stderr, "fixsteer %s: spectator %u left at tick %u (%s)\n", cmd, q, p->session.current,
            why);
    return EXIT_OK;
  }
  p->peer_state[q] = PEER_AWAY;
  fprintf(stderr,
          "fixsteer %s: player %u left at tick %u (%s); waiting up to %u ms for it to come back\n",
          cmd, q, p->session.current, why, m->rejoin_ms);
  return EXIT_OK;
}

// ------------------------------------------------------------------ the host's admissions

// The slot for an arrival: a free spectator slot for one that comes to watch, else a player
// slot whose player is away; -1 when none is free now.
static int free_slot(const player *p, const match *m, bool watch) {
  uint32_t from = watch ? m->players : 1u, to = watch ? net_peer_count(m) : m->players;
  for (uint32_t q = from; q < to; ++q) {
    if (p->peer_state[q] == (watch ? PEER_VACANT : PEER_AWAY)) return (int)q;
  }
  return -1;
}

// Gives slot q to an arrival: the match message, the news to every peer, our offer.
static void admit(player *p, match *m, uint32_t q, const arrival *a, const char *cmd) {
  ENetPeer *peer = a->peer;
  char msg[NET_MESSAGE_BYTES], ip[NET_IP_BYTES], name[16];
  uint32_t now = enet_time_get();
  net_drop_arrival(m, peer);
  m->links[q] = peer;
  peer->data = net_link_tag(q);
  m->addresses[q].host = peer->address.host;
  m->addresses[q].port = (uint16_t)(a->data & 0xFFFFu);
  match late = *m;
  late.late = true, late.present = 0;
  for (uint32_t k = 0; k < net_peer_count(m); ++k)
    late.present |= (uint32_t)(p->peer_state[k] == PEER_PRESENT) << k;
  p->peer_state[q] = PEER_JOINING, p->since[q] = now, p->admitting = (int)q;
  net_send_reliable(peer, msg, net_write_start(&late, q, msg));
  net_control c = {NET_JOIN, q, m->addresses[q], p->session.settled};
  tell_everyone(p, m, &c, q);
  fprintf(stderr, "fixsteer %s: %s joins from %s:%u at tick %u\n", cmd,
          player_peer_name(m, q, name), net_ip(peer->address.host, ip), m->addresses[q].port,
          p->session.settled);
  if (!net_send_offer(p, m, q, true, cmd)) join_failed(p, m, q, NET_LEAVE_FAILED);
}

// Admits the first arrival that has a slot; refuses those that cannot get one.
static void admissions(player *p, match *m, uint32_t now) {
  for (uint32_t i = 0; p->admitting < 0 && i < m->arrival_count;) {
    arrival a = m->arrivals[i];
    bool watch = (a.data & NET_CONNECT_SPECTATE) != 0;
    int q = free_slot(p, m, watch);
    uint32_t refuse = 0;
    if (fxs_session_done(&p->session)) refuse = NET_LEAVE_OVER;
    else if ((a.data & 0xFFFFu) == 0) refuse = NET_LEAVE_REFUSED;
    // A player's loss may not be noticed yet when its new process arrives: it waits a while;
    // an arrival held while another join goes on waits 4 time-outs at most.
    else if (q < 0 && (watch || now - a.since > 2u * p->timeout_ms)) refuse = NET_LEAVE_FULL;
    else if (now - a.since > 4u * p->timeout_ms) refuse = NET_LEAVE_FULL;
    if (refuse) {
      net_drop_arrival(m, a.peer);
      enet_peer_disconnect_later(a.peer, refuse);
    } else if (q >= 0) {
      admit(p, m, (uint32_t)q, &a, "host");
    } else {
      ++i;
    }
  }
}

// ------------------------------------------------------------------ control messages

// FXJOIN from the host: peer q joins at `at`; we connect to it and send our offer once linked.
static void on_join(player *p, match *m, const net_control *c, const char *cmd) {
  uint32_t q = c->peer;
  char name[16];
  if (q == m->index) return;
  if (p->peer_state[q] == PEER_PRESENT) {
    // Its old process is gone, whether or not we noticed yet.
    fxs_session_peer_left(&p->session, (uint8_t)q);
    p->away_since[q] = enet_time_get();
  }
  drop_link(m, q, NET_LEAVE_LOST + q);
  ENetAddress at = c->address;
  net_localize(&at, &m->links[0]->address);
  p->peer_state[q] = PEER_JOINING, p->since[q] = enet_time_get(), p->offered[q] = false;
  p->offer_tick[q] = c->tick;
  m->links[q] = enet_host_connect(m->host, &at, 2, m->index);
  if (m->links[q]) m->links[q]->data = net_link_tag(q);
  fprintf(stderr, "fixsteer %s: %s joins at tick %u\n", cmd, player_peer_name(m, q, name),
          p->session.settled);
}

// FXJOINED from a joiner: it started at tick S; we take it back. Every peer knows S (the tick
// of the host's state, which FXJOIN named). A joiner that announces another tick is refused,
// and only it is blamed.
static void on_joined(player *p, match *m, uint32_t q, uint32_t tick, const char *cmd) {
  char name[16];
  if (tick != p->offer_tick[q]) {
    fprintf(stderr,
            "fixsteer %s: cannot take %s back: it announced tick %u, but the state offered to it "
            "is of tick %u\n",
            cmd, player_peer_name(m, q, name), tick, p->offer_tick[q]);
    join_failed(p, m, q, NET_LEAVE_BAD_JOIN);
    return;
  }
  fxs_result r = fxs_session_readmit(&p->session, (uint8_t)q, tick);
  if (r != FXS_OK) {
    fprintf(stderr,
            "fixsteer %s: cannot take %s back at the tick it announced, %u (ours: %u): %s\n", cmd,
            player_peer_name(m, q, name), tick, p->session.settled, fxs_result_message(r));
    join_failed(p, m, q, NET_LEAVE_BAD_JOIN);
    return;
  }
  p->join_failure[q] = 0;
  p->peer_state[q] = PEER_PRESENT, p->since[q] = enet_time_get();
  if (p->admitting == (int)q) p->admitting = -1;
  fprintf(stderr, "fixsteer %s: %s is in the match from tick %u\n", cmd,
          player_peer_name(m, q, name), tick);
}

// A message on channel 1 from peer k.
static void on_message(player *p, match *m, uint32_t k, const ENetPacket *pk, const char *cmd) {
  char error[160], name[16];
  net_control c;
  if (!net_read_control(pk->data, pk->dataLength, net_peer_count(m), &c, error, sizeof error)) {
    fprintf(stderr, "fixsteer %s: ignored a bad message from %s: %s\n", cmd,
            player_peer_name(m, k, name), error);
    return;
  }
  bool from_host = k == 0 && m->index != 0;
  if (c.kind == NET_JOIN && from_host) on_join(p, m, &c, cmd);
  else if (c.kind == NET_LEFT && from_host && p->peer_state[c.peer] == PEER_JOINING)
    join_failed(p, m, c.peer, NET_LEAVE_FAILED);
  else if (c.kind == NET_JOINED && p->peer_state[k] == PEER_JOINING)
    on_joined(p, m, k, c.tick, cmd);
}

// ------------------------------------------------------------------ events

// Our offer to joiner q goes out once our link to it is up and we have settled the tick of
// the host's state (FXJOIN): our hashes must confirm that state (fxs_session_join), and every
// player holds its input while a join is under way, so we get there.
static void send_offer_when_ready(player *p, match *m, uint32_t q, const char *cmd) {
  if (p->peer_state[q] != PEER_JOINING || p->offered[q] || !m->links[q] ||
      m->links[q]->state != ENET_PEER_STATE_CONNECTED || p->session.settled < p->offer_tick[q])
    return;
  if (!net_send_offer(p, m, q, false, cmd)) join_failed(p, m, q, NET_LEAVE_FAILED);
}

// A connection: the host holds it for a slot; a link we opened to a joiner is up (our offer
// goes out); nobody else connects to a peer during the match.
static void on_connect(player *p, match *m, ENetPeer *peer, uint32_t data, const char *cmd) {
  int q = net_link_index(peer);
  if (q < 0 && m->index == 0) {
    net_hold_arrival(m, peer, data, enet_time_get());
    char ip[NET_IP_BYTES];
    fprintf(stderr, "fixsteer host: a connection from %s:%u at tick %u waits for a %s slot\n",
            net_ip(peer->address.host, ip), peer->address.port, p->session.settled,
            (data & NET_CONNECT_SPECTATE) ? "spectator" : "player");
    admissions(p, m, enet_time_get()); // a free slot is given at once, before more arrive
  } else if (q < 0) {
    enet_peer_disconnect_later(peer, NET_LEAVE_REFUSED);
  } else {
    send_offer_when_ready(p, m, (uint32_t)q, cmd);
  }
}

// A peer whose packets say it runs another simulation version or other math: both builds
// are named and the match stops (its states would differ without any desync).
static int stop_other_build(player *p, int q, const uint8_t *data, size_t len, const char *cmd) {
  uint32_t theirs = 0;
  uint64_t math = 0;
  fxs_session_sender_build(data, len, &theirs, &math);
  char why[200];
  if (theirs != FXS_SIMULATION_VERSION)
    snprintf(why, sizeof why, "peer %d runs simulation version %u; this build runs %u", q,
             (unsigned)theirs, (unsigned)FXS_SIMULATION_VERSION);
  else
    snprintf(why, sizeof why,
             "peer %d runs other math: fingerprint 0x%016llx; this build's 0x%016llx", q,
             (unsigned long long)math, (unsigned long long)p->session.math_fingerprint);
  player_stop(p,
              theirs != FXS_SIMULATION_VERSION
                  ? NET_LEAVE_SIMULATION | ((uint32_t)FXS_SIMULATION_VERSION & 0xFFFFFFu)
                  : NET_LEAVE_MATH,
              cmd, "stopped", why);
  return EXIT_VERSION;
}

static int on_event(player *p, match *m, ENetEvent *ev, const char *cmd) {
  int q = net_link_index(ev->peer);
  char why[96];
  if (ev->type == ENET_EVENT_TYPE_RECEIVE) {
    if (q >= 0 && ev->channelID == 0) {
      const uint8_t *data = ev->packet->data;
      size_t len = ev->packet->dataLength;
      fxs_result got = fxs_session_receive(&p->session, (uint8_t)q, data, len, enet_time_get());
      if (got == FXS_ERR_SIMULATION_VERSION || got == FXS_ERR_BAD_FINGERPRINT) {
        enet_packet_destroy(ev->packet);
        return stop_other_build(p, q, data, len, cmd);
      }
      if (got == FXS_ERR_BAD_VERSION && fxs_session_packet_version(data, len) != 0) {
        // A peer of another version hashes with another function: name both and stop.
        char versions[160];
        uint32_t theirs = fxs_session_packet_version(data, len);
        snprintf(versions, sizeof versions,
                 "peer %d sends session packets of version %u (state hash v%u), this fixsteer "
                 "version %u (state hash v%u)",
                 q, (unsigned)theirs, (unsigned)fxs_session_packet_hash_version(theirs),
                 (unsigned)FXS_SESSION_PACKET_VERSION,
                 (unsigned)fxs_session_packet_hash_version(FXS_SESSION_PACKET_VERSION));
        enet_packet_destroy(ev->packet);
        return player_stop(p, NET_LEAVE_FAILED, cmd, "stopped", versions);
      }
    } else if (q >= 0 && ev->channelID == 1) {
      on_message(p, m, (uint32_t)q, ev->packet, cmd);
    }
    enet_packet_destroy(ev->packet);
  } else if (ev->type == ENET_EVENT_TYPE_CONNECT) {
    on_connect(p, m, ev->peer, ev->data, cmd);
  } else if (ev->type == ENET_EVENT_TYPE_DISCONNECT && q < 0) {
    net_drop_arrival(m, ev->peer);
  } else if (ev->type == ENET_EVENT_TYPE_DISCONNECT) {
    m->links[q] = 0;
    ev->peer->data = 0;
    return gone(p, m, (uint32_t)q, ev->data, net_leave_reason(ev->data, why, sizeof why), cmd);
  }
  return EXIT_OK;
}

int roster_pump(player *p, match *m, uint32_t wait_ms, const char *cmd) {
  ENetEvent ev;
  int r = enet_host_service(m->host, &ev, wait_ms);
  for (; r > 0; r = enet_host_service(m->host, &ev, 0)) {
    int code = on_event(p, m, &ev, cmd);
    if (code != EXIT_OK) return code;
  }
  if (r < 0) return player_stop(p, NET_LEAVE_FAILED, cmd, "stopped", "the network failed");
  return EXIT_OK;
}

// ------------------------------------------------------------------ once a frame

// A peer in the match silent for longer than the time-out (and not finished) is gone. Its
// silence counts from when it (re)entered the match, since a returning peer was last heard
// before it left.
static int silences(player *p, match *m, uint32_t now, const char *cmd) {
  fxs_session_wait w;
  fxs_session_wait_info(&p->session, now, &w);
  for (uint32_t q = 0; q < net_peer_count(m); ++q) {
    if (q == m->index || p->peer_state[q] != PEER_PRESENT || roster_finished(p, q)) continue;
    uint32_t silent = w.silent_ms[q] < now - p->since[q] ? w.silent_ms[q] : now - p->since[q];
    if (silent <= p->timeout_ms) continue;
    char why[64];
    snprintf(why, sizeof why, "no packet for %u ms%s", silent,
             w.waiting && (w.missing >> q & 1u) ? ", its input is missing" : "");
    int code = gone(p, m, q, 0, why, cmd);
    if (code != EXIT_OK) return code;
  }
  return EXIT_OK;
}

int roster_check(player *p, match *m, uint32_t now, const char *cmd) {
  int code = silences(p, m, now, cmd);
  if (code != EXIT_OK) return code;
  // The host gives up on an away player first and says why (it alone hears why a join
  // failed: a refused offer); another player gives up a time-out later, when it has not heard
  // of it, so that the reason is not lost to a race between the two timers.
  uint32_t rejoin = m->rejoin_ms + (m->index == 0 ? 0u : p->timeout_ms);
  for (uint32_t q = 0; q < net_peer_count(m); ++q) {
    char why[160], name[16];
    if (p->peer_state[q] == PEER_AWAY && now - p->away_since[q] > rejoin) {
      uint32_t f = p->join_failure[q];
      if (f >= NET_LEAVE_BAD_OFFER && f < NET_LEAVE_BAD_OFFER + NET_MAX_PEERS)
        snprintf(why, sizeof why,
                 "it did not come back within %u ms: it refused the join offer of %s", rejoin,
                 player_peer_name(m, f - NET_LEAVE_BAD_OFFER, name));
      else snprintf(why, sizeof why, "it did not come back within %u ms", rejoin);
      return player_lost(p, q, cmd, why);
    }
    // A join takes a few round trips; one that is not done in 4 time-outs is given up (by the
    // host, which tells the others; a peer that does not hear of it gives up a time-out later).
    uint32_t limit = (m->index == 0 ? 4u : 5u) * p->timeout_ms;
    if (m->index != 0) send_offer_when_ready(p, m, q, cmd);
    if (p->peer_state[q] == PEER_JOINING && now - p->since[q] > limit) {
      fprintf(stderr, "fixsteer %s: %s did not join within %u ms\n", cmd,
              player_peer_name(m, q, name), limit);
      join_failed(p, m, q, NET_LEAVE_FAILED);
    }
  }
  if (m->index == 0) admissions(p, m, now);
  return EXIT_OK;
}

#endif
