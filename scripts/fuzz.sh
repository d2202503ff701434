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
	ok=true
	for attempt in 1 2; do
		if go test -run='^$' -fuzz="^${name}\$" -fuzztime="$fuzztime" -fuzzminimizetime="$minimize" "$pkg" >"$log" 2>&1; then
			ok=true
			break
		fi
		ok=false
		# Go's fuzzing engine may end a run it was stopping at the
		# deadline with "context deadline exceeded" and no input of its
		# own: no crash found. Run that target once more; a real failure
		# writes its input (testdata/fuzz/...) and is never retried.
		if grep -q 'Failing input written' "$log" || ! grep -q 'context deadline exceeded' "$log"; then
			break
		fi
		echo "fuzz: $pkg $name: the engine stopped at its deadline without a failing input (attempt $attempt); once more" >&2
	done
	if ! $ok; then
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
