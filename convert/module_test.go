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
	// A document started by "---" is named without loading too.
	marked := t.TempDir()
	if err := os.WriteFile(filepath.Join(marked, "compose.yaml"), []byte("# c\n---\nname: shop\nservices:\n  a:\n    image: busybox:1.36\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if name, ok := QuickModule(marked, Options{Environ: []string{}}); name != "shop" || !ok {
		t.Errorf("QuickModule after ---: %q, %v; want shop", name, ok)
	}
	dirs = append(dirs, marked)
	// COMPOSE_PROJECT_NAME in .env names it, over name:.
	envNamed := t.TempDir()
	for name, data := range map[string]string{
		"compose.yaml": "name: shop\nservices:\n  a:\n    image: busybox:1.36\n",
		".env":         "COMPOSE_PROJECT_NAME=from_env\nCOMPOSE_PROFILES=x\n",
	} {
		if err := os.WriteFile(filepath.Join(envNamed, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if name, ok := QuickModule(envNamed, Options{Environ: []string{}}); name != "from_env" || !ok {
		t.Errorf("QuickModule with COMPOSE_PROJECT_NAME in .env: %q, %v; want from_env", name, ok)
	}
	dirs = append(dirs, envNamed)
	// One compose-go would have to change is refused (the project does
	// not load): no name.
	badEnv := t.TempDir()
	for name, data := range map[string]string{
		"compose.yaml": "services:\n  a:\n    image: busybox:1.36\n",
		".env":         "COMPOSE_PROJECT_NAME=From_Env\n",
	} {
		if err := os.WriteFile(filepath.Join(badEnv, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if name, ok := QuickModule(badEnv, Options{Environ: []string{}}); ok {
		t.Errorf("QuickModule with COMPOSE_PROJECT_NAME=From_Env: %q, want none (compose-go refuses the name)", name)
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
