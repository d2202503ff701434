package check_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/gen"
	"github.com/compose2manifest/compose2manifest/rules"
)

// convertGen converts gen.Project(module, services, 2) in tmp/src/module
// and returns its manifest.
func convertGen(t *testing.T, tmp, module string, services int) []byte {
	t.Helper()
	dir := filepath.Join(tmp, "src", module)
	compose, decl := gen.Project(module, services, 2)
	if err := gen.WriteFiles(dir, map[string]string{"compose.yaml": string(compose), "compose2manifest.yaml": string(decl)}); err != nil {
		t.Fatal(err)
	}
	res, err := convert.Convert(context.Background(), convert.Options{ProjectDirectory: dir, WorkingDirectory: dir, Environ: []string{}})
	if err != nil || res.Status != convert.Converted {
		t.Fatalf("convert %s: %v %+v", module, err, res.Diagnostics)
	}
	return res.Manifest
}

// TestManifestsCache: plain check with a cache (Config.Cache) reports,
// cold and warm, what it reports without one: the module rules'
// findings, a manifest edited since it was converted (C2M018), the rules
// over all manifests, a manifest that does not decode, and the previous
// rules, which compare containers a cache entry has none of. A warm run
// writes no index again (every manifest was an entry), and check
// --against keeps its entries apart.
func TestManifestsCache(t *testing.T) {
	tmp := t.TempDir()
	a, b := convertGen(t, tmp, "a", 2), convertGen(t, tmp, "b", 1)
	old := convertGen(t, tmp, "c", 3)
	c := convertGen(t, tmp, "c", 2) // one container fewer than before
	edited := bytes.Replace(a, []byte(`mode: "0750"`), []byte(`mode: "0755"`), 1)
	if bytes.Equal(edited, a) {
		t.Fatal("no mode to edit")
	}
	clash := bytes.ReplaceAll(b, []byte("module: b"), []byte("module: d")) // b's paths
	if err := gen.WriteFiles(tmp, map[string]string{
		"out/a.yaml": string(edited), "out/b.yaml": string(b), "out/c.yaml": string(c), "out/d.yaml": string(clash),
		"out/bad.yaml": "version: 1\nmodule: [\n", "prev/c.yaml": string(old),
	}); err != nil {
		t.Fatal(err)
	}
	prevMods, err := check.ReadPreviousDir(tmp, "prev")
	if err != nil {
		t.Fatal(err)
	}
	run := func(cache string) *check.Result {
		t.Helper()
		cfg := check.Config{Dir: tmp, Rules: rules.All(), Cache: cache}
		res := check.Manifests(cfg, []string{"out"})
		check.AddPrevious(cfg, res, check.Previous{Modules: prevMods})
		return res
	}
	want := run("").Report
	var text strings.Builder
	for _, m := range want.Modules {
		for _, d := range m.Diagnostics {
			text.WriteString(d.String() + "\n")
		}
	}
	for _, s := range []string{"C2M018", "C2M005", "is no longer converted", "bad.yaml"} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("the check without a cache finds no %s:\n%s", s, text.String())
		}
	}
	cache := filepath.Join(tmp, "cache")
	if got := run(cache).Report; !reflect.DeepEqual(got, want) {
		t.Errorf("cold cache: %+v\nwant %+v", got, want)
	}
	idx, _ := filepath.Glob(filepath.Join(cache, "*.gob"))
	if len(idx) != 1 {
		t.Fatalf("index files %q, want one", idx)
	}
	before, _ := os.Stat(idx[0])
	time.Sleep(10 * time.Millisecond)
	if got := run(cache).Report; !reflect.DeepEqual(got, want) {
		t.Errorf("warm cache: %+v\nwant %+v", got, want)
	}
	if after, _ := os.Stat(idx[0]); !after.ModTime().Equal(before.ModTime()) {
		t.Error("warm run wrote the index again: a manifest missed")
	}
	if _, err := check.Against(context.Background(), check.Config{Dir: tmp, Cache: cache, Convert: convert.Options{Environ: []string{}}}, "src", []string{"out"}); err != nil {
		t.Fatal(err)
	}
	if idx, _ := filepath.Glob(filepath.Join(cache, "*.gob")); len(idx) != 2 {
		t.Errorf("index files after --against %q, want two", idx)
	}
}

// TestAgainstPrevious: check --against --previous holds the manifests
// against the previous ones with their containers: unchanged manifests
// drop nothing. (Against keeps each manifest without its containers, and
// every container of the previous manifests was reported as no longer
// converted, C2M022.)
func TestAgainstPrevious(t *testing.T) {
	tmp := t.TempDir()
	a := convertGen(t, tmp, "a", 2)
	if err := gen.WriteFiles(tmp, map[string]string{"out/a.yaml": string(a), "prev/a.yaml": string(a)}); err != nil {
		t.Fatal(err)
	}
	prevMods, err := check.ReadPreviousDir(tmp, "prev")
	if err != nil {
		t.Fatal(err)
	}
	for _, cache := range []string{"", filepath.Join(tmp, "cache"), filepath.Join(tmp, "cache")} {
		cfg := check.Config{Dir: tmp, Rules: rules.All(), Cache: cache, Convert: convert.Options{Environ: []string{}}}
		res, err := check.Against(context.Background(), cfg, "src", []string{"out"})
		if err != nil {
			t.Fatal(err)
		}
		check.AddPrevious(cfg, res, check.Previous{Modules: prevMods})
		if e, w := res.Count(); e+w > 0 || res.Unreadable() {
			t.Errorf("cache %q: %d errors, %d warnings: %+v", cache, e, w, res.Report.Modules)
		}
	}
}
