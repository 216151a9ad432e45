// Options that one command alone knows, taken out of its arguments before command_options
// (main.c) parses the common ones.
#include <string.h>

#include "cli.h"

bool cli_take_flag(int *argc, char **argv, const char *name) {
  bool found = false;
  int kept = 0;
  for (int i = 0; i < *argc; ++i) {
    if (strcmp(argv[i], name) == 0) found = true;
    else argv[kept++] = argv[i];
  }
  *argc = kept;
  return found;
}

const char *cli_take_value(int *argc, char **argv, const char *name, bool *missing) {
  const char *value = 0;
  size_t n = strlen(name);
  int kept = 0;
  *missing = false;
  for (int i = 0; i < *argc; ++i) {
    if (strcmp(argv[i], name) == 0) {
      if (i + 1 >= *argc) *missing = true;
      else value = argv[++i];
    } else if (strncmp(argv[i], name, n) == 0 && argv[i][n] == '=') {
      value = argv[i] + n + 1;
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  return value;
}
