#!/bin/sh
# test_cli_complete.sh: the man page and the bash completion script (TAP
# output for meson).
# Usage: test_cli_complete.sh PATH/TO/oddsmaster SOURCE_ROOT BUILD_ROOT MAN_PAGE COMPLETION
# Checks that the build's man page and completion script are what the program
# writes from its table of commands; that man renders the page without a
# warning, with every option of every command in that command's section; that
# the script is valid bash and, driven as bash drives it (COMP_WORDS,
# COMP_CWORD), completes commands, every option of each command, option words,
# rule sets, armies, units (WHFB7's too), situations, fields and file names;
# and that meson install puts the program, the page and the script in place.
set -u
OM=$1
ROOT=$2
BUILD=$3
MAN_PAGE=$4
COMPLETION=$5
. "$ROOT/tests/tap_lib.sh"
tap_setup test_cli_complete
COMMANDS="run summary list matrix efficiency chart compare"

# --- the files are the program's ---
"$OM" --generate man >"$TMP/om.1"
if cmp -s "$TMP/om.1" "$MAN_PAGE"; then ok "the built man page is oddsmaster --generate man"; else
    not_ok "the built man page is oddsmaster --generate man"; fi
"$OM" --generate complete-bash >"$TMP/om.bash"
if cmp -s "$TMP/om.bash" "$COMPLETION"; then ok "the built completion is oddsmaster --generate complete-bash"; else
    not_ok "the built completion is oddsmaster --generate complete-bash"; fi
expect_exit 1 "--generate of something else" "$OM" --generate zsh
expect_grep "--generate takes man or complete-bash, got 'zsh'" "$TMP/err" "--generate names what it makes"

# --- the man page renders, and holds every option of every command ---
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$MAN_PAGE" >"$TMP/man.txt" 2>"$TMP/man.err"
    code=$?
    if [ "$code" -eq 0 ] && [ ! -s "$TMP/man.err" ]; then ok "man -l renders the page without a warning"; else
        not_ok "man -l renders the page without a warning" "exit $code" "$(head -c 600 "$TMP/man.err")"; fi
    MANWIDTH=60 LC_ALL=C man --warnings -l "$MAN_PAGE" >/dev/null 2>"$TMP/man.err"
    if [ ! -s "$TMP/man.err" ]; then ok "nor at 60 columns in the C locale"; else
        not_ok "nor at 60 columns in the C locale" "$(head -c 600 "$TMP/man.err")"; fi
    # Plain text, whatever man does to a pipe: no overstriking, ASCII hyphens.
    if command -v col >/dev/null 2>&1; then col -b <"$TMP/man.txt" >"$TMP/man.plain"; else
        sed 's/.\x08//g' "$TMP/man.txt" >"$TMP/man.plain"; fi
    expect_match "^NAME" "$TMP/man.plain" "the page has a NAME section"
    expect_match "oddsmaster - Monte Carlo odds for tabletop battles" "$TMP/man.plain" "the NAME line"
    expect_match "^EXIT STATUS" "$TMP/man.plain" "the page has an EXIT STATUS section"
    for code in 0 1 2 3 4 5; do
        awk '/^EXIT STATUS/ { on = 1; next } /^[A-Z]/ { on = 0 } on' "$TMP/man.plain" >"$TMP/exit"
        expect_match "^       $code  *[A-Z]" "$TMP/exit" "EXIT STATUS documents exit code $code"
    done
    for cmd in $COMMANDS; do
        awk -v h="oddsmaster $cmd" '$0 == h { on = 1; next } /^[a-zA-Z]/ { on = 0 } on' \
            "$TMP/man.plain" >"$TMP/section"
        "$OM" "$cmd" --help >"$TMP/help"
        missing=""
        for opt in $(grep -oE -- '--[a-z][a-z0-9-]*' "$TMP/help" | sort -u); do
            grep -qE -- "$opt([^a-z0-9-]|\$)" "$TMP/section" || missing="$missing $opt"
        done
        if [ -s "$TMP/section" ] && [ -z "$missing" ]; then
            ok "the man page's section on $cmd names every option of $cmd --help"; else
            not_ok "the man page's section on $cmd names every option of $cmd --help" "missing:$missing"; fi
    done
elif command -v groff >/dev/null 2>&1; then
    groff -man -ww -z -Tutf8 "$MAN_PAGE" 2>"$TMP/man.err"
    if [ ! -s "$TMP/man.err" ]; then ok "groff renders the page without a warning"; else
        not_ok "groff renders the page without a warning" "$(head -c 600 "$TMP/man.err")"; fi
else
    ok "man -l renders the page # SKIP neither man nor groff is installed"
fi
for cmd in $COMMANDS; do
    "$OM" "$cmd" --help >"$TMP/help"
    missing=""
    for opt in $(grep -oE -- '--[a-z][a-z0-9-]*' "$TMP/help" | sort -u); do
        grep -qF -- "$(echo "$opt" | sed 's/-/\\-/g')" "$MAN_PAGE" || missing="$missing $opt"
    done
    if [ -z "$missing" ]; then ok "the roff source names every option of $cmd --help"; else
        not_ok "the roff source names every option of $cmd --help" "missing:$missing"; fi
done

# --- the completion script ---
if ! command -v bash >/dev/null 2>&1; then
    ok "completion # SKIP bash is not installed"
    tap_end
    exit $?
fi
if bash -n "$COMPLETION" 2>"$TMP/err"; then ok "the completion script passes bash -n"; else
    not_ok "the completion script passes bash -n" "$(head -c 400 "$TMP/err")"; fi
cat >"$TMP/drive.bash" <<'EOF'
# drive.bash SCRIPT OM WORD...: complete the last WORD of "oddsmaster WORD..."
# as bash does at TAB, one candidate a line.
script=$1 om=$2
shift 2
. "$script"
COMP_WORDS=("$om" "$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="${COMP_WORDS[*]}"
COMP_POINT=${#COMP_LINE}
_oddsmaster
[ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}"
EOF

# complete WORD...: the sorted candidates of completing the last WORD, on one line.
complete() {
    bash "$TMP/drive.bash" "$COMPLETION" "$OM" "$@" 2>"$TMP/cerr" | sort | tr '\n' ' ' | sed 's/ $//'
}
# expect_completion DESCRIPTION EXPECTED WORD...: exactly these candidates.
expect_completion() {
    what=$1 want=$2
    shift 2
    got=$(complete "$@")
    if [ "$got" = "$want" ]; then ok "complete $what"; else
        not_ok "complete $what" "expected: $want" "got: $got" "$(head -c 300 "$TMP/cerr")"; fi
}
# expect_completion_has DESCRIPTION CANDIDATE... -- WORD...: these among the candidates.
expect_completion_has() {
    what=$1
    shift
    want=""
    while [ "$1" != "--" ]; do want="$want $1"; shift; done
    shift
    got=" $(complete "$@") "
    missing=""
    for w in $want; do
        case $got in *" $w "*) ;; *) missing="$missing $w" ;; esac
    done
    if [ -z "$missing" ]; then ok "complete $what"; else
        not_ok "complete $what" "missing:$missing" "got:$got"; fi
}

expect_completion "a command" "battle chart compare efficiency help list matrix replay run summary" ""
expect_completion "a command's beginning" "summary" su
expect_completion "the program's options" "--generate --help --version" --
expect_completion "what --generate makes" "complete-bash man" --generate ""
expect_completion "what --generate= makes" "man" --generate = m
expect_completion "help CMD" "matrix" help ma
# The options of a command: those its --help lists under "Options:".
for cmd in $COMMANDS; do
    "$OM" "$cmd" --help >"$TMP/help"
    want=$(grep -oE -- '^  (-[a-zA-Z], |    )--[a-z][a-z0-9-]*' "$TMP/help" | sed 's/.*--/--/' |
           sort -u | tr '\n' ' ' | sed 's/ $//')
    expect_completion "every option of $cmd, as its --help" "$want" "$cmd" --
done
expect_completion "an option's beginning" "--trial-streams --trials" run --tri
expect_completion "the words of summary --format" "csv json text" summary x.h5 --format ""
expect_completion "the words of -f, its short form" "csv json text" summary x.h5 -f ""
expect_completion "a word after --format=" "json" summary x.h5 --format = j
expect_completion "the words of chart --kind" "heatmap" chart x.h5 --kind he
expect_completion_has "an example army list, under battle" revolution-orcs-horde revolution-orcs-riders -- battle revolution-orcs-
expect_completion_has "...the second list too" revolution-orcs-horde -- battle revolution-orcs-horde revolution-orcs-h
expect_completion "a rule set, under list" "warmaster-1.1/ warmaster-ancients/ warmaster-revolution/ whfb7/" list w
expect_completion "an army, under list" "warmaster-revolution/empire/" list warmaster-revolution/em
expect_completion "a unit, under list" "warmaster-revolution/empire/knights" list warmaster-revolution/empire/kni
expect_exit 0 "list takes a name as completion leaves it, with its '/'" "$OM" list warmaster-revolution/empire/
expect_match "knights" "$TMP/out" "list RULESET/ARMY/ lists the army"
expect_exit 0 "list --rules takes a rule set with its '/'" "$OM" list --rules whfb7/
expect_completion_has "WHFB7's lists" whfb7/profiles/ whfb7/units whfb7/spells -- list whfb7/
expect_completion_has "a WHFB7 profile" whfb7/profiles/empire-swordsman -- list whfb7/profiles/empire-sw
expect_completion_has "a rule set, first operand of matrix" warmaster-revolution whfb7 warmaster-1.1 -- matrix ""
expect_completion_has "the armies of a matrix" all empire orcs chaos -- matrix warmaster-revolution ""
expect_completion "a unit of an army" "empire/knights" matrix warmaster-revolution empire/kn
expect_completion "a unit after ARMY/UNIT," "empire/knights,halberdiers" matrix warmaster-revolution empire/knights,hal
expect_completion "an army after a comma" "empire/knights,orcs" matrix warmaster-revolution empire/knights,orc
expect_completion "the columns of a matrix" "orcs" matrix warmaster-revolution empire orc
expect_completion "a WHFB7 army" "orcs-goblins" matrix whfb7 orcs
expect_completion "a WHFB7 unit" "orcs-goblins/goblins" matrix whfb7 empire orcs-goblins/gob
expect_completion_has "the situations of the matrix's game" a-charges a-charges-b-shoots -- \
    matrix warmaster-revolution empire orcs --situation a-
expect_completion "a WHFB7 situation" "a-charges-flank" matrix whfb7 empire orcs-goblins --situation a-charges-f
expect_completion "a matrix kind" "combat engagement" matrix whfb7 empire orcs-goblins --kind ""
expect_completion "a field of the default scenario" "stands_lost_a stands_lost_b" run --halfwidth 0.01 --target stands_lost
expect_completion "a field of a WHFB7 scenario" "lost_a lost_b" run "$ROOT/scenarios/examples/whfb7-swordsmen-charge-orc-boyz.yaml" --target lo

# File names: each operand and option by what it names.
mkdir -p "$TMP/files/sub"
: >"$TMP/files/a.yaml"
: >"$TMP/files/c.txt"
"$OM" matrix warmaster-revolution empire/knights chaos/ogres,orcs/goblins -n 100 -q -o "$TMP/files/m.h5" >/dev/null
"$OM" run -n 100 -q -o "$TMP/files/r.h5" >/dev/null
cd "$TMP/files" || exit 1
expect_completion "a scenario: YAML files, directories and -" "- a.yaml sub" run ""
expect_completion "a result file: .h5 files and directories" "m.h5 r.h5 sub" summary ""
expect_completion "a directory" "sub" matrix warmaster-revolution empire orcs --cells-dir ""
expect_completion "any file for chart -o" "sub" chart r.h5 --kind odds -o ""
expect_completion "the armies of a matrix file, by id" "chaos empire orcs" efficiency m.h5 --field ""
expect_completion "the situations of a matrix file, and all" "a-charges all b-charges" efficiency m.h5 --situation ""
expect_completion "a field of a result file" "stands_lost_a stands_lost_b" chart r.h5 --kind dist --field stands
expect_completion "a value after an option that takes one is not an operand" "- a.yaml sub" run -n 10 ""
expect_completion "after --, options are operands" "" run -- --tri
cd "$ROOT" || exit 1

# --- meson install: the program, the page and the script ---
if command -v meson >/dev/null 2>&1; then
    if meson install -C "$BUILD" --destdir "$TMP/dest" --no-rebuild --quiet >"$TMP/out" 2>"$TMP/err"; then
        ok "meson install --destdir"
        for f in bin/oddsmaster share/man/man1/oddsmaster.1 share/bash-completion/completions/oddsmaster; do
            if [ -n "$(find "$TMP/dest" -path "*/$f" -type f)" ]; then ok "meson install installs $f"; else
                not_ok "meson install installs $f" "$(find "$TMP/dest" -type f | head -5)"; fi
        done
        if cmp -s "$(find "$TMP/dest" -path '*/man1/oddsmaster.1' -type f)" "$MAN_PAGE"; then
            ok "the installed man page is the built one"; else not_ok "the installed man page is the built one"; fi
    else
        not_ok "meson install --destdir" "$(head -c 400 "$TMP/err")"
    fi
else
    ok "meson install # SKIP meson is not on the PATH"
fi

tap_end
