#!/usr/bin/env bash
# Installs everything Attention Playground needs, idempotently: each step checks first and skips what is there.
#   scripts/setup.sh           all of it (native + web + browser tests)
#   scripts/setup.sh native    only what the native build and unit tests need
# Third-party sources (Dear ImGui, SDL2) are unpacked into $AP_CACHE (default ~/.cache/attention-playground),
# outside the repository, and SDL2 for wasm is built there once per machine.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
what=${1:-all}
cache=${AP_CACHE:-$HOME/.cache/attention-playground}
mkdir -p "$cache"
log() { printf '[setup] %s\n' "$*" >&2; }

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

apt_updated=0
apt_need() {   # apt_need pkg...: install the packages not yet installed
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ $apt_updated = 0 ]; then log "apt-get update"; sudo_ apt-get update -qq; apt_updated=1; fi
  log "apt-get install ${missing[*]}"
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

native_pkgs=(g++ clang-14 libclang-rt-14-dev cmake ninja-build libeigen3-dev libsdl2-dev libgtest-dev libbenchmark-dev
             nlohmann-json3-dev libstb-dev fonts-noto-cjk fonts-noto-core python3-fonttools dpkg-dev)
web_pkgs=(emscripten chromium chromium-driver)

apt_need "${native_pkgs[@]}"
if [ "$what" != native ]; then
  apt_need "${web_pkgs[@]}"
  # Node and npm: the machine's own (a NodeSource build ships npm inside nodejs); Debian's otherwise.
  command -v node >/dev/null || apt_need nodejs
  command -v npm >/dev/null || apt_need npm
fi

# --- Debian source packages: Dear ImGui 1.86 (both builds), SDL2 (wasm build) -------------------------------
enable_deb_src() {
  local f=/etc/apt/sources.list.d/ap-deb-src.sources
  [ -f "$f" ] && return 0
  grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && return 0
  log "adding a deb-src entry ($f)"
  # Same URIs/suites/components/key as the binary entries, with Types: deb-src.
  sed -e 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources | sudo_ tee "$f" >/dev/null
  sudo_ apt-get update -qq; apt_updated=1
}

# fetch_source <srcpkg> <marker file relative to the unpacked dir> [upstream version]  -> prints the dir
# With a version the source package is pinned to it (Dear ImGui: the code is written for 1.86 exactly, and
# src/platform/platform.cpp checks IMGUI_VERSION_NUM at compile time).
fetch_source() {
  local pkg=$1 marker=$2 version=${3:-} dir want
  want="$pkg-${version:-*}"
  [ -n "$version" ] && want="$pkg-$version*"
  dir=$(find "$cache/src" -maxdepth 1 -type d -name "$want" 2>/dev/null | sort | tail -n1)
  if [ -n "$dir" ] && [ -e "$dir/$marker" ]; then echo "$dir"; return 0; fi
  enable_deb_src
  mkdir -p "$cache/src"
  local spec=$pkg
  if [ -n "$version" ]; then
    spec=$(apt-cache showsrc "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | grep "^$version" | head -n1)
    [ -n "$spec" ] || { log "Debian has no source package $pkg $version"; exit 1; }
    spec="$pkg=$spec"
  fi
  log "apt-get source $spec"
  ( cd "$cache/src" && apt-get source -qq "$spec" >&2 2>/dev/null || apt-get source "$spec" >&2 )
  dir=$(find "$cache/src" -maxdepth 1 -type d -name "$want" | sort | tail -n1)
  [ -e "$dir/$marker" ] || { log "could not unpack $pkg"; exit 1; }
  echo "$dir"
}

imgui_dir=$(fetch_source imgui imgui.cpp 1.86)
ln -sfn "$imgui_dir" "$cache/imgui"

if [ "$what" != native ]; then
  sdl_dir=$(fetch_source libsdl2 CMakeLists.txt)
  ln -sfn "$sdl_dir" "$cache/sdl2-src"
  # shellcheck source=scripts/sdl2_wasm_config.sh
  . "$here/scripts/sdl2_wasm_config.sh"
  sdl_prefix=$(sdl2_wasm_prefix "$cache" "$sdl_dir")
  if [ ! -f "$sdl_prefix/lib/libSDL2.a" ]; then
    log "building SDL2 for wasm (once per machine and configuration: $sdl_prefix)"
    export NODE_PATH=/usr/share/nodejs
    rm -rf "$sdl_prefix.build" "$sdl_prefix.tmp"
    emcmake cmake -C "$sdl2_wasm_checks" -S "$sdl_dir" -B "$sdl_prefix.build" -DCMAKE_INSTALL_PREFIX="$sdl_prefix.tmp" \
      "${sdl2_wasm_flags[@]}" >&2
    cmake --build "$sdl_prefix.build" -j"$(nproc)" >&2
    cmake --install "$sdl_prefix.build" >&2
    rm -rf "$sdl_prefix.build"
    mv "$sdl_prefix.tmp" "$sdl_prefix"  # complete or absent: an interrupted build is not taken for a finished one
  fi

  # --- npm: Closure Compiler, the version Emscripten 3.1.6 was made with (its native Linux build, or Java where
  # there is none): it minifies the page's JavaScript (emcc --closure 1, CMakeLists.txt; and
  # web/playground.js, build.sh; README, "Measurements behind the code"). ------------------------------------------
  closure_dir="$cache/closure-compiler-20220104"
  if ! "$closure_dir/node_modules/.bin/google-closure-compiler" --version >/dev/null 2>&1; then
    log "npm install google-closure-compiler@20220104.0.0 ($closure_dir)"
    rm -rf "$closure_dir.tmp" && mkdir -p "$closure_dir.tmp"
    ( cd "$closure_dir.tmp" && npm install --no-audit --no-fund --silent google-closure-compiler@20220104.0.0 >&2 )
    rm -rf "$closure_dir" && mv "$closure_dir.tmp" "$closure_dir"  # complete or absent
  fi

  # --- npm: playwright-core (drives Debian's chromium; never downloads a browser) ----------------------------
  if [ ! -d "$here/tests/browser/node_modules/playwright-core" ]; then
    log "npm install (tests/browser)"
    ( cd "$here/tests/browser" && npm install --no-audit --no-fund --silent >&2 )
  fi
fi
log "ok"
