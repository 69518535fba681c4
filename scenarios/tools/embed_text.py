#!/usr/bin/env python3
"""Embed text files in C as NUL-terminated byte arrays.

  embed_text.py SYMBOL IN OUT
      one file as `const char SYMBOL[]` (scenarios/default.yaml, so that
      `oddsmaster run` works with no file at hand and the default stays a
      real, human-editable scenario file);
  embed_text.py --table SYMBOL BASEDIR OUT FILE...
      many files as a table `const om_army_file SYMBOL[]` of {path, dir, stem,
      text, len} sorted by path (relative to BASEDIR), plus
      `const size_t SYMBOL_count` (the army data under scenarios/armies, see
      army.h), so that the lists are available from any directory.

Byte arrays rather than string literals: ISO C only guarantees 4095-byte
literals and -Wpedantic warns beyond that. The table's arrays are unsigned
char, so that UTF-8 bytes above 127 need no sign conversion.
"""
import os
import sys


def c_bytes(data, indent="    "):
    """The bytes of data, then a NUL, as C initialiser lines."""
    lines = []
    for i in range(0, len(data), 16):
        lines.append(indent + ", ".join(str(b) for b in data[i:i + 16]) + ",")
    lines.append(indent + "0};")
    return lines


def c_string(s):
    """A C string literal for a plain path."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def embed_one(symbol, src, dst):
    data = open(src, "rb").read()
    lines = [f"/* Generated from {os.path.basename(src)} by embed_text.py; do not edit. */",
             f"const char {symbol}[] = {{"]
    lines += c_bytes(data)
    open(dst, "w").write("\n".join(lines) + "\n")


def embed_table(symbol, base, dst, srcs):
    base = os.path.abspath(base)
    files = sorted((os.path.relpath(os.path.abspath(s), base).replace(os.sep, "/"), s)
                   for s in srcs)
    lines = [f"/* Generated from {len(files)} files under {os.path.basename(base)}/ by "
             "embed_text.py; do not edit. */",
             "#include <stddef.h>",
             "",
             '#include "army.h"',
             ""]
    for i, (rel, src) in enumerate(files):
        lines.append(f"static const unsigned char text_{i}[] = {{")
        lines += c_bytes(open(src, "rb").read())
    lines.append("")
    lines.append(f"extern const om_army_file {symbol}[];")
    lines.append(f"const om_army_file {symbol}[] = {{")
    for i, (rel, src) in enumerate(files):
        d, name = os.path.split(rel)
        stem = name[:-len(".yaml")] if name.endswith(".yaml") else name
        lines.append(f"    {{{c_string(rel)}, {c_string(d)}, {c_string(stem)}, "
                     f"(const char *)text_{i}, sizeof text_{i} - 1}},")
    lines.append("};")
    lines.append(f"extern const size_t {symbol}_count;")
    lines.append(f"const size_t {symbol}_count = {len(files)};")
    open(dst, "w").write("\n".join(lines) + "\n")


def main() -> int:
    args = sys.argv[1:]
    if args and args[0] == "--table":
        if len(args) < 5:
            sys.stderr.write(__doc__)
            return 1
        embed_table(args[1], args[2], args[3], args[4:])
        return 0
    if len(args) != 3:
        sys.stderr.write(__doc__)
        return 1
    embed_one(*args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
