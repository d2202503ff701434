package convert_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
)

// TestInMemoryDeclarations: declarations given in memory give the manifest
// byte for byte that a file on disk with the same bytes gives, at the
// default place or at a --declarations path, whatever the file on disk
// holds at the time (or when there is none).
func TestInMemoryDeclarations(t *testing.T) {
	orig, err := os.ReadFile("../testdata/example/mail/compose2manifest.yaml")
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.ReplaceAll(orig, []byte("/srv"), []byte("/data"))
	dir := filepath.Join(t.TempDir(), "mail")
	if err := os.CopyFS(dir, os.DirFS("../testdata/example/mail")); err != nil {
		t.Fatal(err)
	}
	convertWith := func(o convert.Options) []byte {
		t.Helper()
		o.WorkingDirectory, o.Environ = dir, []string{}
		res, err := convert.Convert(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != convert.Converted {
			t.Fatalf("status %s: %v", res.Status, res.Diagnostics)
		}
		return res.Manifest
	}
	write := func(name string, data []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The default file.
	write("compose2manifest.yaml", edited)
	want := convertWith(convert.Options{})
	write("compose2manifest.yaml", orig)
	if got := convertWith(convert.Options{Declarations: &convert.Declarations{Data: edited}}); !bytes.Equal(got, want) {
		t.Errorf("in memory, over a file that differs:\n%s\nwant (on disk):\n%s", got, want)
	}
	if err := os.Remove(filepath.Join(dir, "compose2manifest.yaml")); err != nil {
		t.Fatal(err)
	}
	if got := convertWith(convert.Options{Declarations: &convert.Declarations{Data: edited}}); !bytes.Equal(got, want) {
		t.Errorf("in memory, with no file:\n%s\nwant (on disk):\n%s", got, want)
	}

	// A --declarations file, named by DeclarationsFile or by Path.
	write("other.yaml", edited)
	want = convertWith(convert.Options{DeclarationsFile: "other.yaml"})
	if !bytes.Contains(want, []byte("file: other.yaml\n")) {
		t.Fatalf("the manifest does not name other.yaml:\n%s", want)
	}
	write("other.yaml", orig)
	for _, o := range []convert.Options{
		{DeclarationsFile: "other.yaml", Declarations: &convert.Declarations{Data: edited}},
		{Declarations: &convert.Declarations{Path: "other.yaml", Data: edited}},
		{DeclarationsFile: "elsewhere.yaml", Declarations: &convert.Declarations{Path: filepath.Join(dir, "other.yaml"), Data: edited}},
	} {
		if got := convertWith(o); !bytes.Equal(got, want) {
			t.Errorf("in memory (DeclarationsFile %q, Path %q):\n%s\nwant (on disk):\n%s", o.DeclarationsFile, o.Declarations.Path, got, want)
		}
	}
}
