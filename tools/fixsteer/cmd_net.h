// fixsteer host / join: a built-in scenario played by 2 to 8 processes (and watched by up to
// 8 more), on one machine or across a network (IPv4), through fxs_session over ENet. Each
// player submits the scenario's commands for the agents it owns; a player that leaves may
// come back, a spectator may arrive at any time; every process writes its replay of the match.
#ifndef FIXSTEER_TOOL_CMD_NET_H
#define FIXSTEER_TOOL_CMD_NET_H

#define CMD_NET_HOST_USAGE                                                               \
  "fixsteer host --players N --port P --scenario NAME --ticks T --out FILE [--delay D] " \
  "[--rollback] [--spectators N] [--rejoin-ms MS] [--progress-window-ms MS] "            \
  "[--progress-min-ticks N] [--bind ADDRESS] [--desync-at TICK] [--tick-ms MS] [--timeout-ms MS]"
#define CMD_NET_HOST_SUMMARY                                                                    \
  "host a match of a built-in scenario for N players (this one is player 0) and up to "         \
  "--spectators watchers on --bind:--port (default 127.0.0.1); a player that leaves may come "  \
  "back within --rejoin-ms (10000; 0: a loss ends the match); the match must settle "           \
  "--progress-min-ticks in every --progress-window-ms (10000 ms; default floor: a quarter of "  \
  "the ticks the window holds) or the peers holding it back are dropped; exit 1 on a desync, "  \
  "3 when the match ends early (the replay then ends at the last settled tick) or --bind does " \
  "not resolve"
#define CMD_NET_JOIN_USAGE                                                          \
  "fixsteer join --host ADDRESS --port P --out FILE [--spectate] [--bind ADDRESS] " \
  "[--desync-at TICK] [--timeout-ms MS]"
#define CMD_NET_JOIN_SUMMARY                                                                  \
  "join the match hosted at --host:--port (an IPv4 address or a host name) as the next "      \
  "player, in the slot of a player that left (run it again to come back), or with "           \
  "--spectate as a spectator at any time; exit 1 on a desync, 3 when the match ends early "   \
  "(the replay then ends at the last settled tick), the match message is malformed, no slot " \
  "is free or an address does not resolve"

// Both return the tool's exit code: 0 ok, 1 desync, 2 bad usage, 3 network failure.
int cmd_host(int argc, char **argv);
int cmd_join(int argc, char **argv);

#endif
