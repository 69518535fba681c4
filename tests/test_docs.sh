#!/bin/sh
# test_docs.sh: the documentation holds together (TAP output for meson).
# Usage: test_docs.sh PATH/TO/oddsmaster SOURCE_ROOT
# Checks that README.md stays a front page of at most 15,000 bytes; that every
# relative link of README.md and docs/*.md names a file that exists and, for a
# link with #anchor into a Markdown file, a heading of that file (GitHub's
# anchors: the heading's text in lower case, punctuation dropped, spaces as
# hyphens, -1, -2, ... for repeats); that each document of docs/ but the key
# reference opens with a table of contents; that docs/manual.md has a section
# for every subcommand and names every option its --help prints; and that the
# manual's recipe for reading a result file with h5py and pandas runs (where
# both are installed). The odds the documents quote are checked by the CLI
# tests (test_cli*.sh), next to the runs that print them.
set -u
OM=$1
ROOT=$2
. "$ROOT/tests/tap_lib.sh"
tap_setup test_docs
README_MAX=15000

# --- the README is a front page ---
size=$(wc -c <"$ROOT/README.md")
if [ "$size" -le "$README_MAX" ]; then ok "README.md is $size bytes, at most $README_MAX"; else
    not_ok "README.md is at most $README_MAX bytes" "it is $size bytes: move the detail to docs/"; fi

# --- every relative link resolves: file, and heading for an anchor ---
python3 - "$ROOT" "$ROOT/README.md" "$ROOT"/docs/*.md >"$TMP/links" 2>&1 <<'PY'
import os, re, sys

root = os.path.realpath(sys.argv[1])
FENCE = re.compile(r"^\s*(```|~~~)")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
CODE = re.compile(r"`[^`]*`")

def lines_outside_code(path):
    """(number, line) of every line outside fenced code blocks."""
    inside = False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if FENCE.match(line):
                inside = not inside
                continue
            if not inside:
                yield n, line

def slug(text):
    """GitHub's anchor of a heading: the text as rendered (inline markup and
    links reduced to their text), lower case, every character that is not a
    letter, digit, space, hyphen or underscore dropped, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")

anchors = {}
def anchors_of(path):
    if path not in anchors:
        seen, found = {}, set()
        for _, line in lines_outside_code(path):
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                s = slug(m.group(1))
                k = seen.get(s, 0)
                seen[s] = k + 1
                found.add(s if k == 0 else "%s-%d" % (s, k))
        anchors[path] = found
    return anchors[path]

links = bad = 0
for doc in sys.argv[2:]:
    name = os.path.relpath(doc, root)
    for n, line in lines_outside_code(doc):
        for target in LINK.findall(CODE.sub("", line)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # http:, https:, mailto: ...
            links += 1
            path, _, anchor = target.partition("#")
            dest = os.path.realpath(os.path.join(os.path.dirname(doc), path)) if path else doc
            if not (dest == root or dest.startswith(root + os.sep)):
                print("%s:%d: %s leaves the repository" % (name, n, target)); bad += 1
            elif not os.path.exists(dest):
                print("%s:%d: %s: no such file" % (name, n, target)); bad += 1
            elif anchor and dest.endswith(".md") and anchor not in anchors_of(dest):
                print("%s:%d: %s: no heading '%s' in %s" % (name, n, target, anchor,
                                                         os.path.relpath(dest, root))); bad += 1
print("%d links, %d broken" % (links, bad))
sys.exit(1 if bad or not links else 0)
PY
if [ $? -eq 0 ]; then ok "every relative link resolves ($(tail -n 1 "$TMP/links"))"; else
    not_ok "every relative link resolves"; sed 's/^/# /' "$TMP/links"; fi

# --- each document of docs/ (the key reference aside) has a table of contents ---
for doc in manual rules-coverage performance architecture; do
    if grep -qx "## Contents" "$ROOT/docs/$doc.md"; then ok "docs/$doc.md has a table of contents"; else
        not_ok "docs/$doc.md has a table of contents" "no heading '## Contents'"; fi
done

# --- the manual covers every command and every option of its --help ---
for cmd in run battle summary list matrix efficiency chart compare; do
    if grep -qE "^## ($cmd|.*\(\`$cmd\`\))\$" "$ROOT/docs/manual.md"; then
        ok "docs/manual.md has a section on $cmd"; else
        not_ok "docs/manual.md has a section on $cmd" "no heading '## $cmd' or '## ... (\`$cmd\`)'"; fi
    "$OM" "$cmd" --help >"$TMP/help" 2>&1
    missing=""
    for opt in $(grep -oE -- '--[a-z][a-z0-9-]*' "$TMP/help" | sort -u); do
        grep -qE -- "$opt([^a-z0-9-]|\$)" "$ROOT/docs/manual.md" || missing="$missing $opt"
    done
    if [ -z "$missing" ]; then ok "docs/manual.md names every option of $cmd --help"; else
        not_ok "docs/manual.md names every option of $cmd --help" "missing:$missing"; fi
done

# --- the manual's recipe for reading a result file runs ---
# The first python block of docs/manual.md, run in a directory holding the
# knights.h5 it reads (the default scenario, a few trials).
if /usr/bin/python3 -c 'import h5py, pandas' 2>/dev/null; then
    mkdir "$TMP/recipe"
    awk '/^```python$/ { inside = 1; next } inside && /^```$/ { exit } inside' \
        "$ROOT/docs/manual.md" >"$TMP/recipe/recipe.py"
    if [ -s "$TMP/recipe/recipe.py" ] &&
        "$OM" run --trials 20000 -q -o "$TMP/recipe/knights.h5" >/dev/null &&
        (cd "$TMP/recipe" && /usr/bin/python3 recipe.py) >"$TMP/out" 2>"$TMP/err"; then
        ok "the manual's h5py and pandas recipe runs"
    else
        not_ok "the manual's h5py and pandas recipe runs"; sed 's/^/# /' "$TMP/err"
    fi
else
    ok "the manual's h5py and pandas recipe runs # SKIP python3-h5py or python3-pandas not installed"
fi

tap_end
