#!/usr/bin/env bash
# Attention Playground: one entry point for everything.
#   ./build.sh serve    install what is missing, build the web app, serve dist/ at http://127.0.0.1:8000
#   ./build.sh test     install, build, run every test (native core + app, the same tests in wasm, browser)
#   ./build.sh web      build dist/ only
#   ./build.sh native   build and run the desktop app (SDL2 + OpenGL 3.3)
#   ./build.sh bench    benchmarks -> build/bench.json and a table
#   ./build.sh fuzz     the libFuzzer targets (tests/fuzz/), 10 million inputs each or FUZZ_SECONDS (3600) each,
#                       FUZZ_JOBS (all cores) processes per target, inputs up to FUZZ_MAX_LEN bytes if set
# Dependencies come from Debian (and playwright-core and Closure Compiler from npm); scripts/setup.sh installs them idempotently.
set -euo pipefail
cd "$(dirname "$0")"
root=$(pwd)
cache=${AP_CACHE:-$HOME/.cache/attention-playground}
export AP_CACHE=$cache
# Debian's emscripten needs Debian's node modules (acorn) at -O2 and above.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
port=${PORT:-8000}
jobs=${JOBS:-$(nproc)}

say() { printf '\n== %s\n' "$*"; }

native_build() {
  scripts/setup.sh native
  say "native build (build/native)"
  cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release -DAP_IMGUI_DIR="$cache/imgui" >/dev/null
  cmake --build build/native -j"$jobs"
}

web_build() {
  scripts/setup.sh all
  say "web build (build/wasm -> dist/)"
  local sdl_prefix
  sdl_prefix=$(. scripts/sdl2_wasm_config.sh && sdl2_wasm_prefix "$cache" "$cache/sdl2-src")
  local closure="$cache/closure-compiler-20220104/node_modules/.bin/google-closure-compiler"
  emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release -DAP_IMGUI_DIR="$cache/imgui" \
    -DAP_SDL2_WASM_DIR="$sdl_prefix" -DAP_CLOSURE_COMPILER="$closure" >/dev/null
  cmake --build build/wasm -j"$jobs"
  # The trained checkpoints: a native build of the core alone (build/tools) trains each default recipe with the
  # same engine (deterministic; rebuilt only when the tool or the core changes) — fetched by the page when a
  # trained view is first opened (never on the first visit).
  say "checkpoints (build/tools: the default recipes trained natively)"
  cmake -S . -B build/tools -G Ninja -DCMAKE_BUILD_TYPE=Release -DAP_BUILD_APP=OFF -DAP_BUILD_TESTS=OFF >/dev/null
  cmake --build build/tools -j"$jobs" --target checkpoints
  rm -rf dist && mkdir -p dist
  cp web/index.html web/style.css web/preload.js web/kernel_worker.js web/train_worker.js dist/
  # The page's glue is part of the first visit: minified (local names, whitespace, comments; the page API and every
  # property keep their names), 12 → 6.6 KB gzipped.
  "$closure" --compilation_level SIMPLE_OPTIMIZATIONS --language_in ECMASCRIPT_2018 --language_out ECMASCRIPT_2018 \
    --js web/playground.js --js_output_file dist/playground.js
  cp build/wasm/attention_playground.js build/wasm/attention_playground.wasm dist/
  cp build/wasm/kernel_worker_wasm.js build/wasm/kernel_worker_wasm.wasm build/wasm/train_worker_wasm.js build/wasm/train_worker_wasm.wasm dist/
  # Fetched only when needed (src/ui/font_loader.cpp), gzip-compressed (web/playground.js unpacks them with the
  # browser's DecompressionStream; the plain files serve a browser without it): the interface's Chinese, and
  # Chinese beyond the interface's own.
  cp build/wasm/gen/cjk_ui.otf build/wasm/gen/cjk_ui.otf.gz build/wasm/gen/cjk_common.otf build/wasm/gen/cjk_common.otf.gz dist/
  # The interface's Chinese text comes with its font (src/app/i18n.h: the page's module carries the English only).
  cp build/wasm/gen/zh_strings.bin build/wasm/gen/zh_strings.bin.gz dist/
  mkdir -p dist/checkpoints && cp build/tools/gen/checkpoints/coref.aptc build/tools/gen/checkpoints/heads.aptc \
    build/tools/gen/checkpoints/example.aptc build/tools/gen/checkpoints/bahdanau.apsq build/tools/gen/checkpoints/luong.apsq \
    dist/checkpoints/
  gzip -9 -n -k -f dist/checkpoints/coref.aptc dist/checkpoints/heads.aptc dist/checkpoints/example.aptc \
    dist/checkpoints/bahdanau.apsq dist/checkpoints/luong.apsq  # fetched as .gz and unpacked by the browser, as the fonts
  mkdir -p dist/examples && cp web/examples/*.html web/examples/*.css web/examples/*.js dist/examples/  # host pages for instructors (README "Embedding")
  python3 tools/make_single_file.py dist  # dist/attention-playground.html: one file that runs from disk
  printf 'dist/: %s\n' "$(du -sh dist | cut -f1)"
}

# The unit tests once more in a Debug build with AddressSanitizer and UndefinedBehaviorSanitizer (Eigen's
# asserts on): out-of-bounds writes and undefined behaviour that a Release build lets pass fail here.
sanitizer_tests() {
  say "unit tests, native Debug + ASan + UBSan (build/asan)"
  # -O1 keeps the run short; Debug keeps NDEBUG undefined, so Eigen checks every index.
  cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" -DAP_SANITIZE=ON \
    -DAP_BUILD_APP=OFF >/dev/null
  cmake --build build/asan -j"$jobs" --target ap_tests
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    build/asan/ap_tests --gtest_brief=1
}

# libFuzzer targets for the readers and decoders (tests/fuzz/), clang-14 with ASan + UBSan, in build/fuzz. Each
# runs on a copy of its seed corpus (build/fuzz/corpus/: the repository's is never written); what crashes is
# saved in build/fuzz/crashes/<target>/ and fails the run.
fuzz_targets=(${FUZZ_TARGETS:-matrices url url_read state npy attention_json worker_messages})  # FUZZ_TARGETS="state npy": some
fuzz_build() {
  say "fuzz targets, clang-14 + libFuzzer + ASan + UBSan (build/fuzz)"
  CXX=clang++-14 CC=clang-14 cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1" \
    -DAP_FUZZ=ON -DAP_BUILD_APP=OFF -DAP_BUILD_TESTS=OFF >/dev/null
  cmake --build build/fuzz -j"$jobs" $(printf ' --target fuzz_%s' "${fuzz_targets[@]}")
}
# FUZZ_MAX_LEN caps an input's bytes: libFuzzer lets the limit grow with the corpus, and setState's inputs slow
# down as they do (fuzz_state: 1,650 inputs/s per process at 174 bytes, 500/s past 2,600 bytes).
fuzz_run() {  # fuzz_run <runs, -1 for no limit> <seconds>: every target; prints "target: N execs, exec/s, crashes K"
  # FUZZ_JOBS processes per target (seeds 1 … J) share one corpus directory, which libFuzzer rescans, so each
  # finds what the others added; each runs <runs>/J inputs or <seconds>, and the figures are their sums.
  local runs=$1 seconds=$2 procs=${FUZZ_JOBS:-1} failed=0 t j execs rate crashes pids
  for t in "${fuzz_targets[@]}"; do
    rm -rf "build/fuzz/corpus/$t" "build/fuzz/crashes/$t" build/fuzz/"$t".*log
    mkdir -p "build/fuzz/corpus/$t" "build/fuzz/crashes/$t"
    cp tests/fuzz/corpus/"$t"/* "build/fuzz/corpus/$t/"
    pids=()
    for ((j = 1; j <= procs; j++)); do
      build/fuzz/fuzz_"$t" -seed="$j" -timeout=30 -print_final_stats=1 -runs=$(((runs + procs - 1) / procs)) \
        -max_total_time="$seconds" -artifact_prefix="build/fuzz/crashes/$t/" ${FUZZ_MAX_LEN:+-max_len=$FUZZ_MAX_LEN} "build/fuzz/corpus/$t" \
        >"build/fuzz/$t.$j.log" 2>&1 &
      pids+=($!)
    done
    for j in "${pids[@]}"; do wait "$j" || failed=1; done
    execs=$(cat build/fuzz/"$t".*.log | sed -n 's/^stat::number_of_executed_units: *//p' | awk '{s += $1} END {print s + 0}')
    rate=$(cat build/fuzz/"$t".*.log | sed -n 's/^stat::average_exec_per_sec: *//p' | awk '{s += $1} END {print s + 0}')
    # crash-, leak-, timeout-, oom-: failures; slow-unit- (an input over 10 s, kept for a look): listed only
    crashes=$(find "build/fuzz/crashes/$t" -type f ! -name 'slow-unit-*' | wc -l)
    slow=$(find "build/fuzz/crashes/$t" -type f -name 'slow-unit-*' | wc -l)
    printf '%s: %s execs, %s exec/s, crashes %s, slow inputs %s (%s process(es))\n' "$t" "$execs" "$rate" "$crashes" "$slow" "$procs"
    if [ "$crashes" != 0 ] || [ "$(cat build/fuzz/"$t".*.log | grep -c '^stat::number_of_executed_units')" != "$procs" ]; then
      failed=1; tail -n 40 build/fuzz/"$t".*.log
    fi
  done
  return $failed
}
fuzz_tests() { fuzz_build && FUZZ_JOBS=1 fuzz_run -1 15; }

run_tests() {
  local failed=0
  native_build
  say "unit tests, native (ctest)"
  ctest --test-dir build/native --output-on-failure -j"$jobs" || failed=1
  sanitizer_tests || failed=1
  fuzz_tests || failed=1
  web_build
  say "unit tests, wasm under Node (ctest)"
  ctest --test-dir build/wasm --output-on-failure || failed=1
  say "interface strings"
  /usr/bin/python3 tools/check_i18n.py || failed=1
  /usr/bin/python3 tools/make_fonts.py --check src || failed=1  # no "?" for a character the fonts lack
  say "browser tests (headless Chromium, software WebGL2)"
  (cd tests/browser && node --test --test-concurrency=1 ./*.test.mjs) || failed=1
  if [ $failed -ne 0 ]; then say "SOME TESTS FAILED"; exit 1; fi
  say "all tests passed"
}

case "${1:-}" in
  web) web_build ;;
  serve)
    web_build
    say "serving dist/ at http://127.0.0.1:$port/  (Ctrl+C stops)"
    exec node tools/serve.mjs dist "$port" ;;
  test) run_tests ;;
  # The readers reach 10 million inputs in minutes, setState (it builds the default view for every input) in
  # about 50 minutes on two cores; the URL round trip builds scenes' models for most inputs (the scaling
  # scene's million normal draws take 50 ms under ASan) and stops at the time limit instead.
  fuzz) fuzz_build && FUZZ_JOBS=${FUZZ_JOBS:-$jobs} fuzz_run 10000000 "${FUZZ_SECONDS:-3600}" ;;
  native)
    native_build
    shift
    exec build/native/attention_playground "$@" ;;
  bench)
    native_build
    web_build
    say "benchmarks"
    node tools/bench.mjs
    node tools/bench_page.mjs ;;
  *)
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
    exit 2 ;;
esac
