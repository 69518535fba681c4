#!/usr/bin/env python3
"""Convert the read-only army sources into committed, human-readable YAML.

Reads (all paths relative to the shared data root given with --shared):
  data/warmaster-armies/*.json       original Warmaster lists     -> armies/warmaster/
  data/warmaster-revolution/*.json   Warmaster Revolution 2.25    -> armies/warmaster-revolution/
  data/wma_armies.tsv                Warmaster Ancients 2005 book -> armies/warmaster-ancients/
  data/warmaster-ancients/*.json     later-errata Ancients lists: cross-check notes only
  data/whfb7_profiles.tsv, data/whfb7_weapons.tsv                 -> armies/whfb7/
  seeds/001_96f89932cfe9ddb1.txt     Ancients rulebook: special-rule prose for the registry
  rules/warmaster.md, rules/warmaster-ancients.md: digest prose for rules that have no
                                     text in the army sources (cannon, terror, fly, ...)
and writes the special-rule registry armies/special-rules.yaml.

Hand-made judgements (one-line summary and whether a rule changes engagement dice)
live in scenarios/tools/special_rule_judgements.tsv; every rule id used by an army file
must have a line there, or the conversion fails.

Usage (from the repository root):
  python3 scenarios/tools/convert_armies.py
Python 3 standard library only.  The output is deterministic: running it twice gives
byte-identical files.
"""

import argparse
import collections
import csv
import glob
import json
import os
import re
import sys
import unicodedata

SCHEMA = "oddsmaster-army/1"
TOOL = "scenarios/tools/convert_armies.py"
SELECTOR = "dsusco/wm-selector commit 2d7ce75"
ANCIENTS_SEED = "seeds/001_96f89932cfe9ddb1.txt"
# How a registry entry cites the Ancients rulebook: by its name and section.
ANCIENTS_BOOK = "Warmaster Ancients"

# The three Warmaster rulesets, with where each one's lists come from.
JSON_RULESETS = [
    # (source dir under data/, output dir under armies/, ruleset id, list_version)
    ("warmaster-armies", "warmaster", "warmaster-1.1", None),
    ("warmaster-revolution", "warmaster-revolution", "warmaster-revolution", "2.25"),
]
ANCIENTS_RULESET = "warmaster-ancients"
# Which list's prose a registry entry shows first (the newest fantasy list wins).
RULESET_ORDER = ["warmaster-revolution", "warmaster-1.1", "warmaster-ancients"]
# Order in which rulesets are listed (chronological).
RULESET_DISPLAY = ["warmaster-1.1", "warmaster-revolution", "warmaster-ancients"]

# The engine's registry of implemented special rules (engine/warmaster/special.c) is
# the single source of truth for a registry entry's `engine:` field: every
# `{.id = "id",` row of its table is implemented.
ENGINE_SPECIALS = os.path.join("engine", "warmaster", "special.c")
ENGINE_SPECIAL_RE = re.compile(r'\{\s*\.id\s*=\s*"([a-z0-9-]+)"\s*,')


def implemented_rules(repo):
    """The rule ids engine/warmaster/special.c implements (its om_wm_specials table)."""
    path = os.path.join(repo, ENGINE_SPECIALS)
    try:
        with open(path, encoding="utf-8") as f:
            ids = set(ENGINE_SPECIAL_RE.findall(f.read()))
    except OSError as exc:
        die("cannot read the engine's special-rule registry %s: %s" % (path, exc))
    if not ids:
        die("no implemented rules found in %s (table format changed?)" % path)
    return ids


# Build list of the data files, written next to them so that Meson embeds
# every file and rebuilds when one changes (Meson has no globs).
MESON_FILE = "meson.build"

# Source type name -> normalised type (the schema's enum).  Printed types that differ
# from the normalised one are kept in `source_type`.
TYPE_MAP = {
    "infantry": "infantry", "cavalry": "cavalry", "chariot": "chariot",
    "chariots": "chariot", "monster": "monster", "artillery": "artillery",
    "machine": "machine", "general": "general", "hero": "hero", "wizard": "wizard",
    # Ancients commanders below the General are heroes in the enum.
    "leader": "hero", "subordinate": "hero",
    # Ancients elephants are their own troop type; the enum has no elephant, and the
    # closest fantasy type (big beast, +1 extra charge bonus) is monster.
    "elephant": "monster",
    "camels": "cavalry",
    "mount": "mount", "monstrous mount": "mount", "chariot mount": "mount",
    "special mount": "mount",
    "special": "special", "re-roll general's command": "special",
}

# Per-army special-rule keys that must not get the plain slug as id, because the same
# key means something else in another army (or is a bare type name).  Keyed by
# (ruleset, army id, specialRules key).
RULE_ID_ALIASES = {
    # "The Bolt Thrower counts as an Elven Bolt Thrower."  The unit also names the
    # Elven Bolt Thrower rule explicitly, so this text is a variant of that rule.
    ("warmaster-revolution", "dark-elves", "Bolt Thrower"): "elven-bolt-thrower",
    # Typo of "Cold One Knights" (the original list's key).
    ("warmaster-revolution", "dark-elves", "Cold Ones Knights"): "cold-one-knights",
    # Araby's stampeding elephants, not the Ancients "Elephants" rule.
    ("warmaster-1.1", "araby", "Elephants"): "araby-elephants",
    ("warmaster-revolution", "araby", "Elephants"): "araby-elephants",
    # Bare character-type keys: army-specific rules, not generic ones.
    ("warmaster-1.1", "dark-elf", "General"): "dark-elf-general",
    ("warmaster-revolution", "dark-elves", "General"): "dark-elf-general",
    ("warmaster-1.1", "high-elf", "Wizard"): "high-elf-mage",
    ("warmaster-revolution", "high-elves", "Wizard"): "high-elf-mage",
    ("warmaster-revolution", "dogs-of-war", "Wizard"): "dogs-of-war-wizard",
}

# Ancients rule names (TSV notes) whose plain slug would be ambiguous.
ANCIENTS_RULE_ALIASES = {
    "Hero": "homeric-hero",
}

# The 18 rules of the Ancients SPECIAL RULES chapter (canonical names used by the TSV).
ANCIENTS_GLOSSARY = [
    "Camels", "Chariot Runners", "Elephants", "Fanatics", "Heavy Artillery",
    "Heavy Chariots", "Legion", "Light Artillery", "Maniple", "Phalanx",
    "Scythed Chariots", "Shieldwall", "Shock", "Skirmish", "Slow", "Triari",
    "Unreliable", "Warband",
]

# Ancients commanders with a variable Command value print it as "a/b".  The number
# the game starts with comes from each character's rule (seed 001 footnotes):
# Hannibal "Command value is 10 but falls to 9"; Poros "counts as 9 until ... fails
# ... reverts to 8"; Suren is 9 only while the Parthians are ahead, so 8 at the start.
ANCIENTS_START_COMMAND = {
    ("Carthaginian", "Hannibal"): 10,
    ("Indian", "Poros"): 9,
    ("Parthian", "Suren"): 8,
}

# Ancients TSV troop names that the later-errata JSON spells differently.
ANCIENTS_JSON_NAMES = {
    ("Assyrian", "Spearman"): "Spearmen",
    ("Assyrian", "Sab Shari Archer"): "Sab Shari Archers",
    ("Assyrian", "Sab Shari Spear"): "Sab Shari Spearmen",
    ("Early Byzantine", "Spearman"): "Spearmen",
    ("Dacian", "Mounted Skirmishers"): "Mount Skirmishers",
    ("Norman", "Mt Skirmishers"): "Mounted Skirmishers",
    ("Britons", "Caractacus"): "Caracticus",
}

# Rules derived from the data rather than named by a specialRules key: a linked rule
# text that says the unit itself causes terror or flies.  Patterns are checked on the
# linked text; NOT_TERROR removes phrases about *resisting* terror.
TERROR_RE = re.compile(r"\bcauses? \W?terror\b|\b(?:is|are) (?:a )?(?:large )?terrifying\b", re.I)
NOT_TERROR_RE = re.compile(r"(?:unaffected by|immune to) (?:the usual penalty for )?"
                           r"(?:enem(?:y|ies) that cause )?terror", re.I)
FLY_RE = re.compile(r"\b(?:can|able to|to) fly\b|\bflying (?:machine|mount|chariot mount)\b"
                    r"|\bfly as for\b|\bwhich flies\b|\bability of flying\b", re.I)

# Per-unit overrides for the derived rules, where the regexes get a text wrong.
# Key: (ruleset, army id, section, unit id); value: set of derived ids to drop.
DERIVED_OVERRIDES = {}


# ---------------------------------------------------------------------------
# Small helpers

def slug(text):
    """Lowercase slug: runs of non-alphanumerics become one hyphen."""
    s = unicodedata.normalize("NFKD", text)
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")


def die(msg):
    sys.stderr.write("convert_armies: error: %s\n" % msg)
    sys.exit(1)


def leading_int(text):
    m = re.match(r"\s*[+-]?(\d+)", text)
    return int(m.group(1)) if m else None


def unique_ids(entries, key_of_type):
    """Give every entry a unique `id` within its list.  Entries sharing a slug get
    their slugged type appended when that tells them apart (Dacian Chieftain
    Leader/Subordinate), otherwise a 1-based index in source order."""
    groups = collections.OrderedDict()
    for e in entries:
        groups.setdefault(e["id"], []).append(e)
    for base, group in groups.items():
        if len(group) < 2:
            continue
        types = [slug(key_of_type(e)) for e in group] if key_of_type else []
        if types and len(set(types)) == len(group):
            for e, t in zip(group, types):
                e["id"] = "%s-%s" % (base, t)
        else:
            for n, e in enumerate(group, 1):
                e["id"] = "%s-%d" % (base, n)
    ids = [e["id"] for e in entries]
    if len(ids) != len(set(ids)):
        die("could not make ids unique: %r" % sorted(i for i in ids if ids.count(i) > 1))


# ---------------------------------------------------------------------------
# YAML emission (a conservative subset, so that any YAML 1.1/1.2 reader and the
# tiny parser in check_armies.py read it the same way).

PLAIN_RE = re.compile(r"^[A-Za-z](?:[A-Za-z0-9 _.,()/'&+-]*[A-Za-z0-9)._'+])?$")
RESERVED = {"y", "n", "yes", "no", "true", "false", "on", "off", "null", "~"}


def _escape_unprintable(s):
    out = []
    for ch in s:
        cat = unicodedata.category(ch)
        if ord(ch) > 127 and (cat[0] == "C" or cat in ("Zl", "Zp")):
            out.append("\\u%04x" % ord(ch) if ord(ch) <= 0xFFFF else "\\U%08x" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


def scalar(v):
    """One YAML scalar: ints and booleans plain; strings plain when unambiguous,
    else JSON-style double-quoted (a JSON string is a valid YAML double-quoted one)."""
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if not isinstance(v, str):
        raise TypeError("cannot emit %r" % (v,))
    if PLAIN_RE.match(v) and v.lower() not in RESERVED and "  " not in v:
        return v
    return _escape_unprintable(json.dumps(v, ensure_ascii=False))


def flow_list(items):
    return "[" + ", ".join(scalar(i) for i in items) + "]"


def block_ok(text):
    """True when `text` survives a `|-` literal block unchanged."""
    if "\n" not in text or text.endswith("\n") or text.startswith((" ", "\t")):
        return False
    for line in text.split("\n"):
        if line != line.rstrip(" \t") or "\r" in line:
            return False
        if any(unicodedata.category(ch)[0] == "C" and ch != "\t" for ch in line):
            return False
        if any(ch in "\u2028\u2029\x85\ufeff" for ch in line):
            return False
    return True


def text_field(lines, indent, key, text):
    pad = " " * indent
    if block_ok(text):
        lines.append("%s%s: |-" % (pad, key))
        for line in text.split("\n"):
            lines.append(("%s  %s" % (pad, line)) if line else "")
    else:
        lines.append("%s%s: %s" % (pad, key, scalar(text)))


# ---------------------------------------------------------------------------
# Warmaster JSON lists (original and Revolution)

def parse_attack(value):
    """'3/1' -> (3, 1, None); '+2' -> (2, 0, None); odd forms keep a note."""
    s = str(value)
    plain = re.fullmatch(r"\+?\d+(/\d+)?", s) is not None
    combat, _, shooting = s.partition("/")
    attacks = leading_int(combat)
    shots = leading_int(shooting) if shooting else 0
    note = None
    if not plain:
        note = "attack printed '%s'" % s
    return (attacks if attacks is not None else 0), (shots if shots is not None else 0), note


def parse_range(value):
    if value is None:
        return 0, None
    s = str(value)
    m = re.fullmatch(r"(\d+)(cm)?", s)
    if m:
        return int(m.group(1)), None
    nums = [int(n) for n in re.findall(r"\d+", s)]
    return (max(nums) if nums else 0), "range printed '%s'" % s


def parse_int_field(value, name, notes):
    """Ints stay ints; '+1' -> 1 with a note; '-'/None -> 0."""
    if value is None or value == "-":
        return 0
    if isinstance(value, int):
        return value
    s = str(value)
    if re.fullmatch(r"-?\d+", s):
        return int(s)
    n = leading_int(s)
    notes.append("%s printed '%s'" % (name, s))
    if n is None:
        return 0
    return -n if s.strip().startswith("-") else n


def fmt_note_value(v):
    if isinstance(v, list):
        return ", ".join(str(x) for x in v)
    if v is True:
        return "true"
    if v is False:
        return "false"
    return str(v)


UNIT_KNOWN = {"order", "type", "attack", "range", "hits", "armour", "command", "size",
              "points", "min", "max", "armyMin", "armyMax", "upgrades", "specialRules"}


def convert_json_entry(name, src, section, upgrade_ids):
    """One JSON unit or upgrade -> the schema's field dict (plus bookkeeping)."""
    notes = []
    stype = src.get("type", "")
    ntype = TYPE_MAP.get(stype.lower())
    if ntype is None:
        die("unknown type %r for %s" % (stype, name))
    attacks, shots, anote = parse_attack(src.get("attack", 0))
    if anote:
        notes.append(anote)
    range_cm, rnote = parse_range(src.get("range"))
    if rnote:
        notes.append(rnote)
    armour = src.get("armour", "-")
    if not isinstance(armour, str):
        armour = str(armour)
    entry = collections.OrderedDict()
    entry["id"] = slug(name)
    entry["name"] = name
    entry["type"] = ntype
    if stype.lower() != ntype:
        entry["source_type"] = stype
    entry["attacks"] = attacks
    entry["shots"] = shots
    entry["range_cm"] = range_cm
    entry["hits"] = parse_int_field(src.get("hits"), "hits", notes)
    entry["armour"] = armour
    entry["command"] = parse_int_field(src.get("command"), "command", notes)
    entry["size"] = parse_int_field(src.get("size"), "size", notes)
    entry["points"] = parse_int_field(src.get("points"), "points", notes) \
        if section == "units" else _upgrade_points(src.get("points"), notes)
    entry["min"] = parse_int_field(src.get("min"), "min", notes)
    entry["max"] = parse_int_field(src.get("max"), "max", notes)
    # Whole-army limits (the General's exactly one, a War Altar's at most one):
    # fields of their own, which replace the per-1,000-point ones.
    for key, field in (("armyMin", "army_min"), ("armyMax", "army_max")):
        if key in src:
            entry[field] = parse_int_field(src.get(key), field, notes)
    ups = src.get("upgrades")
    if ups:
        # Names that are not army upgrades are common magic items (Ring of Magic,
        # Scroll of Dispelling, ...) this character may take although its type
        # normally could not; the item list itself is not in the sources.
        own = [upgrade_ids[u] for u in ups if u in upgrade_ids]
        items = [slug(u) for u in ups if u not in upgrade_ids]
        if own:
            entry["upgrades"] = own
        if items:
            entry["magic_item_upgrades"] = items
    # Everything else verbatim into notes, in source key order.
    for k, v in src.items():
        if k not in UNIT_KNOWN:
            notes.append("%s: %s" % (k, fmt_note_value(v)))
    entry["_notes"] = notes
    entry["_explicit_rules"] = list(src.get("specialRules", []))
    entry["_order"] = src.get("order", 0)
    return entry


def _upgrade_points(value, notes):
    """Upgrade costs are printed '+80' (added to the unit or character); a few
    replacements are '-20'.  The field keeps the signed number."""
    if value is None:
        return 0
    s = str(value)
    if re.fullmatch(r"[+-]?\d+", s):
        return int(s)
    notes.append("points printed '%s'" % s)
    return leading_int(s) or 0


def join_text(lines):
    if isinstance(lines, str):
        return lines
    return "\n".join(lines)


def derived_rules(text):
    """Generic abilities a linked rule text gives its unit: terror and fly."""
    out = set()
    cleaned = NOT_TERROR_RE.sub(" ", text)
    if TERROR_RE.search(cleaned):
        out.add("terror")
    if FLY_RE.search(text):
        out.add("fly")
    return out


class RuleBook:
    """Collects every special-rule occurrence for the registry."""

    def __init__(self):
        # id -> list of occurrence dicts
        self.occ = collections.OrderedDict()

    def add(self, rid, ruleset, army, source, key, text, used_by, origin):
        self.occ.setdefault(rid, []).append({
            "ruleset": ruleset, "army": army, "source": source, "key": key,
            "text": text, "used_by": list(used_by), "origin": origin})


def load_json_army(path, rel, ruleset, list_version, book):
    with open(path, encoding="utf-8") as f:
        src = json.load(f)
    army_id = os.path.splitext(os.path.basename(path))[0]
    upgrades_src = src.get("upgrades") or {}
    upgrade_ids = {n: slug(n) for n in upgrades_src}
    if len(set(upgrade_ids.values())) != len(upgrade_ids):
        die("%s: upgrade slugs collide" % rel)

    def build(section, items):
        out = [convert_json_entry(n, u, section, upgrade_ids) for n, u in items.items()]
        out.sort(key=lambda e: e["_order"])   # stable: ties keep source order
        unique_ids(out, lambda e: e["type"])
        return out

    units = build("units", src.get("units") or {})
    upgrades = build("upgrades", upgrades_src)
    srules = src.get("specialRules") or {}

    # Link rules to entries: a specialRules key equal to the entry's name, plus the
    # entry's own `specialRules` list (how the selector itself links them).
    linked = collections.defaultdict(list)   # rule key -> [(section, entry)]
    for section, entries in (("units", units), ("upgrades", upgrades)):
        for e in entries:
            keys = []
            if e["name"] in srules:
                keys.append(e["name"])
            for k in e["_explicit_rules"]:
                if k not in srules:
                    die("%s: %s names special rule %r that the army lacks" % (rel, e["name"], k))
                if k not in keys:
                    keys.append(k)
            e["_rule_keys"] = keys
            for k in keys:
                linked[k].append((section, e))

    def rule_id(key):
        return RULE_ID_ALIASES.get((ruleset, army_id, key), slug(key))

    for key, body in srules.items():
        rid = rule_id(key)
        text = join_text(body.get("text", []))
        users = ["%s/%s/%s/%s" % (ruleset, army_id, sec, e["id"]) for sec, e in linked.get(key, [])]
        if not users:
            die("%s: special rule %r concerns no unit or upgrade" % (rel, key))
        book.add(rid, ruleset, army_id, rel, key, text, users, "json")

    for section, entries in (("units", units), ("upgrades", upgrades)):
        for e in entries:
            rules = set()
            for key in e["_rule_keys"]:
                rules.add(rule_id(key))
                text = join_text(srules[key].get("text", []))
                drop = DERIVED_OVERRIDES.get((ruleset, army_id, section, e["id"]), set())
                for d in sorted(derived_rules(text) - drop):
                    rules.add(d)
                    book.add(d, ruleset, army_id, rel, None, None,
                             ["%s/%s/%s/%s" % (ruleset, army_id, section, e["id"])],
                             "derived from %s rule %r" % (rel, key))
            e["rules"] = sorted(rules)

    spells = []
    for sp in src.get("spells") or []:
        s = collections.OrderedDict()
        s["id"] = slug(sp["name"])
        s["name"] = sp["name"]
        s["roll"] = parse_int_field(sp.get("roll"), "roll", [])
        rng, _ = parse_range(sp.get("range"))
        s["range_cm"] = rng
        s["range"] = "" if sp.get("range") is None else str(sp.get("range"))
        extra = [k for k in sp if k not in ("name", "roll", "range", "text")]
        if extra:
            die("%s: spell %s has unknown fields %r" % (rel, sp["name"], extra))
        s["text"] = join_text(sp.get("text", []))
        spells.append(s)
    unique_ids(spells, None)

    army_notes = []
    for k in src:
        if k not in ("name", "version", "group", "order", "units", "upgrades", "magic",
                     "armyRules", "specialRules", "spells"):
            die("%s: unknown top-level field %r" % (rel, k))
    army_notes.append("selector group %s, order %s" % (src.get("group"), src.get("order")))

    army = collections.OrderedDict()
    army["ruleset"] = ruleset
    army["army"] = army_id
    army["name"] = src["name"]
    army["source"] = "%s (%s)" % (rel, SELECTOR)
    army["source_path"] = rel
    army["list_version"] = list_version if list_version else src.get("version", "")
    army["source_label"] = src.get("version", "")
    army["magic_items"] = bool(src.get("magic"))
    army["notes"] = "; ".join(army_notes)
    army["army_rules"] = join_text(src["armyRules"]) if src.get("armyRules") else None
    army["units"] = units
    army["upgrades"] = upgrades
    army["spells"] = spells
    army["_source_counts"] = {"units": len(src.get("units") or {}),
                              "upgrades": len(upgrades_src),
                              "spells": len(src.get("spells") or []),
                              "specialRules": len(srules)}
    return army


# ---------------------------------------------------------------------------
# Warmaster Ancients: the rulebook TSV (authority), seed text, errata JSON (notes)

def read_tsv(path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    header, body = rows[0], rows[1:]
    for i, r in enumerate(body):
        if len(r) != len(header):
            die("%s row %d has %d cells, header has %d" % (path, i + 2, len(r), len(header)))
    return header, [collections.OrderedDict(zip(header, r)) for r in body]


def parse_ancients_seed(shared):
    """Army-list tables, per-army footnotes and the SPECIAL RULES glossary of seed 001.

    Returns (tables, glossary): tables maps the printed army heading to a dict with
    `rows` (list of (line number, cells)) and `footnotes` ({number: text}); glossary
    maps an upper-case rule heading to its verbatim prose."""
    path = os.path.join(shared, ANCIENTS_SEED)
    if not os.path.exists(path):
        return None, None
    with open(path, encoding="utf-8") as f:
        L = f.read().split("\n")
    headers = [i for i, l in enumerate(L) if l.startswith("Troop\tType\t")]
    tables = collections.OrderedDict()
    for n, i in enumerate(headers):
        j = i - 1
        while j > 0:
            s = L[j].strip()
            if s and s == s.upper() and re.search("[A-Z]", s) and len(s) < 60 and s != "TACTICS":
                break
            j -= 1
        name = L[j].strip()
        rows, k = [], i + 1
        while k < len(L):
            s = L[k]
            if "\t" in s:
                if s.startswith("---"):
                    break
                cells = s.split("\t")
                if cells[0].strip() not in ("Upgrades", "Upgrade") or any(c.strip() for c in cells[1:]):
                    rows.append((k + 1, cells))
            elif s.strip() not in ("", "Upgrades", "Upgrade"):
                break
            k += 1
        # Footnotes: the first run "*1 ...", "*2 ..." (OCR also prints "***1 ...**")
        # between this table and the next one.
        end = headers[n + 1] if n + 1 < len(headers) else len(L)
        notes = collections.OrderedDict()
        for m in range(k, end):
            mm = re.match(r"^\*{1,3}(\d+)\s*(.*)$", L[m].strip())
            if mm:
                num = mm.group(1)
                if num in notes:
                    break
                text = mm.group(2)
                if L[m].strip().startswith("***"):
                    # "***2 Upgrade to Leonidas** – ..." is the footnote mark "*2"
                    # fused with an opening "**": keep the bold markers balanced.
                    text = "**" + text
                notes[num] = text
        tables[name] = {"rows": rows, "footnotes": notes, "line": i + 1}
    # Glossary: from the chapter heading to the first non-rule heading.
    glossary = collections.OrderedDict()
    names = [g.upper() for g in ANCIENTS_GLOSSARY]
    start = None
    for i, l in enumerate(L):
        if l.strip() == "CAMELS" and i > 4000:
            start = i
            break
    if start is None:
        die("seed 001: SPECIAL RULES glossary not found")
    cur, buf = None, []
    for l in L[start:]:
        s = l.strip()
        if s and s == s.upper() and re.search("[A-Z]{3}", s) and len(s) < 40:
            if cur:
                glossary[cur] = "\n".join(buf).strip("\n")
            if s not in names:
                cur = None
                break
            cur, buf = s, []
        elif cur:
            buf.append(l)
    if cur:
        glossary[cur] = "\n".join(buf).strip("\n")
    # Collapse the OCR's runs of blank lines to one paragraph break.
    for k2 in glossary:
        glossary[k2] = re.sub(r"\n{3,}", "\n\n", glossary[k2])
    return tables, glossary


def seed_heading_for(army_name, tables):
    up = army_name.upper()
    if up in tables:
        return up
    if up + "S" in tables:          # LATE ACHAEMENID PERSIANS
        return up + "S"
    return None


def seed_footnote_numbers(cells):
    """Footnote numbers of a seed table row.  Rows whose Min/Max cell the OCR dropped
    (Sassanid, Early Byzantine and Norse Portents) carry the note in the last cell."""
    note = cells[10] if len(cells) > 10 else ""
    if len(cells) <= 10 and cells and cells[-1].strip().startswith("*"):
        note = cells[-1]
    return re.findall(r"\d+", note)


GLOSSARY_FOOTNOTE_ALIASES = {
    "shock cavalry": "Shock", "fanatic": "Fanatics", "elephant": "Elephants",
    "scythed chariot": "Scythed Chariots",
}


def footnote_glossary_name(text):
    """The glossary rule a footnote names ('Shock cavalry' -> 'Shock'), or None."""
    head = re.split(r"[.–]| - ", text, maxsplit=1)[0].strip().strip("*").strip()
    low = head.lower()
    for g in ANCIENTS_GLOSSARY:
        if low == g.lower():
            return g
    return GLOSSARY_FOOTNOTE_ALIASES.get(low)


def ancients_rule_id(name):
    return ANCIENTS_RULE_ALIASES.get(name, slug(name))


def load_ancients(shared, book, problems):
    rel = "data/wma_armies.tsv"
    header, rows = read_tsv(os.path.join(shared, rel))
    tables, glossary = parse_ancients_seed(shared)
    errata = load_ancients_errata(shared)
    by_army = collections.OrderedDict()
    for r in rows:
        by_army.setdefault(r["army"], []).append(r)
    armies = []
    for army_name, arows in by_army.items():
        army_id = slug(army_name)
        heading = seed_heading_for(army_name, tables) if tables else None
        seed_rows = tables[heading]["rows"] if heading else []
        footnotes = tables[heading]["footnotes"] if heading else {}
        if heading and len(seed_rows) != len(arows):
            problems.append("%s: seed table has %d rows, TSV %d" % (army_name, len(seed_rows), len(arows)))
        units, upgrades = [], []
        name_counts = collections.Counter((r["points"].startswith("+"), r["troop"]) for r in arows)
        for idx, r in enumerate(arows):
            notes = []
            upgrade = r["points"].startswith("+")
            stype = r["type"]
            ntype = TYPE_MAP.get(stype.lower())
            if ntype is None:
                die("%s: unknown Ancients type %r" % (rel, stype))
            e = collections.OrderedDict()
            e["id"] = slug(r["troop"])
            e["name"] = r["troop"]
            e["type"] = ntype
            if stype.lower() != ntype:
                e["source_type"] = stype
            e["attacks"] = 0 if r["attack"] == "-" else leading_int(r["attack"])
            rng = r["range"]
            if rng == "-":
                e["shots"], e["range_cm"] = 0, 0
            elif re.fullmatch(r"\d+", rng):
                # Ancients shooting is one die per stand; Attack is combat only.
                e["shots"], e["range_cm"] = 1, int(rng)
            else:
                m = re.fullmatch(r"(\d+)x(\d+)", rng)
                if not m:
                    die("%s: odd range %r" % (rel, rng))
                e["shots"], e["range_cm"] = int(m.group(1)), int(m.group(2))
                notes.append("range printed '%s'" % rng)
            e["hits"] = 0 if r["hits"] == "-" else int(r["hits"])
            e["armour"] = r["armour"]
            cmd = r["command"]
            if cmd == "-":
                e["command"] = 0
            elif re.fullmatch(r"\d+", cmd):
                e["command"] = int(cmd)
            else:
                start = ANCIENTS_START_COMMAND.get((army_name, r["troop"]))
                if start is None:
                    die("%s: variable command %r for %s has no start value" % (rel, cmd, r["troop"]))
                e["command"] = start
                notes.append("command printed '%s' (starting value per its special rule)" % cmd)
            if r["unit_size"] == "-":
                e["size"] = 0
                notes.append("unit_size printed '-'")
            else:
                e["size"] = int(r["unit_size"])
            e["points"] = int(r["points"].lstrip("+"))
            e["min"] = 0 if r["min"] == "-" else int(r["min"])
            e["max"] = 0 if r["max"] == "-" else int(r["max"])
            # The book's single-value Min/Max '1' is a whole-army limit (THE
            # ARMIES > PICKING THE ARMY: "The min/max for Generals is always
            # given as 1. Every army must include one General and no army may
            # ever include more than one General regardless of its size"); the
            # TSV's info note names the one-off upgrades that print it.
            if e["type"] == "general" and not upgrade:
                e["army_min"], e["army_max"] = 1, 1
            elif "at most 1 per army regardless of army size" in r["notes"]:
                e["army_max"] = 1
            rules = []
            for item in [x.strip() for x in r["notes"].split(";")]:
                if not item or item == "-":
                    continue
                if re.match(r"^(info|ocr-fix|as-printed):", item):
                    notes.append(item)
                    continue
                rname = item.split(" (")[0].strip()
                rid = ancients_rule_id(rname)
                rules.append((rid, rname))
                if item != rname:
                    notes.append(item)
            e["_rules"] = rules
            e["_notes"] = notes
            e["_row"] = r
            e["_seed"] = seed_rows[idx] if idx < len(seed_rows) else None
            (upgrades if upgrade else units).append(e)
        unique_ids(units, lambda x: x.get("source_type", x["type"]))
        unique_ids(upgrades, lambda x: x.get("source_type", x["type"]))

        for section, entries in (("units", units), ("upgrades", upgrades)):
            for e in entries:
                user = "%s/%s/%s/%s" % (ANCIENTS_RULESET, army_id, section, e["id"])
                seed = e["_seed"]
                nums = seed_footnote_numbers(seed[1]) if seed else []
                fn_texts = [footnotes.get(n, "") for n in nums]
                own = [t for t in fn_texts if not footnote_glossary_name(t)]
                glossary_in_seed = sorted({footnote_glossary_name(t) for t in fn_texts
                                           if footnote_glossary_name(t)})
                glossary_in_tsv = sorted({n for _, n in e["_rules"] if n in ANCIENTS_GLOSSARY})
                if seed and glossary_in_seed != glossary_in_tsv:
                    problems.append("%s / %s: TSV rules %s, seed footnotes %s" % (
                        army_name, e["name"], glossary_in_tsv, glossary_in_seed))
                rules = set()
                for rid, rname in e["_rules"]:
                    rules.add(rid)
                    if rname in ANCIENTS_GLOSSARY:
                        text = glossary.get(rname.upper(), "") if glossary else ""
                        src = "%s, SPECIAL RULES > %s" % (ANCIENTS_BOOK, rname.upper())
                    else:
                        if len(own) != 1:
                            problems.append("%s / %s: %d non-glossary footnotes for %s" % (
                                army_name, e["name"], len(own), rname))
                        text = "\n".join(own)
                        src = "%s, %s > SPECIAL RULES *%s" % (
                            ANCIENTS_BOOK, heading or army_name,
                            ",".join(n for n, t in zip(nums, fn_texts) if t in own))
                    book.add(rid, ANCIENTS_RULESET, army_id, src, rname, text, [user], "seed")
                    # Derived terror: "Elephants are terrifying" (rule 1); "If
                    # Alexander joins a unit it causes terror".
                    if rid in ("elephants", "alexander"):
                        rules.add("terror")
                        book.add("terror", ANCIENTS_RULESET, army_id, None, None, None, [user],
                                 "derived from %s rule %r" % (rel, rname))
                e["rules"] = sorted(rules)
                ej = errata_diff(army_name, e, section, errata,
                                 name_counts[(section == "upgrades", e["_row"]["troop"])])
                if ej:
                    e["_notes"].append(ej)

        army = collections.OrderedDict()
        army["ruleset"] = ANCIENTS_RULESET
        army["army"] = army_id
        army["name"] = army_name
        army["source"] = "%s (Warmaster Ancients rulebook, seed %s)" % (rel, ANCIENTS_SEED.split("/")[-1])
        army["source_path"] = rel
        army["list_version"] = "2005 rulebook"
        army["source_label"] = "Warmaster Ancients (2005)"
        army["magic_items"] = False
        army["notes"] = ("Warmaster Ancients, Army Lists > %s" % heading.title() if heading else "")
        army["army_rules"] = None
        army["units"] = units
        army["upgrades"] = upgrades
        army["spells"] = []
        army["_source_counts"] = {"rows": len(arows)}
        armies.append(army)
    return armies


def load_ancients_errata(shared):
    out = {}
    for path in sorted(glob.glob(os.path.join(shared, "data", "warmaster-ancients", "*.json"))):
        with open(path, encoding="utf-8") as f:
            j = json.load(f)
        rel = os.path.relpath(path, shared).replace(os.sep, "/")
        name = j["name"]
        if name == "Late Achaemenid Persians":
            name = "Late Achaemenid Persian"
        out[name] = (rel, j)
    return out


def errata_diff(army_name, e, section, errata, same_named):
    """A note listing where the later-errata Ancients JSON differs from the book."""
    if army_name not in errata:
        return None
    rel, j = errata[army_name]
    r = e["_row"]
    jname = ANCIENTS_JSON_NAMES.get((army_name, r["troop"]), r["troop"])
    jsec = "upgrades" if section == "upgrades" else "units"
    cand = (j.get(jsec) or {}).get(jname) or (j.get("units") or {}).get(jname) \
        or (j.get("upgrades") or {}).get(jname)
    if cand is None:
        return "errata JSON %s has no entry %r" % (rel, jname)
    diffs = []

    def js(v):
        return "-" if v is None else str(v).replace("cm", "")
    pairs = [("attack", "attack"), ("range", "range"), ("hits", "hits"),
             ("armour", "armour"), ("command", "command"), ("points", "points")]
    for tk, jk in pairs:
        tv, jv = r[tk], js(cand.get(jk))
        if tk == "armour" and tv == "-" and jv == "-":
            continue
        if tv != jv:
            diffs.append("%s %s" % (tk, jv))
    # The JSON spells the General's printed "1" as armyMin/armyMax 1, and one-off
    # upgrades as armyMax 1 where the TSV has min "-", max 1 (or "-" for Portents,
    # which is once per battle anyway); compare per-1000-point limits only.
    for tk in ("min", "max"):
        jv = cand.get(tk)
        army_v = cand.get("army" + tk.capitalize())
        if jv is None and army_v is not None:
            continue
        if section == "upgrades" and tk == "min":
            continue
        if r[tk] != js(jv):
            diffs.append("%s %s" % (tk, js(jv)))
    # Character and upgrade footnotes are named differently in the two sources
    # ("Chariot/Elephant" vs "Chariot or Elephant Mount"); compare glossary rules.
    jr = sorted(n for n in cand.get("specialRules", []) if n in ANCIENTS_GLOSSARY)
    tr = sorted(n for _, n in e["_rules"] if n in ANCIENTS_GLOSSARY)
    if jr != tr:
        diffs.append("rules [%s]" % ", ".join(jr))
    if jname != r["troop"]:
        diffs.insert(0, "named %r" % jname)
    if not diffs:
        return None
    extra = (" (the JSON has one entry for the %d rows named %r)" % (same_named, r["troop"])
             if same_named > 1 else "")
    return "errata JSON %s differs: %s%s" % (rel, "; ".join(diffs), extra)


# ---------------------------------------------------------------------------
# WHFB 7th edition tables

def convert_whfb7(shared):
    out = {}
    for fname, kind, sect_col in (("whfb7_profiles.tsv", "profiles", "army_or_section"),
                                  ("whfb7_weapons.tsv", "weapons", "category")):
        rel = "data/" + fname
        header, rows = read_tsv(os.path.join(shared, rel))
        entries = []
        for r in rows:
            e = collections.OrderedDict()
            e["id"] = slug("%s %s" % (r[sect_col], r["name"]))
            e["name"] = r["name"]
            for col in header:
                if col == "name":
                    continue
                e[col] = r[col]
            entries.append(e)
        unique_ids(entries, None)
        out[kind] = (rel, header, entries)
    return out


# ---------------------------------------------------------------------------
# Registry of special rules

def md_section(text, start_re, end_re):
    """Verbatim lines of a markdown digest from the line matching start_re up to (not
    including) the next line matching end_re."""
    lines = text.split("\n")
    out, on = [], False
    for line in lines:
        if not on and re.search(start_re, line):
            on = True
        elif on and re.search(end_re, line):
            break
        if on:
            out.append(line)
    if not out:
        die("digest section %r not found" % start_re)
    return "\n".join(out).rstrip()


# The digests cite the rulebooks by the names of their text files, which are not
# in the repository (but for the Ancients one); the registry names the books.
RULEBOOK_FILES = {
    "000_82b7b53696591f4d.txt": "Warmaster Revolution",
    "003_d892f62cef14867b.txt": "Warmaster 1.1 Rules Update",
    "004_4ce84a0351240cd3.txt": "Battlefields",
}


def name_rulebooks(text):
    """`text` with each rulebook's file name replaced by the rulebook's name."""
    for fname, book in RULEBOOK_FILES.items():
        text = text.replace(fname, book)
    return text


def generic_texts(shared):
    """Prose for generic rules that the army sources name without text.  Taken
    verbatim from the rules digests, which paraphrase the rulebooks (the names
    of the rulebooks' files replaced by the rulebooks' own); the registry
    records that the text is a digest, not the army source."""
    wm = name_rulebooks(open(os.path.join(shared, "rules", "warmaster.md"), encoding="utf-8").read())
    wma = name_rulebooks(open(os.path.join(shared, "rules", "warmaster-ancients.md"),
                              encoding="utf-8").read())
    artillery = "Warmaster Revolution, Artillery & Machines > Artillery (paraphrased by rules/warmaster.md)"
    g = {}
    g["cannon"] = (artillery,
                   md_section(wm, r"^- \*\*Cannon\*\*:", r"^- \*\*Stone Thrower\*\*"))
    g["stone-thrower"] = (artillery,
                          md_section(wm, r"^- \*\*Stone Thrower\*\*:", r"^- \*\*Bolt Thrower\*\*"))
    g["bolt-thrower"] = (artillery,
                         md_section(wm, r"^- \*\*Bolt Thrower\*\* \(generic", r"^- \*\*Elven Bolt Thrower"))
    g["elven-bolt-thrower"] = (artillery,
                               md_section(wm, r"^- \*\*Elven Bolt Thrower\*\* \(REV\)", r"^- \*\*Dwarf Flame Cannon"))
    g["terror"] = ("Warmaster Revolution, Combat > Attack Modifiers; Warmaster Ancients, Combat > "
                   "Attack Modifiers (paraphrased by rules/warmaster.md and rules/warmaster-ancients.md)",
                   md_section(wm, r"^\| Fighting a terrifying enemy", r"^\| Enemy facing") + "\n\n" +
                   md_section(wma, r"^### Terror \(not a glossary entry\)", r"^### Militia"))
    g["fly"] = ("Warmaster Revolution, Flying Units (paraphrased by rules/warmaster.md)",
                md_section(wm, r"^## 9\. Flying units", r"^---$"))
    return g


def load_judgements(path):
    out = {}
    with open(path, encoding="utf-8", newline="") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 3 or parts[1] not in ("yes", "no"):
                die("%s:%d: want 'id<TAB>yes|no<TAB>summary'" % (path, n))
            if parts[0] in out:
                die("%s:%d: duplicate id %s" % (path, n, parts[0]))
            out[parts[0]] = (parts[1], parts[2])
    return out


def build_registry(book, generic, judgements, implemented):
    entries = []
    missing = []
    for rid in sorted(book.occ):
        occs = book.occ[rid]
        rulesets = sorted({o["ruleset"] for o in occs}, key=RULESET_DISPLAY.index)
        textual = [o for o in occs if o["origin"] in ("json", "seed")]
        # Group identical texts; empty texts are the rulebook rule named without prose.
        variants = collections.OrderedDict()
        for o in textual:
            variants.setdefault(o["text"], []).append(o)
        e = collections.OrderedDict()
        e["id"] = rid
        names = collections.Counter(o["key"] for o in textual)
        e["name"] = (sorted(names.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
                     if names else {"terror": "Terror", "fly": "Fly"}.get(rid, rid))
        e["ruleset"] = rulesets
        j = judgements.get(rid)
        if j is None:
            missing.append(rid)
            j = ("no", "TODO")
        e["summary"] = j[1]
        e["engine"] = "implemented" if rid in implemented else "not-implemented"
        e["affects_engagement_dice"] = j[0]
        used = sorted({u for o in occs for u in o["used_by"]})
        e["used_by"] = used

        def vkey(item):
            text, os_ = item
            best = min(RULESET_ORDER.index(o["ruleset"]) for o in os_)
            return (text == "", best, -len(os_), min(o["source"] for o in os_))
        ordered = sorted(variants.items(), key=vkey)
        texts = []
        for text, os_ in ordered:
            srcs = sorted({o["source"] for o in os_})
            texts.append((text, srcs))
        if rid in generic:
            # The rulebook rule comes first; army entries that only point at it
            # ("counts as an Elven Bolt Thrower") or name it without prose follow.
            src, text = generic[rid]
            texts.insert(0, (text, [src]))
        if not texts:
            texts = [("", [])]
        e["text"] = texts[0][0]
        e["text_sources"] = texts[0][1]
        e["variants"] = texts[1:]
        derived = sorted({o["origin"] for o in occs if o["origin"].startswith("derived")})
        e["derived_from"] = derived
        entries.append(e)
    return entries, missing


# ---------------------------------------------------------------------------
# Rendering

def header_comment(rel):
    return "# Generated by %s from %s; do not edit by hand." % (TOOL, rel)


ENTRY_FIELDS = ["id", "name", "type", "source_type", "attacks", "shots", "range_cm", "hits",
                "armour", "command", "size", "points", "min", "max", "army_min", "army_max",
                "upgrades", "magic_item_upgrades", "rules"]


def render_entry(lines, e):
    first = True
    for k in ENTRY_FIELDS:
        if k not in e:
            continue
        v = e[k]
        if k in ("upgrades", "magic_item_upgrades", "rules"):
            val = flow_list(v)
        elif k == "armour":
            val = json.dumps(v, ensure_ascii=False)   # always quoted: "6+", "-"
        else:
            val = scalar(v)
        lines.append("%s%s: %s" % ("  - " if first else "    ", k, val))
        first = False
    if e.get("_notes"):
        text_field(lines, 4, "notes", "; ".join(e["_notes"]))


def render_army(army):
    L = [header_comment(army["source_path"])]
    L.append("schema: %s" % SCHEMA)
    for k in ("ruleset", "army", "name", "source", "list_version", "source_label"):
        L.append("%s: %s" % (k, json.dumps(army[k], ensure_ascii=False)
                             if k in ("list_version", "source") else scalar(army[k])))
    L.append("magic_items: %s" % ("allowed" if army["magic_items"] else "none"))
    if army["notes"]:
        L.append("notes: %s" % scalar(army["notes"]))
    if army["army_rules"]:
        text_field(L, 0, "army_rules", army["army_rules"])
    L.append("units:")
    for e in army["units"]:
        render_entry(L, e)
    if army["upgrades"]:
        L.append("upgrades:")
        for e in army["upgrades"]:
            render_entry(L, e)
    if army["spells"]:
        L.append("spells:")
        for s in army["spells"]:
            L.append("  - id: %s" % scalar(s["id"]))
            L.append("    name: %s" % scalar(s["name"]))
            L.append("    roll: %s" % scalar(s["roll"]))
            L.append("    range_cm: %s" % scalar(s["range_cm"]))
            L.append("    range: %s" % json.dumps(s["range"], ensure_ascii=False))
            text_field(L, 4, "text", s["text"])
    return "\n".join(L) + "\n"


def render_registry(entries, sources):
    L = ["# Generated by %s from %s; do not edit by hand." % (TOOL, ", ".join(sources)),
         "# Summaries and affects_engagement_dice are hand judgements kept in",
         "# scenarios/tools/special_rule_judgements.tsv.  `text` is the prose of the first",
         "# source in text_sources; `variants` holds differing prose from other lists.",
         "schema: oddsmaster-special-rules/1",
         "rules:"]
    for e in entries:
        L.append("  - id: %s" % scalar(e["id"]))
        L.append("    name: %s" % scalar(e["name"]))
        L.append("    ruleset: %s" % flow_list(e["ruleset"]))
        L.append("    summary: %s" % scalar(e["summary"]))
        L.append("    engine: %s" % e["engine"])
        L.append("    affects_engagement_dice: %s" % e["affects_engagement_dice"])
        if e["derived_from"]:
            L.append("    derived_from:")
            for d in e["derived_from"]:
                L.append("      - %s" % scalar(d))
        L.append("    used_by:")
        for u in e["used_by"]:
            L.append("      - %s" % scalar(u))
        text_field(L, 4, "text", e["text"])
        L.append("    text_sources: %s" % ("[]" if not e["text_sources"] else ""))
        if e["text_sources"]:
            L.pop()
            L.append("    text_sources:")
            for s in e["text_sources"]:
                L.append("      - %s" % scalar(s))
        if e["variants"]:
            L.append("    variants:")
            for text, srcs in e["variants"]:
                L.append("      - sources:")
                for s in srcs:
                    L.append("          - %s" % scalar(s))
                text_field(L, 8, "text", text)
    return "\n".join(L) + "\n"


def render_whfb7(kind, rel, header, entries):
    L = [header_comment(rel),
         "# One entry per TSV row, in source order; every column is kept verbatim as a string.",
         "schema: oddsmaster-whfb7-%s/1" % kind,
         "ruleset: whfb7",
         "source: %s" % json.dumps(rel + " (WHFB 7th edition rulebook)"),
         "list_version: \"7th edition rulebook\"",
         "%s:" % kind]
    for e in entries:
        first = True
        for k, v in e.items():
            val = scalar(v) if k in ("id", "name") else json.dumps(v, ensure_ascii=False)
            if k not in ("id", "name"):
                val = _escape_unprintable(val)
            key = k if re.fullmatch(r"[A-Za-z_]+", k) and k.lower() not in RESERVED else json.dumps(k)
            L.append("%s%s: %s" % ("  - " if first else "    ", key, val))
            first = False
    return "\n".join(L) + "\n"


def render_meson(paths):
    """scenarios/armies/meson.build: the list of data files the program embeds."""
    lines = ["# Generated by %s; do not edit by hand." % TOOL,
             "# Every army data file, embedded in the program by scenarios/meson.build; listed",
             "# here because Meson has no globs. check_armies.py fails if this list is stale.",
             "army_data_files = files("]
    lines += ["  '%s'," % p for p in paths]
    lines.append(")")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# Driver

def convert(shared, tools_dir):
    """Run the whole conversion in memory.  Returns (files, report) where files maps
    a path relative to scenarios/armies/ to its text."""
    book = RuleBook()
    problems = []
    files = collections.OrderedDict()
    armies = []
    for srcdir, outdir, ruleset, version in JSON_RULESETS:
        paths = sorted(glob.glob(os.path.join(shared, "data", srcdir, "*.json")))
        if not paths:
            die("no JSON armies in %s" % os.path.join(shared, "data", srcdir))
        for p in paths:
            rel = os.path.relpath(p, shared).replace(os.sep, "/")
            a = load_json_army(p, rel, ruleset, version, book)
            a["_outdir"] = outdir
            armies.append(a)
    anc = load_ancients(shared, book, problems)
    for a in anc:
        a["_outdir"] = "warmaster-ancients"
    armies.extend(anc)
    for a in armies:
        files["%s/%s.yaml" % (a["_outdir"], a["army"])] = render_army(a)
    wh = convert_whfb7(shared)
    for kind, (rel, header, entries) in wh.items():
        files["whfb7/%s.yaml" % kind] = render_whfb7(kind, rel, header, entries)
    judgements = load_judgements(os.path.join(tools_dir, "special_rule_judgements.tsv"))
    repo = os.path.dirname(os.path.dirname(os.path.abspath(tools_dir)))
    registry, missing = build_registry(book, generic_texts(shared), judgements,
                                       implemented_rules(repo))
    files["special-rules.yaml"] = render_registry(
        registry, ["data/warmaster-armies/*.json", "data/warmaster-revolution/*.json",
                   "data/wma_armies.tsv", ANCIENTS_SEED, "rules/warmaster.md",
                   "rules/warmaster-ancients.md"])
    files[MESON_FILE] = render_meson(sorted(files))
    unused = sorted(set(judgements) - set(book.occ))
    report = {"armies": armies, "registry": registry, "missing_judgements": missing,
              "unused_judgements": unused, "problems": problems, "whfb7": wh}
    return files, report


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", default=os.path.join(repo, "scenarios", "armies", "sources"),
                    help="root of the sources (default: scenarios/armies/sources)")
    ap.add_argument("--out", default=os.path.join(repo, "scenarios", "armies"),
                    help="output directory (default: scenarios/armies)")
    args = ap.parse_args(argv)
    files, report = convert(args.shared, here)
    if report["missing_judgements"]:
        die("no judgement in special_rule_judgements.tsv for: %s"
            % ", ".join(report["missing_judgements"]))
    if report["unused_judgements"]:
        die("special_rule_judgements.tsv has ids no army uses: %s"
            % ", ".join(report["unused_judgements"]))
    # Remove generated army files whose source has gone (only in the directories
    # this tool owns, and only *.yaml files carrying its header).
    for d in sorted({os.path.dirname(r) for r in files if os.path.dirname(r)}):
        for path in sorted(glob.glob(os.path.join(args.out, d, "*.yaml"))):
            rel = os.path.relpath(path, args.out).replace(os.sep, "/")
            if rel not in files:
                with open(path, encoding="utf-8") as f:
                    first = f.readline()
                if first.startswith("# Generated by %s" % TOOL):
                    os.remove(path)
                    print("removed stale %s" % rel)
    for rel, text in files.items():
        path = os.path.join(args.out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                old = f.read()
        if old != text:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
    for p in report["problems"]:
        sys.stderr.write("convert_armies: note: %s\n" % p)
    print("wrote %d files under %s (%d special rules)"
          % (len(files), os.path.relpath(args.out), len(report["registry"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
