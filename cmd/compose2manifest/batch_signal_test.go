//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"

	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/internal/gen"
	"github.com/compose2manifest/compose2manifest/internal/interrupt"
)

// interruptBatch runs convert --batch over a generated tree of n projects
// into out, sending the process SIGINT as soon as the command listens
// for it, and returns the exit code, stdout and stderr.
func interruptBatch(t *testing.T, n int, out string, args ...string) (int, string, string) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "tree")
	if err := gen.Tree(root, gen.Shape{Projects: n, Services: 4, Volumes: 2}); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	e := &env{stdout: &stdout, stderr: &stderr, environ: []string{}, dir: t.TempDir(), hooks: hooks{afterListen: func() {
		if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
			t.Error(err)
		}
	}}}
	code := run(e, append([]string{"convert", "--batch", root, "-o", out, "--jobs", "2"}, args...))
	return code, stdout.String(), stderr.String()
}

// SIGINT stops a batch: exit 130, the summary says so, and the output
// folder gets nothing, not even the staging folder.
func TestBatchInterrupted(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := interruptBatch(t, 400, out)
	if code != interrupt.ExitInterrupted {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, interrupt.ExitInterrupted, stderr)
	}
	if !regexp.MustCompile(`(?m)\Acompose2manifest: 400 projects found: interrupted after \d+ converted; nothing written\n\z`).MatchString(stderr) {
		t.Errorf("stderr:\n%s", stderr)
	}
	if des, _ := os.ReadDir(out); len(des) != 0 {
		t.Errorf("out holds %d entries, want none: %v", len(des), des)
	}

	code, stdout, _ := interruptBatch(t, 400, out, "--format", "json")
	var rep struct {
		Modules []any         `json:"modules"`
		Summary batch.Summary `json:"summary"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if code != interrupt.ExitInterrupted || !rep.Summary.Interrupted || rep.Summary.Projects != 400 || rep.Summary.Finished >= 400 || len(rep.Modules) != 0 {
		t.Errorf("exit %d, report %s", code, stdout)
	}
}
