#!/usr/bin/env bash
# Runs every fuzz target of the repository (func FuzzX in a _test.go file)
# for FUZZTIME each (default 10s), with -fuzzminimizetime FUZZMIN (default
# 2s) so that a failing input is minimised within the budget, and fails
# when a target fails or executes no input at all. .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-10s}"
minimize="${FUZZMIN:-2s}"
status=0
while IFS=: read -r file name; do
	pkg="./$(dirname "${file#./}")"
	log=$(mktemp)
	if ! go test -run='^$' -fuzz="^${name}\$" -fuzztime="$fuzztime" -fuzzminimizetime="$minimize" "$pkg" >"$log" 2>&1; then
		echo "fuzz: $pkg $name failed:" >&2
		cat "$log" >&2
		status=1
	elif ! grep -Eq 'execs: [1-9]' "$log"; then
		echo "fuzz: $pkg $name executed no input:" >&2
		cat "$log" >&2
		status=1
	else
		echo "fuzz: $pkg $name: $(grep -Eo 'execs: [0-9]+' "$log" | tail -1)"
	fi
	rm -f "$log"
done < <(grep -rEo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]+' . | sed 's/func //' | sort)
exit $status
