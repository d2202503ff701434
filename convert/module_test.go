package convert

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestQuickModule: wherever QuickModule names a module, converting gives
// that module (converted or refused), on every golden case and, with
// C2M_CORPUS set, every corpus folder with a default compose file.
func TestQuickModule(t *testing.T) {
	var dirs []string
	cases, _ := filepath.Glob("../testdata/convert/*")
	dirs = append(dirs, cases...)
	if root := os.Getenv("C2M_CORPUS"); root != "" {
		corpus, _ := filepath.Glob(filepath.Join(root, "*"))
		dirs = append(dirs, corpus...)
	}
	named := 0
	for _, dir := range dirs {
		dir, _ = filepath.Abs(dir)
		opts := Options{Environ: []string{}}
		name, ok := QuickModule(dir, opts)
		if !ok {
			continue
		}
		named++
		opts.ProjectDirectory, opts.WorkingDirectory = dir, dir
		res, _ := Convert(context.Background(), opts)
		got := ""
		switch {
		case res.Module != nil:
			got = res.Module.Module
		case res.Candidate != nil:
			got = res.Candidate.Module
		default:
			got = res.KnownModule
		}
		if got != name && got != "" {
			t.Errorf("%s: QuickModule = %q, but it converts to %q", dir, name, got)
		}
	}
	if named == 0 {
		t.Fatal("QuickModule named no module")
	}
	t.Logf("%d of %d folders named without loading", named, len(dirs))
	for _, tc := range []struct {
		env  []string
		want bool
	}{{[]string{"COMPOSE_PROJECT_NAME=x"}, false}, {[]string{"OTHER=1"}, true}} {
		if _, ok := QuickModule(filepath.Join("..", "testdata", "example", "mail"), Options{Environ: tc.env}); ok != tc.want {
			t.Errorf("QuickModule with %v: ok = %v, want %v", tc.env, ok, tc.want)
		}
	}
}

func TestMayName(t *testing.T) {
	for doc, want := range map[string]bool{
		"version: 1\nbinds:\n  ./a: {}\n":  false,
		"version: 1\nmodule: m\n":          true,
		"version: 1\ncompose_files: [a]\n": true,
		"{version: 1, module: m}\n":        true,
		"\"module\": m\n":                  true,
	} {
		if got := mayName([]byte(doc)); got != want {
			t.Errorf("mayName(%q) = %v, want %v", doc, got, want)
		}
	}
}
