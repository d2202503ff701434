package fsread

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok", "hello")
	big := write("big", strings.Repeat("x", 11))
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Skip(err)
	}
	if data, err := File("file", ok, 10); err != nil || string(data) != "hello" {
		t.Errorf("File(ok) = %q, %v", data, err)
	}
	for name, p := range map[string]string{"dir": dir, "fifo": fifo, "zero": zero} {
		if _, err := File("file", p, 10); !errors.Is(err, ErrNotRegular) {
			t.Errorf("File(%s) = %v, want ErrNotRegular", name, err)
		}
	}
	if _, err := File("file", big, 10); err == nil || !strings.Contains(err.Error(), "is 11 bytes, more than the 10") {
		t.Errorf("File(big) = %v", err)
	}
	if _, err := File("file", filepath.Join(dir, "none"), 10); !os.IsNotExist(err) {
		t.Errorf("File(none) = %v, want not exist", err)
	}
}
