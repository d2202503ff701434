package project

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// referenceProjects returns compose projects whose files name each other
// n deep (or n wide): an include chain, an extends.file chain, one file
// including n others, and n services in one file each extending the next.
func referenceProjects(n int) map[string]map[string]string {
	inc := map[string]string{"compose.yaml": "include:\n  - f1.yaml\nservices:\n  app:\n    image: x\n"}
	extf := map[string]string{"compose.yaml": "services:\n  app:\n    extends:\n      file: f1.yaml\n      service: s1\n"}
	fan := map[string]string{}
	var fanList, ext strings.Builder
	ext.WriteString("services:\n")
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("f%d.yaml", i)
		next := fmt.Sprintf("include:\n  - f%d.yaml\n", i+1)
		base := fmt.Sprintf("    extends:\n      file: f%d.yaml\n      service: s%d\n", i+1, i+1)
		if i == n {
			next, base = "", "    image: x\n"
		}
		inc[name] = next + fmt.Sprintf("services:\n  s%d:\n    image: x\n", i)
		extf[name] = fmt.Sprintf("services:\n  s%d:\n", i) + base
		fan[name] = fmt.Sprintf("services:\n  s%d:\n    image: x\n", i)
		fmt.Fprintf(&fanList, "  - %s\n", name)
		if i < n {
			fmt.Fprintf(&ext, "  s%d:\n    extends: s%d\n", i, i+1)
		} else {
			fmt.Fprintf(&ext, "  s%d:\n    image: x\n", i)
		}
	}
	fan["compose.yaml"] = "include:\n" + fanList.String() + "services:\n  app:\n    image: x\n"
	return map[string]map[string]string{
		"include": inc, "extends.file": extf, "fan-out": fan,
		"extends": {"compose.yaml": ext.String()},
	}
}

// TestReferenceLimits: a chain of include or extends.file references
// longer than MaxReferenceDepth, a project reading more than MaxFiles
// compose files, or a chain of services extending each other longer than
// MaxExtendsDepth is refused before compose-go loads it (a chain of 1,000
// files took over a minute), naming the file and line where the limit is
// passed; at the limits each loads.
func TestReferenceLimits(t *testing.T) {
	over := map[string]struct {
		n    int
		want string
	}{
		"include":      {MaxReferenceDepth + 1, "f16.yaml:2: include f17.yaml: a chain of more than 16 compose files, each named by the one before with include or extends.file; refused before loading"},
		"extends.file": {MaxReferenceDepth + 1, "f16.yaml:4: extends.file f17.yaml: a chain of more than 16 compose files"},
		"fan-out":      {MaxFiles, "compose.yaml:257: include f256.yaml: the project reads more than 256 compose files (with include and extends.file); refused before loading"},
		"extends":      {MaxExtendsDepth + 2, `compose.yaml:2: service "s1": a chain of 18 services each extending the next, more than the 16 a compose file needs; refused before loading`},
	}
	t.Run("include/1000", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, referenceProjects(1000)["include"])
		_, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
		if err == nil || !strings.HasPrefix(err.Error(), over["include"].want) {
			t.Fatalf("err = %v, want %s…", err, over["include"].want)
		}
	})
	for name, tc := range over {
		t.Run(name+"/over", func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, referenceProjects(tc.n)[name])
			_, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %s…", err, tc.want)
			}
		})
	}
	at := map[string]int{"include": MaxReferenceDepth, "extends.file": MaxReferenceDepth, "fan-out": MaxFiles - 1, "extends": MaxExtendsDepth + 1}
	for name, n := range at {
		t.Run(name+"/at", func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, referenceProjects(n)[name])
			p, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
			if err != nil {
				t.Fatalf("err = %v, want none", err)
			}
			if len(p.Compose.Services) == 0 {
				t.Error("no services loaded")
			}
		})
	}
}
