#!/usr/bin/env bash
# Installs or removes fixsteer under ROOT (DESTDIR + PREFIX); called by `make install`,
# `make install-lib` and `make uninstall`.
#
#   install.sh install ROOT BUILD_DIR LFM_DIR VERSION MAJOR static|shared
#   install.sh uninstall ROOT
#
# Every file, link and directory it creates is listed, relative to ROOT, in
# share/fixsteer/install-manifest; uninstall removes exactly those (directories only when
# empty), so files of another version installed over this one go too.
set -euo pipefail

MANIFEST_REL=share/fixsteer/install-manifest

die() { echo "install.sh: $*" >&2; exit 1; }

# A manifest entry must stay inside ROOT: relative, no '..' component, plain characters.
safe_entry() {
  [[ "$1" =~ ^[A-Za-z0-9._+-]+(/[A-Za-z0-9._+-]+)*/?$ ]] && [[ "/$1/" != *"/../"* ]]
}

new_entries=()

make_dir() { # rel
  local rel=$1 parent
  [ -d "$ROOT/$rel" ] && return
  parent=$(dirname "$rel")
  if [ "$parent" != "." ]; then make_dir "$parent"; fi
  mkdir "$ROOT/$rel"
  new_entries+=("$rel/")
}

put() { # mode source rel
  make_dir "$(dirname "$3")"
  install -m "$1" "$2" "$ROOT/$3"
  new_entries+=("$3")
}

link() { # target rel
  make_dir "$(dirname "$2")"
  ln -sfn "$1" "$ROOT/$2"
  new_entries+=("$2")
}

do_install() {
  local build=$1 lfm=$2 version=$3 major=$4 kind=$5 h
  [ -f "$build/libfixsteer.a" ] || die "$build/libfixsteer.a is missing (run make lib)"
  mkdir -p "$ROOT"
  for h in include/fixsteer/*.h; do put 644 "$h" "$h"; done
  put 644 "$lfm/fix16.h" include/fixsteer/libfixmath/fix16.h
  put 644 "$lfm/fix16.hpp" include/fixsteer/libfixmath/fix16.hpp
  put 644 "$build/libfixsteer.a" lib/libfixsteer.a
  if [ "$kind" = shared ]; then
    [ -f "$build/libfixsteer.so.$version" ] || die "$build/libfixsteer.so.$version is missing (run make shared)"
    put 755 "$build/libfixsteer.so.$version" "lib/libfixsteer.so.$version"
    link "libfixsteer.so.$version" "lib/libfixsteer.so.$major"
    link "libfixsteer.so.$major" lib/libfixsteer.so
    put 644 "$build/pkg/fixsteer-shared.pc" lib/pkgconfig/fixsteer-shared.pc
    # `make install` also installs the command-line tool (record, verify, render, host, ...).
    [ -x "$build/bin/fixsteer" ] || die "$build/bin/fixsteer is missing (run make tools)"
    put 755 "$build/bin/fixsteer" bin/fixsteer
  fi
  put 644 "$build/pkg/fixsteer.pc" lib/pkgconfig/fixsteer.pc
  put 644 "$build/pkg/fixsteerConfig.cmake" lib/cmake/fixsteer/fixsteerConfig.cmake
  put 644 "$build/pkg/fixsteerConfigVersion.cmake" lib/cmake/fixsteer/fixsteerConfigVersion.cmake
  put 644 LICENSE share/doc/fixsteer/LICENSE
  put 644 "$lfm/../LICENSE" share/doc/fixsteer/LICENSE.libfixmath
  put 644 docs/embedding.md share/doc/fixsteer/embedding.md
  make_dir "$(dirname "$MANIFEST_REL")"
  # Merge with an earlier install's manifest so that uninstall also removes its files.
  { [ -f "$ROOT/$MANIFEST_REL" ] && cat "$ROOT/$MANIFEST_REL"; printf '%s\n' "${new_entries[@]}"; } |
    sort -u >"$ROOT/$MANIFEST_REL.new"
  mv "$ROOT/$MANIFEST_REL.new" "$ROOT/$MANIFEST_REL"
  echo "installed fixsteer $version ($kind) under $ROOT"
}

do_uninstall() {
  local manifest=$ROOT/$MANIFEST_REL entry
  if [ ! -f "$manifest" ]; then
    echo "no fixsteer install manifest at $manifest: nothing removed"; return
  fi
  while IFS= read -r entry; do
    safe_entry "$entry" || die "refusing manifest entry '$entry'"
  done <"$manifest"
  local files=0 dirs=0 created
  created=$(grep '/$' "$manifest" | awk -F/ '{ print NF "\t" $0 }' | sort -rn | cut -f2- || true)
  while IFS= read -r entry; do
    case "$entry" in
      */) ;;
      *) if [ -e "$ROOT/$entry" ] || [ -L "$ROOT/$entry" ]; then rm -f "$ROOT/$entry"; files=$((files + 1)); fi ;;
    esac
  done <"$manifest"
  rm -f "$manifest"
  # Directories this install created, deepest first, when nothing else lives in them.
  while IFS= read -r entry; do
    if [ -n "$entry" ] && rmdir "$ROOT/$entry" 2>/dev/null; then dirs=$((dirs + 1)); fi
  done <<<"$created"
  echo "removed $files files and $dirs directories of fixsteer from $ROOT"
}

[ $# -ge 2 ] || die "usage: install.sh install ROOT BUILD_DIR LFM_DIR VERSION MAJOR static|shared | uninstall ROOT"
ROOT=$2
case "$1" in
  install) [ $# -eq 7 ] || die "install needs ROOT BUILD_DIR LFM_DIR VERSION MAJOR static|shared"; do_install "$3" "$4" "$5" "$6" "$7" ;;
  uninstall) do_uninstall ;;
  *) die "unknown action '$1'" ;;
esac
