// The defaults of the match settings that `fixsteer host` chooses and `join` accepts: used by
// cmd_net.c, and printed by `fixsteer help host` (cli.c). No ENet needed.
#ifndef FIXSTEER_TOOL_NET_SETTINGS_H
#define FIXSTEER_TOOL_NET_SETTINGS_H

#define NET_DEFAULT_DELAY 2                  // --delay, ticks of input delay
#define NET_DEFAULT_TICK_MS 16               // --tick-ms, ms a tick (0: as fast as inputs allow)
#define NET_DEFAULT_TIMEOUT_MS 5000          // --timeout-ms, a peer silent this long is lost
#define NET_DEFAULT_REJOIN_MS 10000          // --rejoin-ms, a player that left may come back
#define NET_DEFAULT_PROGRESS_WINDOW_MS 10000 // --progress-window-ms
#define NET_DEFAULT_BIND "127.0.0.1"         // the host's --bind
#define NET_LOBBY_PROGRESS_MS 5000           // the host's "waiting for players" line, this often
// --progress-min-ticks: a quarter of the ticks the window holds at --tick-ms, or this many
// when ticks are not paced (--tick-ms 0).
#define NET_DEFAULT_PROGRESS_UNPACED 20

#endif
