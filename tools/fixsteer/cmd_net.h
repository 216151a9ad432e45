// fixsteer host / join: a built-in scenario played by 2 to 8 processes (and watched by up to
// 8 more), on one machine or across a network (IPv4), through fxs_session over ENet. Each
// player submits the scenario's commands for the agents it owns; a player that leaves may
// come back, a spectator may arrive at any time; every process writes its replay of the match.
#ifndef FIXSTEER_TOOL_CMD_NET_H
#define FIXSTEER_TOOL_CMD_NET_H

// Both return the tool's exit code (exit_codes.h): 0 ok, 1 desync, 2 bad usage, 3 network
// failure. Their usage, options and defaults: cli.c (net_settings.h).
int cmd_host(int argc, char **argv);
int cmd_join(int argc, char **argv);

#endif
