#!/usr/bin/env python3
"""Picks the iOS Simulator runtime and device type the simulator job runs one shape on.

    xcrun simctl list runtimes --json | pick-simulator.py --major 26 --floor 26 \\
        --prefer "iPhone 16" --catalogue Sources/SplashCore/Resources/devices.json [--json OUT.json]

The runtime: the newest available iOS runtime whose major version is `--major`. When `--major` is
`--floor` and the runner has no iOS runtime of `--floor` or later at all, the newest available iOS
runtime instead (the job then says so). The device type: the first `--prefer` name the runtime
supports, else the newest iPhone it supports (the last in simctl's list) that splashgen's catalogue
(`--catalogue`, devices.json) names, since the job compares the screenshot with the campaign's
snapshot for that device; else the newest iPhone it supports.

It prints KEY=value lines for $GITHUB_ENV: RUNTIME_ID, RUNTIME_NAME, RUNTIME_VERSION, RUNTIME_BUILD,
DEVICE, DEVICE_TYPE and RUNTIME_NOTE; or, with no such runtime, only SKIPPED=<why>. `--json` writes
the same as an object, with the iOS runtimes the runner has. It exits 0 either way (a runtime the
runner lacks is recorded, not failed), 2 when the input cannot be read. Python's standard library only.
"""

import argparse
import json
import sys


def version_key(text):
    """(26, 1, 0) for "26.1": the numeric parts, so 26.10 sorts after 26.9."""
    parts = []
    for part in str(text).split("."):
        digits = "".join(c for c in part if c.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts)


def is_ios(runtime):
    platform = runtime.get("platform")
    if platform is not None:
        return platform == "iOS"
    return ".SimRuntime.iOS-" in runtime.get("identifier", "")


def is_iphone(device_type):
    family = device_type.get("productFamily")
    return family == "iPhone" if family is not None else device_type.get("name", "").startswith("iPhone")


def catalogue_iphones(path):
    """The names splashgen's catalogue gives iPhones (Display Zoom entries left out)."""
    with open(path) as f:
        catalogue = json.load(f)
    return {d["name"] for d in catalogue.get("devices", []) if d.get("family") == "iphone" and not d.get("display_zoom_of")}


def pick_runtime(runtimes, major, floor):
    available = sorted((r for r in runtimes if is_ios(r) and r.get("isAvailable", True)), key=lambda r: version_key(r.get("version", "0")))
    of_major = [r for r in available if version_key(r.get("version", "0"))[0] == major]
    if of_major:
        return of_major[-1], None
    if major == floor and available and not any(version_key(r.get("version", "0"))[0] >= floor for r in available):
        newest = available[-1]
        return newest, f"no iOS {floor} or later on this runner: the newest it has, {newest.get('name', newest.get('version'))}"
    return None, None


def pick_device(runtime, prefer, known):
    iphones = [t for t in runtime.get("supportedDeviceTypes", []) if is_iphone(t)]
    names = {t.get("name"): t for t in iphones}
    for name in prefer:
        if name in names:
            return names[name], None
    in_catalogue = [t for t in iphones if t.get("name") in known]
    if in_catalogue:
        chosen = in_catalogue[-1]
        return chosen, f"{', '.join(prefer) or 'no preferred device'} not supported by this runtime: {chosen.get('name')}"
    if iphones:
        chosen = iphones[-1]
        return chosen, f"no iPhone of splashgen's catalogue supported by this runtime: {chosen.get('name')}, which step 5 cannot compare"
    return None, "the runtime supports no iPhone"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--major", type=int, required=True, help="the iOS major version to run")
    parser.add_argument("--floor", type=int, required=True, help="the lowest major the job asks for")
    parser.add_argument("--prefer", action="append", default=[], help="a device type name to take when supported")
    parser.add_argument("--catalogue", required=True, help="splashgen's devices.json")
    parser.add_argument("--json", help="write the choice here")
    parser.add_argument("input", nargs="?", default="-", help="simctl list runtimes --json (default: standard input)")
    args = parser.parse_args()
    try:
        text = sys.stdin.read() if args.input == "-" else open(args.input).read()
        runtimes = json.loads(text).get("runtimes", [])
        known = catalogue_iphones(args.catalogue)
    except (OSError, ValueError, AttributeError) as error:
        print(f"pick-simulator: {error}", file=sys.stderr)
        return 2
    ios = sorted((r for r in runtimes if is_ios(r)), key=lambda r: version_key(r.get("version", "0")))
    listed = ", ".join(f"{r.get('version')}{'' if r.get('isAvailable', True) else ' (unavailable)'}" for r in ios) or "none"
    choice = {"ios_major": args.major, "runner_ios_runtimes": listed}
    runtime, note = pick_runtime(runtimes, args.major, args.floor)
    device, device_note = (None, None) if runtime is None else pick_device(runtime, args.prefer, known)
    if runtime is None or device is None:
        why = f"runtime not on this runner (iOS runtimes here: {listed})" if runtime is None else f"{runtime.get('name')}: {device_note}"
        choice["skipped"] = why
        lines = [f"SKIPPED={why}"]
    else:
        notes = [n for n in (note, device_note) if n]
        choice.update({
            "runtime_id": runtime.get("identifier", ""),
            "runtime_name": runtime.get("name", f"iOS {runtime.get('version')}"),
            "runtime_version": runtime.get("version", ""),
            "runtime_build": runtime.get("buildversion", ""),
            "device": device.get("name", ""),
            "device_type": device.get("identifier", ""),
            "note": "; ".join(notes),
        })
        lines = [
            f"RUNTIME_ID={choice['runtime_id']}",
            f"RUNTIME_NAME={choice['runtime_name']}",
            f"RUNTIME_VERSION={choice['runtime_version']}",
            f"RUNTIME_BUILD={choice['runtime_build']}",
            f"DEVICE={choice['device']}",
            f"DEVICE_TYPE={choice['device_type']}",
            f"RUNTIME_NOTE={choice['note']}",
        ]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(choice, f, indent=2, sort_keys=True)
            f.write("\n")
    # One line each for $GITHUB_ENV: nothing the runner wrote may start another.
    for line in lines:
        print(line.replace("\n", " ").replace("\r", " "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
