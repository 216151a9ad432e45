#include "fixsteer/version.h"

#include "fixsteer/replay.h"
#include "fixsteer/snapshot.h"

const char *fxs_version(void) { return FXS_VERSION_STRING; }

uint32_t fxs_simulation_version(void) { return FXS_SIMULATION_VERSION; }

uint32_t fxs_simulation_version_oldest(void) { return FXS_SIMULATION_VERSION_OLDEST; }

uint32_t fxs_replay_format_version(void) { return FXS_REPLAY_VERSION; }

uint32_t fxs_snapshot_format_version(void) { return FXS_SNAPSHOT_VERSION; }
