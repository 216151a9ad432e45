// The lobby of `fixsteer host` / `join` (net.h): the host numbers the joiners in the order
// they connect and, once all are there, sends each the match message (net_message.c) with
// every joiner's listening address as the host saw it; the joiners then connect to each
// other, so that every pair of players has a link. A spectator that connects early, or a
// connection past the players, is held for the match (net_roster.c gives it a slot).
#define _DEFAULT_SOURCE

#include <stdio.h>

#include "net.h"
#include "net_settings.h"

#ifndef FXS_TOOL_NO_ENET

#include <stdlib.h>
#include <string.h>

#include "fixsteer/version.h"

ENetHost *net_listen(const ENetAddress *at, uint16_t *bound) {
  // Every peer, the held arrivals, and room for links that are still closing.
  ENetHost *h = enet_host_create(at, NET_MAX_PEERS + NET_MAX_ARRIVALS + 8, 2, 0, 0);
  if (h && bound) {
    ENetAddress got;
    *bound = enet_socket_get_address(h->socket, &got) == 0 ? got.port : 0;
  }
  return h;
}

void *net_link_tag(uint32_t index) { return (void *)(uintptr_t)(index + 1u); }
int net_link_index(const ENetPeer *p) { return p->data ? (int)((uintptr_t)p->data - 1u) : -1; }

int net_leave_code(uint32_t data) {
  return data >= NET_LEAVE_SIMULATION || data == NET_LEAVE_MATH ? EXIT_VERSION : EXIT_NET;
}

const char *net_leave_reason(uint32_t data, char *buf, size_t size) {
  if (data >= NET_LEAVE_SIMULATION)
    snprintf(buf, size, "it runs simulation version %u; this build runs %u",
             data - NET_LEAVE_SIMULATION, (unsigned)FXS_SIMULATION_VERSION);
  else if (data == NET_LEAVE_MATH)
    snprintf(buf, size, "it runs other math (another math fingerprint)");
  else if (data == NET_LEAVE_SCENE) snprintf(buf, size, "it holds another scene than this match's");
  else if (data >= NET_LEAVE_LOST && data < NET_LEAVE_LOST + NET_MAX_PEERS)
    snprintf(buf, size, "it left, having lost player %u", data - NET_LEAVE_LOST);
  else if (data >= NET_LEAVE_DROPPED && data < NET_LEAVE_DROPPED + NET_MAX_PEERS)
    snprintf(buf, size, "it left, having dropped peer %u (below the progress floor)",
             data - NET_LEAVE_DROPPED);
  else if (data >= NET_LEAVE_BAD_OFFER && data < NET_LEAVE_BAD_OFFER + NET_MAX_PEERS)
    snprintf(buf, size, "it refused the join offer of peer %u (see its messages: the field)",
             data - NET_LEAVE_BAD_OFFER);
  else if (data == NET_LEAVE_BAD_JOIN)
    snprintf(buf, size, "it refused our join: the tick we announced");
  else if (data == NET_LEAVE_FULL) snprintf(buf, size, "no slot is free for this joiner");
  else if (data == NET_LEAVE_OVER) snprintf(buf, size, "the match is over");
  else if (data == NET_LEAVE_DONE) snprintf(buf, size, "it left, its match over");
  else if (data == NET_LEAVE_REFUSED) snprintf(buf, size, "it refused the match message");
  else if (data == NET_LEAVE_FAILED) snprintf(buf, size, "it stopped");
  else snprintf(buf, size, "it disconnected");
  return buf;
}

void net_leave(match *m, uint32_t reason) {
  for (uint32_t q = 0; q < NET_MAX_PEERS; ++q) {
    if (m->links[q]) enet_peer_disconnect_later(m->links[q], reason);
  }
  for (uint32_t i = 0; i < m->arrival_count; ++i)
    enet_peer_disconnect_later(m->arrivals[i].peer, NET_LEAVE_OVER);
  m->arrival_count = 0;
  ENetEvent ev;
  for (uint32_t t0 = enet_time_get(); enet_time_get() - t0 < 100u;) {
    if (enet_host_service(m->host, &ev, 10) > 0 && ev.type == ENET_EVENT_TYPE_RECEIVE)
      enet_packet_destroy(ev.packet);
  }
}

void net_send_reliable(ENetPeer *to, const void *bytes, size_t len) {
  if (to && len) enet_peer_send(to, 1, enet_packet_create(bytes, len, ENET_PACKET_FLAG_RELIABLE));
}

// The oldest held arrival, of address `host` when `same` (-1 when none).
static int oldest_arrival(const match *m, bool same, uint32_t host, uint32_t *count) {
  int oldest = -1;
  *count = 0;
  for (uint32_t i = 0; i < m->arrival_count; ++i) {
    if (same && m->arrivals[i].peer->address.host != host) continue;
    ++*count;
    if (oldest < 0 || (int32_t)(m->arrivals[i].since - m->arrivals[oldest].since) < 0)
      oldest = (int)i;
  }
  return oldest;
}

void net_hold_arrival(match *m, ENetPeer *peer, uint32_t data, uint32_t now) {
  uint32_t from_address = 0, all = 0;
  int victim = oldest_arrival(m, true, peer->address.host, &from_address);
  if (from_address < NET_ARRIVALS_PER_ADDRESS) victim = -1;
  if (victim < 0 && m->arrival_count == NET_MAX_ARRIVALS)
    victim = oldest_arrival(m, false, 0, &all);
  if (victim >= 0) {
    ENetPeer *old = m->arrivals[victim].peer;
    net_drop_arrival(m, old);
    enet_peer_disconnect_later(old, NET_LEAVE_FULL);
  }
  arrival *a = &m->arrivals[m->arrival_count++];
  a->peer = peer, a->data = data, a->since = now;
}

void net_drop_arrival(match *m, const ENetPeer *peer) {
  for (uint32_t i = 0; i < m->arrival_count; ++i) {
    if (m->arrivals[i].peer != peer) continue;
    m->arrivals[i] = m->arrivals[--m->arrival_count];
    return;
  }
}

static bool all_linked(const match *m) {
  for (uint32_t i = 0; i < m->players; ++i) {
    if (i != m->index && (!m->links[i] || m->links[i]->state != ENET_PEER_STATE_CONNECTED))
      return false;
  }
  return true;
}

// Sends every joiner the match. Test hook: when FIXSTEER_TEST_MATCH_MESSAGE is set, the host
// sends its text instead (tools/lockstep-check.sh checks that a joiner names the bad field).
static void send_match(match *m) {
  const char *test = getenv("FIXSTEER_TEST_MATCH_MESSAGE");
  for (uint32_t i = 1; i < m->players; ++i) {
    char msg[NET_MESSAGE_BYTES];
    size_t n = test ? strlen(test) + 1u : net_write_start(m, i, msg);
    net_send_reliable(m->links[i], test ? test : msg, n);
  }
  enet_host_flush(m->host);
}

// Progress while the host waits for its joiners, on stderr whether or not it is a terminal
// (a host is often left running in a log): a line when the wait starts, one per player that
// joins, and one every NET_LOBBY_PROGRESS_MS while nobody joins.
static void lobby_progress(const match *m, uint32_t joined, uint32_t waited_ms, uint32_t wait_ms) {
  fprintf(stderr, "fixsteer host: waiting for players: %u of %u here, %u s of %u s\n", joined + 1u,
          m->players, waited_ms / 1000u, wait_ms / 1000u);
}

int net_host_lobby(match *m, uint32_t wait_ms) {
  uint32_t start = enet_time_get(), joined = 0, shown = start;
  ENetEvent ev;
  char why[64], ip[NET_IP_BYTES];
  m->late = false;
  m->present = (1u << m->players) - 1u;
  fprintf(stderr,
          "fixsteer host: waiting for players: 1 of %u here (this host is player 0; joiners are "
          "numbered 1, 2, ... in the order they connect)\n",
          m->players);
  while (joined + 1u < m->players) {
    uint32_t now = enet_time_get();
    if (now - start > wait_ms) {
      fprintf(stderr, "fixsteer host: only %u of %u players joined in %u ms\n", joined + 1u,
              m->players, wait_ms);
      return EXIT_NET;
    }
    if (now - shown >= NET_LOBBY_PROGRESS_MS)
      lobby_progress(m, joined, now - start, wait_ms), shown = now;
    if (enet_host_service(m->host, &ev, 50) <= 0) continue;
    if (ev.type == ENET_EVENT_TYPE_CONNECT && (ev.data & NET_CONNECT_SPECTATE)) {
      net_hold_arrival(m, ev.peer, ev.data, enet_time_get()); // it watches once the match runs
    } else if (ev.type == ENET_EVENT_TYPE_CONNECT && ev.data > 0 && ev.data < 65536) {
      uint32_t i = ++joined;
      m->links[i] = ev.peer;
      m->addresses[i].host = ev.peer->address.host; // where its packets come from
      m->addresses[i].port = (uint16_t)ev.data;
      ev.peer->data = net_link_tag(i);
      fprintf(stderr, "fixsteer host: player %u joined from %s:%u: %u of %u players here\n", i,
              net_ip(ev.peer->address.host, ip), ev.peer->address.port, joined + 1u, m->players);
      shown = enet_time_get();
    } else if (ev.type == ENET_EVENT_TYPE_RECEIVE) {
      enet_packet_destroy(ev.packet);
    } else if (ev.type == ENET_EVENT_TYPE_DISCONNECT && net_link_index(ev.peer) < 0) {
      net_drop_arrival(m, ev.peer);
    } else if (ev.type == ENET_EVENT_TYPE_DISCONNECT && net_link_index(ev.peer) > 0) {
      fprintf(stderr, "fixsteer host: player %d left before the match: %s\n",
              net_link_index(ev.peer), net_leave_reason(ev.data, why, sizeof why));
      return net_leave_code(ev.data);
    }
  }
  send_match(m);
  return EXIT_OK;
}

void net_localize(ENetAddress *peer, const ENetAddress *host) {
  if (!net_is_loopback(host->host) && net_is_loopback(peer->host)) peer->host = host->host;
}

int net_join_lobby(match *m, const ENetAddress *host, uint32_t connect_data, uint32_t wait_ms) {
  uint32_t start = enet_time_get();
  char at[NET_IP_BYTES + 8], why[96], error[512];
  snprintf(at, sizeof at, "%s:%u", net_ip(host->host, why), host->port);
  m->links[0] = enet_host_connect(m->host, host, 2, connect_data);
  if (!m->links[0]) return fprintf(stderr, "fixsteer join: cannot connect to %s\n", at), EXIT_NET;
  m->links[0]->data = net_link_tag(0);
  ENetEvent ev;
  for (;;) {
    if (enet_time_get() - start > wait_ms) {
      fprintf(stderr, "fixsteer join: no match from %s within %u ms\n", at, wait_ms);
      return EXIT_NET;
    }
    if (enet_host_service(m->host, &ev, 50) <= 0) continue;
    int k = net_link_index(ev.peer);
    if (ev.type == ENET_EVENT_TYPE_RECEIVE && ev.channelID == 1 && k > 0 && !m->early[k]) {
      m->early[k] = ev.packet; // a join offer that overtook the match message
    } else if (ev.type == ENET_EVENT_TYPE_RECEIVE) {
      bool start_message = ev.channelID == 1 && k == 0;
      uint32_t leave = NET_LEAVE_REFUSED;
      bool ok = start_message && net_read_start(m, ev.packet->data, ev.packet->dataLength, error,
                                                sizeof error, &leave);
      enet_packet_destroy(ev.packet);
      for (uint32_t j = 1; ok && !m->late && j < m->players; ++j) {
        net_localize(&m->addresses[j], host);
        if (m->early[j]) enet_packet_destroy(m->early[j]), m->early[j] = 0; // only offers count
      }
      if (ok) return EXIT_OK;
      if (start_message) {
        fprintf(stderr, "fixsteer join: %s match message from the host at %s: %s\n",
                leave == NET_LEAVE_REFUSED ? "bad" : "refused the", at, error);
        enet_peer_disconnect(m->links[0], leave); // sent by the caller's net_leave
        return leave == NET_LEAVE_REFUSED ? EXIT_NET
               : leave == NET_LEAVE_SCENE ? EXIT_BAD
                                          : EXIT_VERSION;
      }
    } else if (ev.type == ENET_EVENT_TYPE_CONNECT && k < 0 && ev.data > 0 &&
               ev.data < NET_MAX_PEERS && !m->links[ev.data]) {
      // A joiner that got the match first, or a peer of a match under way that heard of us
      // first (checked when linking, or when the offers come).
      m->links[ev.data] = ev.peer;
      ev.peer->data = net_link_tag(ev.data);
    } else if (ev.type == ENET_EVENT_TYPE_DISCONNECT && k == 0) {
      fprintf(stderr, "fixsteer join: the host at %s closed the connection: %s\n", at,
              net_leave_reason(ev.data, why, sizeof why));
      return net_leave_code(ev.data);
    }
  }
}

// Names the players we have no link with, and where we tried to reach them.
static int link_failed(const match *m, uint32_t wait_ms, const char *cmd) {
  fprintf(stderr, "fixsteer %s: could not link with every player within %u ms:", cmd, wait_ms);
  for (uint32_t i = 0; i < m->players; ++i) {
    char ip[NET_IP_BYTES];
    if (i == m->index || (m->links[i] && m->links[i]->state == ENET_PEER_STATE_CONNECTED)) continue;
    if (i < m->index && i > 0)
      fprintf(stderr, " player %u (at %s:%u)", i, net_ip(m->addresses[i].host, ip),
              m->addresses[i].port);
    else fprintf(stderr, " player %u (it connects to us)", i);
  }
  fprintf(stderr, "\n");
  return EXIT_NET;
}

int net_link_players(match *m, uint32_t wait_ms, const char *cmd) {
  uint32_t start = enet_time_get();
  char why[64];
  for (uint32_t j = m->players; j < NET_MAX_PEERS; ++j) {
    if (m->links[j])
      return fprintf(stderr, "fixsteer %s: a peer claims to be player %u\n", cmd, j), EXIT_NET;
  }
  for (uint32_t j = 1; j < m->index; ++j) {
    m->links[j] = enet_host_connect(m->host, &m->addresses[j], 2, m->index);
    if (m->links[j]) m->links[j]->data = net_link_tag(j);
  }
  ENetEvent ev;
  while (!all_linked(m)) {
    if (enet_time_get() - start > wait_ms) return link_failed(m, wait_ms, cmd);
    if (enet_host_service(m->host, &ev, 20) <= 0) continue;
    int q = net_link_index(ev.peer);
    if (ev.type == ENET_EVENT_TYPE_CONNECT && q < 0 && ev.data > m->index && ev.data < m->players) {
      m->links[ev.data] = ev.peer;
      ev.peer->data = net_link_tag(ev.data);
    } else if (ev.type == ENET_EVENT_TYPE_CONNECT && q < 0 && m->index == 0) {
      net_hold_arrival(m, ev.peer, ev.data, enet_time_get()); // a spectator, or one too many
    } else if (ev.type == ENET_EVENT_TYPE_RECEIVE) {
      enet_packet_destroy(ev.packet); // game packets of a fast peer: the session sends them again
    } else if (ev.type == ENET_EVENT_TYPE_DISCONNECT && q < 0) {
      net_drop_arrival(m, ev.peer);
    } else if (ev.type == ENET_EVENT_TYPE_DISCONNECT && q >= 0 && q < m->players) {
      fprintf(stderr, "fixsteer %s: player %d left before the match: %s\n", cmd, q,
              net_leave_reason(ev.data, why, sizeof why));
      return net_leave_code(ev.data);
    }
  }
  return EXIT_OK;
}

#endif
