package benchdoc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const (
	script = "../../scripts/bench.sh"
	page   = "../../docs/performance.md"
)

// optional names the tables the script writes that the page may lack,
// with the reason.
var optional = map[string]string{
	"compose2nix": "measured only with a compose2nix binary (COMPOSE2NIX)",
}

// written returns the names of the tables the script writes: its
// `block NAME "HEADER"` calls.
func written(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^\s*block ([a-z0-9]+) "`).FindAllStringSubmatch(string(data), -1) {
		names = append(names, m[1])
	}
	if len(names) == 0 {
		t.Fatalf("%s: no block NAME calls found", script)
	}
	return names
}

var marker = regexp.MustCompile(`^<!-- bench:([a-z0-9]+) (begin|end) -->$`)

// blocks returns the text between each NAME's markers in doc, by NAME;
// markers out of order, repeated or unpaired are an error.
func blocks(doc string) (map[string]string, error) {
	out := map[string]string{}
	open, start := "", 0
	lines := strings.SplitAfter(doc, "\n")
	pos := 0
	for i, line := range lines {
		pos += len(line)
		m := marker.FindStringSubmatch(strings.TrimSuffix(line, "\n"))
		if m == nil {
			continue
		}
		switch name, kind := m[1], m[2]; {
		case kind == "begin" && open != "":
			return nil, fmt.Errorf("line %d: bench:%s begins inside bench:%s", i+1, name, open)
		case kind == "begin":
			if _, dup := out[name]; dup {
				return nil, fmt.Errorf("line %d: bench:%s a second time", i+1, name)
			}
			open, start = name, pos
		case name != open:
			return nil, fmt.Errorf("line %d: bench:%s ends, but %q is open", i+1, name, open)
		default:
			out[name] = doc[start : pos-len(line)]
			open = ""
		}
	}
	if open != "" {
		return nil, fmt.Errorf("bench:%s has no end marker", open)
	}
	return out, nil
}

var (
	figureCell = regexp.MustCompile(`^(—|[0-9]+(\.[0-9]+)? (ms|s|MB))$`)
	ratioCell  = regexp.MustCompile(`^([0-9]+\.[0-9]{2}) \[([0-9]+\.[0-9]{2})–([0-9]+\.[0-9]{2})\]$`)
	measured   = regexp.MustCompile(`^Measured [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC at .+; load average [0-9.]+ before the section and [0-9.]+ after \(.+\)\.$`)
)

// cells splits a table line "| a | b |" into its trimmed cells.
func cells(line string) ([]string, bool) {
	if !strings.HasPrefix(line, "| ") || !strings.HasSuffix(line, " |") {
		return nil, false
	}
	c := strings.Split(line[2:len(line)-2], " | ")
	return c, true
}

// parseTable checks that block is a table as scripts/bench.sh writes it
// (a header of five cells, the separator, rows: what, A's median, B's
// median, the ratio B/A per pair as "median [min–max]", the number of
// pairs; a blank line; the line saying when it was measured) and returns
// its rows.
func parseTable(block string) ([][]string, error) {
	lines := strings.Split(strings.TrimPrefix(block, "\n"), "\n")
	if len(lines) < 6 || lines[len(lines)-1] != "" {
		return nil, fmt.Errorf("%d lines, want a header, a separator, rows, a blank line, the measured line", len(lines))
	}
	lines = lines[:len(lines)-1]
	head, ok := cells(lines[0])
	if !ok || len(head) != 5 || !strings.HasSuffix(head[3], "B / A per pair: median [min–max]") || head[4] != "pairs" {
		return nil, fmt.Errorf("header %q: want | what | A | B | B / A per pair: median [min–max] | pairs |", lines[0])
	}
	if lines[1] != "|---|---|---|---|---|" {
		return nil, fmt.Errorf("separator %q", lines[1])
	}
	n := len(lines)
	if lines[n-2] != "" || !measured.MatchString(lines[n-1]) {
		return nil, fmt.Errorf("the table ends with %q, %q: want a blank line and the line saying when it was measured", lines[n-2], lines[n-1])
	}
	var rows [][]string
	for _, line := range lines[2 : n-2] {
		c, ok := cells(line)
		if !ok || len(c) != 5 {
			return nil, fmt.Errorf("row %q: want five cells", line)
		}
		if !figureCell.MatchString(c[1]) || !figureCell.MatchString(c[2]) {
			return nil, fmt.Errorf("row %q: A and B are a figure and its unit (ms, s, MB), or —", line)
		}
		m := ratioCell.FindStringSubmatch(c[3])
		if m == nil {
			return nil, fmt.Errorf("row %q: ratio %q is not median [min–max]", line, c[3])
		}
		med, _ := strconv.ParseFloat(m[1], 64)
		lo, _ := strconv.ParseFloat(m[2], 64)
		hi, _ := strconv.ParseFloat(m[3], 64)
		if lo > med || med > hi {
			return nil, fmt.Errorf("row %q: the median is outside the range", line)
		}
		if p, err := strconv.Atoi(c[4]); err != nil || p < 1 {
			return nil, fmt.Errorf("row %q: pairs %q is no count", line, c[4])
		}
		rows = append(rows, c)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("no rows")
	}
	return rows, nil
}

// TestPageTables: every table the script writes has its markers in the
// page (an optional one aside), every marked block is one the script
// writes, and each block is a table in the script's shape.
func TestPageTables(t *testing.T) {
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	got, err := blocks(string(data))
	if err != nil {
		t.Fatalf("%s: %v", page, err)
	}
	names := written(t)
	for _, name := range names {
		block, ok := got[name]
		if !ok {
			if why, opt := optional[name]; opt {
				t.Logf("%s: no bench:%s table (%s)", page, name, why)
				continue
			}
			t.Errorf("%s: no <!-- bench:%s begin --> / end markers; scripts/bench.sh writes that table", page, name)
			continue
		}
		if _, err := parseTable(block); err != nil {
			t.Errorf("%s: bench:%s: %v", page, name, err)
		}
	}
	for name := range got {
		if !slices.Contains(names, name) {
			t.Errorf("%s: bench:%s is no table scripts/bench.sh writes", page, name)
		}
	}
}

// fake is the measuring command of TestScriptPairs: it logs each call
// and prints, for side A, 100 ms (1e8 ns) in every column, and for side
// B, by the call's number, 999 (the warm-up), then 110, 150 and 120 ms:
// ratios 1.10, 1.50, 1.20.
const fake = `#!/bin/sh
id=$1
echo "$id" >>"$FAKE_LOG"
case $id in
"list convert") printf 'alpha\nbeta_sub\n'; exit 0 ;;
esac
n=$(grep -cxF "$id" "$FAKE_LOG")
case $id in
*" A") echo "100000000 100000000 100000000" ;;
*" B") set -- 999 110000000 150000000 120000000; shift $((n - 1)); echo "$1 $1 $1" ;;
esac
`

// TestScriptPairs runs the whole script on a fake measuring command: each
// figure's runs alternate A B A B after one warm-up of each, each table
// gives the medians and the median and range of the per-pair ratios, and
// the page's tables are replaced between their markers, the rest kept.
func TestScriptPairs(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fake.sh"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	names := written(t)
	var doc strings.Builder
	doc.WriteString("# page\n\nkept before\n")
	for _, name := range names {
		fmt.Fprintf(&doc, "\n<!-- bench:%s begin -->\nstale %s\n<!-- bench:%s end -->\nkept after %s\n", name, name, name, name)
	}
	docPath := filepath.Join(dir, "performance.md")
	if err := os.WriteFile(docPath, []byte(doc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	const pairs, genPairs = 3, 2
	cmd := exec.Command("sh", script)
	cmd.Env = append(os.Environ(), "C2M_BENCH_FAKE="+filepath.Join(dir, "fake.sh"), "FAKE_LOG="+filepath.Join(dir, "log"),
		"C2M_BENCH_DOC="+docPath, "PAIRS="+strconv.Itoa(pairs), "GEN_PAIRS="+strconv.Itoa(genPairs),
		"SECTIONS="+strings.Join(names, " "), "C2M_BENCH_10K=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bench.sh: %v\n%s", err, out)
	}

	// The runs: per figure, A B A B ..., one warm-up pair and then the
	// pairs.
	logData, err := os.ReadFile(filepath.Join(dir, "log"))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	runs := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(logData)), "\n") {
		if strings.HasPrefix(line, "list ") {
			continue
		}
		key, side, _ := strings.Cut(line, " ")
		for strings.Contains(side, " ") { // keys hold a space: "convert alpha A"
			var k string
			k, side, _ = strings.Cut(side, " ")
			key += " " + k
		}
		if len(keys) == 0 || keys[len(keys)-1] != key {
			if _, seen := runs[key]; seen {
				t.Errorf("runs of %q are not together", key)
			}
			keys = append(keys, key)
		}
		runs[key] = append(runs[key], side)
	}
	for _, key := range keys {
		n := pairs
		if strings.HasPrefix(key, "generated") || key == "rss" { // GEN_PAIRS
			n = genPairs
		}
		want := strings.Repeat("AB", n+1)
		if got := strings.Join(runs[key], ""); got != want {
			t.Errorf("runs of %q: %s, want %s (a warm-up of each, then %d pairs)", key, got, want, n)
		}
	}
	for _, key := range []string{"convert alpha", "convert beta_sub", "jobs bench", "jobs proc", "rss", "against base", "compose2nix zammad"} {
		if _, ok := runs[key]; !ok {
			t.Errorf("no runs of %q", key)
		}
	}

	// The tables.
	data, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	got, err := blocks(string(data))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		rows, err := parseTable(got[name])
		if err != nil {
			t.Errorf("bench:%s: %v\n%s", name, err, got[name])
			continue
		}
		want := "1.20 [1.10–1.50]" // the median of 1.10, 1.50, 1.20
		if name == "generated" || name == "rss" {
			want = "1.30 [1.10–1.50]" // of 1.10, 1.50: GEN_PAIRS
		}
		for _, r := range rows {
			if r[3] != want {
				t.Errorf("bench:%s: row %q: ratio %s, want %s", name, r[0], r[3], want)
			}
		}
	}
	if rows, err := parseTable(got["convert"]); err == nil {
		wantRows := [][]string{
			{"alpha", "100 ms", "120 ms", "1.20 [1.10–1.50]", "3"},
			{"beta_sub", "100 ms", "120 ms", "1.20 [1.10–1.50]", "3"},
			{"whole corpus (sums)", "200 ms", "240 ms", "1.20 [1.10–1.50]", "3"},
			{"geometric mean of the projects", "—", "—", "1.20 [1.10–1.50]", "3"},
		}
		if !slices.EqualFunc(rows, wantRows, slices.Equal) {
			t.Errorf("bench:convert rows:\n%q\nwant\n%q", rows, wantRows)
		}
	}
	outside := regexp.MustCompile(`(?s)<!-- bench:([a-z0-9]+) begin -->\n.*?<!-- bench:[a-z0-9]+ end -->\n`).ReplaceAllString(string(data), "[$1]\n")
	wantOutside := regexp.MustCompile(`(?s)<!-- bench:([a-z0-9]+) begin -->\n.*?<!-- bench:[a-z0-9]+ end -->\n`).ReplaceAllString(doc.String(), "[$1]\n")
	if outside != wantOutside {
		t.Errorf("the page outside the tables changed:\n%s\nwant\n%s", outside, wantOutside)
	}
	if strings.Contains(string(data), "stale") {
		t.Errorf("a stale table was left:\n%s", data)
	}
}

// TestScriptShellcheck: the script is shellcheck-clean, where shellcheck
// is installed.
func TestScriptShellcheck(t *testing.T) {
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Skip("shellcheck is not installed")
	}
	if out, err := exec.Command(sc, script).CombinedOutput(); err != nil {
		t.Errorf("shellcheck %s: %v\n%s", script, err, out)
	}
}
