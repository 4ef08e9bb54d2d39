# The wasm build of SDL2 (Debian's libsdl2 sources), sourced by scripts/setup.sh (which builds it) and
# build.sh (which links against it). Its install prefix is named after a hash of this configuration, so a
# changed configuration is built anew on every machine instead of an old cached build being reused silently.
#
# Only what the app uses: video (the canvas, the WebGL2 context, events, keyboard, mouse, touch, clipboard,
# cursors) and timers. Off: audio, joystick, haptic, sensor, HIDAPI, power, threads, file system, locale,
# misc, shared-object loading, SDL's own 2D renderer and the dummy/offscreen video drivers. SDL_LEAN_AND_MEAN
# leaves out the software blitters (all but the generic one), RLE surfaces and YUV: the app never blits a
# surface (it draws with GL); SDL still keeps the generic blitter for a cursor image. -Os (MinSizeRel): input
# handling is not hot.
sdl2_wasm_flags=(-DCMAKE_BUILD_TYPE=MinSizeRel -DCMAKE_C_FLAGS=-DSDL_LEAN_AND_MEAN=1
  -DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF
  -DSDL_THREADS=OFF -DSDL_AUDIO=OFF -DSDL_JOYSTICK=OFF -DSDL_HAPTIC=OFF -DSDL_SENSOR=OFF
  -DSDL_HIDAPI=OFF -DSDL_POWER=OFF -DSDL_FILESYSTEM=OFF -DSDL_LOCALE=OFF -DSDL_MISC=OFF
  -DSDL_RENDER=OFF -DSDL_LOADSO=OFF -DSDL_DUMMYVIDEO=OFF -DSDL_OFFSCREEN=OFF -DSDL_DUMMYAUDIO=OFF -DSDL_DISKAUDIO=OFF)

# The configure checks' results, preloaded (cmake -C): see sdl2_wasm_write_checks below.
sdl2_wasm_checks=$(dirname "${BASH_SOURCE[0]}")/sdl2_wasm_checks.cmake

# sdl2_wasm_prefix CACHE SOURCE_DIR: where that build is installed (CACHE/sdl2-wasm-<hash>).
sdl2_wasm_prefix() {
  local key
  key=$(printf '%s\n' "$(basename "$(readlink -f "$2")")" "${sdl2_wasm_flags[@]}" "$(cat "$sdl2_wasm_checks")" |
    sha1sum | cut -c1-10)
  printf '%s/sdl2-wasm-%s\n' "$1" "$key"
}

# The configure checks' results, preloaded (scripts/sdl2_wasm_checks.cmake, cmake -C). After a change of SDL2 or
# Emscripten: configure once without the file, then sdl2_wasm_write_checks BUILD_DIR > scripts/sdl2_wasm_checks.cmake.
sdl2_wasm_write_checks() {
  sed -n '1,5p' "$sdl2_wasm_checks"  # the file's own comment
  grep -E '^(HAVE_[A-Za-z0-9_]*|LIBC_IS_GLIBC|STDC_HEADERS):INTERNAL=' "$1/CMakeCache.txt" |
    sed -E 's/^([^:]*):INTERNAL=(.*)$/set(\1 "\2" CACHE INTERNAL "")/'
}
