# tap_lib.sh: the checks the command-line test scripts share (TAP output for
# meson), sourced by tests/test_cli*.sh after they set OM, DATA and ROOT.
# tap_setup NAME makes the scratch directory $TMP (removed on exit); each
# check prints "ok N - ..." or "not ok N - ..." with what was seen; tap_end
# prints the plan and fails the script if any check failed.

n=0
failed=0

# tap_setup NAME: a scratch directory $TMP under $TMPDIR (or /tmp), removed when
# the script exits.
tap_setup() {
    TMP=$(mktemp -d "${TMPDIR:-/tmp}/om_$1_XXXXXX")
    trap 'rm -rf "$TMP"' EXIT
}

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }

# expect_exit CODE DESCRIPTION COMMAND...: run, capture stdout/stderr, check the code.
expect_exit() {
    want=$1; what=$2; shift 2
    "$@" >"$TMP/out" 2>"$TMP/err"
    got=$?
    if [ "$got" -eq "$want" ]; then ok "$what (exit $got)"; else
        not_ok "$what: exit $got, expected $want" "stderr: $(head -c 400 "$TMP/err")"; fi
}

# expect_grep FIXED_STRING FILE DESCRIPTION: FILE holds the string.
expect_grep() {
    if grep -qF -- "$1" "$2"; then ok "$3"; else not_ok "$3" "no '$1' in: $(head -c 400 "$2")"; fi
}

# expect_match REGEX FILE DESCRIPTION: a line of FILE matches the basic regex.
expect_match() {
    if grep -q -- "$1" "$2"; then ok "$3"; else not_ok "$3" "no '$1' in: $(head -c 400 "$2")"; fi
}

# expect_absent PATH DESCRIPTION: neither PATH nor a temporary file of it exists.
expect_absent() {
    if [ -e "$1" ] || ls "$1".tmp* >/dev/null 2>&1; then not_ok "$2" "$(ls -la "$(dirname "$1")")"; else ok "$2"; fi
}

# json_ok DESCRIPTION PYTHON-EXPRESSION: the JSON in $TMP/out parses and the
# expression (over it as d, with math imported) is true.
json_ok() {
    if python3 -c 'import json,math,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$TMP/out" "$2" 2>"$TMP/py"; then
        ok "$1"; else not_ok "$1" "$(head -c 300 "$TMP/out")" "$(tail -n 2 "$TMP/py")"; fi
}

# quoting_docs NAME: the documents that quote the odds of the example scenario
# scenarios/examples/NAME (NAME may be turns/FILE.yaml): of README.md and
# docs/manual.md, those that name it, one path a line; nothing when neither
# does. A document that names an example quotes its odds right there, so the
# tests check every document that names it.
quoting_docs() {
    for doc in "$ROOT/README.md" "$ROOT/docs/manual.md"; do
        if grep -qF -- "examples/$1" "$doc"; then echo "$doc"; fi
    done
}

# The SHA-256 of every per-trial dataset (/trials and /units) of file $1,
# one "GROUP/NAME HASH" a line (h5ls and h5dump; scratch bytes in $TMP).
trial_hashes() {
    for g in trials units; do
        h5ls "$1/$g" | awk '$2 == "Dataset" && $1 != "table" {print $1}' | sort |
            while read -r ds; do
                rm -f "$TMP/ds.bin"
                h5dump -b NATIVE -d "/$g/$ds" -o "$TMP/ds.bin" "$1" >/dev/null 2>&1
                echo "$g/$ds $(sha256sum <"$TMP/ds.bin" | cut -d' ' -f1)"
            done
    done
}

# tap_end: the plan line; the script's status says whether every check passed.
tap_end() {
    echo "1..$n"
    [ "$failed" -eq 0 ]
}
