#!/usr/bin/env bash
# Attention Playground: one entry point for everything.
#   ./build.sh serve    install what is missing, build the web app, serve dist/ at http://127.0.0.1:8000
#   ./build.sh test     install, build, run every test (native core + app, sanitizers, fuzz, wasm, browser);
#                       ends with a table of its phases in seconds, also written to build/test-times.json
#   ./build.sh soak     the monkey and the page-API fuzz at full size (the test command runs them short)
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

# build/native (g++ Release): the unit tests, the import check and the trained checkpoints; the desktop app and
# the benchmarks only when asked for (./build.sh native, bench). The checkpoints are trained here, once per change
# of the core or the tool, and dist/ and the other test trees take these files.
native_configure() {
  cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release -DAP_IMGUI_DIR="$cache/imgui" >/dev/null
}
native_build() {  # native_build TARGET...: setup, then those targets of build/native
  scripts/setup.sh native || return 1
  say "native build (build/native: $*)"
  native_configure && cmake --build build/native -j"$jobs" $(printf ' --target %s' "$@")
}
checkpoints=(coref.aptc heads.aptc example.aptc bahdanau.apsq luong.apsq)
checkpoint_dir=$root/build/native/gen/checkpoints
# What the page needs of build/wasm (./build.sh test adds the unit tests).
wasm_targets=(attention_playground kernel_worker_wasm train_worker_wasm zh_strings cjk_common_font ${AP_WASM_UNIT_TESTS:+ap_tests})

closure="$cache/closure-compiler-20220104/node_modules/.bin/google-closure-compiler"
wasm_build() {  # wasm_build TARGET...: setup, then those targets of build/wasm
  scripts/setup.sh all || return 1
  say "wasm build (build/wasm: $*)"
  local sdl_prefix
  sdl_prefix=$(. scripts/sdl2_wasm_config.sh && sdl2_wasm_prefix "$cache" "$cache/sdl2-src")
  # (the wasm unit tests read build/native's checkpoints through Node's file system: nothing trained again there)
  emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release -DAP_IMGUI_DIR="$cache/imgui" \
    -DAP_SDL2_WASM_DIR="$sdl_prefix" -DAP_CLOSURE_COMPILER="$closure" -DAP_CHECKPOINTS_FROM="$checkpoint_dir" >/dev/null \
    && cmake --build build/wasm -j"$jobs" $(printf ' --target %s' "$@")
}
web_build() {
  wasm_build "${wasm_targets[@]}" || return 1
  say "dist/"
  # The trained checkpoints: build/native's make_checkpoint (the core alone and the tool) trains each default recipe
  # with the same engine (deterministic; again only when the tool or the core changes); the page fetches them when
  # a trained view is first opened (never on the first visit).
  native_build checkpoints || return 1
  rm -rf dist && mkdir -p dist
  cp web/index.html web/style.css web/preload.js web/kernel_worker.js web/train_worker.js dist/
  # The page's glue is part of the first visit: minified (local names, whitespace, comments; the page API and every
  # property keep their names; README, "Measurements behind the code").
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
  mkdir -p dist/checkpoints && cp "${checkpoints[@]/#/$checkpoint_dir/}" dist/checkpoints/
  gzip -9 -n -k -f "${checkpoints[@]/#/dist/checkpoints/}"  # fetched as .gz and unpacked by the browser, as the fonts
  mkdir -p dist/examples && cp web/examples/*.html web/examples/*.css web/examples/*.js dist/examples/  # host pages for instructors (README "Embedding")
  python3 tools/make_single_file.py dist  # dist/attention-playground.html: one file that runs from disk
  printf 'dist/: %s\n' "$(du -sh dist | cut -f1)"
}

# build/san: the core and the app compiled once with clang-14 (line tables only: enough for the sanitizers' stacks) under AddressSanitizer and UndefinedBehaviorSanitizer
# (Debug: Eigen checks every index) and libFuzzer's coverage hooks (-fsanitize=fuzzer-no-link), linked twice: the
# unit tests (ap_tests, plumbing mode: recipes trained to their targets are asserted in build/native, here they run
# short; tests/test_mode.h) and the libFuzzer targets (tests/fuzz/).
fuzz_targets=(${FUZZ_TARGETS:-url state url_read matrices attention_json npy worker_messages})  # FUZZ_TARGETS="state npy": some
san_build() {  # san_build TARGET...
  say "sanitizer build, clang-14 + ASan + UBSan + libFuzzer hooks (build/san: $*)"
  CXX=clang++-14 CC=clang-14 cmake -S . -B build/san -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-gline-tables-only -O1" \
    -DAP_SANITIZE=ON -DAP_FUZZ=ON -DAP_BUILD_APP=OFF -DAP_CHECKPOINTS_FROM="$checkpoint_dir" >/dev/null \
    && cmake --build build/san -j"$jobs" $(printf ' --target %s' "$@")
}
san_tests() {  # the sanitized unit tests, two shards
  unchanged san build/san/ap_tests build/native/gen/checkpoints && return 0
  gtest_shards 2 build/san/ap_tests env ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    build/san/ap_tests && kept san
}

# Each fuzz target runs on a copy of its seed corpus (build/san/corpus/: the repository's is never written); what
# crashes is saved in build/san/crashes/<target>/ and fails the run.
# FUZZ_MAX_LEN caps an input's bytes: libFuzzer lets the limit grow with the corpus, and setState's inputs slow
# down as they do (fuzz_state: 1,650 inputs/s per process at 174 bytes, 500/s past 2,600 bytes).
fuzz_one() {  # fuzz_one <target> <runs, -1 for no limit> <seconds> <processes>: prints "target: N execs, exec/s, crashes K"
  # The processes (seeds 1 … J) share one corpus directory, which libFuzzer rescans, so each finds what the others
  # added; each runs <runs>/J inputs or <seconds>, and the figures are their sums.
  local t=$1 runs=$2 seconds=$3 procs=$4 failed=0 j execs rate crashes slow pids=() d=build/san
  rm -rf "$d/corpus/$t" "$d/crashes/$t" "$d/$t".*log
  mkdir -p "$d/corpus/$t" "$d/crashes/$t"
  cp tests/fuzz/corpus/"$t"/* "$d/corpus/$t/"
  for ((j = 1; j <= procs; j++)); do
    "$d/fuzz_$t" -seed="$j" -timeout=30 -print_final_stats=1 -runs=$(((runs + procs - 1) / procs)) \
      -max_total_time="$seconds" -artifact_prefix="$d/crashes/$t/" ${FUZZ_MAX_LEN:+-max_len=$FUZZ_MAX_LEN} "$d/corpus/$t" \
      >"$d/$t.$j.log" 2>&1 &
    pids+=($!)
  done
  for j in "${pids[@]}"; do wait "$j" || failed=1; done
  execs=$(cat "$d/$t".*.log | sed -n 's/^stat::number_of_executed_units: *//p' | awk '{s += $1} END {print s + 0}')
  rate=$(cat "$d/$t".*.log | sed -n 's/^stat::average_exec_per_sec: *//p' | awk '{s += $1} END {print s + 0}')
  # crash-, leak-, timeout-, oom-: failures; slow-unit- (an input over 10 s, kept for a look): listed only
  crashes=$(find "$d/crashes/$t" -type f ! -name 'slow-unit-*' | wc -l)
  slow=$(find "$d/crashes/$t" -type f -name 'slow-unit-*' | wc -l)
  printf '%s: %s execs, %s exec/s, crashes %s, slow inputs %s (%s process(es))\n' "$t" "$execs" "$rate" "$crashes" "$slow" "$procs"
  if [ "$crashes" != 0 ] || [ "$(cat "$d/$t".*.log | grep -c '^stat::number_of_executed_units')" != "$procs" ]; then
    failed=1; tail -n 40 "$d/$t".*.log
  fi
  return $failed
}
fuzz_run() {  # fuzz_run <runs> <seconds> <processes per target> <targets at once>
  local failed=0 t running=0
  for t in "${fuzz_targets[@]}"; do
    if [ "$running" -ge "$4" ]; then wait -n || failed=1; running=$((running - 1)); fi
    fuzz_one "$t" "$1" "$2" "$3" &
    running=$((running + 1))
  done
  while [ "$running" -gt 0 ]; do wait -n || failed=1; running=$((running - 1)); done
  return $failed
}

# The test command's fuzzing: each target replays its seed corpus, then mutates up to 100,000 inputs or for 15 s,
# whichever comes first (the readers reach the count in seconds; fuzz_url and fuzz_state, which build scenes'
# models, stop at the time), two targets at once. Fixed seeds: the same inputs for the same binaries.
fuzz_test() {
  unchanged fuzz $(printf ' build/san/fuzz_%s' "${fuzz_targets[@]}") && return 0
  fuzz_run 100000 15 1 "$jobs" && kept fuzz
}

# ---- the test command's phases: each timed; a table at the end and build/test-times.json ----------------------
phase_names=() phase_secs=() phase_ok=()
now() { date +%s.%N; }
phase() {  # phase NAME COMMAND...: runs COMMAND, records its seconds and whether it passed; returns its status
  # COMMAND runs as `build.sh step COMMAND…`, a shell of its own, so that set -e stops it at its first failure
  # (a function called where its status is tested would run on past one).
  local name=$1 t0 rc=0
  shift
  t0=$(now)
  "$BASH" "$root/build.sh" step "$@" || rc=$?
  phase_names+=("$name") phase_secs+=("$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')") phase_ok+=($((rc == 0)))
  return $rc
}
phase_report() {  # the table, and build/test-times.json
  local i total=0 json='{"phases": ['
  say "phases (seconds)"
  for i in "${!phase_names[@]}"; do
    printf '  %-34s %8s  %s\n' "${phase_names[$i]}" "${phase_secs[$i]}" "$([ "${phase_ok[$i]}" = 1 ] && echo ok || echo FAILED)"
    total=$(awk -v a="$total" -v b="${phase_secs[$i]}" 'BEGIN { printf "%.1f", a + b }')
    json+="$([ "$i" -gt 0 ] && echo ', '){\"name\": \"${phase_names[$i]}\", \"seconds\": ${phase_secs[$i]}, \"ok\": $([ "${phase_ok[$i]}" = 1 ] && echo true || echo false)}"
  done
  printf '  %-34s %8s\n' "total" "$total"
  mkdir -p build
  printf '%s], "total_seconds": %s, "date": "%s", "commit": "%s"}\n' "$json" "$total" "$(date -u +%FT%TZ)" \
    "$(git rev-parse --short HEAD 2>/dev/null || echo none)" >build/test-times.json
}

# ---- a group that passed is not run again on the same inputs ----------------------------------------------------
# The test command keeps, for each group that passed, a hash of everything it ran on (build/test-cache/GROUP.key):
# its binaries, the sources, tests and tools (src tests tools web shaders scripts docs, CMakeLists.txt, build.sh; not
# node_modules), the compilers' and browsers' versions and the variables that shape a run. Run again with the same
# bytes, the group says so and is not run; its logs and counts stay those of the run that passed. A changed byte
# anywhere in them runs it again. AP_RERUN=1 runs every group. (CI's clean clone has no such file: it runs all.)
# The browser runner keeps the same per test file (tests/browser/run.mjs).
test_inputs() {  # test_inputs PATH...: one hash of the names and bytes of the files under PATH... and the run's setting
  local p
  { for p in "$@"; do [ -e "$p" ] || echo "missing: $p"; done
    find "$@" src tests tools web shaders scripts docs CMakeLists.txt build.sh -type f ! -path '*/node_modules/*' -print0 2>/dev/null \
      | sort -z | xargs -0 sha1sum || true
    for t in g++ clang++-14 emcc node python3 cmake /usr/bin/chromium; do { "$t" --version 2>/dev/null || echo "no $t"; } | head -n1; done
    env | grep -E '^(AP_SOAK|AP_BROWSER_JOBS|MONKEY_|FUZZ_|JOBS=|GTEST_|ASAN_|UBSAN_)' | sort || true; } | sha1sum | cut -d' ' -f1
}
unchanged() {  # unchanged GROUP PATH...: true (and says so) when GROUP passed on these very inputs before
  mkdir -p build/test-cache
  test_inputs "${@:2}" >"build/test-cache/$1.next"
  if [ -z "${AP_RERUN:-}" ] && cmp -s "build/test-cache/$1.next" "build/test-cache/$1.key"; then
    rm -f "build/test-cache/$1.next"
    echo "($1: the same inputs as the run that passed, not run again; its logs stand. AP_RERUN=1 runs it)"
    return 0
  fi
  rm -f "build/test-cache/$1.key"
  return 1
}
kept() { mv "build/test-cache/$1.next" "build/test-cache/$1.key"; }  # kept GROUP: it passed on these inputs

run_tests() {
  local failed=0
  export AP_WASM_UNIT_TESTS=1
  phase "setup (packages, sources, SDL2)" scripts/setup.sh all || { phase_report; exit 1; }
  phase "native build" native_build ap_tests ap_import_check checkpoints || { phase_report; exit 1; }
  say "unit tests, native (ctest)"
  phase "native unit tests" native_tests || failed=1
  phase "sanitizer build" san_build ap_tests $(printf ' fuzz_%s' "${fuzz_targets[@]}") || { phase_report; exit 1; }
  phase "sanitizer unit tests" san_tests || failed=1
  say "fuzz targets (libFuzzer + ASan + UBSan), 100,000 inputs or 15 s each, two at once"
  phase "fuzz (100,000 inputs or 15 s)" fuzz_test || failed=1
  rc=0
  phase "wasm build and dist/, its unit tests" wasm_build_and_tests || rc=$?
  if [ $rc = 2 ]; then phase_report; exit 1; fi
  if [ $rc != 0 ]; then failed=1; fi
  say "interface strings"
  phase "interface strings" strings_check || failed=1
  say "browser tests (headless Chromium, software WebGL2)"
  phase "browser tests" node tests/browser/run.mjs || failed=1
  phase_report
  if [ $failed -ne 0 ]; then say "SOME TESTS FAILED"; else say "all tests passed"; fi
  tally
  exit $failed
}
native_tests() {
  unchanged native build/native/ap_tests build/native/ap_import_check build/native/gen/checkpoints && return 0
  ctest --test-dir build/native --output-on-failure -j"$jobs" | tee build/native/ctest.log
  [ "${PIPESTATUS[0]}" = 0 ] && kept native
}
wasm_tests() {  # (Emscripten's getenv sees GoogleTest's shard variables through tests/wasm_shard_env.js)
  unchanged wasm build/wasm/ap_tests.js build/wasm/ap_tests.wasm build/native/gen/checkpoints && return 0
  # four shards on two cores: GoogleTest's shards are the tests in turn, not equal times (two were 37 s and 54 s)
  gtest_shards 4 build/wasm/ap_tests node --no-experimental-fetch build/wasm/ap_tests.js && kept wasm
}
# The wasm unit tests start as soon as their module is linked and run while the page is built: the page's link is
# one process for most of a minute, and the other core would wait. Their own link, likewise, shares the cores with
# the compiles of the page's libraries and the workers (one ninja for both; ap_tests first, so that its files are
# compiled first). Returns 2 when a build fails, 1 when a test does.
wasm_build_and_tests() {
  local pid rc=0
  wasm_build ap_tests ap_ui kernel_worker_wasm train_worker_wasm zh_strings cjk_common_font || return 2
  say "unit tests, wasm under Node (four processes, while the page and dist/ are built)"
  wasm_tests >build/wasm/unit-tests.out 2>&1 &
  pid=$!
  web_build || { wait "$pid"; return 2; }
  wait "$pid" || rc=1
  say "unit tests, wasm under Node: their output"
  cat build/wasm/unit-tests.out
  return $rc
}
gtest_shards() {  # gtest_shards N LOG COMMAND...: GoogleTest's N shards of COMMAND at once (LOG.0.log … LOG.N-1.log)
  local i rc=0 pids=() n=$1 log=$2
  shift 2
  rm -f "$log".*.log
  for ((i = 0; i < n; i++)); do
    GTEST_TOTAL_SHARDS=$n GTEST_SHARD_INDEX=$i "$@" --gtest_brief=1 >"$log.$i.log" 2>&1 &
    pids+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || rc=1; done
  cat "$log".*.log
  return $rc
}
# The counts of every group (ctest's summary, GoogleTest's, the browser runner's) and their sum, the plain
# closing line "N passed, N failed".
tally() {
  local p=0 f=0 line n m
  if line=$(grep -h 'tests passed, .* tests failed out of' build/native/ctest.log 2>/dev/null); then
    m=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1 \2/' <<<"$line")
    read -r n line <<<"$m"; f=$((f + n)); p=$((p + line - n))
    printf '  native unit tests: %s passed, %s failed\n' "$((line - n))" "$n"
  fi
  for log in build/san/ap_tests.*.log build/wasm/ap_tests.*.log; do
    [ -f "$log" ] || continue
    n=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n1); n=${n:-0}
    m=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n1); m=${m:-0}
    p=$((p + n)); f=$((f + m))
    printf '  %s: %s passed, %s failed\n' "$log" "$n" "$m"
  done
  if line=$(grep -hE '^[0-9]+ passed, [0-9]+ failed' build/browser-logs/summary.txt 2>/dev/null); then
    read -r n _ m _ <<<"$line"; p=$((p + n)); f=$((f + m))
    printf '  browser tests: %s\n' "$line"
  fi
  printf '%s passed, %s failed\n' "$p" "$f"
}
strings_check() {
  /usr/bin/python3 tools/check_i18n.py && /usr/bin/python3 tools/make_fonts.py --check src  # no "?" for a character the fonts lack
}

case "${1:-}" in
  web) web_build ;;
  serve)
    web_build
    say "serving dist/ at http://127.0.0.1:$port/  (Ctrl+C stops)"
    exec node tools/serve.mjs dist "$port" ;;
  test) run_tests ;;
  step) shift; "$@" ;;  # one phase of the test command (phase, above)
  # The readers reach 10 million inputs in minutes, setState (it builds the default view for every input) in
  # about 50 minutes on two cores; the URL round trip builds scenes' models for most inputs (the scaling
  # scene's million normal draws take 50 ms under ASan) and stops at the time limit instead.
  fuzz)
    native_build checkpoints && san_build $(printf ' fuzz_%s' "${fuzz_targets[@]}") \
      && fuzz_run 10000000 "${FUZZ_SECONDS:-3600}" "${FUZZ_JOBS:-$jobs}" 1 ;;
  soak)  # the monkey and the page-API fuzz at full size (MONKEY_ACTIONS, FUZZ_CALLS as in the README)
    web_build
    AP_SOAK=1 node tests/browser/run.mjs monkey.test.mjs apifuzz.test.mjs ;;
  native)
    native_build attention_playground
    shift
    exec build/native/attention_playground "$@" ;;
  bench)
    native_build attention_playground ap_bench
    web_build
    say "benchmarks"
    node tools/bench.mjs
    node tools/bench_page.mjs ;;
  *)
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    exit 2 ;;
esac
