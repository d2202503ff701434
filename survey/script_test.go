package survey

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/declare"
)

// runSurvey writes the script of s and runs it with sh, PATH starting
// with bin, and returns its standard output.
func runSurvey(t *testing.T, s Spec, bin string, env ...string) string {
	t.Helper()
	var script strings.Builder
	if err := WriteScript(&script, s); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-s")
	cmd.Stdin = strings.NewReader(script.String())
	cmd.Env = append([]string{"PATH=" + bin + ":" + os.Getenv("PATH"), "LC_ALL=C"}, env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("survey: %v\n%s\nscript:\n%s", err, stderr.String(), script.String())
	}
	return string(out)
}

// TestScriptBinds: a script with binds only, no docker on PATH, prints
// valid JSON with the facts of each.
func TestScriptBinds(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "app", "data", "sub"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "app", "data", "sub", "f"), []byte("12345"), 0o640); err != nil {
		t.Fatal(err)
	}
	s := Spec{Project: "app", ProjectDirectory: filepath.Join(dir, "app"), Sources: []Target{
		{Section: declare.SectionBinds, Key: "./data", Real: "./data"},
		{Section: declare.SectionBinds, Key: "./data/sub/f", Real: "./data/sub/f"},
		{Section: declare.SectionBinds, Key: "./none", Real: "./none"},
	}}
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "docker"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := runSurvey(t, s, bin)
	var doc struct {
		Sources []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := []map[string]any{
		{"type": "directory", "mode": "750", "files": 1.0, "exists": true, "complete": true},
		{"type": "file", "mode": "640", "bytes": 5.0, "exists": true},
		{"exists": false},
	}
	if len(doc.Sources) != len(want) {
		t.Fatalf("%d sources, want %d:\n%s", len(doc.Sources), len(want), out)
	}
	for i, w := range want {
		for k, v := range w {
			if doc.Sources[i][k] != v {
				t.Errorf("source %d: %s is %v, want %v\n%s", i, k, doc.Sources[i][k], v, out)
			}
		}
	}
}

// TestScriptShellcheck: the script of every kind of source passes
// shellcheck, where it is installed.
func TestScriptShellcheck(t *testing.T) {
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Skip("shellcheck is not installed (.ci/run installs it)")
	}
	for name, s := range map[string]Spec{"every kind": oddSpec("/legacy/app"), "none": {ProjectDirectory: "/legacy"}} {
		var script strings.Builder
		if err := WriteScript(&script, s); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(sc, "-s", "sh", "-")
		cmd.Stdin = strings.NewReader(script.String())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: shellcheck: %v\n%s", name, err, out)
		}
	}
}

// oddSpec is a spec with a source of every kind, odd names among them.
func oddSpec(dir string) Spec {
	return Spec{Project: "c2m-test", ProjectDirectory: dir, Images: []string{"postgres:16", "example/odd:1", "gone:1"}, Sources: []Target{
		{Section: declare.SectionBinds, Key: "./data", Real: "./data"},
		{Section: declare.SectionBinds, Key: "./a file with spaces", Real: "./a file with spaces"},
		{Section: declare.SectionBinds, Key: "./new\nline", Real: "./new\nline"},
		{Section: declare.SectionBinds, Key: "./-leading dash", Real: "./-leading dash"},
		{Section: declare.SectionBinds, Key: "./quote'd \"and\" $x `y` *", Real: "./quote'd \"and\" $x `y` *"},
		{Section: declare.SectionBinds, Key: "./naïve ☃ 𝄞", Real: "./naïve ☃ 𝄞"},
		{Section: declare.SectionBinds, Key: "./current", Real: "./current"},
		{Section: declare.SectionBinds, Key: "./config.yml", Real: "./config.yml"},
		{Section: declare.SectionBinds, Key: "./none", Real: "./none"},
		{Section: declare.SectionBinds, Key: "~/worlds", Real: "~/worlds"},
		{Section: declare.SectionVolumes, Key: "db", Volume: "c2m-test_db"},
		{Section: declare.SectionVolumes, Key: "gone", Volume: "c2m-test_gone"},
		{Section: declare.SectionAnonymous, Key: "app:/var/lib/app", Service: "app", Target: "/var/lib/app"},
		{Section: declare.SectionAnonymous, Key: "down:/x", Service: "down", Target: "/x"},
	}}
}

// A name from the compose file printed in the script's comments gives a
// CI log no workflow command: "##[" is written "##\x5b", as plan's script
// and every other output do; a "::" starting a comment's text cannot
// happen (each comment starts with "# ").
func TestScriptNoWorkflowCommand(t *testing.T) {
	s := Spec{Project: "app", ProjectDirectory: "/opt/app",
		Sources: []Target{{Section: "binds", Key: "./a##[error]b", Real: "./a##[error]b"}},
		Images:  []string{"example/x##[warning]:1"}}
	var script bytes.Buffer
	if err := WriteScript(&script, s); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(script.String(), "\n") {
		if strings.Contains(line, "##[") {
			t.Errorf("script line holds a workflow command: %q", line)
		}
	}
}
