package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

// module is the repository's module path.
const module = "github.com/compose2manifest/compose2manifest/"

// layers is the intended picture of the house, bottom up: a package may
// import the packages of lower layers only, never one of its own layer or
// above, except by an arrow listed in across. Every package of the
// repository must be listed, so that a new one is placed on purpose.
var layers = [][]string{
	// Leaves: bounded reading, atomic writing, escaping, versions.
	{"internal/textsafe", "internal/suggest", "internal/bound", "internal/manual", "internal/shell", "internal/fsread", "internal/atomicfile", "internal/version", "internal/interrupt", "internal/cli", "schema", "internal/gen", "internal/treetest", "internal/exampletest", "internal/oracle", "internal/benchdoc", "internal/archtest"},
	// The formats: manifests, then declarations, the image table and
	// inventories built on them.
	{"manifest"},
	{"declare", "images", "imageconfig", "imageconfig/imagetest", "inventory", "internal/gen/c2mgen", "internal/schematest"},
	{"internal/skeletontest", "internal/skeletontest/c2mfill"},
	// The one reading of compose projects; the reading of the legacy
	// host's survey, and its script.
	{"project", "survey"},
	// Where each source lands.
	{"placement"},
	// Deciding: every rule a value.
	{"rules"},
	// Building manifests and writing findings.
	{"convert", "report"},
	// The drivers.
	{"ask", "batch", "plan", "survey/legacy", "imageconfig/refresh"},
	{"check"},
	// The face.
	{"cmd/compose2manifest"},
}

// across lists the arrows allowed within one layer.
var across = map[string][]string{
	"internal/gen/c2mgen":           {"internal/gen"},
	"internal/skeletontest/c2mfill": {"internal/skeletontest"},
	"internal/cli":                  {"internal/atomicfile"}, // man --dir writes its pages as every file is written
}

// forbidden lists arrows to a lower layer that the design still forbids,
// with the reason.
var forbidden = map[[2]string]string{
	{"ask", "project"}:   "ask sees a project only through convert's findings (convert.Missing), never by reading it",
	{"rules", "convert"}: "rules decide from facts; they never build",
	{"check", "ask"}:     "check judges what was written; it never asks",
	{"batch", "ask"}:     "batch never asks",
}

// TestImportArrows fails on an import of a repository package that the
// layering above does not allow.
func TestImportArrows(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	layer := map[string]int{}
	for i, l := range layers {
		for _, p := range l {
			layer[p] = i
		}
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		from, ok := layer[pkg]
		if !ok {
			t.Errorf("package %s is in no layer: place it in layers (internal/archtest/arrows_test.go)", pkg)
			continue
		}
		seen++
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			dep := strings.TrimPrefix(imp, module)
			to, ok := layer[dep]
			switch {
			case !ok:
				// Reported as a package of its own above.
			case forbidden[[2]string{pkg, dep}] != "":
				t.Errorf("%s imports %s: %s", pkg, dep, forbidden[[2]string{pkg, dep}])
			case to < from:
			case to == from && contains(across[pkg], dep):
			default:
				t.Errorf("%s (layer %d) imports %s (layer %d): a package imports only lower layers", pkg, from, dep, to)
			}
		}
	}
	if seen < 20 {
		t.Fatalf("go list named only %d packages", seen)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestOneCommand: go install ./... (as pre-commit's golang hooks run it)
// installs compose2manifest alone; the helper commands of scripts/bench.sh
// build only with the c2mtools tag.
func TestOneCommand(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{if eq .Name "main"}}{{.ImportPath}}{{end}}`, module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if got := strings.Fields(string(out)); len(got) != 1 || got[0] != module+"cmd/compose2manifest" {
		t.Errorf("commands go install ./... builds: %v, want only cmd/compose2manifest", got)
	}
}
