#!/bin/sh
# bench.sh — the figures of docs/performance.md, every one paired: A and B
# are run alternately (one warm-up of each, then A B A B ..., never every A
# before every B), a ratio B/A is taken per pair, and each figure is the
# median of the pairs with the range of their ratios. This machine is
# shared: a run beside other work moves both halves of a pair alike, so
# the ratio holds where a single time does not.
#
#   C2M_CORPUS=../shared/corpus scripts/bench.sh
#
# Each section prints its table and writes it into C2M_BENCH_DOC (default
# docs/performance.md, "none" for no file) between the lines
# <!-- bench:NAME begin --> and <!-- bench:NAME end -->; a section whose
# markers the page lacks is printed only. Sections (SECTIONS, default all
# but generated; NAME in the markers):
#
#   convert      compose-go's load alone, as a conversion has it load the
#                project (A) vs the whole conversion (B) of each corpus
#                project, in process (project's BenchmarkComposeLoad,
#                convert's BenchmarkConvert; BENCHTIME iterations a run,
#                default 10x)
#   jobs         convert --batch of the corpus with --jobs 2 (A) and
#                --jobs 1 (B): in process (BenchmarkBatchCorpus) and whole
#                process (wall, CPU, peak RSS)
#   generated    BenchmarkBatchGenerated, 500 projects (A) vs 2,000 (B),
#                collector tuned as the command does: time per project and
#                peak Go heap (GEN_PAIRS pairs; C2M_BENCH_10K set: 10,000
#                (B) as well, one pair)
#   rss          the binary over GEN_PROJECTS generated projects (default
#                2000): a first run into an empty folder (A) vs a re-run
#                with every manifest unchanged (B); GEN_PAIRS pairs
#   against      check --against of GEN_PROJECTS unchanged generated
#                projects: BASE (A, default main) vs this tree (B); then
#                this tree, unchanged (A) vs one project changed (B)
#   compose2nix  a single convert of sentry-self-hosted, mailcow and zammad:
#                compose2nix (A, the binary COMPOSE2NIX names; skipped
#                without it) vs compose2manifest (B), whole process
#
# PAIRS (default 5) is the number of pairs of each figure, GEN_PAIRS
# (default 3) of the generated trees' (a run there takes seconds to
# minutes). QUIET (a percentage, unset by default) starts each pair only
# once the CPUs have been that idle for a second (see quiet). C2M_BENCH_FAKE, for the tests: a command run as
# `$C2M_BENCH_FAKE ID` instead of every measurement (ID is "KEY A" or
# "KEY B"; it prints the run's numbers on one line) and of every listing
# ("list convert": the corpus projects, one a line); nothing is built.
# shellcheck disable=SC2317 # run_a and run_b are called through fig
set -eu
cd "$(dirname "$0")/.."
: "${C2M_CORPUS:=../shared/corpus}"
: "${BENCHTIME:=10x}"
: "${PAIRS:=5}"
: "${GEN_PAIRS:=3}"
: "${GEN_PROJECTS:=2000}"
: "${BASE:=main}"
: "${SECTIONS:=convert jobs rss against compose2nix}"
: "${C2M_BENCH_DOC:=docs/performance.md}"
fake=${C2M_BENCH_FAKE:-}
if [ -z "$fake" ]; then
	C2M_CORPUS=$(cd "$C2M_CORPUS" && pwd)
	export C2M_CORPUS
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(go version 2>/dev/null | cut -d' ' -f3)"
if rev=$(git rev-parse --short HEAD 2>/dev/null); then
	git diff --quiet HEAD 2>/dev/null || rev="$rev (with uncommitted changes)"
else
	rev="an unknown revision"
fi
echo "machine: $machine; revision $rev"
echo

want() { case " $SECTIONS " in *" $1 "*) return 0 ;; esac; return 1; }

# loadavg: the 1-minute load average.
loadavg() { cut -d' ' -f1 /proc/loadavg; }

# fig KEY SIDE: one run of side SIDE (A or B) of KEY, as the numbers it
# measured on one line: the function run_a or run_b (which the caller
# defines), or with C2M_BENCH_FAKE, what that prints for "KEY SIDE".
fig() {
	if [ -n "$fake" ]; then
		"$fake" "$1 $2" </dev/null
	elif [ "$2" = A ]; then
		run_a </dev/null
	else
		run_b </dev/null
	fi
}

# listing WHAT: with C2M_BENCH_FAKE, what it prints for "list WHAT";
# else the function list_real.
listing() {
	if [ -n "$fake" ]; then "$fake" "list $1" </dev/null; else list_real </dev/null; fi
}

# file KEY: the file of KEY's pairs.
file() { echo "$tmp/$(echo "$1" | tr '/ ' '__').pairs"; }

# quiet: with QUIET set (a percentage), waits until the CPUs have been at
# least QUIET % idle over one second (/proc/stat), at most QUIET_WAIT
# seconds (default 120); prints nothing. On a shared machine whose kernel
# shares the CPUs between sessions (sched_autogroup), a run with two
# workers gets two cores only while the others' are idle.
quiet() {
	if [ -z "${QUIET:-}" ] || [ -n "$fake" ]; then return 0; fi
	_quiet_end=$(($(date +%s) + ${QUIET_WAIT:-120}))
	while [ "$(date +%s)" -lt "$_quiet_end" ]; do
		_quiet_a=$(head -1 /proc/stat)
		sleep 1
		_quiet_b=$(head -1 /proc/stat)
		printf '%s\n%s\n' "$_quiet_a" "$_quiet_b" | awk -v want="$QUIET" '
			{ t[NR] = 0; for (i = 2; i <= NF; i++) t[NR] += $i; idle[NR] = $5 + $6 }
			END { exit !((idle[2] - idle[1]) * 100 >= want * (t[2] - t[1])) }' && return 0
	done
	quiet_missed=$((quiet_missed + 1))
}
quiet_missed=0

# pair KEY [N]: one warm-up of A and of B, then N pairs (default PAIRS),
# A B A B. Each pair is a line "A's numbers | B's numbers" of KEY's file.
# (Its variables are prefixed: sh has no local ones, and run_a and run_b
# read the caller's.)
pair() {
	_pair_n=${2:-$PAIRS}
	fig "$1" A >/dev/null
	fig "$1" B >/dev/null
	_pair_f=$(file "$1")
	: >"$_pair_f"
	_pair_i=0
	while [ "$_pair_i" -lt "$_pair_n" ]; do
		quiet
		_pair_a=$(fig "$1" A)
		_pair_b=$(fig "$1" B)
		echo "$_pair_a | $_pair_b" >>"$_pair_f"
		_pair_i=$((_pair_i + 1))
	done
}

# The awk functions the tables share: med, the median of x[1..n] (x is
# left as it was); num, a figure with three significant digits or so.
lib='
function med(x, n,   i, j, t, y) {
	for (i = 1; i <= n; i++) y[i] = x[i]
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (y[j] < y[i]) { t = y[i]; y[i] = y[j]; y[j] = t }
	return (n % 2) ? y[(n + 1) / 2] : (y[n / 2] + y[n / 2 + 1]) / 2
}
function num(v) { return (v >= 100) ? sprintf("%.0f", v) : (v >= 10) ? sprintf("%.1f", v) : sprintf("%.2f", v) }
function ratio(r, n,   i, lo, hi) {
	lo = r[1]; hi = r[1]
	for (i = 2; i <= n; i++) { if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
	return sprintf("%.2f [%.2f–%.2f]", med(r, n), lo, hi)
}
'

# row KEY COL LABEL UNIT SCALE: the table row of the COLth number of KEY's
# pairs: the medians of A and of B (times SCALE, in UNIT), the median and
# range of the ratios B/A, and the number of pairs.
row() {
	awk -v col="$2" -v label="$3" -v unit="$4" -v scale="$5" "$lib"'
		{ split($0, h, "|"); split(h[1], a, " "); split(h[2], b, " "); n++
		  if (!(a[col] > 0 && b[col] > 0)) { printf "bench.sh: %s: pair %d measured %s | %s\n", label, n, h[1], h[2] >"/dev/stderr"; bad = 1; exit 1 }
		  A[n] = a[col] * scale; B[n] = b[col] * scale; R[n] = b[col] / a[col] }
		END { if (bad) exit 1; printf "| %s | %s %s | %s %s | %s | %d |\n", label, num(med(A, n)), unit, num(med(B, n)), unit, ratio(R, n), n }' "$(file "$1")"
}

# total MODE LABEL UNIT SCALE KEY...: a row over several keys' pairs
# (the same number of each), column 1, pair by pair: MODE sum, the ratio
# of the sums of B and A (A and B: the medians of the sums); MODE geo, the
# geometric mean of the keys' ratios (A and B: —).
total() {
	mode=$1 label=$2 unit=$3 scale=$4
	shift 4
	files=""
	for k in "$@"; do files="$files $(file "$k")"; done
	# shellcheck disable=SC2086 # one word a file, none with spaces
	awk -v mode="$mode" -v label="$label" -v unit="$unit" -v scale="$scale" "$lib"'
		FNR == 1 { keys++ }
		{ split($0, h, "|"); split(h[1], a, " "); split(h[2], b, " ")
		  SA[FNR] += a[1] * scale; SB[FNR] += b[1] * scale; LG[FNR] += (a[1] > 0 && b[1] > 0) ? log(b[1] / a[1]) : 0
		  if (FNR > n) n = FNR }
		END {
			for (i = 1; i <= n; i++) R[i] = (mode == "geo") ? exp(LG[i] / keys) : (SA[i] > 0) ? SB[i] / SA[i] : 0
			if (mode == "geo") printf "| %s | — | — | %s | %d |\n", label, ratio(R, n), n
			else printf "| %s | %s %s | %s %s | %s | %d |\n", label, num(med(SA, n)), unit, num(med(SB, n)), unit, ratio(R, n), n
		}' $files
}

# block NAME HEADER: the table of NAME's rows ($tmp/NAME.rows) under
# HEADER (five cells: what, A, B, the ratio B/A per pair, pairs) and a
# line saying when, where and beside what load it was measured, printed
# and written between NAME's markers in C2M_BENCH_DOC.
block() {
	{
		echo "$2"
		echo "|---|---|---|---|---|"
		cat "$tmp/$1.rows"
		echo
		note="a shared machine: other work ran beside it"
		if [ -n "${QUIET:-}" ] && [ -z "$fake" ]; then
			note="$note; each pair started once the CPUs had been $QUIET % idle for a second, $quiet_missed of them after waiting ${QUIET_WAIT:-120} s in vain"
		fi
		echo "Measured $(date -u '+%Y-%m-%d %H:%M') UTC at $rev, $machine; load average $load0 before the section and $(loadavg) after ($note)."
	} >"$tmp/$1.md"
	cat "$tmp/$1.md"
	echo
	[ "$C2M_BENCH_DOC" = none ] && return
	begin="<!-- bench:$1 begin -->" end="<!-- bench:$1 end -->"
	if ! grep -qxF "$begin" "$C2M_BENCH_DOC" || ! grep -qxF "$end" "$C2M_BENCH_DOC"; then
		echo "bench.sh: $C2M_BENCH_DOC has no lines $begin and $end: table not written" >&2
		return
	fi
	awk -v begin="$begin" -v end="$end" -v md="$tmp/$1.md" '
		$0 == begin { print; while ((getline l < md) > 0) print l; skip = 1; next }
		$0 == end { skip = 0 }
		!skip { print }' "$C2M_BENCH_DOC" >"$tmp/doc.md"
	cat "$tmp/doc.md" >"$C2M_BENCH_DOC"
}

# gobench BIN DIR PATTERN BENCHTIME UNIT...: runs test binary BIN in DIR
# on the one benchmark PATTERN matches and prints the value of each UNIT
# (ns/op, ms/project, ...) on its result line.
gobench() {
	bin=$1 dir=$2 pat=$3 bt=$4
	shift 4
	if ! (cd "$dir" && "$bin" -test.run '^$' -test.bench "$pat" -test.benchtime "$bt" -test.count 1) >"$tmp/gobench.txt" 2>&1; then
		cat "$tmp/gobench.txt" >&2
		return 1
	fi
	awk -v units="$*" '
		BEGIN { n = split(units, u, " ") }
		/^Benchmark/ && NF >= 4 {
			line = ""
			for (k = 1; k <= n; k++) { v = ""; for (i = 3; i < NF; i++) if ($(i + 1) == u[k]) v = $i; if (v == "") exit 1; line = line (k > 1 ? " " : "") v }
			print line; found = 1; exit
		}
		END { if (!found) exit 1 }' "$tmp/gobench.txt" || { echo "bench.sh: no result for $pat in $dir:" >&2; cat "$tmp/gobench.txt" >&2; return 1; }
}

# proc CMD [PREP]: runs PREP, then CMD in sh (output discarded; its exit
# status does not matter) and prints CMD's wall time in seconds (date's
# nanoseconds), its CPU seconds (user and system) and its peak RSS in MB
# (/usr/bin/time).
proc() {
	[ -n "${2:-}" ] && sh -c "$2" >/dev/null 2>&1
	t0=$(date +%s%N)
	/usr/bin/time -f '%U %S %M' -o "$tmp/time.txt" sh -c "$1" >/dev/null 2>&1 || true
	t1=$(date +%s%N)
	tail -1 "$tmp/time.txt" | awk -v ns=$((t1 - t0)) '{ printf "%.4f %.2f %.1f\n", ns / 1e9, $1 + $2, $3 / 1024 }'
}

# re NAME: NAME as a benchmark pattern matching it alone.
re() { printf '^%s$' "$(printf '%s' "$1" | sed 's/[.]/\\./g')"; }

if [ -z "$fake" ]; then
	go build -o "$tmp/compose2manifest" ./cmd/compose2manifest
fi
c2m="$tmp/compose2manifest"

if want convert; then
	load0=$(loadavg)
	echo "== convert: compose-go's load (A) vs the whole conversion (B), per corpus project, in process"
	[ -z "$fake" ] && go test -c -o "$tmp/convert.test" ./convert && go test -c -o "$tmp/project.test" ./project
	list_real() {
		(cd convert && "$tmp/convert.test" -test.run '^$' -test.bench '^BenchmarkLoad$' -test.benchtime 1x) |
			awk '/^BenchmarkLoad\// { n = $1; sub(/^BenchmarkLoad\//, "", n); sub(/-[0-9]+$/, "", n); print n }'
	}
	listing convert >"$tmp/projects.txt"
	: >"$tmp/convert.rows"
	keys=""
	while read -r p; do
		run_a() { gobench "$tmp/project.test" project "^BenchmarkComposeLoad\$/$(re "$p")" "$BENCHTIME" ns/op; }
		run_b() { gobench "$tmp/convert.test" convert "^BenchmarkConvert\$/$(re "$p")" "$BENCHTIME" ns/op; }
		pair "convert $p"
		row "convert $p" 1 "$p" ms 1e-6 >>"$tmp/convert.rows"
		keys="$keys convert_$p"
	done <"$tmp/projects.txt"
	# shellcheck disable=SC2086 # keys: one word each
	{
		total sum "whole corpus (sums)" ms 1e-6 $keys
		total geo "geometric mean of the projects" ms 1e-6 $keys
	} >>"$tmp/convert.rows"
	block convert "| corpus project | compose-go load (A) | convert (B) | B / A per pair: median [min–max] | pairs |"
fi

if want jobs; then
	load0=$(loadavg)
	echo "== jobs: convert --batch of the corpus, --jobs 2 (A) vs --jobs 1 (B); B / A is the speed-up (target >= 1.6)"
	[ -z "$fake" ] && go test -c -o "$tmp/batch.test" ./batch
	run_a() { gobench "$tmp/batch.test" batch '^BenchmarkBatchCorpus$/^jobs=2$' 5x ns/op cpu-ms/op; }
	run_b() { gobench "$tmp/batch.test" batch '^BenchmarkBatchCorpus$/^jobs=1$' 5x ns/op cpu-ms/op; }
	pair "jobs bench"
	run_a() { proc "'$c2m' convert --batch '$C2M_CORPUS' -o '$tmp/jobs' --jobs 2 --quiet" "rm -rf '$tmp/jobs'"; }
	run_b() { proc "'$c2m' convert --batch '$C2M_CORPUS' -o '$tmp/jobs' --jobs 1 --quiet" "rm -rf '$tmp/jobs'"; }
	pair "jobs proc"
	{
		row "jobs bench" 1 "in process (BenchmarkBatchCorpus), time" ms 1e-6
		row "jobs bench" 2 "in process, CPU (user + system)" ms 1
		row "jobs proc" 1 "whole process, wall" s 1
		row "jobs proc" 2 "whole process, CPU (user + system)" s 1
		row "jobs proc" 3 "whole process, peak RSS" MB 1
	} >"$tmp/jobs.rows"
	block jobs "| corpus batch | \`--jobs 2\` (A) | \`--jobs 1\` (B) | B / A per pair: median [min–max] | pairs |"
fi

if want generated; then
	load0=$(loadavg)
	echo "== generated: BenchmarkBatchGenerated (10 services x 4 volumes a project), 500 projects (A) vs more (B); collector tuned as the command does"
	[ -z "$fake" ] && go test -c -o "$tmp/batch.test" ./batch
	# The benchmark tunes the collector as the command does.
	export C2M_BENCH_GC=batch
	run_a() { gobench "$tmp/batch.test" batch '^BenchmarkBatchGenerated$/^projects=500$' 1x ms/project peak-heap-MB; }
	run_b() { gobench "$tmp/batch.test" batch '^BenchmarkBatchGenerated$/^projects=2000$' 1x ms/project peak-heap-MB; }
	pair "generated 2000" "$GEN_PAIRS"
	{
		row "generated 2000" 1 "2,000 projects: time per project" ms 1
		row "generated 2000" 2 "2,000 projects: peak Go heap" MB 1
	} >"$tmp/generated.rows"
	if [ -n "${C2M_BENCH_10K:-}" ]; then
		export C2M_BENCH_10K
		run_b() { gobench "$tmp/batch.test" batch '^BenchmarkBatchGenerated$/^projects=10000$' 1x ms/project peak-heap-MB; }
		pair "generated 10000" 1
		{
			row "generated 10000" 1 "10,000 projects: time per project" ms 1
			row "generated 10000" 2 "10,000 projects: peak Go heap" MB 1
		} >>"$tmp/generated.rows"
	fi
	block generated "| generated tree | 500 projects (A) | more (B) | B / A per pair: median [min–max] | pairs |"
fi

if { want rss || want against; } && [ -z "$fake" ]; then
	go run -tags c2mtools ./internal/gen/c2mgen -projects "$GEN_PROJECTS" -o "$tmp/tree"
fi

if want rss; then
	load0=$(loadavg)
	echo "== rss: the binary over $GEN_PROJECTS generated projects, a first run (A) vs a re-run, every manifest unchanged (B) (target: peak RSS <= 150 MB)"
	run_a() { proc "'$c2m' convert --batch '$tmp/tree' -o '$tmp/rss' --quiet" "rm -rf '$tmp/rss'"; }
	run_b() { proc "'$c2m' convert --batch '$tmp/tree' -o '$tmp/rss' --quiet"; }
	pair rss "$GEN_PAIRS"
	{
		row rss 1 "wall" s 1
		row rss 2 "CPU (user + system)" s 1
		row rss 3 "peak RSS" MB 1
	} >"$tmp/rss.rows"
	block rss "| $GEN_PROJECTS generated projects | first run (A) | re-run, unchanged (B) | B / A per pair: median [min–max] | pairs |"
fi

if want against; then
	load0=$(loadavg)
	base=$BASE
	if [ -z "$fake" ] && r=$(git rev-parse --short "$BASE" 2>/dev/null) && [ "$r" != "$BASE" ]; then base="$BASE ($r)"; fi
	echo "== against: check --against of $GEN_PROJECTS unchanged generated projects, $base (A) vs this tree (B) (target: B <= 0.5 s, <= 100 MB)"
	# The re-check's cache (check.CacheDir) in a folder of this run's:
	# warm after the warm-up, and none left behind.
	export C2M_CHECK_CACHE="$tmp/check-cache"
	if [ -z "$fake" ]; then
		mkdir -p "$tmp/base"
		git archive "$BASE" | tar -x -C "$tmp/base"
		(cd "$tmp/base" && go build -o "$tmp/compose2manifest-base" ./cmd/compose2manifest)
		"$tmp/compose2manifest-base" convert --batch "$tmp/tree" -o "$tmp/out-a" --quiet >/dev/null 2>&1 || true
		"$c2m" convert --batch "$tmp/tree" -o "$tmp/out-b" --quiet >/dev/null 2>&1 || true
		# The project changed: the middle one in name order.
		f=$(find "$tmp/tree" -name compose.yaml | sort | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }')
		cp "$f" "$tmp/orig.yaml"
	fi
	run_a() { proc "'$tmp/compose2manifest-base' check --against '$tmp/tree' '$tmp/out-a'"; }
	run_b() { proc "'$c2m' check --against '$tmp/tree' '$tmp/out-b'"; }
	pair "against base"
	run_a() { proc "'$c2m' check --against '$tmp/tree' '$tmp/out-b'" "cp '$tmp/orig.yaml' '$f'"; }
	run_b() { proc "'$c2m' check --against '$tmp/tree' '$tmp/out-b'" "cp '$tmp/orig.yaml' '$f' && echo '# changed' >>'$f'"; }
	pair "against changed"
	[ -z "$fake" ] && cp "$tmp/orig.yaml" "$f"
	{
		row "against base" 1 "unchanged, $base (A) vs this tree (B): wall" s 1
		row "against base" 2 "unchanged, $base (A) vs this tree (B): CPU" s 1
		row "against base" 3 "unchanged, $base (A) vs this tree (B): peak RSS" MB 1
		row "against changed" 1 "this tree, unchanged (A) vs one project changed (B): wall" s 1
		row "against changed" 3 "this tree, unchanged (A) vs one project changed (B): peak RSS" MB 1
	} >"$tmp/against.rows"
	block against "| \`check --against\`, $GEN_PROJECTS generated projects | A | B | B / A per pair: median [min–max] | pairs |"
fi

if want compose2nix; then
	if [ -z "${COMPOSE2NIX:-}" ] && [ -z "$fake" ]; then
		echo "== compose2nix: skipped: set COMPOSE2NIX to a compose2nix binary (go install github.com/aksiksi/compose2nix@latest)"
	else
		load0=$(loadavg)
		echo "== compose2nix: a single convert, compose2nix (A) vs compose2manifest (B), whole process (target: B / A <= 1.00)"
		[ -z "$fake" ] && go build -tags c2mtools -o "$tmp/c2mfill" ./internal/skeletontest/c2mfill
		: >"$tmp/compose2nix.rows"
		for p in sentry-self-hosted mailcow zammad; do
			d="$tmp/single/$p"
			if [ -z "$fake" ]; then
				rm -rf "$tmp/single" && mkdir -p "$tmp/single" && cp -R "$C2M_CORPUS/$p" "$d"
				# Declarations filled with placeholders, so that
				# compose2manifest goes all the way to a manifest, as
				# compose2nix always does.
				(cd "$d" && "$c2m" convert -f docker-compose.yml -o "$tmp/single/out" --format json 2>/dev/null || true) | "$tmp/c2mfill" >"$tmp/single/decl.yaml" || true
				[ -s "$tmp/single/decl.yaml" ] && mv "$tmp/single/decl.yaml" "$d/compose2manifest.yaml"
			fi
			envs=""
			[ -f "$d/.env" ] && envs="-env_files '$d/.env'"
			run_a() { proc "cd '$d' && '$COMPOSE2NIX' -inputs docker-compose.yml -output '$tmp/single/out.nix' $envs"; }
			run_b() { proc "cd '$d' && '$c2m' convert -f docker-compose.yml -o '$tmp/single/out' --force"; }
			pair "compose2nix $p"
			row "compose2nix $p" 1 "$p" ms 1000 >>"$tmp/compose2nix.rows"
		done
		block compose2nix "| project, wall | compose2nix (A) | compose2manifest (B) | B / A per pair: median [min–max] | pairs |"
	fi
fi
