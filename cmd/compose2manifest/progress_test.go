package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// TestProgressTerm: on a terminal, a batch draws its progress line, unless
// TERM is dumb (a terminal that cannot erase a line, such as Emacs's shell
// buffer or a CI log shown as a terminal).
func TestProgressTerm(t *testing.T) {
	bin, err := exec.LookPath("compose2manifest")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "a", "compose.yaml"), []byte("services:\n  web:\n    image: nginx:1.27\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		term string
		draw bool
	}{{"xterm", true}, {"dumb", false}} {
		cmd := exec.Command(bin, "convert", "--batch", "src", "-o", "out-"+tc.term)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TERM="+tc.term)
		p, err := pty.Start(cmd)
		if err != nil {
			t.Skipf("no pseudo-terminal: %v", err)
		}
		var out bytes.Buffer
		io.Copy(&out, p) // until the command exits and the pty reports EIO
		cmd.Wait()
		p.Close()
		if got := strings.Contains(out.String(), "converting 1/1 projects"); got != tc.draw {
			t.Errorf("TERM=%s: progress line drawn: %v, want %v\n%q", tc.term, got, tc.draw, out.String())
		}
		if !strings.Contains(out.String(), "1 project found: 1 converted") {
			t.Errorf("TERM=%s: no summary:\n%q", tc.term, out.String())
		}
	}
}

// TestCheckProgressTerm: on a terminal, check --against draws one
// self-erasing progress line on stderr ("checking 1/1 manifests"), erased
// before the summary; unless TERM is dumb. Off a terminal it draws
// nothing (TestCheckProgressOffTerminal).
func TestCheckProgressTerm(t *testing.T) {
	bin, err := exec.LookPath("compose2manifest")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "a", "compose.yaml"), []byte("services:\n  web:\n    image: nginx:1.27\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runIn(dir, "convert", "--batch", "src", "-o", "out"); code != 0 {
		t.Fatalf("convert --batch: exit %d\n%s", code, stderr)
	}
	for _, tc := range []struct {
		term string
		draw bool
	}{{"xterm", true}, {"dumb", false}} {
		cmd := exec.Command(bin, "check", "--against", "src", "out")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TERM="+tc.term)
		p, err := pty.Start(cmd)
		if err != nil {
			t.Skipf("no pseudo-terminal: %v", err)
		}
		var out bytes.Buffer
		io.Copy(&out, p) // until the command exits and the pty reports EIO
		cmd.Wait()
		p.Close()
		s := out.String()
		if got := strings.Contains(s, "\rcompose2manifest: checking 1/1 manifests"); got != tc.draw {
			t.Errorf("TERM=%s: progress line drawn: %v, want %v\n%q", tc.term, got, tc.draw, s)
		}
		if tc.draw && !strings.Contains(s, "manifests\r\x1b[K") {
			t.Errorf("TERM=%s: the progress line is not erased before the summary:\n%q", tc.term, s)
		}
		if !strings.Contains(s, "compose2manifest: checked 1 manifest: 0 errors, 0 warnings") {
			t.Errorf("TERM=%s: no summary:\n%q", tc.term, s)
		}
	}
}

// TestCheckProgressOffTerminal: with stderr a file, not a terminal, check
// --against draws no progress line.
func TestCheckProgressOffTerminal(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "a", "compose.yaml"), []byte("services:\n  web:\n    image: nginx:1.27\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runIn(dir, "convert", "--batch", "src", "-o", "out"); code != 0 {
		t.Fatalf("convert --batch: exit %d\n%s", code, stderr)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var stdout bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: f, environ: []string{"TERM=xterm"}, dir: dir}
	if code := run(e, []string{"check", "--against", "src", "out"}); code != 0 {
		t.Fatalf("check --against: exit %d", code)
	}
	data, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if got := string(data); got != "compose2manifest: checked 1 manifest: 0 errors, 0 warnings\n" {
		t.Errorf("stderr, a file: %q", got)
	}
}
