package project

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/internal/fsread"
)

// TestInputsOneVersion: a file replaced or rewritten between the read
// Inputs hashes and compose-go's read (beforeCompose) does not give a
// digest of one version beside a conversion of the other: Inputs fails
// naming the file. A project left alone is hashed as loaded.
func TestInputsOneVersion(t *testing.T) {
	files := map[string]string{
		"compose.yaml": "include:\n  - inc.yaml\nservices:\n  web:\n    image: nginx:${TAG}\n    env_file: app.env\n    extends: {file: base.yaml, service: base}\n",
		"inc.yaml":     "services:\n  inc:\n    image: busybox:1\n",
		"base.yaml":    "services:\n  base:\n    labels: {a: b}\n",
		"app.env":      "A=1\n",
		".env":         "TAG=1\n",
	}
	replace := func(name, content string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			p := filepath.Join(dir, name)
			tmp := p + ".new"
			if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := []struct {
		name   string
		change func(t *testing.T, dir string)
		file   string // "" when nothing changes
	}{
		{"unchanged", func(*testing.T, string) {}, ""},
		{"compose file replaced", replace("compose.yaml", strings.Replace(files["compose.yaml"], "nginx", "evilx", 1)), "compose.yaml"},
		{"compose file rewritten in place, mtime set back", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "compose.yaml")
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(10 * time.Millisecond) // past the clock's tick
			if err := os.WriteFile(p, []byte(strings.Replace(files["compose.yaml"], "nginx", "evilx", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		}, "compose.yaml"},
		{"included file replaced", replace("inc.yaml", "services:\n  inc:\n    image: evilbox:1\n"), "inc.yaml"},
		{"extended file replaced", replace("base.yaml", "services:\n  base:\n    labels: {a: c}\n"), "base.yaml"},
		{".env replaced", replace(".env", "TAG=2\n"), ".env"},
		{"env_file replaced", func(t *testing.T, dir string) {
			time.Sleep(10 * time.Millisecond)
			replace("app.env", "A=2\n")(t, dir)
		}, "app.env"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, files)
			time.Sleep(10 * time.Millisecond) // the files are older than the load
			p, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}, beforeCompose: func() { c.change(t, dir) }})
			if err != nil {
				t.Fatal(err)
			}
			inputs, err := p.Inputs()
			if c.file == "" {
				if err != nil {
					t.Fatal(err)
				}
				for _, in := range inputs {
					data, _ := os.ReadFile(in.Path)
					if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != in.SHA256 {
						t.Errorf("%s: digest %s is not of its bytes", in.Path, in.SHA256)
					}
				}
				return
			}
			var changed *fsread.ChangedError
			if !errors.As(err, &changed) || filepath.Base(changed.Path) != c.file {
				t.Fatalf("Inputs() = %v, %v; want an error that %s changed while read (compose-go loaded image %q)", inputs, err, c.file, p.Compose.Services["web"].Image)
			}
		})
	}
}
