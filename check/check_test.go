package check_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/report"
)

func TestManifestsUnreadable(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"good.yaml":        "version: 1\nmodule: good\nresources: []\n",
		"bad.yaml":         "version: 1\nmodule: bad\nresources: [\n",
		"empty/README":     "no manifests here\n",
		"dir/.hidden.yaml": "not read\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := check.Manifests(check.Config{Dir: dir}, []string{"good.yaml", "bad.yaml", "empty", "dir", "gone.yaml", "good.yaml"})
	if !res.Unreadable() {
		t.Error("Unreadable() = false, want true")
	}
	var msgs []string
	for _, err := range res.Errors {
		var pe *check.PathError
		if !errors.As(err, &pe) {
			t.Errorf("%v: not a *PathError", err)
		}
		msgs = append(msgs, err.Error())
	}
	want := "empty: no manifests (*.yaml or *.yml files) in this directory|dir: no manifests (*.yaml or *.yml files) in this directory|gone.yaml: no such file or directory"
	if got := strings.Join(msgs, "|"); got != want {
		t.Errorf("Errors = %s, want %s", got, want)
	}
	if !errors.Is(res.Errors[2], fs.ErrNotExist) {
		t.Errorf("%v: not fs.ErrNotExist", res.Errors[2])
	}
	mods := res.Report.Modules
	if len(mods) != 2 || len(res.Manifests) != 2 {
		t.Fatalf("got %d modules and %d manifests, want 2 of each: %+v", len(mods), len(res.Manifests), mods)
	}
	if mods[0].Module != "good" || mods[0].Status != report.Checked || res.Manifests[0] == nil {
		t.Errorf("good.yaml: %+v", mods[0])
	}
	if mods[1].Module != "bad.yaml" || mods[1].Status != report.Failed || res.Manifests[1] != nil || len(mods[1].Diagnostics) == 0 {
		t.Errorf("bad.yaml: %+v", mods[1])
	}
	if e, w := res.Count(); e != 0 || w != 0 {
		t.Errorf("Count() = %d, %d; want 0, 0 (a failed manifest is not counted)", e, w)
	}
}

func TestAgainstErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, root string
		opts       convert.Options
		want       string
	}{
		{"missing root", "nowhere", convert.Options{}, "no such file or directory"},
		{"root is a file", "file", convert.Options{}, "file is not a directory"},
		{"compose files given", ".", convert.Options{ConfigFiles: []string{"compose.yaml"}}, "check finds each project itself"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := check.Against(context.Background(), check.Config{Dir: dir, Convert: tc.opts}, tc.root, []string{"m.yaml"})
			if err == nil || !strings.Contains(err.Error(), tc.want) || res != nil {
				t.Errorf("Against = %v, %v; want nil and an error containing %q", res, err, tc.want)
			}
		})
	}
}

// TestAgainstFindFails: when the only folder holding a manifest's first
// source (not a default name) no longer converts, the error names the
// module being looked for, not an empty project path.
func TestAgainstFindFails(t *testing.T) {
	ctx := context.Background()
	tmp := t.TempDir()
	svc := filepath.Join(tmp, "proj", "svc")
	if err := os.MkdirAll(svc, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(svc, "app.yaml"), []byte("name: svc\nservices:\n  web:\n    image: example/web:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := convert.Convert(ctx, convert.Options{ProjectDirectory: svc, WorkingDirectory: svc, ConfigFiles: []string{"app.yaml"}, Environ: []string{}})
	if err != nil || res.Status != convert.Converted {
		t.Fatalf("convert: %v %+v", err, res)
	}
	if err := os.WriteFile(filepath.Join(tmp, "m.yaml"), res.Manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(svc, "app.yaml"), []byte("services: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := check.Against(ctx, check.Config{Dir: tmp, Convert: convert.Options{Environ: []string{}}}, "proj", []string{"m.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, m := range r.Report.Modules {
		for _, f := range m.Diagnostics {
			msgs = append(msgs, f.Message)
		}
	}
	joined := strings.Join(msgs, "\n")
	if !strings.Contains(joined, `finding the project of module "svc"`) || strings.Contains(joined, "converting  again") {
		t.Errorf("findings = %q; want one naming the module being looked for", msgs)
	}
}

// TestAgainstTwoFilesOneFolder: two compose files of one folder, each a
// module of its own, are each found for their manifest; the module
// learned from one file is not taken for the other's.
func TestAgainstTwoFilesOneFolder(t *testing.T) {
	ctx := context.Background()
	tmp := t.TempDir()
	svc := filepath.Join(tmp, "proj", "svc")
	if err := os.MkdirAll(filepath.Join(tmp, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(svc, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b"} {
		file := name + ".yaml"
		if err := os.WriteFile(filepath.Join(svc, file), []byte("name: "+name+"\nservices:\n  web:\n    image: example/web:1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := convert.Convert(ctx, convert.Options{ProjectDirectory: svc, WorkingDirectory: svc, ConfigFiles: []string{file}, Environ: []string{}})
		if err != nil || res.Status != convert.Converted {
			t.Fatalf("convert %s: %v %+v", file, err, res)
		}
		if err := os.WriteFile(filepath.Join(tmp, "out", file), res.Manifest, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := check.Against(ctx, check.Config{Dir: tmp, Jobs: 1, Convert: convert.Options{Environ: []string{}}}, "proj", []string{"out"})
	if err != nil {
		t.Fatal(err)
	}
	if e, w := r.Count(); e+w != 0 {
		t.Errorf("%d errors, %d warnings: %+v", e, w, r.Report.Modules)
	}
}

// TestManifestsEditedSinceConverted: plain check warns (C2M018) when a
// manifest that says convert generated it no longer has the bytes convert
// wrote; an unedited one, and one a person wrote, get no such warning.
func TestManifestsEditedSinceConverted(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "testdata", "example", "mail"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := convert.Convert(context.Background(), convert.Options{ProjectDirectory: src, WorkingDirectory: src, Environ: []string{}})
	if err != nil || res.Status != convert.Converted {
		t.Fatalf("converting the example: %v %v", res.Status, err)
	}
	dir := t.TempDir()
	edited := strings.Replace(string(res.Manifest), `mode: "0700"`, `mode: "0750"`, 1)
	if edited == string(res.Manifest) {
		t.Fatal("nothing to edit")
	}
	for name, data := range map[string]string{
		"unedited.yaml": string(res.Manifest),
		"edited.yaml":   edited,
		"written.yaml":  "version: 1\nmodule: written\nresources: []\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		file string
		want bool
	}{{"unedited.yaml", false}, {"edited.yaml", true}, {"written.yaml", false}} {
		r := check.Manifests(check.Config{Dir: dir}, []string{tc.file})
		got := false
		for _, d := range r.Report.Modules[0].Diagnostics {
			got = got || (d.Rule == "C2M018" && strings.Contains(d.Message, "edited since convert wrote it"))
		}
		if got != tc.want {
			t.Errorf("%s: C2M018 %v, want %v: %+v", tc.file, got, tc.want, r.Report.Modules[0].Diagnostics)
		}
	}
}

// TestAgainstSettingsOutsideRoot: a manifest's converted_with names files
// check --against converts with; one naming a path outside the root (by
// ../, absolute, or through a link in the root) is an error, and the file
// is never read (found while recording -f in converted_with: a manifest
// could have made check read any file of the machine).
func TestAgainstSettingsOutsideRoot(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "root")
	app := filepath.Join(root, "app")
	for _, d := range []string{app, filepath.Join(tmp, "outside")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Were it read, its YAML error would show.
	if err := os.WriteFile(filepath.Join(tmp, "outside", "c.yaml"), []byte("services: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(app, "compose.yaml"), []byte("services:\n  web:\n    image: nginx:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(tmp, "outside"), filepath.Join(app, "link")); err != nil {
		t.Fatal(err)
	}
	res, err := convert.Convert(context.Background(), convert.Options{ProjectDirectory: app, WorkingDirectory: app, Environ: []string{}})
	if err != nil || res.Status != convert.Converted {
		t.Fatalf("%v %v", res.Status, err)
	}
	for _, rec := range []string{
		"  compose_files:\n    - compose.yaml\n    - ../../outside/c.yaml\n",
		"  compose_files:\n    - link/c.yaml\n",
		"  declarations: ../../outside/c.yaml\n",
		"  env_files:\n    - ../../outside/c.yaml\n",
		"  allow_dirs:\n    - ../../outside\n",
	} {
		out := filepath.Join(tmp, "out")
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		data := strings.Replace(string(res.Manifest), "resources:", "converted_with:\n"+rec+"resources:", 1)
		if err := os.WriteFile(filepath.Join(out, "app.yaml"), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := check.Against(context.Background(), check.Config{Dir: tmp, Convert: convert.Options{Environ: []string{}}}, "root", []string{"out"})
		if err != nil {
			t.Fatal(err)
		}
		var msgs []string
		for _, m := range r.Report.Modules {
			for _, d := range m.Diagnostics {
				msgs = append(msgs, d.String())
			}
		}
		all := strings.Join(msgs, "\n")
		if !strings.Contains(all, "which lies outside root; not read") || strings.Contains(all, "yaml: ") || strings.Contains(all, "did not find") {
			t.Errorf("converted_with %q:\n%s", rec, all)
		}
	}
}

// TestManifestsLinkOut: a manifest in a folder that is a symbolic link out
// of the folder is not read (its target's text would end up in the
// report: a private key, a token), one inside it is; a file that is no
// mapping is not quoted (found by the thirteenth fresh-eyes trial).
func TestManifestsLinkOut(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "manifests")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	secret := "-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAA -----END OPENSSH PRIVATE KEY-----\n"
	for name, data := range map[string]string{
		"key":                  secret,
		"manifests/good.yaml":  "version: 1\nmodule: good\nresources: []\n",
		"manifests/token.yaml": "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789\n",
	} {
		if err := os.WriteFile(filepath.Join(tmp, filepath.FromSlash(name)), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(tmp, "key"), filepath.Join(dir, "x.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("good.yaml", filepath.Join(dir, "same.yml")); err != nil {
		t.Fatal(err)
	}
	res := check.Manifests(check.Config{Dir: tmp}, []string{"manifests"})
	var all []string
	for _, err := range res.Errors {
		all = append(all, err.Error())
	}
	for _, m := range res.Report.Modules {
		for _, d := range m.Diagnostics {
			all = append(all, d.String())
		}
	}
	text := strings.Join(all, "\n")
	for _, leak := range []string{"BEGIN OPENSSH", "b3Blbn", "ghp_"} {
		if strings.Contains(text, leak) {
			t.Errorf("the report holds %q:\n%s", leak, text)
		}
	}
	if !strings.Contains(text, "manifests/x.yaml: a symbolic link out of its folder") {
		t.Errorf("the link out is not named:\n%s", text)
	}
	if len(res.Report.Modules) != 3 { // good, same (the link inside), token
		t.Errorf("%d modules, want 3:\n%s", len(res.Report.Modules), text)
	}
}

// TestAgainstProjectTimeout: a conversion still running after
// Config.ProjectTimeout fails that manifest's check, and the check goes
// on (found by the thirteenth fresh-eyes trial: a project under ROOT is
// the pull request's to make slow, and check had no bound).
func TestAgainstProjectTimeout(t *testing.T) {
	tmp := t.TempDir()
	app := filepath.Join(tmp, "root", "app")
	if err := os.MkdirAll(app, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(app, "compose.yaml"), []byte("services:\n  web:\n    image: nginx:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := convert.Convert(context.Background(), convert.Options{ProjectDirectory: app, WorkingDirectory: app, Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(tmp, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "out", "app.yaml"), res.Manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := check.Against(context.Background(), check.Config{Dir: tmp, Convert: convert.Options{Environ: []string{}}, Reconvert: true, ProjectTimeout: time.Nanosecond}, "root", []string{"out"})
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, m := range r.Report.Modules {
		for _, d := range m.Diagnostics {
			all = append(all, d.String())
		}
	}
	if text := strings.Join(all, "\n"); !strings.Contains(text, "not converted within 1ns (--project-timeout)") {
		t.Errorf("no timeout reported:\n%s", text)
	}
}

// TestManifestsManyDecodeErrors: a manifest with hundreds of bad lines
// lists the first hundred and says how many more (a file of aliases gave a
// million lines; found by the thirteenth fresh-eyes trial).
func TestManifestsManyDecodeErrors(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("version: 1\nmodule: m\nresources:\n")
	for i := range 300 {
		b.WriteString("  - directory: rel" + strconv.Itoa(i) + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "m.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	r := check.Manifests(check.Config{Dir: dir}, []string{"m.yaml"})
	ds := r.Report.Modules[0].Diagnostics
	if len(ds) != 101 || !strings.Contains(ds[100].Message, "and 200 more errors in this file") {
		t.Errorf("%d diagnostics, the last %q", len(ds), ds[len(ds)-1].Message)
	}
}

// TestManifestsTimeout: plain check past Config.ProjectTimeout fails with
// a *TimeoutError for each path given, and reads no manifest; within it
// the check is the same as without a bound.
func TestManifestsTimeout(t *testing.T) {
	dir := t.TempDir()
	data := "version: 1\nmodule: good\nresources: []\n"
	if err := os.WriteFile(filepath.Join(dir, "good.yaml"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	res := check.Manifests(check.Config{Dir: dir, ProjectTimeout: time.Nanosecond}, []string{"good.yaml", "."})
	var te *check.TimeoutError
	if len(res.Errors) != 2 || !errors.As(res.Errors[0], &te) || te.Timeout != time.Nanosecond || len(res.Report.Modules) != 0 || !res.Unreadable() {
		t.Fatalf("past the bound: errors %v, %d modules; want a timeout for each path and none", res.Errors, len(res.Report.Modules))
	}
	if want := "good.yaml: not checked within 1ns (--project-timeout): abandoned"; res.Errors[0].Error() != want {
		t.Errorf("error %q, want %q", res.Errors[0], want)
	}
	res = check.Manifests(check.Config{Dir: dir, ProjectTimeout: time.Hour}, []string{"good.yaml"})
	if len(res.Errors) != 0 || len(res.Report.Modules) != 1 || res.Report.Modules[0].Module != "good" {
		t.Errorf("within the bound: errors %v, modules %+v", res.Errors, res.Report.Modules)
	}
}
