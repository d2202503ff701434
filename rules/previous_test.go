package rules_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/plan"
	"github.com/compose2manifest/compose2manifest/rules"
)

// TestPreviousRules runs check --previous over each case under
// testdata/previous and checks its diagnostics against the "# want"
// comments of the case's files (want_test.go). A case holds the manifests
// before the change in old/, after it in new/, and, optionally, the
// migration plan in plan.json; it is checked as
//
//	check --previous old [--plan plan.json] new
//
// in the case's folder, with the rules that run in scope previous, so a
// case need not be clean under every other rule.
func TestPreviousRules(t *testing.T) {
	dirs, err := filepath.Glob("testdata/previous/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no previous cases: %v", err)
	}
	var list []*rules.Rule
	for _, r := range rules.All() {
		if r.CheckPrevious != nil {
			list = append(list, r)
		}
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cfg := check.Config{Dir: dir, Rules: list}
			old, err := check.ReadPreviousDir(dir, "old")
			if err != nil {
				t.Fatal(err)
			}
			prev := check.Previous{Modules: old}
			if _, err := os.Stat(filepath.Join(dir, "plan.json")); err == nil {
				p, err := plan.Read(filepath.Join(dir, "plan.json"))
				if err != nil {
					t.Fatal(err)
				}
				prev.Planned = p.Planned
			}
			res := check.Manifests(cfg, []string{"new"})
			for _, err := range res.Errors {
				t.Fatal(err)
			}
			check.AddPrevious(cfg, res, prev)
			var gots []got
			for _, m := range res.Report.Modules {
				for _, d := range m.Diagnostics {
					gots = append(gots, got{filepath.Join(dir, d.File), d})
				}
			}
			checkDiagnostics(t, readWants(t, filesUnder(t, dir)...), gots)
		})
	}
}
