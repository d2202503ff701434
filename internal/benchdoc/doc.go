// Package benchdoc holds no code of its own: its tests hold that the
// tables of docs/performance.md are the ones scripts/bench.sh writes
// (between its <!-- bench:NAME begin --> and <!-- bench:NAME end -->
// markers, in the shape it writes them), and that the script pairs its
// runs (A B A B, a ratio per pair, their median and range), on a fake
// measuring command (C2M_BENCH_FAKE).
package benchdoc
