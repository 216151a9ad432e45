#!/usr/bin/env bash
# Runs a Windows program (mingw-w64 build) under Wine and exits with its exit code:
#
#   tools/wine-run.sh build/win64/bin/fixsteer.exe verify test/golden/flock.fxr
#
# The Wine prefix is the checkout's own, build/wine (made at the first run, about 15 s; later
# runs start in a tenth of a second), unless WINEPREFIX names another. Wine's own messages
# are silenced (WINEDEBUG=-all unless set). A Windows program's text output ends its lines
# with CR LF: the CRs are removed from its standard output so that it reads as on Linux.
set -uo pipefail
if [ $# -lt 1 ]; then echo "usage: tools/wine-run.sh PROGRAM.exe [ARGS...]" >&2; exit 2; fi
root=$(cd "$(dirname "$0")/.." && pwd)
export WINEPREFIX=${WINEPREFIX:-$root/build/wine}
export WINEDEBUG=${WINEDEBUG:--all}
if [ ! -f "$WINEPREFIX/system.reg" ]; then # a new prefix: made quietly, once
  mkdir -p "$WINEPREFIX"
  wineboot --init >/dev/null 2>&1
fi
# The Wine server stays up 30 s after its last program (the default is 3 s), so that the
# runs of a check follow one another without restarting it; it fails when one is running.
# A new server's first program starts Wine's services, which keep that program's output
# open while the server lives: were it a pipe (`$(tools/wine-run.sh ...)`), its reader
# would wait 30 s, and the next program could meet the server as it exits. So a new
# server's services are started here, on /dev/null.
if wineserver -p30 >/dev/null 2>&1; then
  wine cmd /c exit </dev/null >/dev/null 2>&1
fi
wine "$@" | tr -d '\r'
