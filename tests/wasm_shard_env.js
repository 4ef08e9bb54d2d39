// The wasm unit tests' pre-js (CMakeLists.txt): Emscripten's getenv sees an environment of its own, not Node's;
// GoogleTest's shard variables are copied into it, so that build.sh runs the tests in two balanced shards
// (GTEST_TOTAL_SHARDS, GTEST_SHARD_INDEX) as it does the sanitized ones.
Module['preRun'] = [].concat(Module['preRun'] || [], [function () {
  ['GTEST_TOTAL_SHARDS', 'GTEST_SHARD_INDEX'].forEach(function (k) { if (process.env[k] !== undefined) ENV[k] = process.env[k]; });
}]);
