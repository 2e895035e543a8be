#!/usr/bin/env bash
# Records what the OS keeps in an app's launch cache, as it is at one moment, for the simulator job
# of .github/workflows/apple.yml (docs/ios-integration.md, "Proof on an iOS Simulator").
#
#   record-snapshots.sh DATA_CONTAINER OUT_DIR
#
# DATA_CONTAINER is `xcrun simctl get_app_container DEVICE BUNDLE_ID data`. Into OUT_DIR it writes:
#   library-files.txt   every file under the container's Library/, with its size (where else the OS
#                       may have written, if not Library/SplashBoard/Snapshots/)
#   snapshots.tar.gz    Library/SplashBoard/Snapshots/ byte for byte (a tarball: its folder names hold
#                       ':' and '{', which an artifact's file names may not)
#   files.tsv           one line per file under Snapshots/: n, sha256, bytes, its container as
#                       `splashgen inspect` names it (ATX, KTX, PNG, JPEG, or unreadable), the exit
#                       status of `splashgen inspect` and of `splashgen decode`, the path below Snapshots/
#   summary.json        what the OS wrote, in brief (the simulator job's summary table reads it):
#                       whether Snapshots/ exists, the count of files, the containers and the names'
#                       patterns (a UUID as <UUID>), in all and per folder below Snapshots/
#   inspect/N.txt       `splashgen inspect` of file N, its error when it cannot read the file
#   decoded/N.png       `splashgen decode` of file N, when it decodes
# SPLASHGEN names the splashgen binary (default: splashgen on the PATH). It records; it judges
# nothing, and exits 0 unless its arguments or OUT_DIR are wrong, even when there is no folder.
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: record-snapshots.sh DATA_CONTAINER OUT_DIR" >&2
    exit 64
fi
container=$1
out=$2
splashgen=${SPLASHGEN:-splashgen}
snapshots="$container/Library/SplashBoard/Snapshots"
mkdir -p "$out/inspect" "$out/decoded"

if [ -d "$container/Library" ]; then
    (cd "$container/Library" && find . -type f -exec ls -l {} +) > "$out/library-files.txt" 2>&1 || true
fi
if [ ! -d "$snapshots" ]; then
    echo "no Library/SplashBoard/Snapshots/ in $container" | tee "$out/files.tsv"
    echo '{"snapshots_folder": false, "count": 0, "containers": {}, "names": [], "folders": []}' > "$out/summary.json"
    exit 0
fi
tar -czf "$out/snapshots.tar.gz" -C "$container/Library/SplashBoard" Snapshots

# The container, from the `format` line `splashgen inspect` prints (FileInspector's wording).
container_of() {
    case "$(sed -n 's/^  format  *//p' "$1" | head -n 1)" in
    "Apple ATX"*) echo ATX ;;
    KTX*) echo KTX ;;
    PNG) echo PNG ;;
    JPEG) echo JPEG ;;
    *) echo unreadable ;;
    esac
}

printf 'n\tsha256\tbytes\tcontainer\tinspect\tdecode\tpath\n' > "$out/files.tsv"
n=0
while IFS= read -r -d '' file; do
    n=$((n + 1))
    relative=${file#"$snapshots"/}
    sha=$(shasum -a 256 "$file" | cut -d ' ' -f 1)
    bytes=$(wc -c < "$file" | tr -d ' ')
    inspected=0
    "$splashgen" inspect "$file" > "$out/inspect/$n.txt" 2>&1 || inspected=$?
    kind=$(container_of "$out/inspect/$n.txt")
    decoded=0
    "$splashgen" decode "$file" -o "$out/decoded/$n.png" > /dev/null 2>> "$out/inspect/$n.txt" || decoded=$?
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$sha" "$bytes" "$kind" "$inspected" "$decoded" "$relative" >> "$out/files.tsv"
done < <(find "$snapshots" -type f -print0 | sort -z)

# summary.json: the files grouped by their folder below Snapshots/ ("." for Snapshots/ itself).
jq -R -s '
    def tally: group_by(.container) | map({key: .[0].container, value: length}) | from_entries;
    def brief: {count: length, containers: tally, names: (map(.name) | unique)};
    [split("\n")[1:][] | select(length > 0) | split("\t") | {container: .[3], path: .[6]}
        | .folder = (if (.path | test("/")) then (.path | sub("/[^/]*$"; "")) else "." end)
        | .name = (.path | sub("^.*/"; "")
            | gsub("[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"; "<UUID>"))]
    | {snapshots_folder: true} + brief + {folders: (group_by(.folder) | map({folder: .[0].folder} + brief))}
' "$out/files.tsv" > "$out/summary.json"
echo "recorded $n files under Library/SplashBoard/Snapshots/ into $out"
column -t -s "$(printf '\t')" "$out/files.tsv" || cat "$out/files.tsv"
