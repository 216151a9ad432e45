/// @file command.h
/// Input commands: typed, fixed-size records with an explicit little-endian encoding of
/// FXS_COMMAND_BYTES bytes. Every peer applies the commands of a tick at its start in the
/// canonical order (source, then sequence, then the encoded bytes), so peers that received
/// them in different orders stay identical.
#ifndef FIXSTEER_COMMAND_H
#define FIXSTEER_COMMAND_H

#include "fixsteer/api.h"
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/config.h"
#include "fixsteer/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Number of Q16.16 arguments in a command.
#define FXS_COMMAND_ARGS 8
/// Encoded size of one command: type, source, sequence, agent, ref, args.
#define FXS_COMMAND_BYTES (1 + 1 + 2 + 4 + 4 + 4 * FXS_COMMAND_ARGS)

/// X-macro: identifier, name, what agent / ref / args mean. Types are recorded in replays:
/// new commands are appended, existing ones never renumbered. Every value is taken as given
/// (there is no "0 means default"); command_build.h builds each command from typed values.
/// Ownership: a command that acts on an agent (it names one in `agent`) is refused with
/// FXS_ERR_NOT_OWNER when the agent is owned by another source; a shared agent takes commands
/// from any source. Spawn, obstacle, wall, field and navigation commands act on no agent: any
/// source.
#define FXS_COMMAND_LIST(X)                                                                       \
  X(FXS_CMD_SPAWN, "spawn",                                                                       \
    "ref: FXS_SPAWN_OWNED or 0 (shared); args: x y vx vy max_speed max_force mass radius")        \
  X(FXS_CMD_DESPAWN, "despawn", "agent")                                                          \
  X(FXS_CMD_SET_TARGET_POINT, "set_target_point", "agent; args: x y")                             \
  X(FXS_CMD_SET_TARGET_AGENT, "set_target_agent", "agent; ref: target handle (0: none)")          \
  X(FXS_CMD_CLEAR_BEHAVIORS, "clear_behaviors", "agent; ref: fxs_combine_mode")                   \
  X(FXS_CMD_ADD_BEHAVIOR, "add_behavior",                                                         \
    "agent; ref: kind | priority << 8; args: weight p0..p5 (behavior_params.h)")                  \
  X(FXS_CMD_SET_PATH, "set_path", "agent; ref: path index (0xFFFF: none)")                        \
  X(FXS_CMD_ADD_OBSTACLE, "add_obstacle", "args: x y radius")                                     \
  X(FXS_CMD_REMOVE_OBSTACLE, "remove_obstacle", "ref: obstacle index")                            \
  X(FXS_CMD_APPLY_FORCE, "apply_force", "agent; args: fx fy (this tick, not limited)")            \
  X(FXS_CMD_SET_LIMITS, "set_limits",                                                             \
    "agent; ref: orientation mode; args: max_speed max_force mass radius max_rotation "           \
    "max_angular_acceleration max_turn_rate")                                                     \
  X(FXS_CMD_ADD_WALL, "add_wall", "args: ax ay bx by")                                            \
  X(FXS_CMD_REMOVE_WALL, "remove_wall", "ref: wall index")                                        \
  X(FXS_CMD_SET_FIELD_GRID, "set_field_grid",                                                     \
    "args: origin_x origin_y cell_size columns rows (whole numbers); zeroes the cells; all 0 "    \
    "removes the field")                                                                          \
  X(FXS_CMD_SET_FIELD_CELLS, "set_field_cells",                                                   \
    "args: column row columns rows (whole numbers) vx vy: that block of cells gets (vx, vy)")     \
  X(FXS_CMD_FILL_FIELD, "fill_field",                                                             \
    "ref: fxs_flow_fill; args: uniform dx dy | toward x y | vortex x y swirl inward")             \
  X(FXS_CMD_SET_SECOND_TARGET, "set_second_target", "agent; ref: second target handle (0: none)") \
  X(FXS_CMD_SET_OWNER, "set_owner", "agent; ref: the owning source 0..255, or FXS_OWNER_SHARED")  \
  X(FXS_CMD_SET_NAV_GRID, "set_nav_grid",                                                         \
    "ref: budget (cells expanded a tick); args: origin_x origin_y cell_size columns rows "        \
    "(whole) radius: the navigation grid, every base cost 1; all 0 removes it")                   \
  X(FXS_CMD_SET_NAV_COSTS, "set_nav_costs",                                                       \
    "args: column row columns rows cost (whole numbers, cost 0 blocked or 1..254): that block "   \
    "of base costs")                                                                              \
  X(FXS_CMD_MOVE, "move",                                                                         \
    "agent; ref: group tag; args: x y gap: the RTS click; the tick's moves of one source, tag "   \
    "and arguments form a group, each member given its own spot round (x, y) (fxs_command_move)")

/// Spawn's ref: the agent is owned by the spawning command's source (a session's player).
#define FXS_SPAWN_OWNED 1u
/// set_owner's ref: the agent is shared (any source may command it).
#define FXS_OWNER_SHARED 0xFFFFu

/// Command types.
typedef enum fxs_command_type {
#define FXS_COMMAND_ENUM_(id, name, doc) id,
  FXS_COMMAND_LIST(FXS_COMMAND_ENUM_)
#undef FXS_COMMAND_ENUM_
      FXS_CMD_COUNT
} fxs_command_type;

/// One input command.
typedef struct fxs_command {
  uint8_t type;                  ///< An fxs_command_type.
  uint8_t source;                ///< Who issued it (player, peer, script).
  uint16_t sequence;             ///< Issue order within the source and tick.
  uint32_t agent;                ///< Agent handle value the command acts on, or 0.
  uint32_t ref;                  ///< Second reference; meaning per type (see the list).
  fix16_t arg[FXS_COMMAND_ARGS]; ///< Q16.16 arguments; meaning per type.
} fxs_command;

/// A zeroed command of the given type, source and sequence.
FXS_API fxs_command fxs_command_make(fxs_command_type type, uint8_t source, uint16_t sequence);

/// The printable name of a command type ("spawn"); "unknown" outside the table.
FXS_API const char *fxs_command_name(uint8_t type);

/// Writes the FXS_COMMAND_BYTES-byte little-endian encoding.
FXS_API void fxs_command_encode(const fxs_command *c, uint8_t out[FXS_COMMAND_BYTES]);

/// Reads an encoding; FXS_ERR_BAD_COMMAND for an unknown type.
FXS_API fxs_result fxs_command_decode(const uint8_t in[FXS_COMMAND_BYTES], fxs_command *c);

/// Negative, zero or positive as a sorts before, equal to or after b in canonical order.
FXS_API int fxs_command_compare(const fxs_command *a, const fxs_command *b);

/// Sorts commands into canonical order in place: O(n) when already sorted, O(n log n)
/// otherwise, no recursion. Commands that compare equal are identical, so the result is unique.
FXS_API void fxs_command_sort(fxs_command *commands, uint32_t count);

#ifdef __cplusplus
}
#endif

#endif
