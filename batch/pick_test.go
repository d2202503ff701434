package batch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
)

// A folder with docker-compose.yml, docker-compose.override.yml and a
// stray docker-compose.yaml is converted from the files docker compose
// picks: compose-go's cli.DefaultFileNames prefer .yml to .yaml, and the
// override is found whatever its extension. The module name of a project
// that fails to load comes from the same files.
func TestRunPicksFilesAsCompose(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"good/docker-compose.yml":           "name: right\nservices:\n  a:\n    image: nginx:1.27\n",
		"good/docker-compose.override.yaml": "services:\n  b:\n    image: busybox:1\n",
		"good/docker-compose.yaml":          "name: wrong\nservices:\n  c:\n    image: busybox:1\n",
		// Fails to load (ports: 5 is not a list): its name is still
		// known, from the file compose reads.
		"bad/docker-compose.yml":  "name: badright\nservices:\n  a:\n    image: nginx:1.27\n    ports: 5\n",
		"bad/docker-compose.yaml": "name: badwrong\nservices:\n  a:\n    image: nginx:1.27\n",
	})
	projects, err := Discover(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range projects {
		var want int64
		for _, n := range []string{"docker-compose.yml", "docker-compose.override.yaml"} {
			if fi, err := os.Stat(filepath.Join(p.Dir, n)); err == nil {
				want += fi.Size()
			}
		}
		if p.Size != want {
			t.Errorf("%s: size %d, want %d (the files compose reads)", p.Rel, p.Size, want)
		}
	}
	out := t.TempDir()
	rep := run(t, root, out, 1)
	byDir := map[string]Entry{}
	for _, e := range rep.Entries {
		byDir[filepath.Base(e.Project)] = e
	}
	if e := byDir["good"]; e.Status != convert.Converted || e.Module != "right" {
		t.Fatalf("good: %s, module %q, %+v; want converted as right", e.Status, e.Module, e.Diagnostics)
	}
	data, err := os.ReadFile(filepath.Join(out, "right.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m := string(data)
	if !strings.Contains(m, "container: a") || !strings.Contains(m, "container: b") || strings.Contains(m, "container: c") {
		t.Errorf("right.yaml has the wrong services:\n%s", m)
	}
	if !strings.Contains(m, "file: docker-compose.override.yaml") || strings.Contains(m, "file: docker-compose.yaml") {
		t.Errorf("right.yaml records the wrong sources:\n%s", m)
	}
	if e := byDir["bad"]; e.Status != convert.Failed || e.Module != "badright" {
		t.Errorf("bad: %s, module %q; want failed, badright", e.Status, e.Module)
	}
}
