#!/usr/bin/env bash
# A newcomer's set-up, checked on a fresh clone: the tool that the README's first command
# (`make demo`) builds has every feature the set-up installs, even when the clone was built
# once before ENet was installed; and `make -j2` works on a clean clone.
#
#   bash tools/fresh-build-check.sh
#
# Needs root (it removes libenet-dev for the first build; `make demo` installs it again).
# Ends with "fresh-build: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

WORK=$(mktemp -d "${TMPDIR:-/tmp}/fxs-fresh.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok: $*"; }
fail() { failed=$((failed + 1)); echo "FAILED: $*"; }
finish() { echo "fresh-build: $passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }

if [ "$(id -u)" -ne 0 ]; then
  fail "needs root to remove and reinstall libenet-dev"
  finish
fi
git clone -q . "$WORK/clone" || { fail "git clone"; finish; }

# 1. A parallel build of a clean clone, as the issue was met (the libfixmath source is
#    unpacked once): the default target, libraries and tool.
if (cd "$WORK/clone" && make -j2 >"$WORK/j2.log" 2>&1) && [ -x "$WORK/clone/build/bin/fixsteer" ] &&
   [ -f "$WORK/clone/build/libfixsteer.so" ]; then
  pass "make -j2 on a clean clone"
else
  fail "make -j2 on a clean clone (log: $(tail -n 3 "$WORK/j2.log" | tr '\n' ' '))"
fi

# 2. Built once without ENet, then the README's first command: network play must be there.
apt-get remove -y -q libenet-dev >"$WORK/remove.log" 2>&1
(cd "$WORK/clone" && make tools >"$WORK/no-enet.log" 2>&1)
if "$WORK/clone/build/bin/fixsteer" --version | grep -q "no network play"; then
  pass "without libenet-dev the tool says it has no network play"
else
  fail "without libenet-dev: $("$WORK/clone/build/bin/fixsteer" --version 2>&1 | tail -n 1)"
fi
(cd "$WORK/clone" && make demo >"$WORK/demo.log" 2>&1)
if grep -q "ticks verified" "$WORK/demo.log" &&
   "$WORK/clone/build/bin/fixsteer" --version | grep -q "features: network play (ENet)"; then
  pass "make demo after that yields a tool with network play"
else
  fail "make demo after that: $("$WORK/clone/build/bin/fixsteer" --version 2>&1 | tail -n 1)"
fi
if "$WORK/clone/build/bin/fixsteer" host --help 2>&1 | grep -q "without ENet"; then
  fail "fixsteer host still answers that it was built without ENet"
else
  pass "fixsteer host is available"
fi
dpkg-query -W -f='${Status}' libenet-dev 2>/dev/null | grep -q "install ok installed" || apt-get install -y -q libenet-dev >/dev/null 2>&1
finish
