#!/usr/bin/env python3
"""Small helpers for scripts/ios-check.sh.

  support.py ios-min PACKAGE_SWIFT   prints the iOS deployment target of `platforms:`, e.g. 15.0
  support.py errors LOG              prints each distinct error in a swiftc log as file:line:col: error: ...,
                                     then a last line `COUNT WARNINGS` (errors, warnings)
  support.py foundation-stand-in OUT OVERLAY_TBD LINK_LOG
                                     writes OUT, a text stub (.tbd) of Foundation.framework exporting the
                                     symbols a link left undefined that are Foundation's (see below)
  support.py segments BINARY         the bytes of each segment of a linked Mach-O: `SEGMENT BYTES` a line
  support.py lazy-binding BASE APP   what ld64.lld 14's lazy binding (which ld64 does not do for iOS 15+)
                                     adds to APP over BASE: `+N KB __TEXT (__stub_helper), +N KB __DATA ...`
  support.py increment LABEL BASE APP [PLAIN]
                                     `LABEL: +N KB __TEXT, ...`: APP's segments less BASE's, and with
                                     PLAIN what APP saves against it
  support.py api-count GRAPH...      each symbol graph's public types and public symbols (members,
                                     synthesized conformances' included)
  support.py attribute LABEL APP MODULE...
                                     `LABEL: N KB of __text: ...`: APP's code (__TEXT,__text) by the type of
                                     MODULEs each function belongs to, the largest first, then by kind
                                     (SWIFT_TOOLS: the toolchain's bin folder, for llvm-nm and swift-demangle)
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


def load_commands(path):
    """A 64-bit little-endian Mach-O file's bytes and its load commands, as (command, offset) pairs."""
    data = open(path, "rb").read()
    if len(data) < 32 or struct.unpack_from("<I", data, 0)[0] != 0xFEEDFACF:
        raise SystemExit(f"{path}: not a 64-bit Mach-O file")
    commands, offset = [], 32
    for _ in range(struct.unpack_from("<I", data, 16)[0]):
        command, size = struct.unpack_from("<II", data, offset)
        commands.append((command, offset))
        offset += size
    return data, commands


def tbd_exports(path):
    """Every name a text stub (.tbd, version 4) exports, for any target: its symbols, and the symbols
    of its objc-classes (both _OBJC_CLASS_$_ and _OBJC_METACLASS_$_), objc-eh-types and objc-ivars."""
    text = open(path, encoding="utf-8").read().split("\nundefineds:")[0]
    names = set()
    for key, items in re.findall(r"([a-z-]+):\s*\[([^\]]*)\]", text.split("\nexports:", 1)[-1]):
        items = [item.strip().strip("'") for item in items.split(",") if item.strip()]
        if key in ("symbols", "weak-symbols"):
            names.update(items)
        elif key == "objc-classes":
            names.update(f"_OBJC_{kind}_$_{item}" for item in items for kind in ("CLASS", "METACLASS"))
        elif key == "objc-eh-types":
            names.update(f"_OBJC_EHTYPE_$_{item}" for item in items)
        elif key == "objc-ivars":
            names.update(f"_OBJC_IVAR_$_{item}" for item in items)
    return names


# Foundation's names: its C functions and constants (NSHomeDirectory, NSLocalizedDescriptionKey,
# _NSFileHandle...) and Objective-C classes, NS-prefixed (all but seven of the 1,633 symbols and 482
# classes and ivars of the iPhoneOS 15.6 SDK's Foundation.tbd); and the Swift overlay's, whose
# mangled names name the module (`10Foundation`: `$s10Foundation4DateV...`, `$sSS10FoundationE...`).
FOUNDATION_NAME = re.compile(r"^(_+NS|_OBJC_(CLASS|METACLASS|EHTYPE|IVAR)_\$_+NS|_\$s.*10Foundation)")


def foundation_stand_in(out, overlay_tbd, link_log):
    """Writes a Foundation.tbd exporting what a link needs of Foundation, for an SDK copy that lacks its
    own (theos/sdks' iPhoneOS16.5.sdk does). LINK_LOG is the output of ld64.lld run with a stand-in
    that exports nothing and --error-limit=0: its `undefined symbol: NAME` errors are what no other
    library of the SDK exports. The stand-in exports those of them that are Foundation's
    (FOUNDATION_NAME), or that the Swift overlay exported when it was a library of its own
    (OVERLAY_TBD, usr/lib/swift/libswiftFoundation.tbd: on arm64 iOS 16 it only re-exports
    Foundation.framework, where the overlay now lives, but it still lists the overlay's armv7 exports,
    among them __swift_FORCE_LOAD_$_swiftFoundation and swift_errorBridgingInfo_). Which library a
    name binds to changes the app's load commands and bind information, never the size of its __TEXT
    or __DATA: an import costs the same stub and pointer whichever library has it. A name neither
    rule accepts stays undefined, and the second link says so. Prints how many names it exports."""
    overlay = {name for name in tbd_exports(overlay_tbd) if not name.startswith("$ld$")}
    missing = set(re.findall(r"undefined symbol: (\S+)", open(link_log, encoding="utf-8", errors="replace").read()))
    wanted = sorted(name for name in missing if FOUNDATION_NAME.match(name) or name in overlay)
    classes = sorted({name.split("_$_", 1)[1] for name in wanted if name.startswith(("_OBJC_CLASS_$_", "_OBJC_METACLASS_$_"))})
    plain = sorted(name for name in wanted if not name.startswith(("_OBJC_CLASS_$_", "_OBJC_METACLASS_$_")))

    def flow(items):
        return "[ " + ", ".join("'" + item.replace("'", "''") + "'" for item in items) + " ]"

    with open(out, "w", encoding="utf-8") as stub:
        stub.write(
            "--- !tapi-tbd\n"
            "tbd-version:     4\n"
            "targets:         [ arm64-ios ]\n"
            "install-name:    '/System/Library/Frameworks/Foundation.framework/Foundation'\n"
            "current-version: 1971\n"
            "compatibility-version: 300\n"
            "reexported-libraries:\n"
            "  - targets:         [ arm64-ios ]\n"
            "    libraries:       [ '/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation', '/usr/lib/libobjc.A.dylib' ]\n")
        if plain or classes:
            stub.write("exports:\n  - targets:         [ arm64-ios ]\n")
            if plain:
                stub.write(f"    symbols:         {flow(plain)}\n")
            if classes:
                stub.write(f"    objc-classes:    {flow(classes)}\n")
        stub.write("...\n")
    print(len(wanted))


# Section types that take no room in the file (zero-filled memory): S_ZEROFILL, S_GB_ZEROFILL,
# S_THREAD_LOCAL_ZEROFILL.
ZEROFILL = {0x1, 0xC, 0x12}


def sections(path):
    """The bytes of each section of a linked Mach-O, by (segment, section): what the app carries, not
    the segments' page-rounded vmsize, and without zero-fill (__bss, __common), which takes no room in
    the app. LC_SEGMENT_64 (0x19): nsects at +64, then section_64 entries of 80 bytes: sectname[16],
    segname[16], addr, size (8 bytes at +40), ..., flags (at +64, the type in its low byte)."""
    data, commands = load_commands(path)
    sizes = {}
    for command, offset in commands:
        if command != 0x19:
            continue
        for index in range(struct.unpack_from("<I", data, offset + 64)[0]):
            section = offset + 72 + 80 * index
            if struct.unpack_from("<I", data, section + 64)[0] & 0xFF in ZEROFILL:
                continue
            key = tuple(data[at:at + 16].rstrip(b"\0").decode() for at in (section + 16, section))
            sizes[key] = sizes.get(key, 0) + struct.unpack_from("<Q", data, section + 40)[0]
    return sizes


def segments(path):
    """The bytes of each segment of a linked Mach-O: the sum of its sections' (see sections)."""
    sizes = {}
    for (segment, _), size in sections(path).items():
        sizes[segment] = sizes.get(segment, 0) + size
    return sizes


def increment(label, base, app, plain=None):
    """`LABEL: +N KB __TEXT, +N KB __DATA_CONST, +N KB __DATA` (KB: 1,000 bytes, as docs/benchmarks.md
    counts): APP's segments less BASE's (BASE `-`: APP's own); __DATA_CONST only when the linker made
    one. With PLAIN, the same app built without the flag: `(saves N KB __TEXT, ...)`, PLAIN's less APP's."""
    before, after = ({} if base == "-" else segments(base)), segments(app)
    names = [name for name in ("__TEXT", "__DATA_CONST", "__DATA") if name in before or name in after]

    def kb(delta, sign):
        return f"{'-' if delta < 0 else '+' if sign else ''}{abs(delta) / 1000:.1f} KB"

    line = f"{label}: " + ", ".join(f"{kb(after.get(n, 0) - before.get(n, 0), base != '-')} {n}" for n in names)
    if plain:
        reference = segments(plain)
        line += " (saves " + ", ".join(f"{kb(reference.get(n, 0) - after.get(n, 0), False)} {n}" for n in names) + ")"
    print(line)


def lazy_binding(base, app):
    """What ld64.lld 14's lazy binding adds to APP over BASE: its __stub_helper (__TEXT) and lazy
    pointers (__DATA,__la_symbol_ptr). ld64 links an app for iOS 15 or later with chained fixups: no
    stub helper, and the pointers in __DATA_CONST,__got."""
    before, after = sections(base), sections(app)

    def delta(key):
        return (after.get(key, 0) - before.get(key, 0)) / 1000

    print(f"+{delta(('__TEXT', '__stub_helper')):.1f} KB __TEXT (__stub_helper), "
          f"+{delta(('__DATA', '__la_symbol_ptr')):.1f} KB __DATA (__la_symbol_ptr)")


def attribute(label, app, modules):
    """Where APP's code goes: each function's bytes (from its symbol's address to the next symbol's, in
    __TEXT,__text, as llvm-nm lists a linked app's symbols, locals included), grouped by the first type
    of MODULES its demangled name (swift-demangle --compact) mentions, or "standard library and other"
    (generic specialisations of Array, Dictionary, ... made for splashgen's types included); then by
    kind: specialisations, value witnesses, Codable, Equatable/Hashable, async fragments, the rest."""
    import collections
    import os
    import subprocess
    tools = os.environ.get("SWIFT_TOOLS", "")  # the Swift toolchain's bin folder: its llvm-objdump, llvm-nm, swift-demangle

    def tool(name):
        return os.path.join(tools, name) if tools else name
    headers = subprocess.run([tool("llvm-objdump"), "-h", app], capture_output=True, text=True, check=True).stdout
    size, start = (int(value, 16) for value in re.search(r"__text\s+([0-9a-f]+)\s+([0-9a-f]+)", headers).groups())
    listed = subprocess.run([tool("llvm-nm"), "-n", "--defined-only", app], capture_output=True, text=True, check=True).stdout
    symbols = sorted({int(a, 16): n for a, _, n in (line.split(" ", 2) for line in listed.splitlines()) if start <= int(a, 16) < start + size}.items())
    names = [name[1:] if name.startswith("_") else name for _, name in symbols]
    demangled = subprocess.run([tool("swift-demangle"), "--compact"], input="\n".join(names), capture_output=True, text=True, check=True).stdout.splitlines()
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, modules)) + r")\.([A-Za-z_][A-Za-z_0-9]*)")
    by_type, by_kind = collections.Counter(), collections.Counter()
    for index, ((address, _), text) in enumerate(zip(symbols, demangled)):
        bytes_ = (symbols[index + 1][0] if index + 1 < len(symbols) else start + size) - address
        match = pattern.search(text)
        by_type[f"{match.group(1)}.{match.group(2)}" if match else "standard library and other"] += bytes_
        if "specialization <" in text[:80]:
            kind = "specialisations"
        elif "value witness" in text:
            kind = "value witnesses"
        elif any(k in text for k in ("CodingKeys", "Swift.Decoder", "Swift.Encoder", "Decodable", "Encodable")):
            kind = "Codable"
        elif any(k in text for k in ("Swift.Equatable", "Swift.Hashable", "static func == infix")):
            kind = "Equatable/Hashable"
        elif "async" in text and any(k in text for k in ("resume partial function", "suspend resume", "partial apply")):
            kind = "async fragments"
        else:
            kind = "the rest"
        by_kind[kind] += bytes_
    ours = sum(value for key, value in by_type.items() if key != "standard library and other")
    top = ", ".join(f"{key.split('.', 1)[1]} {value / 1000:.1f}" for key, value in by_type.most_common() if key != "standard library and other" and value >= 5000)
    print(f"{label}: {size / 1000:.1f} KB of __text; splashgen's types {ours / 1000:.1f} KB (5 KB and over: {top}); "
          f"standard library and other {by_type['standard library and other'] / 1000:.1f} KB")
    print(f"{label}: by kind: " + ", ".join(f"{key} {value / 1000:.1f} KB" for key, value in by_kind.most_common()))


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
    if command == "foundation-stand-in":
        foundation_stand_in(*arguments)
    elif command == "segments":
        for segment, size in segments(arguments[0]).items():
            print(segment, size)
    elif command == "increment":
        increment(*arguments)
    elif command == "lazy-binding":
        lazy_binding(*arguments)
    elif command == "api-count":
        api_count(arguments)
    elif command == "attribute":
        attribute(arguments[0], arguments[1], arguments[2:])
    else:
        {"ios-min": ios_min, "errors": errors}[command](arguments[0])
