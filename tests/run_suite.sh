#!/bin/sh
# run_suite.sh: the whole test suite, as the README's second command and CI run it.
#   1. build/ (debugoptimized, assertions on, warnings as errors): meson test -v
#   2. build-asan/ (AddressSanitizer + UndefinedBehaviorSanitizer): meson test -v
#   3. build-release/ (release: -O3, assertions off, warnings as errors): the
#      program and the benchmarks compiled only (not the tests, which the two
#      runs above compile), so that code which builds only with assertions on
#      cannot pass
# Then prints one closing line "N passed, N failed" counting every Criterion
# test case and every TAP case of both runs. Exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.."
status=0
for cfg in "build" "build-asan -Db_sanitize=address,undefined -Db_lundef=false"; do
    dir=${cfg%% *}
    opts=""
    [ "$dir" = "$cfg" ] || opts=${cfg#* }
    if [ ! -d "$dir" ]; then
        meson setup "$dir" -Dwerror=true -Db_ndebug=false $opts >/dev/null || { status=1; continue; }
    fi
    meson compile -C "$dir" >/dev/null || { echo "run_suite: build in $dir failed"; meson compile -C "$dir" 2>&1 | tail -30; status=1; continue; }
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        meson test -C "$dir" -v --print-errorlogs 2>&1 | tee "$dir/suite.log" | grep -E '^\[====\] Synthesis|^(not )?ok [0-9]|^[0-9]+/[0-9]+ |FAIL|ERROR' 
    [ "$(grep -c -E '^[0-9]+/[0-9]+ .*(FAIL|ERROR|TIMEOUT)' "$dir/suite.log")" -eq 0 ] || status=1
    grep -q -E '^Fail: +0 *$' "$dir/suite.log" || status=1
    # Criterion passes a test even when a sanitizer reported in its process
    # (e.g. LeakSanitizer at exit), so the reports themselves fail the suite.
    if grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$dir/suite.log"; then
        echo "run_suite: sanitizer reports in $dir (see $dir/suite.log)"
        status=1
    fi
done
release_failed=0
[ -d build-release ] || meson setup build-release --buildtype=release -Dwerror=true >/dev/null \
    || release_failed=1
# Every executable not defined under tests/ (the program, the benchmarks) and
# so every library they link.
release_targets=""
[ "$release_failed" -eq 0 ] && release_targets=$(meson introspect --targets build-release | python3 -c '
import json, sys
print(" ".join(t["name"] for t in json.load(sys.stdin)
               if t["type"] == "executable" and "/tests/" not in t["defined_in"]))')
[ -n "$release_targets" ] || release_failed=1
# shellcheck disable=SC2086 # the target names are words
if [ "$release_failed" -eq 0 ] && ! meson compile -C build-release $release_targets >/dev/null 2>&1; then
    echo "run_suite: release build in build-release failed"
    meson compile -C build-release $release_targets 2>&1 | grep -E 'error|warning' | head -30
    release_failed=1
fi
[ "$release_failed" -eq 0 ] || status=1
RELEASE_FAILED=$release_failed python3 - build build-asan <<'PY'
# Criterion cases from their Synthesis lines in the verbose log; TAP cases of
# the CLI test from meson's testlog.json (meson does not echo TAP lines).
import json, os, re, sys
passed = 0
failed = int(os.environ.get("RELEASE_FAILED", "0"))  # a release build that fails counts
for d in sys.argv[1:]:
    try:
        text = open(d + "/suite.log", errors="replace").read()
    except OSError:
        failed += 1
        continue
    for m in re.finditer(r"Synthesis: Tested: (\d+) \| Passing: (\d+) \| Failing: (\d+) \| Crashing: (\d+)", text):
        passed += int(m.group(2)); failed += int(m.group(3)) + int(m.group(4))
    try:
        for line in open(d + "/meson-logs/testlog.json"):
            t = json.loads(line)
            if "cli" in t.get("name", ""):
                out = t.get("stdout") or ""
                passed += len(re.findall(r"^ok \d+ ", out, re.M))
                failed += len(re.findall(r"^not ok \d+ ", out, re.M))
    except OSError:
        failed += 1
print(f"{passed} passed, {failed} failed")
PY
exit $status
