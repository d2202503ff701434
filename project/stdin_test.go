package project

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReadStdin reads at most MaxInputSize bytes and refuses more, without
// reading past the cap.
func TestReadStdinBounded(t *testing.T) {
	if data, err := ReadStdin(strings.NewReader("services: {}\n")); err != nil || string(data) != "services: {}\n" {
		t.Errorf("ReadStdin = %q, %v", data, err)
	}
	r := &countingReader{r: io.MultiReader(bytes.NewReader(make([]byte, MaxInputSize)), strings.NewReader("x"), endless{})}
	if _, err := ReadStdin(r); err == nil || !strings.Contains(err.Error(), "more than the") {
		t.Errorf("ReadStdin of more than MaxInputSize: %v, want an error", err)
	}
	if r.n > MaxInputSize+64*1024 {
		t.Errorf("read %d bytes, past the cap", r.n)
	}
}

// -f - loads the compose file given as Stdin, in the working directory,
// names it "-", and leaves no file behind.
func TestLoadStdin(t *testing.T) {
	dir := t.TempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	p, err := Load(context.Background(), Options{ConfigFiles: []string{"-"}, WorkingDirectory: dir, Environ: []string{},
		Stdin: []byte("services:\n  web:\n    image: x\n    volumes: [./data:/data]\n")})
	if err != nil {
		t.Fatal(err)
	}
	if p.Dir != dir {
		t.Errorf("project directory %s, want the working directory %s", p.Dir, dir)
	}
	ms := p.Mounts(p.Compose.Services["web"])
	if len(ms) != 1 || ms[0].Pos.File != "-" || ms[0].Pos.Line != 4 || ms[0].Key != "./data" {
		t.Errorf("mounts %+v, want ./data at -:4", ms)
	}
	inputs, err := p.Inputs()
	if err != nil || len(inputs) == 0 || p.Rel(inputs[0].Path) != "-" {
		t.Errorf("inputs %+v, %v: want the compose file named -", inputs, err)
	}
	if des, _ := os.ReadDir(tmp); len(des) > 0 {
		t.Errorf("left behind in TMPDIR: %v", des)
	}
	if _, err := Load(context.Background(), Options{ConfigFiles: []string{"-"}, WorkingDirectory: dir, Environ: []string{}}); err == nil {
		t.Error("-f - without Stdin loaded")
	}
	if _, err := Load(context.Background(), Options{ConfigFiles: []string{filepath.Join(dir, "x.yaml"), "-"}, WorkingDirectory: dir, Environ: []string{}, Stdin: []byte("services: {}\n")}); err == nil {
		t.Error("a missing file beside -f - loaded")
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// endless is a reader that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) { return len(p), nil }
