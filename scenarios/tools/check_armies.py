#!/usr/bin/env python3
"""Verify the generated army data in scenarios/armies/ against its sources.

Reads every generated YAML file with a small parser for the subset that
convert_armies.py writes (block mappings and sequences, flow lists of scalars,
JSON-style double-quoted strings, `|-` literal blocks, integers), then checks:
  * every file parses and names its source and list version;
  * per-army entry counts equal the source counts (JSON units, upgrades and
    spells; Ancients TSV rows per army, 275 in all; WHFB7 306 profiles, 36 weapons);
  * stat fields equal the source values, field by field;
  * ids are unique slugs; every rule id used is in special-rules.yaml, and every
    registry entry is used, judged and well formed, and says `engine: implemented`
    exactly when engine/warmaster/special.c implements it;
  * the files are current: converting again in memory gives identical text (this
    includes armies/meson.build, the list of files the build embeds).
It also lists, for information, where data/wma_armies.tsv differs from the
Ancients rulebook tables in the seed (the TSV's documented OCR fixes).

Usage (from the repository root):
  python3 scenarios/tools/check_armies.py
Prints one line per failed check and a final "N passed, M failed"; exits 1 on
any failure.  Python 3 standard library only.
"""

import argparse
import collections
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True      # keep scenarios/tools free of __pycache__
sys.path.insert(0, HERE)
import convert_armies as conv  # noqa: E402  (the converter, re-run in memory)


# ---------------------------------------------------------------------------
# Tiny YAML reader for the generated subset

class YamlError(Exception):
    pass


def _unquote(s):
    # A YAML double-quoted scalar as written by the converter is JSON, except that
    # characters beyond the BMP may be written as \UXXXXXXXX.
    s = re.sub(r"\\U([0-9a-fA-F]{8})",
               lambda m: json.dumps(chr(int(m.group(1), 16)))[1:-1], s)
    return json.loads(s)


def parse_scalar(text):
    t = text.strip()
    if t.startswith('"'):
        return _unquote(t)
    if t.startswith("["):
        if not t.endswith("]"):
            raise YamlError("unterminated flow list: %r" % t)
        inner = t[1:-1].strip()
        if not inner:
            return []
        items = re.findall(r'\s*("(?:[^"\\]|\\.)*"|[^,]+)\s*(?:,|$)', inner)
        return [parse_scalar(i) for i in items]
    if re.fullmatch(r"-?\d+", t):
        return int(t)
    if t == "true":
        return True
    if t == "false":
        return False
    if t in ("yes", "no"):
        return t          # kept as written; the registry uses yes/no words
    if t.startswith(("'", "{", "&", "*", "!", "|", ">", "%", "@", "`")):
        raise YamlError("unsupported scalar %r" % t)
    return t


def load_yaml(text):
    raw = text.split("\n")
    lines = []   # (indent, content, raw index)
    for idx, line in enumerate(raw):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        lines.append((len(line) - len(line.lstrip(" ")), line.strip(), idx))
    pos = [0]

    def block_text(idx, indent):
        # Literal block: following raw lines indented deeper than `indent`, or blank.
        out, j = [], idx + 1
        while j < len(raw) and (not raw[j].strip() or
                                len(raw[j]) - len(raw[j].lstrip(" ")) > indent):
            out.append(raw[j])
            j += 1
        while out and not out[-1].strip():
            out.pop()
        body = [l for l in out if l.strip()]
        if not body:
            return ""
        cut = min(len(l) - len(l.lstrip(" ")) for l in body)
        # Skip the parsed-line cursor past the block's lines.
        while pos[0] < len(lines) and lines[pos[0]][2] < j:
            pos[0] += 1
        return "\n".join(l[cut:] for l in out)

    def parse_value(rest, indent, idx):
        if rest == "":
            if pos[0] < len(lines) and lines[pos[0]][0] > indent:
                return parse_node(lines[pos[0]][0])
            if pos[0] < len(lines) and lines[pos[0]][0] == indent and \
                    lines[pos[0]][1].startswith("- "):
                return parse_node(indent)
            return None
        if rest == "|-":
            return block_text(idx, indent)
        return parse_scalar(rest)

    def parse_mapping(indent, first=None):
        out = collections.OrderedDict()
        while pos[0] < len(lines):
            ind, content, idx = lines[pos[0]]
            if first is not None:
                ind, content, idx = first
                first = None
            elif ind != indent or content.startswith("- "):
                if ind > indent:
                    raise YamlError("line %d: unexpected indent" % (idx + 1))
                break
            m = re.match(r'^([A-Za-z_][A-Za-z0-9_]*|"[^"]*"):(?: (.*))?$', content)
            if not m:
                raise YamlError("line %d: not a mapping entry: %r" % (idx + 1, content))
            key = m.group(1)
            if key.startswith('"'):
                key = json.loads(key)
            if key in out:
                raise YamlError("line %d: duplicate key %s" % (idx + 1, key))
            pos[0] += 1
            out[key] = parse_value((m.group(2) or "").strip(), indent, idx)
        return out

    def parse_sequence(indent):
        out = []
        while pos[0] < len(lines):
            ind, content, idx = lines[pos[0]]
            if ind != indent or not content.startswith("- "):
                if ind > indent:
                    raise YamlError("line %d: unexpected indent" % (idx + 1))
                break
            item = content[2:].strip()
            if re.match(r'^[A-Za-z_][A-Za-z0-9_]*:(?: |$)', item):
                out.append(parse_mapping(indent + 2, first=(indent + 2, item, idx)))
            else:
                pos[0] += 1
                out.append(parse_scalar(item))
        return out

    def parse_node(indent):
        if lines[pos[0]][1].startswith("- "):
            return parse_sequence(indent)
        return parse_mapping(indent)

    if not lines:
        return None
    doc = parse_node(lines[0][0])
    if pos[0] != len(lines):
        raise YamlError("line %d: trailing content" % (lines[pos[0]][2] + 1))
    return doc


# ---------------------------------------------------------------------------
# Checks

class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.groups = collections.Counter()

    def check(self, ok, group, msg):
        self.groups[(group, bool(ok))] += 1
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL [%s] %s" % (group, msg))
        return ok


SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
ENTRY_KEYS = ["id", "name", "type", "attacks", "shots", "range_cm", "hits", "armour",
              "command", "size", "points", "min", "max", "rules"]
TYPES = {"infantry", "cavalry", "chariot", "monster", "artillery", "machine", "general",
         "hero", "wizard", "mount", "special"}


def src_int(v):
    """A JSON stat as the converter should store it (None when it is not a plain int)."""
    if v is None or v == "-":
        return 0
    if isinstance(v, int):
        return v
    return int(v) if re.fullmatch(r"[+-]?\d+", str(v)) else None


def check_entries(t, label, entries):
    ids = [e.get("id") for e in entries]
    t.check(len(ids) == len(set(ids)), "ids", "%s: duplicate ids %s" % (
        label, sorted(i for i, n in collections.Counter(ids).items() if n > 1)))
    for e in entries:
        missing = [k for k in ENTRY_KEYS if k not in e]
        t.check(not missing, "fields", "%s/%s lacks %s" % (label, e.get("id"), missing))
        t.check(isinstance(e.get("id"), str) and SLUG_RE.match(e["id"]), "ids",
                "%s: id %r is not a slug" % (label, e.get("id")))
        t.check(e.get("type") in TYPES, "fields", "%s/%s: type %r" % (label, e.get("id"), e.get("type")))
        for k in ("attacks", "shots", "range_cm", "hits", "command", "size", "points", "min", "max"):
            t.check(isinstance(e.get(k), int), "fields", "%s/%s: %s=%r is not an int" % (
                label, e.get("id"), k, e.get(k)))
        t.check(isinstance(e.get("armour"), str), "fields", "%s/%s: armour not a string" % (label, e.get("id")))
        t.check(isinstance(e.get("rules"), list), "fields", "%s/%s: rules not a list" % (label, e.get("id")))


def compare_json_entry(t, label, e, src):
    exp = {"name": None, "hits": src_int(src.get("hits")), "command": src_int(src.get("command")),
           "min": src_int(src.get("min")), "max": src_int(src.get("max")),
           "armour": str(src.get("armour", "-"))}
    pts = src_int(src.get("points"))
    if pts is not None:
        exp["points"] = pts
    sz = src_int(src.get("size"))
    if sz is not None and not str(src.get("size")).startswith("+"):
        exp["size"] = sz
    a = str(src.get("attack", 0))
    m = re.fullmatch(r"\+?(\d+)(?:/(\d+))?", a)
    if m:
        exp["attacks"] = int(m.group(1))
        exp["shots"] = int(m.group(2) or 0)
    r = src.get("range")
    if r is None:
        exp["range_cm"] = 0
    elif re.fullmatch(r"\d+(cm)?", str(r)):
        exp["range_cm"] = int(str(r).replace("cm", ""))
    for k, v in exp.items():
        if k == "name" or v is None:
            continue
        t.check(e.get(k) == v, "values", "%s/%s: %s is %r, source %r" % (label, e["id"], k, e.get(k), v))


def check_json_armies(t, shared, armies_dir, used_rules):
    files_seen = 0
    for srcdir, outdir, ruleset, version in conv.JSON_RULESETS:
        srcs = sorted(glob.glob(os.path.join(shared, "data", srcdir, "*.json")))
        outs = sorted(glob.glob(os.path.join(armies_dir, outdir, "*.yaml")))
        t.check(len(srcs) == len(outs), "counts", "%s: %d source files, %d YAML files" % (
            outdir, len(srcs), len(outs)))
        for p in srcs:
            stem = os.path.splitext(os.path.basename(p))[0]
            rel = "data/%s/%s.json" % (srcdir, stem)
            ypath = os.path.join(armies_dir, outdir, stem + ".yaml")
            if not t.check(os.path.exists(ypath), "files", "missing %s" % ypath):
                continue
            files_seen += 1
            with open(p, encoding="utf-8") as f:
                src = json.load(f)
            doc = read_doc(t, ypath)
            if doc is None:
                continue
            label = "%s/%s" % (outdir, stem)
            check_header(t, ypath, rel)
            t.check(doc.get("schema") == conv.SCHEMA, "fields", "%s: schema %r" % (label, doc.get("schema")))
            t.check(doc.get("ruleset") == ruleset, "fields", "%s: ruleset %r" % (label, doc.get("ruleset")))
            t.check(doc.get("army") == stem, "fields", "%s: army %r" % (label, doc.get("army")))
            t.check(doc.get("name") == src["name"], "values", "%s: name %r" % (label, doc.get("name")))
            t.check(str(doc.get("source", "")).startswith(rel), "fields", "%s: source %r" % (label, doc.get("source")))
            want_version = version or src.get("version")
            t.check(doc.get("list_version") == want_version, "fields",
                    "%s: list_version %r, want %r" % (label, doc.get("list_version"), want_version))
            for section in ("units", "upgrades"):
                got = doc.get(section) or []
                want = src.get(section) or {}
                t.check(len(got) == len(want), "counts", "%s: %d %s, source has %d" % (
                    label, len(got), section, len(want)))
                check_entries(t, "%s/%s" % (label, section), got)
                by_name = {e.get("name"): e for e in got}
                for name, s in want.items():
                    e = by_name.get(name)
                    if t.check(e is not None, "counts", "%s: %s %r missing" % (label, section, name)):
                        compare_json_entry(t, "%s/%s" % (label, section), e, s)
                        # Rules named by the source must be present (by slug or alias).
                        keys = ([name] if name in (src.get("specialRules") or {}) else []) + \
                            list(s.get("specialRules", []))
                        for k in keys:
                            rid = conv.RULE_ID_ALIASES.get((ruleset, stem, k), conv.slug(k))
                            t.check(rid in e.get("rules", []), "rules", "%s/%s: rule %s (key %r) not listed" % (
                                label, e["id"], rid, k))
                for e in got:
                    for r in e.get("rules", []):
                        used_rules[r].add("%s/%s/%s/%s" % (ruleset, stem, section, e["id"]))
            t.check(len(doc.get("spells") or []) == len(src.get("spells") or []), "counts",
                    "%s: spell count %d vs %d" % (label, len(doc.get("spells") or []), len(src.get("spells") or [])))
            if src.get("armyRules"):
                t.check(doc.get("army_rules") == "\n".join(src["armyRules"]), "values",
                        "%s: army_rules text differs from source" % label)
    return files_seen


def check_ancients(t, shared, armies_dir, used_rules):
    header, rows = conv.read_tsv(os.path.join(shared, "data", "wma_armies.tsv"))
    t.check(len(rows) == 275, "counts", "wma_armies.tsv has %d rows, want 275" % len(rows))
    by_army = collections.OrderedDict()
    for r in rows:
        by_army.setdefault(r["army"], []).append(r)
    t.check(len(by_army) == 25, "counts", "wma_armies.tsv has %d armies, want 25" % len(by_army))
    outs = sorted(glob.glob(os.path.join(armies_dir, "warmaster-ancients", "*.yaml")))
    t.check(len(outs) == len(by_army), "counts", "warmaster-ancients: %d YAML files for %d armies" % (
        len(outs), len(by_army)))
    total = 0
    for army, arows in by_army.items():
        stem = conv.slug(army)
        ypath = os.path.join(armies_dir, "warmaster-ancients", stem + ".yaml")
        if not t.check(os.path.exists(ypath), "files", "missing %s" % ypath):
            continue
        doc = read_doc(t, ypath)
        if doc is None:
            continue
        label = "warmaster-ancients/%s" % stem
        check_header(t, ypath, "data/wma_armies.tsv")
        t.check(doc.get("ruleset") == "warmaster-ancients", "fields", "%s: ruleset" % label)
        t.check(doc.get("list_version") == "2005 rulebook", "fields", "%s: list_version" % label)
        t.check(doc.get("name") == army, "values", "%s: name %r" % (label, doc.get("name")))
        units = doc.get("units") or []
        ups = doc.get("upgrades") or []
        check_entries(t, label + "/units", units)
        check_entries(t, label + "/upgrades", ups)
        n_up = sum(1 for r in arows if r["points"].startswith("+"))
        t.check(len(units) + len(ups) == len(arows), "counts", "%s: %d entries, TSV has %d rows" % (
            label, len(units) + len(ups), len(arows)))
        t.check(len(ups) == n_up, "counts", "%s: %d upgrades, TSV has %d '+' rows" % (label, len(ups), n_up))
        total += len(units) + len(ups)
        # Row by row, in order: units are the non-'+' rows, upgrades the '+' rows.
        pairs = list(zip([r for r in arows if not r["points"].startswith("+")], units)) + \
            list(zip([r for r in arows if r["points"].startswith("+")], ups))
        for r, e in pairs:
            where = "%s/%s" % (label, e.get("id"))
            t.check(e.get("name") == r["troop"], "values", "%s: name %r vs %r" % (where, e.get("name"), r["troop"]))
            t.check(e.get("armour") == r["armour"], "values", "%s: armour" % where)
            t.check(e.get("points") == int(r["points"].lstrip("+")), "values", "%s: points" % where)
            if r["attack"] != "-":
                t.check(e.get("attacks") == int(r["attack"].lstrip("+")), "values", "%s: attacks" % where)
            if r["hits"] != "-":
                t.check(e.get("hits") == int(r["hits"]), "values", "%s: hits" % where)
            if re.fullmatch(r"\d+", r["command"]):
                t.check(e.get("command") == int(r["command"]), "values", "%s: command" % where)
            for k in ("min", "max"):
                t.check(e.get(k) == (0 if r[k] == "-" else int(r[k])), "values", "%s: %s" % (where, k))
            names = [x.split(" (")[0].strip() for x in r["notes"].split(";")
                     if x.strip() and x.strip() != "-" and not re.match(r"^(info|ocr-fix|as-printed):", x.strip())]
            for n in names:
                rid = conv.ancients_rule_id(n)
                t.check(rid in e.get("rules", []), "rules", "%s: rule %s (%r) not listed" % (where, rid, n))
            section = "upgrades" if r["points"].startswith("+") else "units"
            for rid in e.get("rules", []):
                used_rules[rid].add("warmaster-ancients/%s/%s/%s" % (stem, section, e["id"]))
    t.check(total == 275, "counts", "Ancients YAML holds %d entries, want 275" % total)
    return len(by_army)


def check_whfb7(t, shared, armies_dir):
    for fname, kind, want in (("whfb7_profiles.tsv", "profiles", 306), ("whfb7_weapons.tsv", "weapons", 36)):
        header, rows = conv.read_tsv(os.path.join(shared, "data", fname))
        t.check(len(rows) == want, "counts", "%s has %d rows, want %d" % (fname, len(rows), want))
        ypath = os.path.join(armies_dir, "whfb7", kind + ".yaml")
        if not t.check(os.path.exists(ypath), "files", "missing %s" % ypath):
            continue
        check_header(t, ypath, "data/" + fname)
        doc = read_doc(t, ypath)
        if doc is None:
            continue
        got = doc.get(kind) or []
        t.check(len(got) == len(rows), "counts", "whfb7/%s: %d entries, TSV %d" % (kind, len(got), len(rows)))
        ids = [e.get("id") for e in got]
        t.check(len(ids) == len(set(ids)), "ids", "whfb7/%s: duplicate ids" % kind)
        for r, e in zip(rows, got):
            t.check(SLUG_RE.match(str(e.get("id"))) is not None, "ids", "whfb7/%s: id %r" % (kind, e.get("id")))
            for col in header:
                t.check(e.get(col) == r[col], "values", "whfb7/%s/%s: %s is %r, TSV %r" % (
                    kind, e.get("id"), col, e.get(col), r[col]))


def check_registry(t, armies_dir, used_rules, judgements, implemented):
    ypath = os.path.join(armies_dir, "special-rules.yaml")
    doc = read_doc(t, ypath)
    if doc is None:
        return 0
    rules = doc.get("rules") or []
    ids = [r.get("id") for r in rules]
    t.check(len(ids) == len(set(ids)), "registry", "duplicate registry ids")
    reg = {r.get("id"): r for r in rules}
    for rid in sorted(used_rules):
        t.check(rid in reg, "registry", "rule %s used by %s is not in the registry" % (
            rid, sorted(used_rules[rid])[:3]))
    for rid, r in sorted(reg.items()):
        t.check(rid in used_rules, "registry", "registry entry %s is used by no army file" % rid)
        t.check(SLUG_RE.match(str(rid)) is not None, "registry", "id %r is not a slug" % rid)
        for k in ("name", "ruleset", "summary", "text", "engine", "affects_engagement_dice", "used_by"):
            t.check(k in r, "registry", "%s lacks %s" % (rid, k))
        t.check(r.get("engine") == ("implemented" if rid in implemented else "not-implemented"),
                "registry", "%s: engine %r" % (rid, r.get("engine")))
        t.check(r.get("affects_engagement_dice") in ("yes", "no"), "registry",
                "%s: affects_engagement_dice %r" % (rid, r.get("affects_engagement_dice")))
        t.check(isinstance(r.get("summary"), str) and r["summary"] not in ("", "TODO"), "registry",
                "%s: no summary" % rid)
        j = judgements.get(rid)
        t.check(j is not None and (j[0], j[1]) == (r.get("affects_engagement_dice"), r.get("summary")),
                "registry", "%s: differs from special_rule_judgements.tsv" % rid)
        t.check(sorted(r.get("used_by") or []) == sorted(used_rules.get(rid, [])), "registry",
                "%s: used_by does not match the army files" % rid)
        rs = set(r.get("ruleset") or [])
        want_rs = {u.split("/")[0] for u in used_rules.get(rid, [])}
        t.check(rs == want_rs, "registry", "%s: ruleset %s, used in %s" % (rid, sorted(rs), sorted(want_rs)))
    return len(reg)


def read_doc(t, path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        doc = load_yaml(text)
    except (YamlError, ValueError) as exc:
        t.check(False, "parse", "%s: %s" % (path, exc))
        return None
    t.check(isinstance(doc, dict), "parse", "%s: top level is not a mapping" % path)
    return doc if isinstance(doc, dict) else None


def check_header(t, path, rel):
    with open(path, encoding="utf-8") as f:
        first = f.readline().rstrip("\n")
    t.check(first.startswith("# Generated by %s from %s" % (conv.TOOL, rel)), "files",
            "%s: header %r does not name source %s" % (path, first, rel))


def check_fresh(t, shared, armies_dir):
    files, report = conv.convert(shared, HERE)
    files2, _ = conv.convert(shared, HERE)
    t.check(files == files2, "fresh", "two in-memory conversions differ (non-deterministic output)")
    for rel, text in files.items():
        path = os.path.join(armies_dir, rel)
        if not t.check(os.path.exists(path), "fresh", "%s not generated" % rel):
            continue
        with open(path, encoding="utf-8") as f:
            t.check(f.read() == text, "fresh", "%s is stale: rerun convert_armies.py" % rel)
    on_disk = {os.path.relpath(p, armies_dir).replace(os.sep, "/")
               for p in glob.glob(os.path.join(armies_dir, "**", "*.yaml"), recursive=True)}
    extra = sorted(on_disk - set(files))
    t.check(not extra, "fresh", "files the converter does not produce: %s" % extra)
    for p in report["problems"]:
        print("note: %s" % p)
    return report


def seed_crosscheck(shared):
    """Informational: TSV rows that differ from the seed tables (OCR fixes)."""
    tables, _ = conv.parse_ancients_seed(shared)
    if not tables:
        print("info: seed 001 not found; skipped the TSV-vs-seed comparison")
        return
    header, rows = conv.read_tsv(os.path.join(shared, "data", "wma_armies.tsv"))
    by_army = collections.OrderedDict()
    for r in rows:
        by_army.setdefault(r["army"], []).append(r)
    keys = ["troop", "type", "attack", "range", "hits", "armour", "command", "unit_size",
            "min", "max", "points"]
    ndiff = nrows = 0
    for army, arows in by_army.items():
        h = conv.seed_heading_for(army, tables)
        srows = tables[h]["rows"] if h else []
        for (line, cells), r in zip(srows, arows):
            nrows += 1
            c = [x.replace("\u2013", "-").replace(" ", "").strip() for x in cells] + [""] * 11
            mm = c[8]
            smin, smax = mm.split("/", 1) if "/" in mm else (mm, mm)
            seed = [cells[0].strip(), cells[1].strip()] + c[2:8] + [smin, smax, c[9]]
            d = ["%s %r->%r" % (k, s, r[k]) for k, s in zip(keys, seed) if s != r[k]]
            if d:
                ndiff += 1
                print("info: TSV vs seed %s line %d %s: %s" % (army, line, r["troop"], "; ".join(d)))
    print("info: %d of %d TSV rows compared with the seed tables differ (OCR fixes listed in "
          "the OCR fixes log of rules/warmaster-ancients.md)" % (ndiff, nrows))


def main(argv=None):
    repo = os.path.dirname(os.path.dirname(HERE))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", default=os.path.join(repo, "scenarios", "armies", "sources"))
    ap.add_argument("--armies", default=os.path.join(repo, "scenarios", "armies"))
    ap.add_argument("--quiet-info", action="store_true", help="omit the informational lines")
    args = ap.parse_args(argv)
    t = Tally()
    used = collections.defaultdict(set)
    judgements = conv.load_judgements(os.path.join(HERE, "special_rule_judgements.tsv"))
    n_json = check_json_armies(t, args.shared, args.armies, used)
    n_anc = check_ancients(t, args.shared, args.armies, used)
    check_whfb7(t, args.shared, args.armies)
    n_rules = check_registry(t, args.armies, used, judgements, conv.implemented_rules(repo))
    check_fresh(t, args.shared, args.armies)
    if not args.quiet_info:
        seed_crosscheck(args.shared)
    print("checked %d Warmaster JSON armies, %d Ancients armies, whfb7 tables, %d special rules"
          % (n_json, n_anc, n_rules))
    for group in sorted({g for g, _ in t.groups}):
        print("  %-9s %5d passed, %d failed" % (group, t.groups[(group, True)], t.groups[(group, False)]))
    print("%d passed, %d failed" % (t.passed, t.failed))
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
