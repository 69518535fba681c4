#!/usr/bin/env python3
"""Embed a text file in C as a NUL-terminated string: embed_text.py SYMBOL IN OUT.

Used by the build to compile scenarios/default.yaml into the program, so that
`oddsmaster run` works with no file at hand and the default stays a real,
human-editable scenario file.
"""
import sys


def main() -> int:
    symbol, src, dst = sys.argv[1:4]
    data = open(src, "rb").read()
    lines = [f"/* Generated from {src.split('/')[-1]} by embed_text.py; do not edit. */",
             f"const char {symbol}[] = {{"]
    for i in range(0, len(data), 16):
        lines.append("    " + ", ".join(str(b) for b in data[i:i + 16]) + ",")
    lines.append("    0};")
    open(dst, "w").write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
