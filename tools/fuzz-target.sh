#!/usr/bin/env bash
# fuzz-target.sh NAME PKG FUZZTIME — fuzz one target for FUZZTIME (make fuzz-short, make fuzz).
#
# Go 1.26's fuzz coordinator can fail a target with a bare "context deadline exceeded" at the
# -fuzztime boundary when a loaded machine delays a worker's shutdown (fixed in Go 1.27): no
# input failed, and none is written under testdata/fuzz/NAME. Such a run is repeated once and
# said so; a failure that writes an input, any other failure, or a second deadline fails.
set -uo pipefail
name=$1 pkg=$2 fuzztime=$3
go=${GO:-go}
corpus="$pkg/testdata/fuzz/$name"
for attempt in 1 2; do
	before=$(ls "$corpus" 2>/dev/null | sort)
	out=$(mktemp)
	"$go" test -run='^$' -fuzz="^$name\$" -fuzztime="$fuzztime" "$pkg" 2>&1 | tee "$out"
	status=${PIPESTATUS[0]}
	after=$(ls "$corpus" 2>/dev/null | sort)
	deadline_only=false
	if [ "$status" -ne 0 ] && [ "$before" = "$after" ] && grep -q '^    context deadline exceeded$' "$out" &&
		[ "$(grep -c -- '--- FAIL' "$out")" -eq 1 ]; then
		deadline_only=true
	fi
	rm -f "$out"
	if [ "$status" -eq 0 ]; then exit 0; fi
	if [ "$deadline_only" = true ] && [ "$attempt" -eq 1 ]; then
		echo "fuzz: $name stopped on the fuzz coordinator's deadline without a failing input; running it once more"
		continue
	fi
	exit "$status"
done
