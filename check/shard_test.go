package check_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/check"
)

// TestAgainstSharded checks a root of projects once whole and once per
// shard of 3, and compares: every manifest, every project without one
// (C2M008), every manifest made from no project and what is listed as not
// converted is reported by exactly one shard, as the whole check reports
// it. A compose file that a project of another shard reads is not listed.
func TestAgainstSharded(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	project := func(dir, module, include string) {
		compose := "services:\n  web:\n    image: nginx:1.27\n    volumes:\n      - ./html:/usr/share/nginx/html:ro\n"
		if include != "" {
			compose = "include:\n  - " + include + "\n" + compose
			files[dir+"/"+include] = "services:\n  side:\n    image: busybox:1.36\n"
		}
		files[dir+"/compose.yaml"] = compose
		files[dir+"/html/index.html"] = "hello\n"
		files[dir+"/compose2manifest.yaml"] = fmt.Sprintf("version: 1\nmodule: %s\nhost_project_directory: /opt/%s\nbinds:\n  ./html: {owner: \"0:0\", mode: \"0755\", intent: content}\n", module, module)
	}
	for i := range 12 {
		include := ""
		if i%3 == 0 {
			include = fmt.Sprintf("extra%d.yaml", i)
		}
		project(fmt.Sprintf("p%02d", i), fmt.Sprintf("mod%02d", i), include)
	}
	for i := range 5 {
		files[fmt.Sprintf("stray%d/notes/docker-compose.prod.yaml", i)] = "services:\n  web:\n    image: nginx:1.27\n"
	}
	for name, data := range files {
		p := filepath.Join(root, "src", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, out := filepath.Join(root, "src"), filepath.Join(root, "out")
	if _, err := batch.Run(context.Background(), batch.Config{Root: src, Out: out}); err != nil {
		t.Fatal(err)
	}
	// Two projects without a manifest, two manifests without a project.
	for _, m := range []string{"mod04", "mod07"} {
		if err := os.Remove(filepath.Join(out, m+".yaml")); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range []string{"gone1", "gone2"} {
		data, err := os.ReadFile(filepath.Join(out, "mod01.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		data = []byte(strings.ReplaceAll(string(data), "mod01", m))
		if err := os.WriteFile(filepath.Join(out, m+".yaml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(s batch.Shard) []string {
		res, err := check.Against(context.Background(), check.Config{Dir: root, Shard: s, Jobs: 2}, "src", []string{"out"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range res.Report.Modules {
			var rules []string
			for _, d := range m.Diagnostics {
				rules = append(rules, d.Rule)
			}
			got = append(got, fmt.Sprintf("%s %s %s %v", m.Module, m.File, m.Status, rules))
		}
		for _, sk := range res.NotConverted {
			got = append(got, "not converted: "+sk.Path)
		}
		return got
	}
	want := run(batch.Shard{})
	slices.Sort(want)
	var got []string
	for k := 1; k <= 3; k++ {
		got = append(got, run(batch.Shard{K: k, N: 3})...)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("shards together:\n got %q\nwant %q", got, want)
	}
	joined := strings.Join(want, "\n")
	if n := strings.Count(joined, "not converted:"); n != 5 || !strings.Contains(joined, "C2M008") || !strings.Contains(joined, "gone1") || strings.Contains(joined, "extra") {
		t.Errorf("whole check: %q", want)
	}
}
