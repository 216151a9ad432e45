#!/usr/bin/env bash
# Prepares a Debian bookworm machine to build and test fixsteer. Idempotent; run as root.
#
#   bash tools/setup.sh            everything (packages, Ceedling, libfixmath source)
#   bash tools/setup.sh --source   only the libfixmath source (packages already present)
#   bash tools/setup.sh --cross    also the cross compilers and qemu-user (tools/crosscheck)
#   bash tools/setup.sh --m32      only the 32-bit x86 toolchain of make test-m32
#   bash tools/setup.sh --windows  only mingw-w64 and Wine (make dll, make test-win64,
#                                  make test-windows)
#   bash tools/setup.sh --wasm     only the wasm32 toolchain (clang 14, wasi-libc, lld) and
#                                  the libfixmath source, for the wasm targets and web/
#   bash tools/setup.sh --web      --wasm, plus Chromium and the libyaml source for web/
#   bash tools/setup.sh --libyaml  only the libyaml source (make web compiles it to wasm32)
#   bash tools/setup.sh --dotnet   only Mono's C# compiler and runtime and NUnit 2.6 (make
#                                  test-dotnet: the C# binding in bindings/dotnet)
#
# The pinned libfixmath is Debian's source package 0~20220222 (upstream tarball, checked
# against the checksum in its .dsc); it is unpacked under build/ and never committed.
set -euo pipefail

CEEDLING_VERSION=1.2.1
LIBFIXMATH_VERSION=0~20220222
LIBFIXMATH_ORIG_SHA256=38a93f38bcf2b6fbc00bfc4e10905f8f012cc72943ec5eed69a459c3bc0349e0
# libyaml for the web module (wasm32 has no libyaml package): Debian's source package.
LIBYAML_VERSION=0.2.5
LIBYAML_ORIG_SHA256=fa240dbf262be053f3898006d502d514936c818e422afdcf33921c63bed9bf2e

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEPS=$ROOT/build/deps
LFM_DIR=$ROOT/build/libfixmath
LIBYAML_DIR=$ROOT/build/libyaml

PACKAGES=(
  build-essential ruby dpkg-dev xz-utils
  ccache                            # the test suites' compiles (tools/ceedling-cc)
  gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
  clang libclang-rt-14-dev
  clang-format                      # the code style (.clang-format), checked by tools/format-check.sh
  libyaml-dev libenet-dev
  cmake pkg-config
  librsvg2-bin fonts-dejavu-core    # fixsteer render: SVG to PNG, and its font
  mkdocs python3-pymdownx doxygen   # the documentation site and the API reference
)

# A 32-bit desktop build under AddressSanitizer (make test-m32).
M32_PACKAGES=(gcc-i686-linux-gnu libasan8-i386-cross libubsan1-i386-cross libc6-i386)

# wasm32-wasi with Debian's clang 14: the C library, the linker and the compiler runtime
# (make wasm, make test-wasm, the web viewer's module). Node runs the programs (node:wasi).
WASM_PACKAGES=(clang-14 lld-14 wasi-libc libclang-rt-14-dev-wasm32)

# The C# binding's compiler, runtime and test runner (make test-dotnet).
DOTNET_PACKAGES=(mono-mcs mono-runtime nunit-console libnunit-framework2.6.3-cil)

CROSS_PACKAGES=(
  qemu-user gcc-i686-linux-gnu gcc-arm-linux-gnueabihf gcc-aarch64-linux-gnu
  gcc-powerpc-linux-gnu gcc-s390x-linux-gnu
)

# Windows: the mingw-w64 cross compilers (x86_64 and i686) and Wine to run what they build.
# wine64 runs 64-bit programs only; 32-bit ones need wine32 from the i386 architecture, which
# this script does not add to the machine (docs/determinism.md says what was run where).
WINDOWS_PACKAGES=(mingw-w64 wine64)

log() { printf 'setup: %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing_packages() {
  local p
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

# apt-get source needs deb-src entries; derive them from the machine's own deb entries so
# no archive address is written here.
ensure_deb_src() {
  if grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    return 1
  fi
  local f=/etc/apt/sources.list.d/debian.sources
  if [ -f "$f" ]; then
    sed -e 's/^Types: deb$/Types: deb-src/' "$f" | as_root tee /etc/apt/sources.list.d/fixsteer-src.sources >/dev/null
  elif [ -f /etc/apt/sources.list ]; then
    sed -n -e 's/^deb /deb-src /p' /etc/apt/sources.list | as_root tee /etc/apt/sources.list.d/fixsteer-src.list >/dev/null
  else
    log "no apt sources found to derive deb-src entries from"; exit 1
  fi
  return 0
}

install_packages() {
  local missing
  missing=$(missing_packages)
  local need_update=0
  [ -n "$missing" ] && need_update=1
  ensure_deb_src && need_update=1
  if [ "$need_update" -eq 1 ]; then
    log "apt-get update"
    as_root apt-get update -qq
  fi
  if [ -n "$missing" ]; then
    log "installing:" $missing
    # shellcheck disable=SC2086
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  fi
}

install_ceedling() {
  if ceedling version 2>/dev/null | grep -q "Ceedling => $CEEDLING_VERSION"; then return; fi
  log "gem install ceedling $CEEDLING_VERSION"
  as_root gem install ceedling -v "$CEEDLING_VERSION" --no-document >/dev/null
}

# Fetches Debian's libfixmath source package. The Debian-specific part of the package may be
# missing from the archive while the upstream tarball is served; only the tarball is needed,
# so a failed fetch is accepted when the tarball arrived and its checksum matches.
fetch_libfixmath() {
  if [ -f "$LFM_DIR/libfixmath/fix16.c" ] && [ -f "$LFM_DIR/.version" ] &&
     [ "$(cat "$LFM_DIR/.version")" = "$LIBFIXMATH_VERSION" ]; then
    return
  fi
  mkdir -p "$DEPS"
  local orig="$DEPS/libfixmath_${LIBFIXMATH_VERSION}.orig.tar.xz"
  if [ ! -f "$orig" ]; then
    grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/ ||
      { ensure_deb_src; as_root apt-get update -qq; }
    log "apt-get source libfixmath (upstream $LIBFIXMATH_VERSION)"
    (cd "$DEPS" && apt-get source --download-only -qq "libfixmath" >"$DEPS/apt-source.log" 2>&1) ||
      log "apt-get source reported an error (see build/deps/apt-source.log); checking the tarball"
  fi
  if [ ! -f "$orig" ]; then
    log "the libfixmath upstream tarball did not arrive:"; cat "$DEPS/apt-source.log" >&2; exit 1
  fi
  local sum
  sum=$(sha256sum "$orig" | cut -d' ' -f1)
  if [ "$sum" != "$LIBFIXMATH_ORIG_SHA256" ]; then
    log "checksum mismatch for $orig: got $sum, want $LIBFIXMATH_ORIG_SHA256"; exit 1
  fi
  rm -rf "$LFM_DIR"
  mkdir -p "$LFM_DIR"
  tar -xJf "$orig" -C "$LFM_DIR"
  echo "$LIBFIXMATH_VERSION" >"$LFM_DIR/.version"
  log "libfixmath $LIBFIXMATH_VERSION unpacked in build/libfixmath"
}

# Fetches Debian's libyaml source package for the web module (make web compiles it to
# wasm32); as with libfixmath only the upstream tarball is used, checked against its sum.
fetch_libyaml() {
  if [ -f "$LIBYAML_DIR/src/parser.c" ] && [ -f "$LIBYAML_DIR/.version" ] &&
     [ "$(cat "$LIBYAML_DIR/.version")" = "$LIBYAML_VERSION" ]; then
    return
  fi
  mkdir -p "$DEPS"
  local orig="$DEPS/libyaml_${LIBYAML_VERSION}.orig.tar.gz"
  if [ ! -f "$orig" ]; then
    grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/ ||
      { ensure_deb_src; as_root apt-get update -qq; }
    log "apt-get source libyaml (upstream $LIBYAML_VERSION)"
    (cd "$DEPS" && apt-get source --download-only -qq "libyaml=${LIBYAML_VERSION}-1" >"$DEPS/apt-source-libyaml.log" 2>&1) ||
      (cd "$DEPS" && apt-get source --download-only -qq "libyaml" >>"$DEPS/apt-source-libyaml.log" 2>&1) ||
      log "apt-get source reported an error (see build/deps/apt-source-libyaml.log); checking the tarball"
  fi
  if [ ! -f "$orig" ]; then
    log "the libyaml upstream tarball did not arrive:"; cat "$DEPS/apt-source-libyaml.log" >&2; exit 1
  fi
  local sum
  sum=$(sha256sum "$orig" | cut -d' ' -f1)
  if [ "$sum" != "$LIBYAML_ORIG_SHA256" ]; then
    log "checksum mismatch for $orig: got $sum, want $LIBYAML_ORIG_SHA256"; exit 1
  fi
  rm -rf "$LIBYAML_DIR"
  mkdir -p "$LIBYAML_DIR"
  tar -xzf "$orig" -C "$LIBYAML_DIR" --strip-components=1
  echo "$LIBYAML_VERSION" >"$LIBYAML_DIR/.version"
  log "libyaml $LIBYAML_VERSION unpacked in build/libyaml"
}

# Node.js runs the wasm programs (node:wasi) and the browser test; the machine image brings
# one, and Debian's is taken when it does not.
add_node() {
  command -v node >/dev/null && command -v npm >/dev/null || PACKAGES+=(nodejs npm)
}

case "${1:-all}" in
  --source) fetch_libfixmath ;;
  --cross) PACKAGES+=("${CROSS_PACKAGES[@]}" "${M32_PACKAGES[@]}" "${WINDOWS_PACKAGES[@]}"); install_packages; install_ceedling; fetch_libfixmath ;;
  --windows) PACKAGES=("${WINDOWS_PACKAGES[@]}"); install_packages; fetch_libfixmath ;;
  --m32) PACKAGES=("${M32_PACKAGES[@]}"); install_packages ;;
  --wasm) PACKAGES=("${WASM_PACKAGES[@]}"); add_node; install_packages; fetch_libfixmath ;;
  --web) PACKAGES=("${WASM_PACKAGES[@]}" chromium); add_node; install_packages; fetch_libfixmath; fetch_libyaml ;;
  --libyaml) fetch_libyaml ;;
  --dotnet) PACKAGES=("${DOTNET_PACKAGES[@]}"); install_packages ;;
  all) install_packages; install_ceedling; fetch_libfixmath ;;
  *) echo "usage: bash tools/setup.sh [--source | --cross | --m32 | --windows | --wasm | --web | --libyaml | --dotnet]" >&2; exit 2 ;;
esac
