package rules_test

// This file is the rules' analogue of x/tools' analysistest: fixture files
// carry "# want" comments on the lines that must be reported, and
// checkDiagnostics fails on every expected diagnostic not reported and on
// every reported diagnostic not expected.
//
// A want comment is "# want" followed by one or more pairs of a rule ID and
// a Go string literal holding a regular expression, which must match the
// diagnostic's Message (not its service or source prefix):
//
//	- directory: /srv/a/b  # want C2M003 "before its ancestor /srv/a" C2M011 `^parent /srv of`
//
// Use a raw `...` literal when the expression needs a backslash or a
// double quote. A line may expect the same rule more than once; each pair
// is matched by one diagnostic. Warnings are expected like errors.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/rules"
)

// want is one expected diagnostic: a rule at a line of a file whose
// message matches re.
type want struct {
	file string
	line int
	rule string
	re   *regexp.Regexp
}

func (w want) String() string {
	return fmt.Sprintf("%s:%d: %s %q", w.file, w.line, w.rule, w.re)
}

var (
	// wantComment finds a want comment and captures what follows "want".
	wantComment = regexp.MustCompile(`#\s*want\b(.*)$`)
	// wantPair is one rule ID and its message expression.
	wantPair = regexp.MustCompile("^[\\s,]*(C2M\\d{3})\\s+(\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`)")
)

// readWants returns the wants of each file, in file and line order. A want
// comment that is not a list of ID and string pairs, or whose expression
// does not compile, fails the test at its line.
func readWants(t *testing.T, files ...string) []want {
	t.Helper()
	var out []want
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			m := wantComment.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			ws, err := parseWant(m[1])
			if err != nil {
				t.Errorf("%s:%d: bad want comment: %v", f, i+1, err)
			}
			for _, w := range ws {
				w.file, w.line = f, i+1
				out = append(out, w)
			}
		}
	}
	return out
}

// parseWant parses what follows "# want": ID and string pairs.
func parseWant(s string) ([]want, error) {
	var out []want
	for strings.TrimSpace(s) != "" {
		m := wantPair.FindStringSubmatch(s)
		if m == nil {
			return nil, fmt.Errorf("want C2M0NN \"regexp\" pairs, found %q", strings.TrimSpace(s))
		}
		s = s[len(m[0]):]
		expr, err := strconv.Unquote(m[2])
		if err != nil {
			return nil, fmt.Errorf("%s: %v", m[2], err)
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, err
		}
		out = append(out, want{rule: m[1], re: re})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf(`want C2M0NN "regexp" pairs, found none`)
	}
	return out, nil
}

// got is a reported diagnostic with the fixture file it is in, as the
// wants name it.
type got struct {
	file string
	d    rules.Diagnostic
}

func (g got) String() string {
	return fmt.Sprintf("%s:%d: %s %s: %s", g.file, g.d.Line, g.d.Rule, g.d.Severity, g.d.Message)
}

// checkDiagnostics matches each reported diagnostic with the first
// unmatched want at its file and line, of its rule, whose expression
// matches its message; it fails on every diagnostic left unmatched and
// every want left unmatched, each at its file and line. It also checks the
// fields every diagnostic must have.
func checkDiagnostics(t *testing.T, wants []want, gots []got) {
	t.Helper()
	list := rules.All()
	sort.SliceStable(gots, func(i, j int) bool {
		if gots[i].file != gots[j].file {
			return gots[i].file < gots[j].file
		}
		return gots[i].d.Line < gots[j].d.Line
	})
	matched := make([]bool, len(wants))
	var unexpected []got
	for _, g := range gots {
		checkFields(t, list, g)
		found := false
		for i, w := range wants {
			if !matched[i] && w.file == g.file && w.line == g.d.Line && w.rule == g.d.Rule && w.re.MatchString(g.d.Message) {
				matched[i], found = true, true
				break
			}
		}
		if !found {
			unexpected = append(unexpected, g)
		}
	}
	for i, w := range wants {
		if matched[i] {
			continue
		}
		var there []string
		for _, g := range gots {
			if g.file == w.file && g.d.Line == w.line {
				there = append(there, fmt.Sprintf("\n\t%s %s: %s", g.d.Rule, g.d.Severity, g.d.Message))
			}
		}
		if len(there) == 0 {
			there = []string{" none"}
		}
		t.Errorf("%s:%d: missing %s diagnostic matching %q; reported on that line:%s", w.file, w.line, w.rule, w.re, strings.Join(there, ""))
	}
	for _, g := range unexpected {
		t.Errorf("%s: unexpected diagnostic", g)
	}
}

// checkFields checks the fields every diagnostic must have.
func checkFields(t *testing.T, list []*rules.Rule, g got) {
	t.Helper()
	d := g.d
	switch {
	case rules.Lookup(list, d.Rule) == nil:
		t.Errorf("%s: unknown rule", g)
	case d.Severity != rules.Error && d.Severity != rules.Warning:
		t.Errorf("%s: severity %q", g, d.Severity)
	case d.File == "" || d.Line == 0:
		t.Errorf("%s: no position", g)
	case d.Message == "" || d.Fix == "":
		t.Errorf("%s: no message or fix", g)
	case d.Module == "":
		t.Errorf("%s: no module", g)
	}
}

// wantedRules returns the IDs the wants of files expect.
func wantedRules(t *testing.T, files ...string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, w := range readWants(t, files...) {
		out[w.rule] = true
	}
	return out
}

// filesUnder returns the regular files under dir, in lexical order.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
