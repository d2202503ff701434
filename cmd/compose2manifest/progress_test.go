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
