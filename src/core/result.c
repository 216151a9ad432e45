#include "fixsteer/result.h"

static const char *const messages[FXS_RESULT_COUNT] = {
#define FXS_RESULT_MSG_(id, msg) msg,
    FXS_RESULT_LIST(FXS_RESULT_MSG_)
#undef FXS_RESULT_MSG_
};

const char *fxs_result_message(fxs_result result) {
  if ((unsigned)result >= (unsigned)FXS_RESULT_COUNT) return "unknown result";
  return messages[result];
}
