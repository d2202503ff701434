// Package exampletest copies the README's example project (a mail server,
// testdata/example/mail) for tests that convert it or are asked about it.
package exampletest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Mail copies the example project at example (testdata/example/mail, as
// the calling test's package reaches it) to a folder mail in a new
// temporary directory, with ./config and ./main.cf mounted writable
// (Writable), and returns that folder.
func Mail(t testing.TB, example string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "mail")
	if err := os.CopyFS(dir, os.DirFS(example)); err != nil {
		t.Fatal(err)
	}
	Writable(t, dir)
	return dir
}

// Writable rewrites the compose file of the example copy in dir so that
// ./config and ./main.cf are mounted writable: read-only sources of the
// checkout are produced (config, root's, 0644 or 0755), and tests of ask
// need sources that ask asks about.
func Writable(t testing.TB, dir string) {
	t.Helper()
	p := filepath.Join(dir, "compose.yaml")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"./config:/etc/postfix/conf.d", "./main.cf:/etc/postfix/main.cf"} {
		if !bytes.Contains(data, []byte(src+":ro\n")) {
			t.Fatalf("compose.yaml does not mount %s:ro", src)
		}
		data = bytes.Replace(data, []byte(src+":ro\n"), []byte(src+"\n"), 1)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
