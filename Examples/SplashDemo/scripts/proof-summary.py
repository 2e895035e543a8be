#!/usr/bin/env python3
"""The simulator job's summary: one row per shape x iOS runtime, and the table of all rows.

    proof-summary.py row PROOF_DIR --shape SHAPE --empty-cache record|fail [--sdk VERSION]
                         [--step NAME=OUTCOME ...]
    proof-summary.py table ROW.json [ROW.json ...]

`row` reads what one job left in PROOF_DIR (the files docs/ios-integration.md, "Proof on an iOS
Simulator", lists: 0-runtime.json, 2-first-launch-run.json, 3-first-launch/summary.json,
4-apply-run.json, 5-compare.json) and the outcome of each step (`steps.<id>.outcome`), writes
PROOF_DIR/row.json and prints the row as a Markdown table. Its verdict:

  skipped   the runner has no runtime of that iOS major (pick-simulator.py said so);
  pass      the applier replaced the OS's cached files and the next launch showed the campaign;
  recorded  a fact about iOS, not a fault: the OS cached nothing for the app, where the shape's
            --empty-cache is `record`; or an app-delegate app built with the iOS 27 SDK or later
            did not launch on iOS 27 or later (UIKit requires the scene life cycle of such apps,
            Apple's TN3187);
  fail      a step failed; the demo did not launch or wrote no run record; the applier stopped or
            crashed; the OS cached files and the applier replaced none; the OS cached nothing where
            --empty-cache is `fail`; or a campaign was applied and the next launch showed another
            picture.

`table` prints the rows of several jobs as one Markdown table, in the order of the shapes, then iOS.
Both exit 0 whatever the verdicts (the workflow fails the job from row.json after uploading
everything), 2 on wrong arguments. Python's standard library only.
"""

import argparse
import json
import os
import sys

SHAPES = ["scene-storyboard", "scene-launch-screen", "app-delegate-storyboard"]
COLUMNS = [
    ("shape", "shape"),
    ("ios", "iOS runtime"),
    ("device", "device"),
    ("sdk", "built with"),
    ("folder", "folder SplashBoard wrote (files)"),
    ("count", "files"),
    ("containers", "containers"),
    ("names", "names"),
    ("applier", "applier"),
    ("screenshot", "next launch"),
    ("verdict", "verdict"),
]
STEPS = {
    "runtime": "0. find the runtime",
    "splashgen": "build splashgen",
    "build": "1. build and boot",
    "first-launch": "2. install and launch once",
    "record": "3. record what the simulator wrote",
    "apply": "4. apply the campaign",
    "photograph": "5. photograph the next launch",
}


def load_json(path):
    """The file's JSON; None when it is missing; the string "unreadable" when it is not JSON (the
    job writes "the demo wrote no run record" in place of a run record that never came)."""
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return "unreadable"


def major(version):
    try:
        return int(str(version).split(".")[0])
    except ValueError:
        return None


def describe_cache(summary):
    if not isinstance(summary, dict):
        return {"folder": "not recorded", "count": "", "containers": "", "names": ""}
    if not summary.get("snapshots_folder"):
        return {"folder": "none (no `Library/SplashBoard/Snapshots/`)", "count": "0", "containers": "", "names": ""}
    if not summary.get("count"):
        return {"folder": "none (`Snapshots/` is empty)", "count": "0", "containers": "", "names": ""}
    folders = ", ".join(f"`{f['folder']}` ({f['count']})" for f in summary.get("folders", []))
    containers = ", ".join(f"{kind} ×{n}" for kind, n in sorted(summary.get("containers", {}).items()))
    names = ", ".join(f"`{n}`" for n in summary.get("names", []))
    return {"folder": folders, "count": str(summary["count"]), "containers": containers, "names": names}


def describe_applier(run):
    """The applier's outcome in one cell, and the report (None when there is none)."""
    if run is None:
        return "not run", None
    if not isinstance(run, dict):
        return "no run record (the app or the applier ended first: crashes/)", None
    report = run.get("apply")
    if not isinstance(report, dict):
        return f"stopped: {run.get('error') or run.get('note') or 'no report'}", None
    files = report.get("files", [])
    replaced = sum(1 for f in files if f.get("action") == "replaced")
    text = f"replaced {replaced} of {len(files)}"
    problems = report.get("problems", [])
    if problems:
        codes = {}
        for p in problems:
            codes[p.get("code")] = codes.get(p.get("code"), 0) + 1
        text += "; problems: " + ", ".join(f"`{c}`" + (f" ×{n}" if n > 1 else "") for c, n in codes.items())
        empty = next((p for p in problems if p.get("code") == "no-launch-snapshots"), None)
        if empty:
            text += f" ({empty.get('message', '')})"
    else:
        text += "; no problems"
    return text, report


def describe_screenshot(compare):
    if compare is None:
        return "not taken", None
    if not isinstance(compare, dict):
        return "comparison unreadable", None
    verdict = compare.get("verdict", "?")
    nearest = compare.get("nearest")
    psnr = (compare.get("references", {}).get(nearest) or {}).get("psnr_db") if nearest else None
    if verdict == nearest and psnr is not None:
        return f"{verdict} ({psnr} dB)", verdict
    return f"{verdict} (nearest {nearest or 'none'}" + (f", {psnr} dB)" if psnr is not None else ")"), verdict


def judge(args, picked, first, report, apply_run, cache, shown):
    """(verdict, why) by the rules of the module's docstring, first match wins."""
    if isinstance(picked, dict) and picked.get("skipped"):
        return "skipped", picked["skipped"]
    failed = [name for name, outcome in args.step if outcome == "failure"]
    early = [n for n in failed if n in ("runtime", "splashgen", "build", "first-launch")]
    if early:
        return "fail", f"step {STEPS.get(early[0], early[0])} failed (the job's log says why)"
    runtime_major = major(picked.get("runtime_version")) if isinstance(picked, dict) else None
    if not isinstance(first, dict):
        if args.shape.startswith("app-delegate") and (major(args.sdk) or 0) >= 27 and (runtime_major or 0) >= 27:
            return "recorded", ("the app did not launch: UIKit requires the scene life cycle of apps built with the iOS 27 SDK "
                                "or later (TN3187); build this shape with Xcode 26 to see its cache")
        return "fail", "the demo did not launch, or wrote no run record, at its first launch"
    if "apply" in failed:
        return "fail", f"step {STEPS['apply']} failed (the job's log says why)"
    if not isinstance(apply_run, dict):
        return "fail", "no run record after the launch that applies: the app or the applier crashed (crashes/)"
    if report is None:
        return "fail", f"the applier stopped: {apply_run.get('error') or 'no report'}"
    codes = {p.get("code") for p in report.get("problems", [])}
    cached = cache.get("count") if isinstance(cache, dict) else None
    if "no-launch-snapshots" in codes or (not report.get("files") and not cached):
        why = "the OS cached nothing for this app (the applier: no-launch-snapshots)"
        return ("recorded", why) if args.empty_cache == "record" else ("fail", why + ", which this shape must not do")
    replaced = sum(1 for f in report.get("files", []) if f.get("action") == "replaced")
    if replaced == 0:
        return "fail", f"the cache held {len(report.get('files', []))} files and the applier replaced none"
    if "photograph" in failed or shown is None:
        return "fail", f"step {STEPS['photograph']} did not compare the screenshot"
    if shown != "campaign":
        return "fail", f"a campaign was applied and the next launch showed {shown}"
    others = [n for n in failed if n not in ("apply", "photograph")]
    if others:
        return "fail", f"step {STEPS.get(others[0], others[0])} failed"
    return "pass", "the next launch showed the campaign"


def markdown(rows):
    def cell(value):
        return str(value).replace("|", "\\|").replace("\n", " ") if value not in (None, "") else "–"

    lines = ["| " + " | ".join(title for _, title in COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for row in rows:
        values = dict(row)
        values["verdict"] = f"**{row['verdict']}**: {row['why']}"
        lines.append("| " + " | ".join(cell(values.get(key)) for key, _ in COLUMNS) + " |")
    return "\n".join(lines) + "\n"


def row(args):
    proof = args.proof
    picked = load_json(os.path.join(proof, "0-runtime.json"))
    first = load_json(os.path.join(proof, "2-first-launch-run.json"))
    cache = load_json(os.path.join(proof, "3-first-launch", "summary.json"))
    apply_run = load_json(os.path.join(proof, "4-apply-run.json"))
    compare = load_json(os.path.join(proof, "5-compare.json"))
    applier, report = describe_applier(apply_run)
    screenshot, shown = describe_screenshot(compare)
    verdict, why = judge(args, picked, first, report, apply_run, cache, shown)
    ios = ""
    if isinstance(picked, dict):
        ios = f"iOS {picked.get('ios_major')}: not on this runner" if picked.get("skipped") else picked.get("runtime_name", "")
        if picked.get("runtime_build"):
            ios += f" ({picked['runtime_build']})"
        if picked.get("note"):
            ios += f"; {picked['note']}"
    result = {
        "shape": args.shape,
        "ios_major": picked.get("ios_major") if isinstance(picked, dict) else None,
        "ios": ios,
        "device": picked.get("device", "") if isinstance(picked, dict) else "",
        "sdk": f"iOS {args.sdk} SDK" if args.sdk else "",
        "applier": applier,
        "screenshot": screenshot,
        "verdict": verdict,
        "why": why,
    }
    if verdict == "skipped":
        result.update({"folder": "", "count": "", "containers": "", "names": "", "applier": "", "screenshot": ""})
    else:
        result.update(describe_cache(cache))
    with open(os.path.join(proof, "row.json"), "w") as f:
        json.dump(result, f, indent=2, sort_keys=True)
        f.write("\n")
    sys.stdout.write(markdown([result]))
    return 0


def table(args):
    rows = []
    for path in args.rows:
        loaded = load_json(path)
        if isinstance(loaded, dict):
            rows.append(loaded)
        else:
            print(f"proof-summary: {path}: not a row", file=sys.stderr)

    def order(r):
        shape = SHAPES.index(r.get("shape")) if r.get("shape") in SHAPES else len(SHAPES)
        return (shape, r.get("shape", ""), r.get("ios_major") or 0)

    sys.stdout.write(markdown(sorted(rows, key=order)) if rows else "No job left a row (see each job's log).\n")
    return 0


def step(text):
    name, sep, outcome = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=OUTCOME, found {text!r}")
    return name, outcome


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("row", help="one job's row, from its proof folder")
    one.add_argument("proof")
    one.add_argument("--shape", required=True)
    one.add_argument("--empty-cache", choices=["record", "fail"], required=True)
    one.add_argument("--sdk", default="", help="the iOS Simulator SDK version the demo was built with")
    one.add_argument("--step", type=step, action="append", default=[], metavar="NAME=OUTCOME")
    many = sub.add_parser("table", help="every job's row in one table")
    many.add_argument("rows", nargs="+")
    args = parser.parse_args()
    return row(args) if args.command == "row" else table(args)


if __name__ == "__main__":
    sys.exit(main())
