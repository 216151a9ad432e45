/// @file version.h
/// The library's version and the versions of the binary formats it reads and writes.
/// The macros give the version a program was compiled against; the functions give the
/// version of the library it runs with (they differ when a shared library is swapped).
/// Semantic versioning: while the major version is 0, a minor release may change the API.
#ifndef FIXSTEER_VERSION_H
#define FIXSTEER_VERSION_H

#include "fixsteer/api.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Major version: incompatible API or ABI changes (also the shared library's soname).
#define FXS_VERSION_MAJOR 0
/// Minor version: additions (and, while the major version is 0, breaking changes).
#define FXS_VERSION_MINOR 2
/// Patch version: fixes that change neither the API nor any result.
#define FXS_VERSION_PATCH 0

/// The version as one integer for `#if` tests: major * 10000 + minor * 100 + patch.
#define FXS_VERSION_NUMBER (FXS_VERSION_MAJOR * 10000 + FXS_VERSION_MINOR * 100 + FXS_VERSION_PATCH)

/// Helper of FXS_VERSION_STRING: x as a string literal, unexpanded.
#define FXS_VERSION_STR_(x) #x
/// Helper of FXS_VERSION_STRING: x as a string literal, after macro expansion.
#define FXS_VERSION_XSTR_(x) FXS_VERSION_STR_(x)
/// The version as a string literal, "MAJOR.MINOR.PATCH" (e.g. "0.2.0").
#define FXS_VERSION_STRING             \
  FXS_VERSION_XSTR_(FXS_VERSION_MAJOR) \
  "." FXS_VERSION_XSTR_(FXS_VERSION_MINOR) "." FXS_VERSION_XSTR_(FXS_VERSION_PATCH)

/// The simulation version: bumped by every intended behavior change, so that two builds
/// with the same number (and the same math fingerprint) compute the same states from the
/// same inputs. Replays, join offers and session packets carry it next to the math
/// fingerprint; data of another simulation version is refused (FXS_ERR_SIMULATION_VERSION),
/// never reported as a divergence. Defined here and nowhere else.
#define FXS_SIMULATION_VERSION 11u

/// The oldest simulation version this build still runs: a world steps by the rules of any
/// version from this one to FXS_SIMULATION_VERSION (fxs_world_set_simulation_version), so
/// fxs_replay_verify verifies a replay of any of them under its own rules. Older ones are
/// refused by name (FXS_ERR_SIMULATION_VERSION).
#define FXS_SIMULATION_VERSION_OLDEST 4u

/// The version of the library linked in, "MAJOR.MINOR.PATCH"; a static string.
FXS_API const char *fxs_version(void);

/// The simulation version of the library linked in (FXS_SIMULATION_VERSION of its build).
FXS_API uint32_t fxs_simulation_version(void);

/// The oldest simulation version the library linked in still runs
/// (FXS_SIMULATION_VERSION_OLDEST of its build).
FXS_API uint32_t fxs_simulation_version_oldest(void);

/// The replay format version this library writes (FXS_REPLAY_VERSION of the build). It
/// reads FXS_REPLAY_OLDEST_VERSION to FXS_REPLAY_VERSION (replay.h), each checked with its
/// own state hash; replays of another version are refused with FXS_ERR_BAD_VERSION.
FXS_API uint32_t fxs_replay_format_version(void);

/// The snapshot layout version this library writes and reads (FXS_SNAPSHOT_VERSION of the
/// build; snapshots of another version are refused with FXS_ERR_BAD_VERSION).
FXS_API uint32_t fxs_snapshot_format_version(void);

#ifdef __cplusplus
}
#endif

#endif
