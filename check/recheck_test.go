package check_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/gen"
	"github.com/compose2manifest/compose2manifest/report"
)

// TestRecheckProperty: check --against takes a manifest whose
// fingerprint holds as current without converting, and converts again as
// soon as any input changes (a compose file, an included file, .env, an
// env_file, the declarations, a variable of the environment, a flag, a
// bind source turning from a file into a directory), reporting exactly
// what a run that converts everything reports.
func TestRecheckProperty(t *testing.T) {
	ctx := context.Background()
	tmp := t.TempDir()
	write := func() {
		os.RemoveAll(filepath.Join(tmp, "proj"))
		if err := gen.WriteFiles(tmp, gen.Recheck); err != nil {
			t.Fatal(err)
		}
	}
	write()
	environ := []string{"LEVEL=warn", "OTHER=1"}
	app := filepath.Join(tmp, "proj", "app")
	res, err := convert.Convert(ctx, convert.Options{ProjectDirectory: app, WorkingDirectory: app, VolumeRoot: "/srv", Environ: environ})
	if err != nil || res.Status != convert.Converted {
		t.Fatalf("convert: %v %+v", err, res.Diagnostics)
	}
	os.MkdirAll(filepath.Join(tmp, "out"), 0o755)
	if err := os.WriteFile(filepath.Join(tmp, "out", "app.yaml"), res.Manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	against := func(cfg check.Config) *check.Result {
		t.Helper()
		cfg.Dir = tmp
		r, err := check.Against(ctx, cfg, "proj", []string{"out"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	findings := func(r *check.Result) []report.Module { return r.Report.Modules }

	base := check.Config{Convert: convert.Options{Environ: environ}}
	cacheDir := filepath.Join(tmp, "cache")
	r := against(base)
	if r.Converted != 0 || r.Unreadable() {
		t.Fatalf("unchanged: converted %d projects, want 0", r.Converted)
	}
	if e, w := r.Count(); e+w != 0 {
		t.Fatalf("unchanged: %d errors, %d warnings: %+v", e, w, findings(r))
	}
	// An unrelated variable changes nothing.
	other := base
	other.Convert.Environ = []string{"LEVEL=warn", "OTHER=2", "UNRELATED=x"}
	if r := against(other); r.Converted != 0 {
		t.Errorf("an unrelated variable: converted %d projects, want 0", r.Converted)
	}

	edit := func(name, data string) func() {
		return func() { os.WriteFile(filepath.Join(tmp, name), []byte(data), 0o644) }
	}
	for _, tc := range []struct {
		name   string
		mutate func()
		cfg    func(check.Config) check.Config
	}{
		{"compose file", edit("proj/app/compose.yaml", gen.Recheck["proj/app/compose.yaml"]+"# edited\n"), nil},
		{"included file", edit("proj/app/inc/extra.yaml", gen.Recheck["proj/app/inc/extra.yaml"]+"# edited\n"), nil},
		{".env", edit("proj/app/.env", "MODE=slow\n"), nil},
		{"env_file", edit("proj/app/app.env", "A=2\n"), nil},
		{"declarations", edit("proj/app/compose2manifest.yaml", gen.Recheck["proj/app/compose2manifest.yaml"]+"# edited\n"), nil},
		{"variable", nil, func(c check.Config) check.Config { c.Convert.Environ = []string{"LEVEL=debug", "OTHER=1"}; return c }},
		{"variable unset", nil, func(c check.Config) check.Config { c.Convert.Environ = []string{"OTHER=1"}; return c }},
		{"variable of an included file", nil, func(c check.Config) check.Config {
			c.Convert.Environ = append([]string{"MODE=env"}, environ...)
			return c
		}},
		{"flag", nil, func(c check.Config) check.Config { c.Convert.VolumeRoot = "/var/lib"; return c }},
		{"bind source becomes a directory", func() {
			p := filepath.Join(app, "conf.ini")
			os.Remove(p)
			os.Mkdir(p, 0o755)
		}, nil},
		{"override file appears", edit("proj/app/compose.override.yaml", "services:\n  app:\n    image: example/app:2\n"), nil},
		{"manifest edited", func() {
			p := filepath.Join(tmp, "out", "app.yaml")
			data, _ := os.ReadFile(p)
			os.WriteFile(p, append([]byte("# a comment\n"), data...), 0o644)
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			write()
			os.WriteFile(filepath.Join(tmp, "out", "app.yaml"), res.Manifest, 0o644)
			if tc.mutate != nil {
				tc.mutate()
			}
			cfg := base
			if tc.cfg != nil {
				cfg = tc.cfg(cfg)
			}
			got := against(cfg)
			if got.Converted != 1 {
				t.Errorf("converted %d projects, want 1", got.Converted)
			}
			// With the cache, cold then warm (a manifest's entry from
			// the subtests before): the same findings, the same work.
			cached := cfg
			cached.Cache = cacheDir
			for _, run := range []string{"cold", "warm"} {
				if r := against(cached); r.Converted != got.Converted || !reflect.DeepEqual(findings(r), findings(got)) {
					t.Errorf("with the cache (%s): converted %d, findings %+v; want %d, %+v", run, r.Converted, findings(r), got.Converted, findings(got))
				}
			}
			if entries, err := os.ReadDir(cacheDir); err != nil || len(entries) != 1 {
				t.Errorf("the cache holds %d entries (%v), want the manifest's one", len(entries), err)
			}
			cfg.Reconvert = true
			fresh := against(cfg)
			if !reflect.DeepEqual(findings(got), findings(fresh)) {
				t.Errorf("findings differ from a run that converts everything:\n got %+v\nwant %+v", findings(got), findings(fresh))
			}
		})
	}
}
