package rules_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
)

// TestRules runs every rule over each manifest in testdata and checks the
// diagnostics against the file's "# want C2M0NN \"regexp\"" comments.
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

// checkWants decodes files, runs rules.All over each with Run and over all
// of them with RunSet, and checks the diagnostics against the files'
// "# want" comments (want_test.go).
func checkWants(t *testing.T, files ...string) {
	t.Helper()
	list := rules.All()
	var modules []*manifest.Module
	var gots []got
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := manifest.Decode(f, data)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		modules = append(modules, m)
		for _, d := range rules.Run(list, m) {
			gots = append(gots, got{d.File, d})
		}
	}
	if len(files) > 1 {
		for _, d := range rules.RunSet(list, modules) {
			gots = append(gots, got{d.File, d})
		}
	}
	checkDiagnostics(t, readWants(t, files...), gots)
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

func TestLoadError(t *testing.T) {
	d := rules.LoadError(errors.New("compose.yaml:4: yaml: mapping key \"web\" already defined at line 2"))
	if d.File != "compose.yaml" || d.Line != 4 || d.Severity != rules.Error || !strings.HasPrefix(d.Message, "compose.yaml:4: yaml:") {
		t.Errorf("LoadError = %+v", d)
	}
	if d := rules.LoadError(errors.New("services wait for each other: a: b")); d.File != "" || d.Line != 0 {
		t.Errorf("a message without a position: %+v", d)
	}
}
