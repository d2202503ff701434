package project

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInputsReadOnce: Inputs reads a service's env_file once, and later
// calls (and Variables) use what it read, so the hash and the variables
// scan see the same bytes even when the file changes meanwhile.
func TestInputsReadOnce(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"compose.yaml": "services:\n  web:\n    image: nginx:1\n    env_file: app.env\n",
		"app.env":      "A=1\n",
	})
	p, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	first, err := p.Inputs()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "app.env"), []byte("A=2\nB=${NEW}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := p.Inputs()
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 2 || len(second) != len(first) || first[1] != second[1] {
		t.Errorf("Inputs changed between calls: %+v then %+v", first, second)
	}
	names, err := p.Variables()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if n == "NEW" {
			t.Errorf("Variables read app.env again: %v", names)
		}
	}
}

// TestInputsBounded: an env_file past MaxInputSize is an error naming it,
// not read whole.
func TestInputsBounded(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"compose.yaml": "services:\n  web:\n    image: nginx:1\n    env_file: app.env\n",
		"app.env":      "A=1\n",
	})
	p, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	big := "A=" + strings.Repeat("x", MaxInputSize) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "app.env"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Inputs(); err == nil || !strings.Contains(err.Error(), "app.env") {
		t.Errorf("Inputs() error = %v; want one naming app.env", err)
	}
}
