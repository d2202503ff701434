package check

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/convert"
)

// TestClaims: a project QuickModule cannot name (its name: has a
// variable) is named by the generated manifest it reproduces, and by no
// manifest once anything it was converted from changes, or when the
// index converts with other settings than the manifest records.
func TestClaims(t *testing.T) {
	tmp := t.TempDir()
	root, out := filepath.Join(tmp, "tree"), filepath.Join(tmp, "out")
	shop := filepath.Join(root, "shop")
	write := func(name, data string) {
		t.Helper()
		if err := os.MkdirAll(shop, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(shop, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("compose.yaml", "name: ${NAME:-store}\nservices:\n  web:\n    image: nginx:1.27\n")
	ctx := context.Background()
	opts := convert.Options{Environ: []string{}}
	if _, err := batch.Run(ctx, batch.Config{Root: root, Out: out, Convert: opts}); err != nil {
		t.Fatal(err)
	}
	named := func(cfg Config) (string, bool) {
		t.Helper()
		found, err := batch.Discover(root, nil)
		if err != nil || len(found) != 1 {
			t.Fatalf("discover: %v, %d projects", err, len(found))
		}
		names, quick := make([]string, 1), make([]bool, 1)
		names[0], quick[0] = convert.QuickModule(found[0].Dir, cfg.Convert)
		if quick[0] {
			t.Fatalf("QuickModule named %q: the test needs a project it cannot name", names[0])
		}
		files, _ := manifestFiles("", []string{out})
		claimed := claims(cfg, found, quick, names, files)
		return names[0], claimed[0]
	}
	if name, ok := named(Config{Convert: opts}); !ok || name != "store" {
		t.Errorf("unchanged: claimed %v as %q, want store", ok, name)
	}
	// Other settings than the manifest records: the index converts.
	if _, ok := named(Config{Convert: convert.Options{Environ: []string{}, HostProjectDirectory: "/opt/shop"}}); ok {
		t.Error("claimed with other settings than converted_with")
	}
	// A variable the name uses: its digest no longer holds.
	if _, ok := named(Config{Convert: convert.Options{Environ: []string{"NAME=other"}}}); ok {
		t.Error("claimed with NAME set")
	}
	write("compose.yaml", "name: ${NAME:-other}\nservices:\n  web:\n    image: nginx:1.27\n")
	if _, ok := named(Config{Convert: opts}); ok {
		t.Error("claimed after the compose file changed")
	}
}
