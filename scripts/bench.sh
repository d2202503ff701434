#!/bin/sh
# bench.sh — measure convert against compose-go's load, convert --batch with
# 1 and 2 workers, and batches of generated trees; print the ratios.
#
#   C2M_CORPUS=../shared/corpus scripts/bench.sh
#
# Environment: C2M_CORPUS (default ../shared/corpus), BENCHTIME for the
# per-project benchmarks (default 20x), COUNT (default 3; the median of the
# COUNT runs is used), GEN_PROJECTS for the RSS run and the re-check
# (default 2000), C2M_BENCH_10K (set: batch a 10,000-project tree too),
# BASE (the revision the re-check is compared with, default main), PAIRS
# (A B pairs of the re-check and of section 6, default 5), COMPOSE2NIX (a
# compose2nix binary: section 6 compares a single convert with it), SECTIONS
# (default "1 2 3 4 5 6").
set -eu
cd "$(dirname "$0")/.."
: "${C2M_CORPUS:=../shared/corpus}"
: "${BENCHTIME:=20x}"
: "${COUNT:=3}"
: "${GEN_PROJECTS:=2000}"
: "${BASE:=main}"
: "${PAIRS:=5}"
: "${SECTIONS:=1 2 3 4 5 6}"
C2M_CORPUS=$(cd "$C2M_CORPUS" && pwd)
export C2M_CORPUS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(go version | cut -d' ' -f3)"
echo

# median VALUES...: the median of its numeric arguments.
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

want() { case " $SECTIONS " in *" $1 "*) return 0 ;; esac; return 1; }

if want 1; then
echo "== 1. convert vs compose-go load, per corpus project (target: convert <= 1.25 x load)"
go test ./convert -run '^$' -bench '^(BenchmarkLoad|BenchmarkConvert|BenchmarkImagesLoad)$' \
	-benchtime "$BENCHTIME" -count "$COUNT" >"$tmp/convert.txt"
awk -v count="$COUNT" '
	/^Benchmark(Load|Convert)\// {
		split($1, a, "/"); kind = a[1]; name = $1; sub(/^[^\/]*\//, "", name); sub(/-[0-9]+$/, "", name)
		v[kind, name] = v[kind, name] " " $3; names[name] = 1
	}
	/^BenchmarkImagesLoad/ { img = img " " $3 }
	function med(s,   n, x, i, j, t) {
		n = split(s, x, " ")
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] + 0 < x[i] + 0) { t = x[i]; x[i] = x[j]; x[j] = t }
		return (n % 2) ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
	}
	END {
		printf "%-58s %10s %10s %6s\n", "project", "load ms", "convert ms", "ratio"
		k = 0
		for (name in names) sorted[++k] = name
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (sorted[j] < sorted[i]) { t = sorted[i]; sorted[i] = sorted[j]; sorted[j] = t }
		for (i = 1; i <= k; i++) {
			name = sorted[i]; l = med(v["BenchmarkLoad", name]); c = med(v["BenchmarkConvert", name])
			r = c / l; lsum += l; csum += c; lg += log(r); if (r > max) { max = r; maxname = name }
			printf "%-58s %10.2f %10.2f %6.2f\n", name, l / 1e6, c / 1e6, r
		}
		printf "geometric mean of ratios: %.2f   whole corpus (sum convert / sum load): %.2f   max: %.2f (%s)\n", exp(lg / k), csum / lsum, max, maxname
		printf "image table parse (once per process, shared by a batch): %.2f ms\n", med(img) / 1e6
	}' "$tmp/convert.txt"
echo
fi

if want 2; then
echo "== 2. batch of the corpus, --jobs 2 vs --jobs 1 (target: >= 1.6 x faster)"
go test ./batch -run '^$' -bench '^BenchmarkBatchCorpus$' -benchtime 5x -count "$COUNT" >"$tmp/corpus.txt"
j1=$(median $(awk '/jobs=1/ {print $3}' "$tmp/corpus.txt"))
j2=$(median $(awk '/jobs=2/ {print $3}' "$tmp/corpus.txt"))
awk -v a="$j1" -v b="$j2" 'BEGIN { printf "jobs=1: %.1f ms   jobs=2: %.1f ms   speed-up: %.2f x\n", a / 1e6, b / 1e6, a / b }'
echo
fi

if want 3; then
echo "== 3. generated trees (10 services x 4 volumes per project), in-process, default --jobs"
go test ./batch -run '^$' -bench '^BenchmarkBatchGenerated$' -benchtime 1x -count 1 -timeout 30m >"$tmp/gen.txt"
awk '/projects=/ {
		n = $1; sub(/.*projects=/, "", n); sub(/-[0-9]+$/, "", n)
		for (i = 3; i < NF; i++) { if ($(i+1) == "ms/project") per = $i; if ($(i+1) == "peak-heap-MB") heap = $i }
		if (!base) base = per
		printf "%5d projects: %7.2f s  %6.2f ms/project (x%.2f of the 500-project rate)  peak Go heap %6.1f MB\n", n, $3 / 1e9, per, per / base, heap
	}' "$tmp/gen.txt"
echo
fi

go build -o "$tmp/compose2manifest" ./cmd/compose2manifest
if want 4 || want 5; then go run -tags c2mtools ./internal/gen/c2mgen -projects "$GEN_PROJECTS" -o "$tmp/tree"; fi
if want 4; then
echo "== 4. peak RSS of the binary over $GEN_PROJECTS generated projects (target: <= 150 MB)"
/usr/bin/time -v "$tmp/compose2manifest" convert --batch "$tmp/tree" -o "$tmp/out" 2>"$tmp/time.txt" >/dev/null || true
grep -E '^compose2manifest: ' "$tmp/time.txt" | head -1
awk -F': ' '/Maximum resident set size/ { rss = $2 } /Elapsed \(wall clock\)/ { wall = $2 } END { printf "first run: peak RSS %.1f MB, wall %s\n", rss / 1024, wall }' "$tmp/time.txt"
/usr/bin/time -v "$tmp/compose2manifest" convert --batch "$tmp/tree" -o "$tmp/out" 2>"$tmp/time2.txt" >/dev/null || true
awk -F': ' '/Maximum resident set size/ { rss = $2 } /Elapsed \(wall clock\)/ { wall = $2 } END { printf "second run (every manifest unchanged): peak RSS %.1f MB, wall %s\n", rss / 1024, wall }' "$tmp/time2.txt"
fi

# pairs LABEL_A CMD_A LABEL_B CMD_B: runs A and B alternately PAIRS times
# (after one warm-up of each) and prints each one's median wall and peak
# RSS and the median of the per-pair ratios B/A with their min-max.
pairs() {
	la=$1 ca=$2 lb=$3 cb=$4
	sh -c "$ca" >/dev/null 2>&1 || true
	sh -c "$cb" >/dev/null 2>&1 || true
	: >"$tmp/pairs.txt"
	i=0
	while [ "$i" -lt "$PAIRS" ]; do
		/usr/bin/time -f '%e %M' -o "$tmp/a.txt" sh -c "$ca" >/dev/null 2>&1 || true
		/usr/bin/time -f '%e %M' -o "$tmp/b.txt" sh -c "$cb" >/dev/null 2>&1 || true
		echo "$(tail -1 "$tmp/a.txt") $(tail -1 "$tmp/b.txt")" >>"$tmp/pairs.txt"
		i=$((i + 1))
	done
	awk -v la="$la" -v lb="$lb" '
		function med(x, n,   i, j, t) {
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
			return (n % 2) ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
		}
		{ n++; aw[n] = $1; am[n] = $2 / 1024; bw[n] = $3; bm[n] = $4 / 1024; r[n] = ($1 > 0) ? $3 / $1 : 0
		  if (n == 1 || r[n] < lo) lo = r[n]; if (n == 1 || r[n] > hi) hi = r[n] }
		END {
			printf "%s: wall %.2f s, peak RSS %.1f MB (medians of %d)\n", la, med(aw, n), med(am, n), n
			printf "%s: wall %.2f s, peak RSS %.1f MB\n", lb, med(bw, n), med(bm, n)
			printf "%s / %s, paired: median %.3f [%.3f-%.3f]\n", lb, la, med(r, n), lo, hi
		}' "$tmp/pairs.txt"
}

if want 5; then
echo "== 5. check --against of $GEN_PROJECTS unchanged generated projects: $BASE (A) vs this tree (B), paired A B A B (target: B <= 0.5 s, <= 100 MB)"
mkdir -p "$tmp/base"
git archive "$BASE" | tar -x -C "$tmp/base"
(cd "$tmp/base" && go build -o "$tmp/compose2manifest-base" ./cmd/compose2manifest)
"$tmp/compose2manifest-base" convert --batch "$tmp/tree" -o "$tmp/out-a" --quiet >/dev/null 2>&1 || true
"$tmp/compose2manifest" convert --batch "$tmp/tree" -o "$tmp/out-b" --quiet >/dev/null 2>&1 || true
pairs "A ($BASE)" "'$tmp/compose2manifest-base' check --against '$tmp/tree' '$tmp/out-a'" "B (this tree)" "'$tmp/compose2manifest' check --against '$tmp/tree' '$tmp/out-b'"
echo "-- one project changed (B only, vs B unchanged)"
f=$(find "$tmp/tree" -name compose.yaml | sort | sed -n 743p)
cp "$f" "$tmp/orig.yaml"
echo "# changed" >>"$f"
pairs "B unchanged" "cp '$tmp/orig.yaml' '$f'; '$tmp/compose2manifest' check --against '$tmp/tree' '$tmp/out-b'" "B one changed" "cp '$tmp/orig.yaml' '$f'; echo '# changed' >>'$f'; '$tmp/compose2manifest' check --against '$tmp/tree' '$tmp/out-b'"
cp "$tmp/orig.yaml" "$f"
fi

# ms CMD: runs CMD in sh, output discarded, and prints its wall time in
# milliseconds (date's nanoseconds: /usr/bin/time counts hundredths).
ms() {
	t0=$(date +%s%N)
	sh -c "$1" >/dev/null 2>&1 || true
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000))
}

if want 6; then
echo "== 6. a single convert vs compose2nix, whole process, paired A B A B ($PAIRS pairs; target: <= 1.00)"
if [ -z "${COMPOSE2NIX:-}" ]; then
	echo "skipped: set COMPOSE2NIX to a compose2nix binary (go install github.com/aksiksi/compose2nix@latest)"
else
	go build -tags c2mtools -o "$tmp/c2mfill" ./internal/skeletontest/c2mfill
	for p in sentry-self-hosted mailcow zammad; do
		rm -rf "$tmp/single" && mkdir -p "$tmp/single" && cp -R "$C2M_CORPUS/$p" "$tmp/single/$p"
		d="$tmp/single/$p"
		# Declarations filled with placeholders, so that compose2manifest
		# goes all the way to a manifest, as compose2nix always does.
		(cd "$d" && "$tmp/compose2manifest" convert -f docker-compose.yml -o "$tmp/single/out" --format json 2>/dev/null || true) | "$tmp/c2mfill" >"$tmp/single/decl.yaml" || true
		[ -s "$tmp/single/decl.yaml" ] && mv "$tmp/single/decl.yaml" "$d/compose2manifest.yaml"
		envs=""
		[ -f "$d/.env" ] && envs="-env_files '$d/.env'"
		a="cd '$d' && '$COMPOSE2NIX' -inputs docker-compose.yml -output '$tmp/single/out.nix' $envs"
		b="cd '$d' && '$tmp/compose2manifest' convert -f docker-compose.yml -o '$tmp/single/out' --force"
		sh -c "$a" >/dev/null 2>&1 || true
		sh -c "$b" >/dev/null 2>&1 || true
		: >"$tmp/single.txt"
		i=0
		while [ "$i" -lt "$PAIRS" ]; do
			echo "$(ms "$a") $(ms "$b")" >>"$tmp/single.txt"
			i=$((i + 1))
		done
		awk -v p="$p" '
			function med(x, n,   i, j, t) {
				for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
				return (n % 2) ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
			}
			{ n++; a[n] = $1 / 1000; b[n] = $2 / 1000; r[n] = ($1 > 0) ? $2 / $1 : 0
			  if (n == 1 || r[n] < lo) lo = r[n]; if (n == 1 || r[n] > hi) hi = r[n] }
			END { printf "%-20s compose2nix %6.1f ms  compose2manifest %6.1f ms  ratio: median %.2f [%.2f-%.2f]\n", p, med(a, n), med(b, n), med(r, n), lo, hi }' "$tmp/single.txt"
	done
fi
echo
fi
