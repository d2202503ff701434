package ask

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestBlankDeclarations: a missing or comment-only file is blank, one
// with YAML is not, and a FIFO at the path is refused, not waited on.
func TestBlankDeclarations(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		path string
		want bool
	}{
		{filepath.Join(dir, "missing.yaml"), true},
		{write("comments.yaml", "# nothing yet\r\n\r\n"), true},
		{write("yaml.yaml", "version: 1\n"), false},
	} {
		if got := blankDeclarations(tc.path); got != tc.want {
			t.Errorf("blankDeclarations(%s) = %v, want %v", filepath.Base(tc.path), got, tc.want)
		}
	}
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	done := make(chan bool, 1)
	go func() { done <- blankDeclarations(fifo) }()
	select {
	case got := <-done:
		if got {
			t.Error("a FIFO reads as blank declarations")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("blankDeclarations blocks on a FIFO")
	}
}
