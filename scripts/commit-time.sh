#!/usr/bin/env bash
# The serial `make bundles` publishes: SOURCE_DATE_EPOCH as it is when set (publish itself refuses
# one that is empty or not a positive number), else the checked-out commit's time from git, in
# seconds since 1970. When git cannot say (a CI container whose workspace another user owns makes
# git refuse it as "dubious ownership"), it fails loudly: a serial taken from the clock would let a
# re-run of an old commit publish an old season at a new serial, and phones would take it.
#
#   scripts/commit-time.sh [REPOSITORY]     (default: the current folder)
set -euo pipefail
if [ "${SOURCE_DATE_EPOCH+set}" = set ]; then
    printf '%s\n' "$SOURCE_DATE_EPOCH"
    exit 0
fi
if ! time=$(git -C "${1:-.}" log -1 --format=%ct 2>&1) || [ -z "$time" ]; then
    {
        echo "error: git cannot give the commit's time, which is the serial a publication must carry:"
        printf '  %s\n' "${time:-git printed nothing}"
        echo "  in a CI container, mark the workspace safe first: git config --global --add safe.directory \"\$PWD\";"
        echo "  or set SOURCE_DATE_EPOCH to the commit's time yourself"
    } >&2
    exit 1
fi
printf '%s\n' "$time"
