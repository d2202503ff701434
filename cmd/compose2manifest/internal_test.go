//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/interrupt"
)

// runIn runs the command in-process in dir.
func runIn(dir string, args ...string) (int, string, string) {
	return runWith(hooks{}, dir, args...)
}

// runWith is runIn with test hooks.
func runWith(h hooks, dir string, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, environ: []string{}, dir: dir, hooks: h}
	code := run(e, args)
	return code, stdout.String(), stderr.String()
}

// twoProjects writes projects ok and bad under a new root.
func twoProjects(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, m := range []string{"ok", "bad"} {
		files := map[string]string{
			m + "/compose.yaml":          "services:\n  web:\n    image: nginx:1.27\n    volumes:\n      - ./html:/usr/share/nginx/html:ro\n",
			m + "/compose2manifest.yaml": "version: 1\nhost_project_directory: /opt/" + m + "\nbinds:\n  ./html: {owner: \"0:0\", mode: \"0755\", intent: content}\ndirectories:\n  /opt/" + m + ": {owner: \"0:0\", mode: \"0755\", intent: config}\n",
		}
		for name, data := range files {
			p := filepath.Join(root, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

// batchHook returns hooks that make the batch convert project "bad" with
// bad.
func batchHook(bad func(ctx context.Context) (*convert.Result, error)) hooks {
	return hooks{batchConvert: func(ctx context.Context, opts convert.Options) (*convert.Result, error) {
		if filepath.Base(opts.ProjectDirectory) == "bad" {
			return bad(ctx)
		}
		return convert.Convert(ctx, opts)
	}}
}

// A panic is an internal error: one line, exit 3, no goroutine dump.
func TestInternalErrorExit3(t *testing.T) {
	h := hooks{convert: func(context.Context, convert.Options) (*convert.Result, error) {
		var m map[string]int
		//lint:ignore SA5000 a nil map on purpose: a real runtime panic
		m["x"]++
		return nil, nil
	}}
	code, stdout, stderr := runWith(h, twoProjects(t), "convert", "-f", "ok/compose.yaml")
	if code != exitInternal || stdout != "" {
		t.Errorf("exit %d, stdout %q; want %d", code, stdout, exitInternal)
	}
	if want := "compose2manifest: internal error: assignment to entry in nil map; please report it\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

// A project that panics in a batch fails with an internal error; the
// others are written, and the batch exits 3.
func TestBatchInternalError(t *testing.T) {
	root := twoProjects(t)
	h := batchHook(func(context.Context) (*convert.Result, error) { panic("boom\n::error::x") })
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := runWith(h, root, "convert", "--batch", ".", "-o", out)
	if code != exitInternal {
		t.Errorf("exit %d, want %d:\n%s", code, exitInternal, stderr)
	}
	if !strings.Contains(stderr, "bad: error: internal error: boom ::error::x; please report it\n") ||
		!strings.Contains(stderr, "1 failed to load (1 internal error)") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "ok.yaml")); err != nil {
		t.Error(err)
	}
}

// A stuck project fails after --project-timeout and the others are
// written; a single conversion is bounded by it too.
func TestBatchProjectTimeout(t *testing.T) {
	root := twoProjects(t)
	release := make(chan struct{})
	defer close(release)
	h := batchHook(func(context.Context) (*convert.Result, error) { <-release; return nil, nil })
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := runWith(h, root, "convert", "--batch", ".", "-o", out, "--project-timeout", "100ms")
	if code != exitUsage || !strings.Contains(stderr, "bad: error: not converted within 100ms (--project-timeout)") {
		t.Errorf("exit %d:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "ok.yaml")); err != nil {
		t.Error(err)
	}
	if code, _, stderr := runIn(root, "convert", "-f", "ok/compose.yaml", "--project-timeout", "1ns"); code != exitUsage || !strings.Contains(stderr, "compose2manifest: error: not converted within 1ns (--project-timeout): abandoned") {
		t.Errorf("without --batch: exit %d:\n%s", code, stderr)
	}
}

// SIGTERM stops a batch with exit 143, within a bound even while a project
// is stuck.
func TestBatchSIGTERMWhileStuck(t *testing.T) {
	root := twoProjects(t)
	release := make(chan struct{})
	defer close(release)
	h := batchHook(func(context.Context) (*convert.Result, error) {
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		<-release
		return nil, nil
	})
	out := filepath.Join(t.TempDir(), "out")
	start := time.Now()
	code, _, stderr := runWith(h, root, "convert", "--batch", ".", "-o", out, "--jobs", "1")
	if code != interrupt.ExitTerminated {
		t.Errorf("exit %d, want %d:\n%s", code, interrupt.ExitTerminated, stderr)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("stopped after %s", d)
	}
	if !strings.Contains(stderr, "interrupted after") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("out created")
	}
}
