package rules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
)

// TestRules runs every rule over each manifest in testdata and checks the
// diagnostics against the file's "# want C2M0NN" comments.
func TestRules(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test manifests: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { checkWants(t, f) })
	}
}

// TestRuleSets runs every rule over the manifests of each folder under
// testdata/set, one module at a time and as a set, and checks the
// diagnostics against the files' "# want" comments.
func TestRuleSets(t *testing.T) {
	dirs, err := filepath.Glob("testdata/set/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no test sets: %v", err)
	}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
		if err != nil || len(files) < 2 {
			t.Fatalf("%s: want two manifests or more: %v", dir, err)
		}
		t.Run(filepath.Base(dir), func(t *testing.T) { checkWants(t, files...) })
	}
}

var wantRE = regexp.MustCompile(`#\s*want((?:[\s,]+C2M\d{3})+)\s*$`)

// finding is a rule reported at a line of a file.
type finding struct {
	file string
	line int
	rule string
}

func (f finding) String() string { return fmt.Sprintf("%s:%d: %s", f.file, f.line, f.rule) }

// checkWants decodes files, runs rules.All over each with Run and over all
// of them with RunSet, and fails on any diagnostic that no "# want" comment
// expects and on any expected diagnostic not reported. A line may expect a
// rule more than once.
func checkWants(t *testing.T, files ...string) {
	t.Helper()
	list := rules.All()
	var modules []*manifest.Module
	var want, got []finding
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			m := wantRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			for _, id := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
				want = append(want, finding{f, i + 1, id})
			}
		}
		m, err := manifest.Decode(f, data)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		modules = append(modules, m)
		for _, d := range rules.Run(list, m) {
			got = append(got, checkDiagnostic(t, list, d))
		}
	}
	if len(files) > 1 {
		for _, d := range rules.RunSet(list, modules) {
			got = append(got, checkDiagnostic(t, list, d))
		}
	}
	for _, w := range want {
		if i := slices.Index(got, w); i >= 0 {
			got = slices.Delete(got, i, i+1)
		} else {
			t.Errorf("%s: missing diagnostic", w)
		}
	}
	sort.Slice(got, func(i, j int) bool { return got[i].String() < got[j].String() })
	for _, g := range got {
		t.Errorf("%s: unexpected diagnostic", g)
	}
	if t.Failed() {
		for _, m := range modules {
			for _, d := range rules.Run(list, m) {
				t.Logf("reported: %s", d)
			}
		}
		if len(modules) > 1 {
			for _, d := range rules.RunSet(list, modules) {
				t.Logf("reported (set): %s", d)
			}
		}
	}
}

// checkDiagnostic checks the fields every diagnostic must have and returns
// where it was reported.
func checkDiagnostic(t *testing.T, list []*rules.Rule, d rules.Diagnostic) finding {
	t.Helper()
	r := rules.Lookup(list, d.Rule)
	switch {
	case r == nil:
		t.Errorf("%s: unknown rule", d)
	case d.Severity != rules.Error && d.Severity != rules.Warning:
		t.Errorf("%s: severity %q", d, d.Severity)
	case d.File == "" || d.Line == 0:
		t.Errorf("%s: no position", d)
	case d.Message == "" || d.Fix == "":
		t.Errorf("%s: no message or fix", d)
	case d.Module == "":
		t.Errorf("%s: no module", d)
	}
	return finding{d.File, d.Line, d.Rule}
}

var idRE = regexp.MustCompile(`^C2M0\d\d$`)

// TestRuleList checks the documentation every rule must carry.
func TestRuleList(t *testing.T) {
	seen := map[string]bool{}
	list := rules.All()
	for i, r := range list {
		if !idRE.MatchString(r.ID) {
			t.Errorf("rule %d: ID %q is not C2M0NN", i, r.ID)
		}
		if seen[r.ID] {
			t.Errorf("%s: ID used twice", r.ID)
		}
		seen[r.ID] = true
		if i > 0 && list[i-1].ID >= r.ID {
			t.Errorf("%s: not in ID order after %s", r.ID, list[i-1].ID)
		}
		if r.Title == "" || strings.Contains(r.Title, "\n") || strings.HasSuffix(r.Title, ".") {
			t.Errorf("%s: title %q is not one line without a final period", r.ID, r.Title)
		}
		if r.Severity != rules.Error && r.Severity != rules.Warning {
			t.Errorf("%s: severity %q", r.ID, r.Severity)
		}
		paras := strings.Split(strings.TrimSpace(r.Doc), "\n\n")
		if len(paras) < 2 {
			t.Errorf("%s: doc needs an explanation and a fix, as two paragraphs or more", r.ID)
			continue
		}
		fix := paras[len(paras)-1]
		if !strings.HasSuffix(strings.TrimSpace(fix), ".") {
			t.Errorf("%s: fix paragraph %q does not end in a sentence", r.ID, fix)
		}
		if got := rules.Lookup(list, strings.ToLower(r.ID)); got != r {
			t.Errorf("Lookup(%q) = %v, want %s", strings.ToLower(r.ID), got, r.ID)
		}
	}
	if rules.Lookup(list, "C2M999") != nil {
		t.Error("Lookup of an unknown ID is not nil")
	}
	// Each call returns new values.
	a, b := rules.All(), rules.All()
	a[0].Severity = rules.Warning
	if b[0].Severity == rules.Warning {
		t.Error("All returns shared rule values")
	}
}

// TestRulesWithCheck lists the rules check runs over manifests; each needs
// testdata that triggers it and testdata that does not.
func TestRulesWithCheck(t *testing.T) {
	covered := map[string]bool{}
	files, _ := filepath.Glob("testdata/*.yaml")
	sets, _ := filepath.Glob("testdata/set/*/*.yaml")
	for _, f := range append(files, sets...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if m := wantRE.FindStringSubmatch(line); m != nil {
				for _, id := range strings.Fields(strings.ReplaceAll(m[1], ",", " ")) {
					covered[id] = true
				}
			}
		}
	}
	for _, r := range rules.All() {
		if (r.Check != nil || r.CheckSet != nil) && !covered[r.ID] {
			t.Errorf("%s has a check but no testdata with # want %s", r.ID, r.ID)
		}
	}
}

func TestUndeclaredAncestors(t *testing.T) {
	m := &manifest.Module{Resources: []manifest.Resource{
		{Kind: manifest.KindDirectory, Path: "/opt/mail/data/spool"},
		{Kind: manifest.KindDirectory, Path: "/opt/mail/data/state"},
		{Kind: manifest.KindFile, Path: "/opt/mail/main.cf"},
		{Kind: manifest.KindDirectory, Path: "/srv/mail"},
		{Kind: manifest.KindDirectory, Path: "/srv/mail/db"},
		{Kind: manifest.KindHost, Path: "/etc/localtime/x"},
		{Kind: manifest.KindDirectory, Path: "/var/lib/app/data"},
	}}
	got := rules.UndeclaredAncestors(m)
	want := []string{"/opt/mail", "/opt/mail/data", "/var/lib/app"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("UndeclaredAncestors = %q, want %q", got, want)
	}
}
