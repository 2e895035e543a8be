#!/usr/bin/env python3
"""Give the iOS 16.5 SDK's Swift 5.8 standard-library interface the Swift 6 signatures splashgen uses.

usage: patch-stdlib.py SDK_INTERFACE OUT_INTERFACE

The SDK's Swift.swiftmodule/arm64-apple-ios.swiftinterface predates typed throws (SE-0413). A Swift 6
compiler that type-checks code against it sees `withUnsafeBufferPointer` as `rethrows` (so a
`throws(LZFSEError)` closure comes back as `any Error`), `Result.get()` as `throws`, and finds no
`_willThrowTyped`, which SILGen calls for every typed `throw` (without it the frontend crashes).
This rewrites those declarations the way the Swift 6 standard library declares them (compare
/opt/swift/usr/lib/swift/linux/Swift.swiftmodule/*.swiftinterface): `@_alwaysEmitIntoClient`, with
their bodies, so that their code is emitted into the module that calls them, as it is when Xcode
builds against a Swift 6 SDK (`ios-check.sh --size` links that code into an app; libswiftCore on iOS
15 has no such symbols). The bodies are the 5.8 interface's own with typed throws (the
`withUnsafeBufferPointer` of the array buffers gets a typed twin, `_typedWithUnsafeBufferPointer`,
that the public one calls), and Swift 6's for the entry points it appends.
The SDK itself is never touched: this reads it and writes a copy.
"""
import re
import sys

ERROR = " where E : Swift.Error {"


def typed(head):
    """A `rethrows` head of the 5.8 interface, made the Swift 6 typed-throws one that is emitted into
    its clients."""
    head = head.replace("@inlinable", "@_alwaysEmitIntoClient", 1).replace("<R>(", "<R, E>(", 1)
    return head.replace(" throws -> R) rethrows -> R {", " throws(E) -> R) throws(E) -> R" + ERROR, 1)


# declaration head (a regex on one line of the interface) -> how to rewrite it: (the line that replaces
# it, a body for it or None to keep its own, whether to add a typed twin after it)
REPLACEMENTS = [
    # Array, ArraySlice, ContiguousArray: their body calls their buffer's, which has a typed twin below.
    (
        re.compile(r"^(\s*)(?:@\w+(?:\([^)]*\))? )*public func withUnsafeBufferPointer<R>\("),
        lambda line: (
            "@_alwaysEmitIntoClient public func withUnsafeBufferPointer<R, E>(_ body: (Swift.UnsafeBufferPointer<Element>)"
            " throws(E) -> R) throws(E) -> R" + ERROR, ["  return try _buffer._typedWithUnsafeBufferPointer(body)", "}"], False),
    ),
    (
        re.compile(r"^(\s*)(?:@\w+(?:\([^)]*\))? )*public mutating func withUnsafeMutableBufferPointer<R>\("),
        lambda line: (typed(line.strip()), None, False),
    ),
    (
        re.compile(r"^(\s*)@inlinable public func get\(\) throws -> Success \{"),
        lambda line: ("@_alwaysEmitIntoClient public func get() throws(Failure) -> Success {", None, False),
    ),
    # _ArrayBuffer, _ContiguousArrayBuffer, _SliceBuffer: kept, with a typed twin of the same body.
    (
        re.compile(r"^(\s*)@inlinable internal func withUnsafeBufferPointer<R>\(_ body: \(Swift\.UnsafeBufferPointer<Element>\) throws -> R\) rethrows -> R \{$"),
        lambda line: (line.strip(), None, True),
    ),
]

# Entry points the Swift 6 compiler emits calls to for typed throws (`throw`, `try!`, a throwing
# main), as Swift 6 declares them: _willThrowTyped tells a debugger, from iOS 18 on.
APPENDED = """
// --- added by splashgen scripts/ios-check/patch-stdlib.py (Swift 6 typed-throws entry points) ---
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, *)
@_silgen_name("swift_willThrowTypedImpl")
@usableFromInline
internal func _willThrowTypedImpl<E>(_ error: E) where E : Swift.Error
@_silgen_name("swift_willThrowTyped")
@inlinable @_alwaysEmitIntoClient public func _willThrowTyped<E>(_ error: E) where E : Swift.Error {
  if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, *) {
    _willThrowTypedImpl(error)
  }
}
@_silgen_name("swift_unexpectedErrorTyped")
@_alwaysEmitIntoClient @inlinable public func _unexpectedErrorTyped<E>(_ error: __owned E, filenameStart: Builtin.RawPointer, filenameLength: Builtin.Word, filenameIsASCII: Builtin.Int1, line: Builtin.Word) where E : Swift.Error {
  _unexpectedError(error, filenameStart: filenameStart, filenameLength: filenameLength, filenameIsASCII: filenameIsASCII, line: line)
}
@_alwaysEmitIntoClient public func _errorInMainTyped<Failure>(_ error: Failure) -> Swift.Never where Failure : Swift.Error {
  fatalError("Error raised at top level: \\(String(reflecting: error))")
}
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
        for n, (head, rewrite) in enumerate(REPLACEMENTS):
            m = head.match(lines[i])
            if m:
                indent = m.group(1)
                new_head, body, twin = rewrite(lines[i])
                end = skip_body(lines, i)
                own = lines[i + 1:end]
                out.append(indent + new_head)
                out.extend(own if body is None else [indent + line for line in body])
                if twin:  # the same body under a typed head and a name of its own
                    out.append(indent + typed(new_head).replace(" func withUnsafeBufferPointer<", " func _typedWithUnsafeBufferPointer<", 1))
                    out.extend(own)
                counts[n] += 1
                i = end
                break
        else:
            out.append(lines[i])
            i += 1
    # Array, ArraySlice and ContiguousArray each have one public withUnsafe(Mutable)BufferPointer, Result
    # one get(), and each of their three buffers one withUnsafeBufferPointer.
    if counts != [3, 3, 1, 3]:
        raise SystemExit(f"patch-stdlib: unexpected interface {source}: replaced {counts}, expected [3, 3, 1, 3]")
    with open(target, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + APPENDED)


if __name__ == "__main__":
    main()
