// Two players play one world over ENet (UDP), in lockstep or with rollback, through
// fxs_session (docs/lockstep.md). Each player owns two agents and moves their target, from
// an input only it knows, every 20 ticks; only those commands and one state hash a tick cross
// the network. Both processes record the match: the two replays verify with the same hash.
//
//   cc -std=c99 lockstep.c $(pkg-config --cflags --libs fixsteer) -lenet -o lockstep
//   ./lockstep 0 7000 p0.fxr &                # player 0 listens on 127.0.0.1:7000
//   ./lockstep 1 7000 p1.fxr 127.0.0.1        # player 1 connects to it
//   fixsteer verify p0.fxr; fixsteer verify p1.fxr
//
// Add --rollback to both for rollback (predicted inputs, resimulated when wrong): the same
// replays. Exit codes: 0 played and agreed, 1 a desync, 2 bad usage or a local failure, 3 the
// other player was not reached or went silent.
#include <enet/enet.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/session.h"

enum { PLAYERS = 2, AGENTS_EACH = 2, TICKS = 600, TIMEOUT_MS = 5000 };

// The caller's memory, sized with room to spare and checked against the size queries (the
// program prints what they answer): the world 4,568 bytes, the session 47,232 in lockstep and
// 56,552 with rollback (max_prediction + 2 snapshots of 912 bytes more), the snapshot 912.
static uint64_t world_memory[1024];
static uint64_t session_memory[8192];
static uint8_t scratch[4096]; // the replay writer's: the largest snapshot of the match
static uint8_t packet[1200];  // one packet in or out: max_packet_bytes of the definition

static bool write_replay(void *user, const uint8_t *bytes, size_t size) {
  return fwrite(bytes, 1, size, (FILE *)user) == size;
}

// The same world on both peers before tick 0: four agents, two owned by each player, that
// arrive at their target and keep apart; player 0's start on the left, player 1's on the right.
static bool set_up(fxs_world *world, fxs_agent_handle agents[PLAYERS][AGENTS_EACH]) {
  fxs_world_capacity capacity = {.agents = PLAYERS * AGENTS_EACH, .obstacles = 1};
  fxs_world_def def = fxs_default_world_def();
  def.bounds_max = fxs_vec2_make(FXS_INT(800), FXS_INT(600));
  def.clamp_to_bounds = 1;
  size_t size = fxs_world_memory_size(&capacity);
  if (size == 0 || size > sizeof world_memory ||
      fxs_world_init(world, &def, &capacity, world_memory, sizeof world_memory) != FXS_OK) {
    return false;
  }
  fxs_obstacle rock = {fxs_vec2_make(FXS_INT(400), FXS_INT(300)), FXS_INT(50)};
  fxs_command c = fxs_command_add_obstacle(rock);
  bool ok = fxs_world_apply(world, &c, NULL) == FXS_OK;
  for (uint8_t p = 0; p < PLAYERS; ++p) {
    for (int i = 0; i < AGENTS_EACH; ++i) {
      fxs_spawn_def body = fxs_default_spawn_def();
      body.position = fxs_vec2_make(FXS_INT(100 + 600 * p), FXS_INT(200 + 200 * i));
      body.owned = 1; // owned by the source of the spawn: player p
      c = fxs_command_spawn(&body);
      c.source = p;
      ok = ok && fxs_world_apply(world, &c, &agents[p][i]) == FXS_OK;
      fxs_avoidance_def avoid = fxs_default_avoidance_def();
      fxs_command set[] = {
          fxs_command_clear_behaviors(agents[p][i], FXS_COMBINE_PRIORITIZED_SUM),
          fxs_command_add_avoidance(agents[p][i], fxs_default_blend(), &avoid),
          fxs_command_add_separation(agents[p][i], fxs_default_blend(), FXS_INT(40)),
          fxs_command_add_arrive(agents[p][i], fxs_default_blend(), FXS_INT(60)),
      };
      for (size_t k = 0; k < sizeof set / sizeof set[0]; ++k) {
        set[k].source = p; // the owner commands its agents
        ok = ok && fxs_world_apply(world, &set[k], NULL) == FXS_OK;
      }
    }
  }
  return ok;
}

// This player's input of one tick: every 20 ticks a new point from its own random walk,
// which the other player learns only from the commands sent over the network.
static uint32_t player_input(uint8_t me, uint32_t tick, uint32_t *walk,
                             const fxs_agent_handle mine[AGENTS_EACH], fxs_command *out) {
  if (tick % 20 != 0) return 0;
  *walk = *walk * 1664525u + 1013904223u;
  fxs_vec2 point = fxs_vec2_make(FXS_INT(50 + (int32_t)(*walk >> 8) % 700),
                                 FXS_INT(50 + (int32_t)(*walk >> 20) % 500));
  for (int i = 0; i < AGENTS_EACH; ++i) {
    fxs_vec2 offset = fxs_vec2_make(FXS_INT(30 * i), FXS_INT(20 * me));
    out[i] = fxs_command_set_target_point(mine[i], fxs_vec2_add(point, offset));
  }
  return AGENTS_EACH;
}

// Connects the two players: player 0 listens on `port`, player 1 connects to host:port.
static ENetPeer *connect_players(ENetHost **host, uint8_t me, const char *address, uint16_t port) {
  ENetAddress at;
  enet_address_set_host(&at, address);
  at.port = port;
  *host = enet_host_create(me == 0 ? &at : NULL, 1, 1, 0, 0);
  if (!*host) return NULL;
  ENetPeer *peer = me == 0 ? NULL : enet_host_connect(*host, &at, 1, 0);
  ENetEvent ev;
  uint32_t start = enet_time_get();
  while (enet_time_get() - start < 2u * TIMEOUT_MS) {
    if (enet_host_service(*host, &ev, 50) > 0 && ev.type == ENET_EVENT_TYPE_CONNECT) return ev.peer;
  }
  if (peer) enet_peer_reset(peer);
  return NULL;
}

// Takes every packet waiting (for up to wait_ms) into the session. False when the other
// player disconnected.
static bool receive(ENetHost *host, fxs_session *session, uint8_t other, uint32_t wait_ms) {
  ENetEvent ev;
  while (enet_host_service(host, &ev, wait_ms) > 0) {
    wait_ms = 0;
    if (ev.type == ENET_EVENT_TYPE_DISCONNECT) return false;
    if (ev.type != ENET_EVENT_TYPE_RECEIVE) continue;
    // Untrusted bytes: a bad packet is refused and changes nothing.
    fxs_session_receive(session, other, ev.packet->data, ev.packet->dataLength, enet_time_get());
    enet_packet_destroy(ev.packet);
  }
  return true;
}

static void send_due(ENetHost *host, ENetPeer *peer, fxs_session *session, uint8_t other) {
  size_t len = 0;
  if (fxs_session_poll_send(session, other, enet_time_get(), packet, sizeof packet, &len) ==
          FXS_OK &&
      len) {
    enet_peer_send(peer, 0, enet_packet_create(packet, len, ENET_PACKET_FLAG_UNSEQUENCED));
  }
  enet_host_flush(host);
}

// Plays the match; returns the exit code.
static int play(fxs_world *world, fxs_session *session, ENetHost *host, ENetPeer *peer, uint8_t me,
                const fxs_agent_handle mine[AGENTS_EACH]) {
  uint8_t other = (uint8_t)(1 - me);
  uint32_t walk = 12345u + 777u * me;
  while (!fxs_session_complete(session)) {
    if (!receive(host, session, other, 1))
      return fprintf(stderr, "player %u: the other player left\n", me), 3;
    if (fxs_session_wants_input(session)) {
      fxs_command commands[AGENTS_EACH];
      uint32_t n = player_input(me, fxs_session_input_tick(session), &walk, mine, commands);
      fxs_session_submit(session, commands, n);
    }
    // A game would step at its frame rate; this one steps as fast as the inputs allow.
    fxs_result r = fxs_session_advance(session, world, enet_time_get());
    if (r != FXS_OK && r != FXS_ERR_WAITING && r != FXS_ERR_LIMIT) {
      return fprintf(stderr, "player %u: the session stopped: %s\n", me, fxs_result_message(r)), 2;
    }
    fxs_session_wait wait;
    fxs_session_wait_info(session, enet_time_get(), &wait);
    if (wait.waiting && wait.waited_ms > TIMEOUT_MS) {
      return fprintf(stderr, "player %u: no input from the other player for %" PRIu32 " ms\n", me,
                     wait.waited_ms),
             3;
    }
    send_due(host, peer, session, other);
  }
  // Stay a little, so the other player receives the acknowledgements it waits for.
  uint32_t since = enet_time_get();
  while (!fxs_session_delivered(session) && enet_time_get() - since < 1000u &&
         receive(host, session, other, 1)) {
    send_due(host, peer, session, other);
  }
  return 0;
}

int main(int argc, char **argv) {
  bool rollback = argc > 1 && strcmp(argv[argc - 1], "--rollback") == 0;
  if (rollback) --argc;
  if (argc < 4 || argc > 5 || (argv[1][0] != '0' && argv[1][0] != '1') || argv[1][1]) {
    fprintf(stderr, "usage: lockstep 0|1 PORT REPLAY [HOST] [--rollback]\n");
    return 2;
  }
  uint8_t me = (uint8_t)(argv[1][0] - '0');
  uint16_t port = (uint16_t)atoi(argv[2]);
  const char *address = argc == 5 ? argv[4] : "127.0.0.1";
  static fxs_world world;
  fxs_agent_handle agents[PLAYERS][AGENTS_EACH];
  if (!set_up(&world, agents))
    return fprintf(stderr, "player %u: cannot set the world up\n", me), 2;

  // The replay starts from the world at tick 0; the session records every settled tick.
  FILE *out = fopen(argv[3], "wb");
  fxs_replay_writer replay;
  if (!out || fxs_world_snapshot_size(&world) > sizeof scratch ||
      fxs_replay_writer_begin(&replay, write_replay, out, &world, 100, scratch, sizeof scratch) !=
          FXS_OK) {
    return fprintf(stderr, "player %u: cannot record to %s\n", me, argv[3]), 2;
  }
  fxs_session_def def = fxs_default_session_def(); // lockstep, delay 2, 16 commands a tick
  def.players = PLAYERS;
  def.local = me;
  def.session_id = 0x5eed; // the same on both peers (a real game draws it per match)
  def.tick_limit = TICKS;
  def.replay = &replay;
  if (rollback) {
    def.mode = FXS_SESSION_ROLLBACK;
    def.snapshot_bytes = fxs_world_snapshot_size(&world); // no agent spawns later: it stays
  }
  size_t size = fxs_session_memory_size(&def);
  fxs_session session;
  if (size == 0 || size > sizeof session_memory ||
      fxs_session_init(&session, &def, session_memory, sizeof session_memory) != FXS_OK) {
    return fprintf(stderr, "player %u: cannot start the session\n", me), 2;
  }

  if (enet_initialize() != 0) return fprintf(stderr, "player %u: cannot start ENet\n", me), 2;
  ENetHost *host = NULL;
  ENetPeer *peer = connect_players(&host, me, address, port);
  int code = peer ? play(&world, &session, host, peer, me, agents[me]) : 3;
  if (!peer) fprintf(stderr, "player %u: no other player at %s:%u\n", me, address, port);
  if (peer) enet_peer_disconnect_later(peer, 0), enet_host_flush(host);
  if (host) enet_host_destroy(host);
  enet_deinitialize();

  bool written = fxs_replay_writer_end(&replay, &world) == FXS_OK && fclose(out) == 0;
  const fxs_session_desync *desync = fxs_session_desync_report(&session);
  if (desync) {
    printf("player %u: DESYNC at tick %" PRIu32 "\n", me, desync->tick);
    return 1;
  }
  if (code == 0) {
    printf("player %u: %" PRIu32 " ticks, %s, final hash 0x%016" PRIx64 ", replay %s%s\n", me,
           world.tick, rollback ? "rollback" : "lockstep", fxs_world_hash(&world), argv[3],
           written ? "" : " NOT WRITTEN");
    printf("player %u: bytes: world %zu, session %zu, snapshot %zu\n", me,
           fxs_world_memory_size(&world.capacity), size, fxs_world_snapshot_size(&world));
  }
  return code == 0 && !written ? 2 : code;
}
