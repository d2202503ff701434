package batch

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/schematest"
	"github.com/compose2manifest/compose2manifest/report"
)

// threeProjects writes projects a, slow and c, and returns the root.
func threeProjects(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, m := range []string{"a", "slow", "c"} {
		writeTree(t, root, projectFiles(m, m, "/opt/"+m))
	}
	return root
}

// hook returns a ConvertFunc that runs bad for the project in folder
// "slow" and convert.Convert for the others.
func hook(bad func(ctx context.Context) (*convert.Result, error)) func(context.Context, convert.Options) (*convert.Result, error) {
	return func(ctx context.Context, opts convert.Options) (*convert.Result, error) {
		if filepath.Base(opts.ProjectDirectory) == "slow" {
			return bad(ctx)
		}
		return convert.Convert(ctx, opts)
	}
}

// wantOthersWritten checks that a and c were converted and written, and
// returns slow's entry.
func wantOthersWritten(t *testing.T, rep *Report, out string) Entry {
	t.Helper()
	var slow Entry
	for _, e := range rep.Entries {
		if strings.HasSuffix(e.Project, "/slow") {
			slow = e
			continue
		}
		if e.Status != convert.Converted || e.Write != Written {
			t.Errorf("%s: %s %q, want converted and written: %v", e.Project, e.Status, e.Write, e.Diagnostics)
		}
	}
	for _, m := range []string{"a", "c"} {
		if _, err := os.Stat(filepath.Join(out, m+".yaml")); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "slow.yaml")); err == nil {
		t.Error("slow.yaml written")
	}
	for _, name := range []string{lockName, journalName} {
		if _, err := os.Stat(filepath.Join(out, name)); err == nil {
			t.Errorf("%s left in the output folder", name)
		}
	}
	return slow
}

// A project stuck past the time limit is reported failed and abandoned;
// the others are converted and written.
func TestRunProjectTimeout(t *testing.T) {
	root, out := threeProjects(t), t.TempDir()
	release := make(chan struct{})
	defer close(release) // the abandoned conversion ends with the test
	stuck := hook(func(ctx context.Context) (*convert.Result, error) {
		<-release // ignores ctx, as a stuck compose-go call would
		return nil, errors.New("released")
	})
	start := time.Now()
	rep, err := Run(context.Background(), Config{Root: root, Out: out, Jobs: 2, ProjectTimeout: 200 * time.Millisecond,
		ConvertFunc: stuck, Convert: convert.Options{Environ: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Run took %s", d)
	}
	slow := wantOthersWritten(t, rep, out)
	if slow.Status != convert.Failed || !slow.LoadFailed || slow.Internal || len(slow.Diagnostics) == 0 ||
		!strings.Contains(slow.Diagnostics[len(slow.Diagnostics)-1].Message, "not converted within 200ms") {
		t.Errorf("slow: %+v", slow)
	}
}

// Run refuses a configuration Config.Check refuses, writing nothing: a
// negative ProjectTimeout is not "no limit".
func TestRunChecksConfig(t *testing.T) {
	root, out := threeProjects(t), filepath.Join(t.TempDir(), "out")
	rep, err := Run(context.Background(), Config{Root: root, Out: out, ProjectTimeout: -time.Second, Convert: convert.Options{Environ: []string{}}})
	if err == nil || !strings.Contains(err.Error(), "--project-timeout -1s") || rep != nil {
		t.Errorf("Run = %v, %v; want nil and the timeout refused", rep, err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("output folder: %v; want it not created", err)
	}
}

// A project whose conversion panics is a failed project with an internal
// error; the others are converted and written.
func TestRunPanickingProject(t *testing.T) {
	root, out := threeProjects(t), t.TempDir()
	rep, err := Run(context.Background(), Config{Root: root, Out: out, Jobs: 2,
		ConvertFunc: hook(func(context.Context) (*convert.Result, error) { panic("boom") }),
		Convert:     convert.Options{Environ: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	slow := wantOthersWritten(t, rep, out)
	if slow.Status != convert.Failed || !slow.Internal || !slow.LoadFailed ||
		slow.Diagnostics[len(slow.Diagnostics)-1].Message != "internal error: boom; please report it" {
		t.Errorf("slow: %+v", slow)
	}
	if s := rep.Summary(); s.Internal != 1 || s.LoadFailed != 1 || s.Converted != 2 {
		t.Errorf("summary %+v", s)
	}
}

// An interrupted batch stops at once even while a project is stuck.
func TestRunInterruptedWhileStuck(t *testing.T) {
	root, out := threeProjects(t), t.TempDir()
	release := make(chan struct{})
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	stuck := hook(func(context.Context) (*convert.Result, error) {
		cancel() // the signal comes while it is stuck
		<-release
		return nil, errors.New("released")
	})
	done := make(chan struct{})
	var rep *Report
	var err error
	go func() {
		defer close(done)
		rep, err = Run(ctx, Config{Root: root, Out: out, Jobs: 1, ConvertFunc: stuck, Convert: convert.Options{Environ: []string{}}})
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop within 5s of the interruption")
	}
	if !errors.Is(err, context.Canceled) || rep == nil || !rep.Interrupted {
		t.Fatalf("Run: %v, %+v", err, rep)
	}
	if des, _ := os.ReadDir(out); len(des) != 0 {
		t.Errorf("out holds %v", des)
	}
}

// A second batch into the same folder while the first runs is refused and
// writes nothing; the first goes on and commits. A lock left by a process
// that is gone is taken over.
func TestRunConcurrentBatches(t *testing.T) {
	root, out := threeProjects(t), t.TempDir()
	inFirst := make(chan struct{})
	release := make(chan struct{})
	first := hook(func(ctx context.Context) (*convert.Result, error) {
		close(inFirst)
		<-release
		return nil, errors.New("slow fails")
	})
	done := make(chan error, 1)
	go func() {
		_, err := Run(context.Background(), Config{Root: root, Out: out, Jobs: 1, ConvertFunc: first, Convert: convert.Options{Environ: []string{}}})
		done <- err
	}()
	<-inFirst
	rep, err := Run(context.Background(), Config{Root: root, Out: out, Jobs: 1, Convert: convert.Options{Environ: []string{}}})
	var le *LockedError
	if !errors.As(err, &le) || rep != nil || le.PID != os.Getpid() {
		t.Fatalf("second Run: %v, %+v; want a LockedError naming pid %d", err, rep, os.Getpid())
	}
	if !strings.Contains(err.Error(), "is in use by another batch") {
		t.Errorf("error %q", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"a", "c"} {
		if _, err := os.Stat(filepath.Join(out, m+".yaml")); err != nil {
			t.Error(err)
		}
	}

	// A stale lock: its process is gone.
	if err := os.WriteFile(filepath.Join(out, lockName), []byte(deadPID(t)+" "+hostname(t)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), Config{Root: root, Out: out, Convert: convert.Options{Environ: []string{}}}); err != nil {
		t.Fatalf("over a stale lock: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, lockName)); err == nil {
		t.Error("lock left behind")
	}
	// A live lock of another process (this test's parent stands for it).
	if err := os.WriteFile(filepath.Join(out, lockName), []byte(strconv.Itoa(os.Getppid())+" "+hostname(t)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), Config{Root: root, Out: out, Convert: convert.Options{Environ: []string{}}}); !errors.As(err, &le) {
		t.Fatalf("over a live lock: %v", err)
	}
}

func hostname(t *testing.T) string {
	h, err := os.Hostname()
	if err != nil {
		t.Skip(err)
	}
	return h
}

// A journal left by a commit that was killed halfway is reported with what
// it had written, and removed by the next commit.
func TestRunReportsUnfinishedCommit(t *testing.T) {
	root, out := threeProjects(t), t.TempDir()
	old := time.Now().Add(-time.Hour)
	writeTree(t, out, map[string]string{
		"a.yaml": GeneratedMarker + " from a/compose.yaml\nversion: 1\nmodule: a\n",
		"c.yaml": GeneratedMarker + " from c/compose.yaml\nversion: 1\nmodule: c\n",
	})
	if err := writeJournal(nil, out, []string{"a.yaml", "c.yaml", "gone.yaml"}); err != nil {
		t.Fatal(err)
	}
	// The killed commit wrote a.yaml (after its journal); c.yaml is older.
	j := filepath.Join(out, journalName)
	if err := os.Chtimes(j, old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Join(out, "c.yaml"), old.Add(-time.Minute), old.Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Config{Root: root, Out: out, Convert: convert.Options{Environ: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	uc := rep.Unfinished
	if uc == nil || uc.PID != os.Getpid() || len(uc.Manifests) != 3 || len(uc.Written) != 1 || uc.Written[0] != filepath.ToSlash(filepath.Join(out, "a.yaml")) {
		t.Fatalf("Unfinished = %+v", uc)
	}
	if _, err := os.Stat(j); err == nil {
		t.Error("journal left after this run's commit")
	}
	// The JSON report with it is valid against schema/report.json (its
	// unfinished_commit was not in the schema).
	var b bytes.Buffer
	if err := rep.WriteJSON(&b, &report.Tool{Name: "compose2manifest", Version: "test"}, ""); err != nil {
		t.Fatal(err)
	}
	v, err := schematest.New()
	if err != nil {
		t.Fatal(err)
	}
	if err := v.JSON("report", b.Bytes()); err != nil {
		t.Errorf("the report with unfinished_commit: %v\n%s", err, b.String())
	}
}

// TestRunGarbageLock: a lock file that names no batch is reported as such
// (it said "pid 0 on , since …"), and nothing is converted.
func TestRunGarbageLock(t *testing.T) {
	root, out := threeProjects(t), t.TempDir()
	if err := os.WriteFile(filepath.Join(out, lockName), []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), Config{Root: root, Out: out, Convert: convert.Options{Environ: []string{}}})
	var le *LockedError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "holds a lock file that names no batch") || strings.Contains(err.Error(), "pid 0") {
		t.Fatalf("Run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "a.yaml")); err == nil {
		t.Error("converted under a lock")
	}
}
