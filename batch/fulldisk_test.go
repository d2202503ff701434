package batch

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
)

// fullFile is a file on a full disk: it was created, but every write
// fails with ENOSPC and writes nothing.
type fullFile struct{ *os.File }

func (f fullFile) Write([]byte) (int, error) {
	return 0, &fs.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

// fullFor returns a createFunc that creates every file, and gives those
// whose base name holds part a full disk.
func fullFor(part string) createFunc {
	return func(name string) (newFile, error) {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil || !strings.Contains(filepath.Base(name), part) {
			return f, err
		}
		return fullFile{f}, nil
	}
}

// TestRunFullDisk: a disk that fills up while a batch writes its staged
// manifests or its commit journal leaves nothing behind in the output
// folder (an empty journal was left, .compose2manifest-commit.json.tmp),
// every module says why it was not written, and the next run writes all.
func TestRunFullDisk(t *testing.T) {
	for _, part := range []string{journalName, ".yaml"} {
		t.Run(part, func(t *testing.T) {
			root, out := threeProjects(t), t.TempDir()
			rep, err := Run(context.Background(), Config{Root: root, Out: out, Convert: convert.Options{Environ: []string{}}, create: fullFor(part)})
			if err != nil {
				t.Fatal(err)
			}
			if left, err := os.ReadDir(out); err != nil || len(left) > 0 {
				var names []string
				for _, e := range left {
					names = append(names, e.Name())
				}
				t.Errorf("left in the output folder: %q, %v", names, err)
			}
			for _, e := range rep.Entries {
				if e.Status != convert.Failed || len(e.Diagnostics) == 0 || !strings.Contains(e.Diagnostics[len(e.Diagnostics)-1].Message, "no space left on device") {
					t.Errorf("%s: %s, %+v; want failed, saying no space is left", e.Module, e.Status, e.Diagnostics)
				}
			}
			rep, err = Run(context.Background(), Config{Root: root, Out: out, Convert: convert.Options{Environ: []string{}}})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range rep.Entries {
				if e.Write != Written {
					t.Errorf("second run: %s: %s, %q", e.Module, e.Status, e.Write)
				}
			}
		})
	}
}
