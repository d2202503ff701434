package rules_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/rules"
)

// fixtureName is the convention for a fixture's file or folder name:
// c2mNNN_WHAT shows rule C2MNNN firing, c2mNNN_WHAT_ok (or c2mNNN_ok) a
// variant where it does not.
var fixtureName = regexp.MustCompile(`^c2m(\d{3})(?:_.*)?$`)

// fixture is one fixture of a scope: a manifest, a set of manifests, a
// compose project, or compose projects with their committed manifests,
// with the rules its wants expect.
type fixture struct {
	name   string
	wanted map[string]bool
}

// fixtures returns the fixtures of each scope: testdata/*.yaml are module
// manifests, testdata/set/* sets of them, testdata/project/* compose
// projects, testdata/against/* compose projects and the manifests
// committed for them, testdata/previous/* manifests before and after a
// change.
func fixtures(t *testing.T) map[rules.Scope][]fixture {
	t.Helper()
	out := map[rules.Scope][]fixture{}
	files, _ := filepath.Glob("testdata/*.yaml")
	for _, f := range files {
		out[rules.ScopeModule] = append(out[rules.ScopeModule], fixture{f, wantedRules(t, f)})
	}
	for scope, glob := range map[rules.Scope]string{
		rules.ScopeModules:  "testdata/set/*",
		rules.ScopeProject:  "testdata/project/*",
		rules.ScopeAgainst:  "testdata/against/*",
		rules.ScopePrevious: "testdata/previous/*",
	} {
		dirs, _ := filepath.Glob(glob)
		for _, d := range dirs {
			out[scope] = append(out[scope], fixture{d, wantedRules(t, filesUnder(t, d)...)})
		}
	}
	return out
}

// TestCoverage requires of every rule, in each scope it runs in, a
// fixture named for it that wants it and an _ok variant that wants none of
// its diagnostics; of every rule, that it runs in some scope; and of
// every fixture named for a rule, that its wants say what its name does.
func TestCoverage(t *testing.T) {
	all := fixtures(t)
	for _, scope := range []rules.Scope{rules.ScopeProject, rules.ScopeModule, rules.ScopeModules, rules.ScopeAgainst, rules.ScopePrevious} {
		for _, f := range all[scope] {
			base := strings.TrimSuffix(filepath.Base(f.name), ".yaml")
			m := fixtureName.FindStringSubmatch(base)
			if m == nil {
				continue
			}
			id := "C2M" + m[1]
			ok := strings.HasSuffix(base, "_ok")
			switch {
			case ok && f.wanted[id]:
				t.Errorf("%s (%s): named as a variant where %s does not fire, but wants it", f.name, scope, id)
			case !ok && !f.wanted[id]:
				t.Errorf("%s (%s): named for %s, but wants no %s diagnostic", f.name, scope, id, id)
			}
		}
	}
	for _, r := range rules.All() {
		scopes := r.Scopes()
		if len(scopes) == 0 {
			t.Errorf("%s runs in no scope: it has no check function", r.ID)
		}
		prefix := "c2m" + strings.TrimPrefix(r.ID, "C2M") + "_"
		for _, scope := range scopes {
			var fires, quiet bool
			for _, f := range all[scope] {
				base := strings.TrimSuffix(filepath.Base(f.name), ".yaml")
				switch {
				case strings.HasPrefix(base, prefix) && strings.HasSuffix(base, "_ok"):
					quiet = quiet || !f.wanted[r.ID]
				case strings.HasPrefix(base, prefix):
					fires = fires || f.wanted[r.ID]
				}
			}
			if !fires {
				t.Errorf("%s runs in scope %s but no %s fixture %sWHAT wants it", r.ID, scope, scope, prefix)
			}
			if !quiet {
				t.Errorf("%s runs in scope %s but has no %s fixture %sWHAT_ok that does not want it", r.ID, scope, scope, prefix)
			}
		}
	}
}
