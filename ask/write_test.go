package ask

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
)

// TestRunCannotWriteBeforeAsking: a declarations file that cannot be
// written (in /proc, where nobody creates files, root included) stops ask before the first
// question, so no answer is typed in vain.
func TestRunCannotWriteBeforeAsking(t *testing.T) {
	dir := mailProject(t)
	var stdout, out bytes.Buffer
	got := Run(context.Background(), Config{
		Options:  convert.Options{WorkingDirectory: dir, Environ: []string{}, DeclarationsFile: "/proc/c2m-ask-test/compose2manifest.yaml"},
		Terminal: true, Write: true,
		In: strings.NewReader("\n0:0\n0644\n\n\n\n"), Out: &out, Stdout: &stdout,
	})
	if got.Status != Failed || got.Err == nil || !strings.Contains(got.Err.Error(), "cannot write /proc/c2m-ask-test/compose2manifest.yaml") || !strings.Contains(got.Err.Error(), "nothing asked") {
		t.Errorf("outcome %+v", got)
	}
	if strings.Contains(out.String(), "owner") {
		t.Errorf("asked before finding the file unwritable:\n%s", out.String())
	}
}

// lineReader returns one line a Read, and calls before(n) before
// returning line n (0-based), so a test can act in the middle of a
// session.
type lineReader struct {
	lines  []string
	n      int
	before func(int)
}

func (l *lineReader) Read(p []byte) (int, error) {
	if l.n >= len(l.lines) {
		return 0, os.ErrClosed
	}
	if l.before != nil {
		l.before(l.n)
	}
	k := copy(p, l.lines[l.n]+"\n")
	l.n++
	return k, nil
}

// TestRunWriteFailsKeepsAnswers: when the write fails at the end after
// all (the file became a directory during the session), ask prints the
// declarations it would have written on stdout and fails with the error.
func TestRunWriteFailsKeepsAnswers(t *testing.T) {
	dir := mailProject(t)
	decl := filepath.Join(dir, "compose2manifest.yaml")
	in := &lineReader{lines: []string{"", "0:0", "0644", "", "", "", "yes"}}
	in.before = func(n int) {
		if n == len(in.lines)-1 { // the confirmation
			os.Rename(decl, decl+".old")
			os.Mkdir(decl, 0o755)
			os.WriteFile(filepath.Join(decl, "keep"), nil, 0o644)
		}
	}
	var stdout, out bytes.Buffer
	got := Run(context.Background(), Config{
		Options:  convert.Options{WorkingDirectory: dir, Environ: []string{}},
		Terminal: true,
		In:       in, Out: &out, Stdout: &stdout,
	})
	if got.Status != Failed || got.Err == nil || !strings.Contains(got.Err.Error(), "nothing written") {
		t.Fatalf("outcome %+v; conversation:\n%s", got, out.String())
	}
	if !strings.Contains(stdout.String(), "  ./main.cf: {owner: \"0:0\", mode: \"0644\", intent: config}\n") || !strings.Contains(stdout.String(), "host_project_directory: /opt/mail") {
		t.Errorf("stdout lacks the declarations:\n%s", stdout.String())
	}
	if len(got.Hints) == 0 || !strings.Contains(got.Hints[0], "printed on stdout") {
		t.Errorf("hints %q", got.Hints)
	}
}
