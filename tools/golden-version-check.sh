#!/usr/bin/env bash
# The goldens cannot change behind the simulation version's back. test/golden/VERSION (the
# manifest, written by `make golden-manifest`) names the simulation version the goldens were
# recorded with and, per golden, its replay format, ticks and final hash. Checks that
#   - the manifest's version is FXS_SIMULATION_VERSION (include/fixsteer/version.h),
#   - every golden's header carries that version, and its format, ticks and final hash are
#     the manifest's (every golden listed, nothing listed that is not there),
#   - no committed manifest of the same simulation version (git history) holds another final
#     hash for a golden of the same format and ticks: a behavior change re-recorded without
#     a version bump fails, even with a regenerated manifest.
# The honest workflow: bump FXS_SIMULATION_VERSION, make golden, make golden-manifest, commit.
# Prints "golden-version: N passed, N failed".
#
#   bash tools/golden-version-check.sh [FIXSTEER]            the check
#   bash tools/golden-version-check.sh --write [FIXSTEER]    writes the manifest (make golden-manifest)
set -u
cd "$(dirname "$0")/.."
write=0
if [ "${1:-}" = "--write" ]; then write=1; shift; fi
B=${1:-build/bin/fixsteer}
MANIFEST=test/golden/VERSION
current=$(sed -n 's/^#define FXS_SIMULATION_VERSION \([0-9][0-9]*\)u.*/\1/p' include/fixsteer/version.h)
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); printf 'FAIL: %s\n' "$*"; }

# NAME FORMAT SIMULATION TICKS HASH of one golden, from its header and END chunk.
describe() {
  "$B" dump "$1" 2>/dev/null | awk -v name="$(basename "$1")" '
    NR == 1 { sub(/,$/, "", $4); format = $4 }
    /^simulation version [0-9]+ / { sim = $3 }
    /^simulation version: none/ { sim = 0 }
    /^end: / { ticks = $2; hash = $6 }
    END { if (ticks == "") exit 1; print name, format, sim, ticks, hash }'
}

if [ -z "$current" ]; then echo "no FXS_SIMULATION_VERSION in include/fixsteer/version.h"; exit 2; fi
if [ ! -x "$B" ]; then echo "no $B: make tools first"; exit 2; fi

if [ "$write" -eq 1 ]; then
  {
    echo "# The goldens' simulation version and, per golden: replay format, ticks, final hash."
    echo "# Written by make golden-manifest; checked by tools/golden-version-check.sh."
    echo "simulation $current"
    for g in test/golden/*.fxr; do
      line=$(describe "$g") || { echo "cannot read $g" >&2; exit 2; }
      set -- $line
      [ "$3" = "$current" ] || { echo "$g: recorded by simulation version $3, this build runs $current: make golden first" >&2; exit 2; }
      echo "$1 $2 $4 $5"
    done
  } >"$MANIFEST.tmp" && mv "$MANIFEST.tmp" "$MANIFEST"
  echo "wrote $MANIFEST (simulation version $current)"
  exit 0
fi

listed=$(sed -n 's/^simulation \([0-9][0-9]*\)$/\1/p' "$MANIFEST" 2>/dev/null)
if [ "$listed" = "$current" ]; then ok; else
  bad "$MANIFEST names simulation version '${listed}', the build $current: bump both together (make golden-manifest)"
fi

# The goldens against the manifest.
declare -A entry
while read -r name format ticks hash; do entry[$name]="$format $ticks $hash"; done \
  < <(grep -vE '^(#|simulation )' "$MANIFEST" 2>/dev/null)
for g in test/golden/*.fxr; do
  n=$(basename "$g")
  if ! line=$(describe "$g"); then bad "$g: cannot be read"; continue; fi
  set -- $line
  if [ "$3" != "$current" ]; then
    bad "$g: recorded by simulation version $3; this build runs $current (make golden, make golden-manifest)"
  elif [ -z "${entry[$n]:-}" ]; then
    bad "$g: not in $MANIFEST (make golden-manifest)"
  elif [ "${entry[$n]}" != "$2 $4 $5" ]; then
    bad "$g: format, ticks, final hash '$2 $4 $5', $MANIFEST has '${entry[$n]}': a behavior change needs a bump of FXS_SIMULATION_VERSION, then make golden and make golden-manifest"
  else
    ok
  fi
  unset "entry[$n]"
done
for n in "${!entry[@]}"; do bad "$MANIFEST lists $n, which test/golden does not hold"; done

# Committed manifests of the same simulation version must agree on every golden they share
# (same format and ticks): a final hash may change only with the version.
if git rev-parse --git-dir >/dev/null 2>&1; then
  for c in $(git log --format=%H -- "$MANIFEST" 2>/dev/null); do
    old=$(git show "$c:$MANIFEST" 2>/dev/null) || continue
    [ "$(sed -n 's/^simulation \([0-9][0-9]*\)$/\1/p' <<<"$old")" = "$current" ] || continue
    changed=0
    while read -r name format ticks hash; do
      now=$(awk -v n="$name" '$1 == n { print $2, $3, $4 }' "$MANIFEST")
      set -- $now
      if [ -n "$now" ] && [ "$1" = "$format" ] && [ "$2" = "$ticks" ] && [ "$3" != "$hash" ]; then
        changed=1
        bad "$name: final hash $3, but commit ${c:0:10} recorded $hash with the same simulation version $current: bump FXS_SIMULATION_VERSION for a behavior change"
      fi
    done < <(grep -vE '^(#|simulation )' <<<"$old")
    [ "$changed" -eq 0 ] && ok
  done
fi

echo "golden-version: ${pass} passed, ${fail} failed"
[ "$fail" -eq 0 ]
