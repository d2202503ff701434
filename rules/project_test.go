package rules_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/sirupsen/logrus"
)

// TestMain silences compose-go's logrus warnings, which convert reports
// itself as C2M014 diagnostics.
func TestMain(m *testing.M) {
	logrus.SetOutput(io.Discard)
	os.Exit(m.Run())
}

// TestProjectRules converts each compose project under testdata/project
// and checks every diagnostic convert reports, the project-scope rules'
// and the module-scope rules' over the module it builds, warnings as
// errors, against the "# want" comments of the case's files (want_test.go).
//
// A case is a folder: a compose.yaml, and whatever else the case needs (a
// compose2manifest.yaml, a .env, a file to bind). Convert runs with the
// folder as its working directory and an empty environment. A file named
// flags holds the case's options, one a line, written as convert's flags
// are: --host-project-directory=DIR, --volume-root=DIR, --profile=NAME,
// --file=FILE, --env-file=FILE, --strict, and --env=KEY=VALUE for a
// variable of the environment. A conversion that fails to read its input
// fails the case.
func TestProjectRules(t *testing.T) {
	dirs, err := filepath.Glob("testdata/project/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no project cases: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) { checkProject(t, dir) })
	}
}

// checkProject converts the project in dir and checks its diagnostics
// against the wants of every file in dir but flags.
func checkProject(t *testing.T, dir string) {
	t.Helper()
	opts := convert.Options{WorkingDirectory: dir, Environ: []string{}}
	if data, err := os.ReadFile(filepath.Join(dir, "flags")); err == nil {
		caseFlags(t, &opts, string(data))
	}
	res, err := convert.Convert(context.Background(), opts)
	if err != nil {
		t.Fatalf("convert %s: %v", dir, err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	var gots []got
	for _, d := range res.Diagnostics {
		file := d.File
		if filepath.IsAbs(file) {
			if rel, err := filepath.Rel(abs, file); err == nil {
				file = rel
			}
		}
		gots = append(gots, got{filepath.Join(dir, file), d})
	}
	var files []string
	for _, f := range filesUnder(t, dir) {
		if filepath.Base(f) != "flags" {
			files = append(files, f)
		}
	}
	checkDiagnostics(t, readWants(t, files...), gots)
}

// caseFlags sets opts from the lines of a case's flags file.
func caseFlags(t *testing.T, opts *convert.Options, text string) {
	t.Helper()
	for _, line := range strings.Fields(text) {
		name, value, _ := strings.Cut(strings.TrimPrefix(line, "--"), "=")
		switch name {
		case "host-project-directory":
			opts.HostProjectDirectory = value
		case "volume-root":
			opts.VolumeRoot = value
		case "profile":
			opts.Profiles = append(opts.Profiles, value)
		case "file":
			opts.ConfigFiles = append(opts.ConfigFiles, value)
		case "env-file":
			opts.EnvFiles = append(opts.EnvFiles, value)
		case "strict":
			opts.Strict = true
		case "env":
			opts.Environ = append(opts.Environ, value)
		default:
			t.Fatalf("flags: unknown option %q", line)
		}
	}
}
