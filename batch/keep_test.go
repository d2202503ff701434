package batch

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/gen"
)

// TestKeepProperty: a second batch keeps a manifest whose fingerprint
// holds without converting its project, and converts again as soon as any
// input changes (a compose file, an included file, .env, an env_file, the
// declarations, a variable of the environment, a flag, a bind source
// turning from a file into a directory, an override file appearing, the
// manifest's body edited, replaced then with --force only), writing
// exactly what a batch into an empty folder beside it writes.
func TestKeepProperty(t *testing.T) {
	ctx := context.Background()
	tmp := t.TempDir()
	write := func() {
		os.RemoveAll(filepath.Join(tmp, "proj"))
		if err := gen.WriteFiles(tmp, gen.Recheck); err != nil {
			t.Fatal(err)
		}
	}
	environ := []string{"LEVEL=warn", "OTHER=1"}
	base := Config{Root: "proj", WorkingDirectory: tmp, Convert: convert.Options{VolumeRoot: "/srv", Environ: environ}}
	run := func(cfg Config, out string) (*Report, []byte) {
		t.Helper()
		cfg.Out = out
		rep, err := Run(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if s := rep.Summary(); s.Converted != 1 {
			t.Fatalf("converted %d projects, want 1: %+v", s.Converted, rep.Entries)
		}
		data, err := os.ReadFile(filepath.Join(tmp, out, "app.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		return rep, data
	}
	write()
	first, manifest := run(base, "out")
	if first.Entries[0].Kept {
		t.Fatal("the first batch kept a manifest it had not written")
	}
	again, data := run(base, "out")
	if s := again.Summary(); !again.Entries[0].Kept || s.Kept != 1 || s.Unchanged != 1 || !bytes.Equal(data, manifest) {
		t.Fatalf("unchanged: kept %v, summary %+v", again.Entries[0].Kept, s)
	}
	edit := func(name, data string) func() {
		return func() {
			if err := os.WriteFile(filepath.Join(tmp, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	app := filepath.Join(tmp, "proj", "app")

	// A project converted with a warning is never kept: converting again
	// is what reports it (here C2M014: MODE unset once .env is gone).
	os.Remove(filepath.Join(app, ".env"))
	run(base, "out")
	if rep, _ := run(base, "out"); rep.Entries[0].Kept || len(rep.Entries[0].Diagnostics) == 0 {
		t.Errorf("a conversion with warnings was kept (or gave none): %+v", rep.Entries[0])
	}
	for _, tc := range []struct {
		name   string
		mutate func()
		cfg    func(Config) Config
	}{
		{"compose file", edit("proj/app/compose.yaml", gen.Recheck["proj/app/compose.yaml"]+"# edited\n"), nil},
		{"included file", edit("proj/app/inc/extra.yaml", gen.Recheck["proj/app/inc/extra.yaml"]+"# edited\n"), nil},
		{".env", edit("proj/app/.env", "MODE=slow\n"), nil},
		{"env_file", edit("proj/app/app.env", "A=2\n"), nil},
		{"declarations", edit("proj/app/compose2manifest.yaml", gen.Recheck["proj/app/compose2manifest.yaml"]+"# edited\n"), nil},
		{"variable", nil, func(c Config) Config { c.Convert.Environ = []string{"LEVEL=debug", "OTHER=1"}; return c }},
		{"variable unset", nil, func(c Config) Config { c.Convert.Environ = []string{"OTHER=1"}; return c }},
		{"flag", nil, func(c Config) Config { c.Convert.VolumeRoot = "/var/lib"; return c }},
		{"bind source becomes a directory", func() {
			p := filepath.Join(app, "conf.ini")
			os.Remove(p)
			os.Mkdir(p, 0o755)
		}, nil},
		{"override file appears", edit("proj/app/compose.override.yaml", "services:\n  app:\n    image: example/app:2\n"), nil},
		{"manifest body edited", func() {
			p := filepath.Join(tmp, "out", "app.yaml")
			edited := bytes.Replace(manifest, []byte(`mode: "0700"`), []byte(`mode: "0777"`), 1)
			if bytes.Equal(edited, manifest) {
				t.Fatal("nothing to edit in the manifest")
			}
			os.WriteFile(p, edited, 0o644)
		}, func(c Config) Config { c.Force = true; return c }}, // without --force, it is not replaced (convert_edited_manifest.txt)
	} {
		t.Run(tc.name, func(t *testing.T) {
			write()
			if err := os.WriteFile(filepath.Join(tmp, "out", "app.yaml"), manifest, 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.mutate != nil {
				tc.mutate()
			}
			cfg := base
			if tc.cfg != nil {
				cfg = tc.cfg(cfg)
			}
			rep, got := run(cfg, "out")
			if rep.Entries[0].Kept {
				t.Fatal("kept, want converted again")
			}
			// Beside out: the header names the compose file from the
			// output folder, so a folder as deep gives the same bytes.
			fresh := "fresh-" + strings.ReplaceAll(tc.name, " ", "-")
			_, want := run(cfg, fresh)
			if !bytes.Equal(got, want) {
				t.Errorf("the manifest differs from a batch into an empty folder:\n%s\n---\n%s", got, want)
			}
			// And once written, the next batch keeps it (unless its
			// conversion warned).
			if rep, _ := run(cfg, "out"); !rep.Entries[0].Kept && len(rep.Entries[0].Diagnostics) == 0 {
				t.Errorf("a batch after the change did not keep the manifest it wrote")
			}
		})
	}
}
