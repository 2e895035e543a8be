#!/usr/bin/env python3
"""Give the iOS 16.5 SDK's Swift 5.8 standard-library interface the Swift 6 signatures splashgen uses.

usage: patch-stdlib.py SDK_INTERFACE OUT_INTERFACE

The SDK's Swift.swiftmodule/arm64-apple-ios.swiftinterface predates typed throws (SE-0413). A Swift 6
compiler that type-checks code against it sees `withUnsafeBufferPointer` as `rethrows` (so a
`throws(LZFSEError)` closure comes back as `any Error`), `Result.get()` as `throws`, and finds no
`_willThrowTyped`, which SILGen calls for every typed `throw` (without it the frontend crashes).
This rewrites those declarations the way the Swift 6 standard library declares them (compare
/opt/swift/usr/lib/swift/linux/Swift.swiftmodule/*.swiftinterface). They become body-less,
non-inlinable declarations: the copy is only ever used to type-check, never to build or link.
The SDK itself is never touched: this reads it and writes a copy.
"""
import re
import sys

# declaration head (a regex on one line of the interface) -> the Swift 6 declaration that replaces it
REPLACEMENTS = [
    (
        re.compile(r"^(\s*)(?:@\w+(?:\([^)]*\))? )*public func withUnsafeBufferPointer<R>\("),
        "public func withUnsafeBufferPointer<R, E>(_ body: (Swift.UnsafeBufferPointer<Element>) throws(E) -> R)"
        " throws(E) -> R where E : Swift.Error",
    ),
    (
        re.compile(r"^(\s*)(?:@\w+(?:\([^)]*\))? )*public mutating func withUnsafeMutableBufferPointer<R>\("),
        "public mutating func withUnsafeMutableBufferPointer<R, E>(_ body: (inout Swift.UnsafeMutableBufferPointer<Element>)"
        " throws(E) -> R) throws(E) -> R where E : Swift.Error",
    ),
    (
        re.compile(r"^(\s*)@inlinable public func get\(\) throws -> Success \{"),
        "public func get() throws(Failure) -> Success",
    ),
]

# Entry points the Swift 6 compiler emits calls to for typed throws (`throw`, `try!`, a throwing main).
APPENDED = """
// --- added by splashgen scripts/ios-check/patch-stdlib.py (Swift 6 typed-throws entry points) ---
@_silgen_name("swift_willThrowTyped")
public func _willThrowTyped<E>(_ error: E) where E : Swift.Error
@_silgen_name("swift_unexpectedErrorTyped")
public func _unexpectedErrorTyped<E>(_ error: __owned E, filenameStart: Builtin.RawPointer, filenameLength: Builtin.Word, filenameIsASCII: Builtin.Int1, line: Builtin.Word) where E : Swift.Error
public func _errorInMainTyped<Failure>(_ error: Failure) -> Swift.Never where Failure : Swift.Error
"""


def skip_body(lines, start):
    """Index of the line after the `{ ... }` body that opens on lines[start]."""
    depth = 0
    for i in range(start, len(lines)):
        depth += lines[i].count("{") - lines[i].count("}")
        if depth <= 0:
            return i + 1
    raise SystemExit(f"patch-stdlib: unbalanced body from line {start + 1}")


def main():
    source, target = sys.argv[1], sys.argv[2]
    text = open(source, encoding="utf-8").read()
    if "func _willThrowTyped" in text:  # already a Swift 6 interface (a newer SDK): use it as it is
        open(target, "w", encoding="utf-8").write(text)
        return
    lines = text.split("\n")
    out, counts, i = [], [0] * len(REPLACEMENTS), 0
    while i < len(lines):
        for n, (head, decl) in enumerate(REPLACEMENTS):
            m = head.match(lines[i])
            if m:
                out.append(m.group(1) + decl)
                counts[n] += 1
                i = skip_body(lines, i)
                break
        else:
            out.append(lines[i])
            i += 1
    # Array, ArraySlice and ContiguousArray each have one public withUnsafe(Mutable)BufferPointer; Result one get().
    if counts != [3, 3, 1]:
        raise SystemExit(f"patch-stdlib: unexpected interface {source}: replaced {counts}, expected [3, 3, 1]")
    with open(target, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + APPENDED)


if __name__ == "__main__":
    main()
