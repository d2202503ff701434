package rules_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/convert"
)

// TestAgainstRules runs check --against over each case under
// testdata/against and checks every diagnostic it reports (the against
// rules', the conversions' own errors, the module and set rules' over the
// manifests; warnings included) against the "# want" comments of the
// case's files (want_test.go).
//
// A case is a folder standing for a repository: one or more compose
// projects (app/compose.yaml, app/compose2manifest.yaml, the files they
// bind) and the manifests committed for them in out/. The case is copied
// to a temporary folder and checked there as
//
//	check.Against(ctx, check.Config{Dir: tmp, Convert: convert.Options{Environ: []string{}}}, tmp, []string{"out"})
//
// that is, with the case as the root and the working directory and an
// empty environment. Diagnostics are matched to the case's own files by
// their path below the copy, so a want comment sits on the line of the
// manifest or compose file where the diagnostic is reported. A case whose
// check cannot run, or that names no manifest, fails.
//
// Digests: a manifest's source records the sha256 of a file, which every
// want comment in that file would change. So a source's sha256 may be
// written as a placeholder, SHA256(PATH), PATH relative to the case
// folder, and the copy has the file's digest in its place:
//
//	sources:
//	  - file: compose.yaml
//	    sha256: SHA256(app/compose.yaml)
//
// A literal digest is kept as written: that is how a case records a
// source that changed or is gone.
func TestAgainstRules(t *testing.T) {
	dirs, err := filepath.Glob("testdata/against/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no against cases: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) { checkAgainst(t, dir) })
	}
}

// checkAgainst copies the case in dir, runs check.Against over the copy
// and checks the diagnostics against the wants of every file in dir.
func checkAgainst(t *testing.T, dir string) {
	t.Helper()
	tmp := t.TempDir()
	copyCase(t, dir, tmp)
	if t.Failed() {
		return
	}
	cfg := check.Config{Dir: tmp, Convert: convert.Options{Environ: []string{}}}
	res, err := check.Against(context.Background(), cfg, tmp, []string{"out"})
	if err != nil {
		t.Fatalf("%s: check --against: %v", dir, err)
	}
	for _, err := range res.Errors {
		t.Errorf("%s: %v", dir, err)
	}
	var gots []got
	for _, m := range res.Report.Modules {
		for _, d := range m.Diagnostics {
			file := d.File
			if filepath.IsAbs(file) {
				if rel, err := filepath.Rel(tmp, file); err == nil {
					file = rel
				}
			}
			gots = append(gots, got{filepath.Join(dir, file), d})
		}
	}
	checkDiagnostics(t, readWants(t, filesUnder(t, dir)...), gots)
}

// digestPlaceholder is a source's sha256 written as SHA256(PATH).
var digestPlaceholder = regexp.MustCompile(`SHA256\(([^()\s]+)\)`)

// copyCase copies the files under dir to the folder to, replacing each
// SHA256(PATH) with the sha256 of dir/PATH; a PATH that cannot be read
// fails the test at the placeholder's line.
func copyCase(t *testing.T, dir, to string) {
	t.Helper()
	for _, f := range filesUnder(t, dir) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		for i, line := range lines {
			lines[i] = digestPlaceholder.ReplaceAllStringFunc(line, func(ph string) string {
				name := digestPlaceholder.FindStringSubmatch(ph)[1]
				src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
				if err != nil {
					t.Errorf("%s:%d: %s: %v", f, i+1, ph, err)
					return ph
				}
				sum := sha256.Sum256(src)
				return hex.EncodeToString(sum[:])
			})
		}
		data = []byte(strings.Join(lines, ""))
		rel, err := filepath.Rel(dir, f)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
