#!/usr/bin/env python3
"""Small helpers for scripts/ios-check.sh.

  support.py ios-min PACKAGE_SWIFT   prints the iOS deployment target of `platforms:`, e.g. 15.0
  support.py errors LOG              prints each distinct error in a swiftc log as file:line:col: error: ...,
                                     then a last line `COUNT WARNINGS` (errors, warnings)
  support.py text-size OBJECT...     the bytes of each Mach-O object's __TEXT sections, and their sum
  support.py api-count GRAPH...      each symbol graph's public types and public symbols (members,
                                     synthesized conformances' included)
"""
import re
import struct
import sys


def ios_min(package_swift):
    text = open(package_swift, encoding="utf-8").read()
    text = re.sub(r"//[^\n]*", "", text)  # a commented-out platform does not count
    # .iOS(.v15), .iOS(.v15_4) or .iOS("15.4") inside platforms: [...]
    platforms = re.search(r"platforms\s*:\s*\[(.*?)\]", text, re.S)
    m = platforms and re.search(r'\.iOS\(\s*(?:\.v(\d+)(?:_(\d+))?|"(\d+)(?:\.(\d+))?[^"]*")\s*\)', platforms.group(1))
    if not m:
        raise SystemExit(f"ios-check: no .iOS(...) in the platforms of {package_swift}")
    major, minor = m.group(1) or m.group(3), m.group(2) or m.group(4) or "0"
    print(f"{int(major)}.{int(minor)}")


# swiftc -diagnostic-style=llvm: "path:line:col: error: message", then the source line and a caret.
DIAGNOSTIC = re.compile(r"^(.+?):(\d+):(\d+): (error|warning): (.*)$")
# errors with no position (a missing module, a bad flag): "<unknown>:0: error: ..." or "error: ..."
UNPLACED = re.compile(r"^(?:<unknown>:0: )?error: (.*)$")


def errors(log):
    found, warnings = [], set()
    for line in open(log, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        placed, unplaced = DIAGNOSTIC.match(line), UNPLACED.match(line)
        if placed and placed.group(4) == "warning":
            warnings.add(line)
            continue
        error = line if placed else "error: " + unplaced.group(1) if unplaced else None
        if error and error not in found:
            found.append(error)
    for error in found:
        print(error)
    print(len(found), len(warnings))


def text_size(objects):
    # A 64-bit Mach-O object: a 32-byte header (magic 0xfeedfacf, ..., ncmds), then load commands;
    # LC_SEGMENT_64 (0x19) holds section_64 entries of 80 bytes: sectname[16], segname[16], addr, size.
    parts, total = [], 0
    for path in objects:
        data = open(path, "rb").read()
        magic, ncmds = struct.unpack_from("<I", data, 0)[0], struct.unpack_from("<I", data, 16)[0]
        if magic != 0xFEEDFACF:
            raise SystemExit(f"{path}: not a 64-bit Mach-O object")
        offset, text = 32, 0
        for _ in range(ncmds):
            command, size = struct.unpack_from("<II", data, offset)
            if command == 0x19:
                for index in range(struct.unpack_from("<I", data, offset + 64)[0]):
                    section = offset + 72 + 80 * index
                    if data[section + 16:section + 32].rstrip(b"\0") == b"__TEXT":
                        text += struct.unpack_from("<Q", data, section + 40)[0]
            offset += size
        parts.append(f"{path.rsplit('/', 1)[-1][:-2]} {text / 1000:.1f} KB")
        total += text
    print(", ".join(parts) + f"; __TEXT in all {total / 1000:.1f} KB")


def api_count(graphs):
    import json
    parts = []
    for path in graphs:
        symbols = json.load(open(path, encoding="utf-8"))["symbols"]
        types = {s["pathComponents"][0] for s in symbols if len(s["pathComponents"]) == 1}
        parts.append(f"{path.rsplit('/', 1)[-1].split('.')[0]} {len(types)} types, {len(symbols)} symbols")
    print(", ".join(parts))


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "text-size":
        text_size(arguments)
    elif command == "api-count":
        api_count(arguments)
    else:
        {"ios-min": ios_min, "errors": errors}[command](arguments[0])
