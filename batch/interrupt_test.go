package batch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/gen"
)

// An interrupted batch starts no new project, removes its staging folder
// and writes nothing.
func TestRunInterrupted(t *testing.T) {
	const n, stopAt, jobs = 300, 40, 4
	root := filepath.Join(t.TempDir(), "tree")
	if err := gen.Tree(root, gen.Shape{Projects: n, Services: 2, Volumes: 2}); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	writeTree(t, out, map[string]string{"keep.txt": "mine\n"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var last int
	rep, err := Run(ctx, Config{Root: root, Out: out, Jobs: jobs, Convert: convert.Options{Environ: []string{}},
		Progress: func(done, total int) {
			last = done
			if done == stopAt {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: error %v, want context.Canceled", err)
	}
	if rep == nil || !rep.Interrupted || rep.Found != n || rep.Finished != last || len(rep.Entries) != 0 {
		t.Fatalf("report %+v, want interrupted, %d found, %d finished, no entries", rep, n, last)
	}
	// The running ones finish; no new one starts.
	if last < stopAt || last > stopAt+jobs {
		t.Errorf("%d projects converted, want %d to %d", last, stopAt, stopAt+jobs)
	}
	if s := rep.Summary(); !s.Interrupted || s.Projects != n || s.Finished != last {
		t.Errorf("summary %+v", s)
	}
	des, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(des) != 1 || des[0].Name() != "keep.txt" {
		var names []string
		for _, de := range des {
			names = append(names, de.Name())
		}
		t.Errorf("out holds %q, want only keep.txt: no staging folder, no manifest", names)
	}
}

// A staging folder left by a killed run is removed by a later run once it
// is stale; a live run's folder, or a fresh one, is kept.
func TestRunRemovesStaleStaging(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, projectFiles("a", "a", "/opt/a"))
	out := t.TempDir()
	old := time.Now().Add(-staleDeadAge - time.Minute)
	ancient := time.Now().Add(-staleAnyAge - time.Minute)
	dead := deadPID(t)
	self := strconv.Itoa(os.Getpid())
	for name, mtime := range map[string]time.Time{
		stagingPrefix + dead + "-1":     old,        // killed, idle: removed
		stagingPrefix + dead + "-2":     time.Now(), // killed just now (or another namespace): kept
		stagingPrefix + self + "-3":     ancient,    // idle for a day: removed whoever made it
		stagingPrefix + self + "-4":     old,        // its process runs: kept
		stagingPrefix + "123456789":     ancient,    // an older name without a PID: by age
		stagingPrefix + "987654321":     old,
		"notes-" + stagingPrefix + "x/": ancient, // not ours
	} {
		writeTree(t, out, map[string]string{name + "/0.yaml": GeneratedMarker + "\n"})
		p := filepath.Join(out, filepath.Clean(name))
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	run(t, root, out, 1)
	var got []string
	des, _ := os.ReadDir(out)
	for _, de := range des {
		got = append(got, de.Name())
	}
	want := []string{
		stagingPrefix + "987654321",
		stagingPrefix + dead + "-2",
		stagingPrefix + self + "-4",
		"a.yaml",
		"notes-" + stagingPrefix + "x",
	}
	sort.Strings(want)
	if len(got) != len(want) {
		t.Fatalf("out holds %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("out holds %q, want %q", got, want)
		}
	}
}

// deadPID returns the ID of a process that has exited.
func deadPID(t *testing.T) string {
	t.Helper()
	for pid := 4_000_000; pid > 3_000_000; pid -= 7919 {
		if !processRunning(pid) {
			return strconv.Itoa(pid)
		}
	}
	t.Skip("no free process ID found")
	return ""
}

// A folder with a staging folder's name but a person's files in it is
// never removed, however old.
func TestRunKeepsPersonsFolderNamedLikeStaging(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, projectFiles("a", "a", "/opt/a"))
	out := t.TempDir()
	ancient := time.Now().Add(-staleAnyAge - time.Hour)
	dead := deadPID(t)
	folders := map[string]map[string]string{
		stagingPrefix + "notes":          {"todo.txt": "buy milk\n"},
		stagingPrefix + dead + "-mine":   {"data.txt": "mine\n"},
		stagingPrefix + dead + "-yaml":   {"0.yaml": "version: 1\nmodule: mine\n"},
		stagingPrefix + dead + "-staged": {"0.yaml": GeneratedMarker + "\n", "1.yaml": ""},
	}
	for name, files := range folders {
		for f, content := range files {
			writeTree(t, out, map[string]string{name + "/" + f: content})
		}
		if err := os.Chtimes(filepath.Join(out, name), ancient, ancient); err != nil {
			t.Fatal(err)
		}
	}
	run(t, root, out, 1)
	for name := range folders {
		_, err := os.Stat(filepath.Join(out, name))
		if staged := strings.HasSuffix(name, "-staged"); staged != os.IsNotExist(err) {
			t.Errorf("%s: exists=%v after the run; want removed only if it held nothing but staged manifests", name, err == nil)
		}
	}
}
