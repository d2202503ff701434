package gen

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
)

// TestProjectConverts checks that a generated project converts with no
// finding at all, so a benchmark over a generated tree measures
// conversions, not refusals.
func TestProjectConverts(t *testing.T) {
	dir := t.TempDir()
	if err := Tree(dir, Shape{Projects: 2, Services: 10, Volumes: 4}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "g000", "p00001")
	res, err := convert.Convert(context.Background(), convert.Options{ProjectDirectory: p, WorkingDirectory: p, Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != convert.Converted || len(res.Diagnostics) > 0 {
		t.Fatalf("status %s, diagnostics %v", res.Status, res.Diagnostics)
	}
	if res.Module.Module != "p00001" {
		t.Errorf("module %q", res.Module.Module)
	}
	if _, err := os.Stat(filepath.Join(dir, "g000", "p00000", "compose.yaml")); err != nil {
		t.Error(err)
	}
}

// TestFlatConverts: Flat's project converts with no finding, into as many
// directories as binds (and the two parents) and a container a service.
func TestFlatConverts(t *testing.T) {
	dir := t.TempDir()
	compose, decl := Flat("flat", 5, 3)
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), compose, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "compose2manifest.yaml"), decl, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := convert.Convert(context.Background(), convert.Options{ProjectDirectory: dir, WorkingDirectory: dir, Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != convert.Converted || len(res.Diagnostics) > 0 {
		t.Fatalf("status %s, diagnostics %v", res.Status, res.Diagnostics)
	}
	if got := len(res.Module.Resources); got != 3+2+5 {
		t.Errorf("%d resources, want 10", got)
	}
}
