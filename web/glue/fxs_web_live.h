// The playground's module part: a live world that a page steps tick by tick with its own
// commands on top of a scene's (a built-in scenario or a YAML scenario file), recording
// everything through the library's replay writer, so what the user did is a replay the
// native tool verifies. Same conventions as fxs_web.h.
#ifndef FXS_WEB_LIVE_H
#define FXS_WEB_LIVE_H

#include "fxs_web.h"

// Most commands a page may give one tick (the scene's own commands come on top; a replay's
// tick holds at most FXS_REPLAY_MAX_COMMANDS together).
#define FXS_WEB_LIVE_MAX_COMMANDS 16384u
// Most extra agent, obstacle or wall slots a page may ask for on top of the scene's.
#define FXS_WEB_LIVE_MAX_ROOM 4096u

typedef struct fxs_web_live fxs_web_live;

// Loads a scene: with yaml_size 0, the built-in scenario `name`; else the scenario file of
// yaml_size bytes at `yaml` (copied; `name` stands for the file in error messages). Room:
// agent, obstacle and wall slots added to the scene's capacities (at most
// FXS_WEB_LIVE_MAX_ROOM each) for what the page adds; keyframe: the replay's keyframe
// interval, [1, 100000]. NULL on failure, with fxs_web_last_error() saying why (for a file:
// "NAME:LINE: problem").
FXS_WEB_EXPORT(fxs_web_live_new)
fxs_web_live *fxs_web_live_new(const char *name, const uint8_t *yaml, size_t yaml_size,
                               uint32_t room_agents, uint32_t room_obstacles, uint32_t room_walls,
                               uint32_t keyframe);
FXS_WEB_EXPORT(fxs_web_live_close) void fxs_web_live_close(fxs_web_live *l);

// The scene: name, summary, default ticks, capacities, keyframe interval, tick.
FXS_WEB_EXPORT(fxs_web_live_info) const char *fxs_web_live_info(fxs_web_live *l);

// Steps one tick: the scene's commands for it (when `logic` is 1) and the page's `count`
// commands (FXS_COMMAND_BYTES each, encoded as command.h says, at `commands`), recorded
// in the replay. Answers {"tick", "hash", "results": [one fxs_result per page command, in
// the order given], "messages": [...]}; a command the world refuses is a result, not an
// error. {"error": ...} when nothing was stepped: undecodable commands, too many.
FXS_WEB_EXPORT(fxs_web_live_step)
const char *fxs_web_live_step(fxs_web_live *l, const uint8_t *commands, uint32_t count,
                              uint32_t logic);

// Goes back to the state after `tick` (<= the current tick): the ticks after it are
// forgotten, in the world and in the replay, as if never stepped. Returns the tick, -1 on error.
FXS_WEB_EXPORT(fxs_web_live_rewind) int32_t fxs_web_live_rewind(fxs_web_live *l, uint32_t tick);

// The current tick as fxs_web_frame answers it (tick, hash, bounds, obstacles, walls, paths).
FXS_WEB_EXPORT(fxs_web_live_frame) const char *fxs_web_live_frame(fxs_web_live *l);
// The navigation mesh of the current tick, as fxs_web_mesh answers it (fxs_web.h).
FXS_WEB_EXPORT(fxs_web_live_mesh) const char *fxs_web_live_mesh(fxs_web_live *l);
// The state hash of the current tick (fxs_world_hash).
FXS_WEB_EXPORT(fxs_web_live_hash) uint64_t fxs_web_live_hash(fxs_web_live *l);
// Fills the agent table (FXS_WEB_AGENT_STRIDE int32 per live agent) and returns the count;
// fxs_web_live_agent_data points at it.
FXS_WEB_EXPORT(fxs_web_live_agents) uint32_t fxs_web_live_agents(fxs_web_live *l);
FXS_WEB_EXPORT(fxs_web_live_agent_data) const int32_t *fxs_web_live_agent_data(fxs_web_live *l);
// One agent slot in full: handle, owner, combine mode, targets, limits, path, behavior set
// (kind, name, priority, weight, parameters; raw Q16.16), or {"error": ...}.
FXS_WEB_EXPORT(fxs_web_live_agent) const char *fxs_web_live_agent(fxs_web_live *l, uint32_t slot);

// The recording so far, ended: {"data", "size", "ticks", "final_hash"} in new memory (free
// it with fxs_web_free, or hand it to fxs_web_open), or {"error": ...}.
FXS_WEB_EXPORT(fxs_web_live_replay) const char *fxs_web_live_replay(fxs_web_live *l);

// The behavior parameter table (behavior_params.h): per behavior kind its name and rows
// (name, unit, minimum, maximum, default, meaning; raw Q16.16).
FXS_WEB_EXPORT(fxs_web_params) const char *fxs_web_params(void);
// The command types (command.h) by number: [{"type", "name", "doc"}, ...]; and the messages
// of fxs_result values: [{"result", "message"}, ...] under "results".
FXS_WEB_EXPORT(fxs_web_commands) const char *fxs_web_commands(void);

#endif
