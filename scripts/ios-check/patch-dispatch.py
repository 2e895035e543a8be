#!/usr/bin/env python3
"""Give the iOS 16.5 SDK's Dispatch overlay the Sendable conformances of the SDKs Swift 6 builds with.

usage: patch-dispatch.py SDK_INTERFACE OUT_INTERFACE

Swift 6 language mode needs Xcode 16 or later, whose SDKs mark libdispatch's objects Sendable (the
headers declare them OS_OBJECT_SWIFT_SENDABLE) and its value types too; the iOS 16.5 SDK (Xcode
14.3) does not, so `static let queue = DispatchQueue(...)` would be reported as "not
concurrency-safe" here but builds in Xcode. The list follows what swift-corelibs-libdispatch added
to match Apple's SDK: DispatchQueue, DispatchGroup, DispatchSemaphore, DispatchSource, DispatchIO
(PR 821); DispatchTime, DispatchWallTime, DispatchTimeInterval (PR 788); DispatchQoS, its QoSClass,
DispatchPredicate (PR 859); the option sets, enums and DispatchData of PR 915 ("In the SDK that
ships with Xcode, these types are marked as Sendable"). Not DispatchObject, DispatchWorkItem or
DispatchSpecificKey. The SDK itself is never touched: this reads it and writes a copy.
"""
import sys

SENDABLE = """
    DispatchQueue DispatchGroup DispatchSemaphore DispatchSource DispatchIO
    DispatchTime DispatchWallTime DispatchTimeInterval DispatchQoS DispatchQoS.QoSClass DispatchPredicate
    DispatchQueue.Attributes DispatchQueue.GlobalQueuePriority DispatchQueue.AutoreleaseFrequency
    DispatchWorkItemFlags DispatchIO.StreamType DispatchIO.CloseFlags DispatchIO.IntervalFlags
    DispatchData DispatchData.Deallocator DispatchDataIterator
""".split()


def main():
    source, target = sys.argv[1], sys.argv[2]
    text = open(source, encoding="utf-8").read()
    added = [t for t in SENDABLE if f"extension Dispatch.{t} : Swift.Sendable" not in text
             and f"extension Dispatch.{t} : @unchecked Swift.Sendable" not in text]
    with open(target, "w", encoding="utf-8") as f:
        f.write(text.rstrip("\n") + "\n")
        if added:
            f.write("// --- added by splashgen scripts/ios-check/patch-dispatch.py (Sendable as in Xcode 16+ SDKs) ---\n")
            f.writelines(f"extension Dispatch.{t} : @unchecked Swift.Sendable {{}}\n" for t in added)


if __name__ == "__main__":
    main()
