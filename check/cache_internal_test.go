package check

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
)

func TestCacheDir(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{[]string{"HOME=/home/u"}, "/home/u/.cache/compose2manifest/check"},
		{[]string{"HOME=/home/u", "XDG_CACHE_HOME=/c"}, "/c/compose2manifest/check"},
		{[]string{"HOME=/home/u", "XDG_CACHE_HOME=rel"}, "/home/u/.cache/compose2manifest/check"},
		{[]string{"HOME=/home/u", "C2M_CHECK_CACHE=/x"}, "/x"},
		{[]string{"HOME=/home/u", "C2M_CHECK_CACHE=off"}, ""},
		{[]string{"HOME=/home/u", "C2M_CHECK_CACHE="}, ""},
		{[]string{"HOME=relative"}, ""},
		{nil, ""},
	} {
		if got := CacheDir(tc.env); got != tc.want {
			t.Errorf("CacheDir(%q) = %q, want %q", tc.env, got, tc.want)
		}
	}
}

// TestCacheEntries: an entry is taken for the same bytes and path only;
// a corrupt or foreign index is no cache; a folder that cannot be
// written leaves the run as it is.
func TestCacheEntries(t *testing.T) {
	dir := t.TempDir()
	list := rules.All()
	m := &manifest.Module{Module: "app", Resources: []manifest.Resource{
		{Kind: manifest.KindDirectory, Path: "/srv/app", Owner: "0:0", Mode: "0750", Intent: manifest.IntentState, Pos: manifest.Pos{File: "out/app.yaml", Line: 9}, Comment: "supplied"},
		{Kind: manifest.KindContainer, Name: "app", Container: &manifest.Container{Image: "x:1"}},
	}}
	diags := []rules.Diagnostic{{Rule: "C2M011", Severity: rules.Warning, Message: "m"}}
	data := []byte("version: 1\n")
	c := newCache(dir, "", list, []string{"out"}, false)
	if c == nil {
		t.Fatal("no cache")
	}
	if _, _, _, ok := c.get("out/app.yaml", "/w/out/app.yaml", data); ok {
		t.Fatal("a hit in an empty cache")
	}
	c.put("out/app.yaml", "/w/out/app.yaml", data, m, diags, text{body: "b", generated: true})
	c.save()

	c = newCache(dir, "", list, []string{"out"}, false)
	got, gotDiags, tx, ok := c.get("out/app.yaml", "/w/out/app.yaml", data)
	if !ok || len(got.Resources) != 1 || got.Resources[0].Path != "/srv/app" || got.Resources[0].Pos.File != "out/app.yaml" || got.Resources[0].Pos.Line != 9 ||
		len(gotDiags) != 1 || gotDiags[0].Rule != "C2M011" || tx != (text{body: "b", generated: true}) {
		t.Fatalf("hit: %v %+v %+v %+v", ok, got, gotDiags, tx)
	}
	for name, miss := range map[string]func() bool{
		"other bytes": func() bool {
			_, _, _, ok := c.get("out/app.yaml", "/w/out/app.yaml", []byte("version: 2\n"))
			return !ok
		},
		"other path": func() bool { _, _, _, ok := c.get("out/app.yaml", "/v/out/app.yaml", data); return !ok },
		"other name": func() bool { _, _, _, ok := c.get("out/b.yaml", "/w/out/app.yaml", data); return !ok },
		"other paths given": func() bool {
			_, _, _, ok := newCache(dir, "", list, []string{"elsewhere"}, false).get("out/app.yaml", "/w/out/app.yaml", data)
			return !ok
		},
		"other rules": func() bool {
			_, _, _, ok := newCache(dir, "", list[:3], []string{"out"}, false).get("out/app.yaml", "/w/out/app.yaml", data)
			return !ok
		},
	} {
		if !miss() {
			t.Errorf("%s: a hit", name)
		}
	}
	// A corrupt index is no cache.
	if err := os.WriteFile(c.path, []byte("not gob"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, _, ok := newCache(dir, "", list, []string{"out"}, false).get("out/app.yaml", "/w/out/app.yaml", data); ok {
		t.Error("a hit from a corrupt index")
	}
	// A folder that cannot be made: put and save do nothing, and fail nothing.
	blocked := filepath.Join(dir, "file")
	if err := os.WriteFile(blocked, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	b := newCache(filepath.Join(blocked, "sub"), "", list, []string{"out"}, false)
	b.put("out/app.yaml", "/w/out/app.yaml", data, m, diags, text{})
	b.save()
}

// TestCacheUntrusted: an index another user could have written is not
// read: writable by others, in a folder others can write to (unless it
// is sticky), a symbolic link, or owned by another user.
func TestCacheUntrusted(t *testing.T) {
	list := rules.All()
	data := []byte("version: 1\n")
	m := &manifest.Module{Module: "app"}
	fill := func(dir string) string {
		c := newCache(dir, "", list, []string{"out"}, false)
		c.put("out/app.yaml", "/w/out/app.yaml", data, m, nil, text{})
		c.save()
		return c.path
	}
	hit := func(dir string) bool {
		_, _, _, ok := newCache(dir, "", list, []string{"out"}, false).get("out/app.yaml", "/w/out/app.yaml", data)
		return ok
	}
	dir := filepath.Join(t.TempDir(), "cache")
	path := fill(dir)
	if !hit(dir) {
		t.Fatal("no hit from the index just written")
	}
	chmod := func(p string, mode os.FileMode) {
		t.Helper()
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	chmod(path, 0o666)
	if hit(dir) {
		t.Error("a hit from an index others can write")
	}
	chmod(path, 0o600)
	chmod(dir, 0o777)
	if hit(dir) {
		t.Error("a hit from an index in a folder others can write")
	}
	chmod(dir, 0o777|os.ModeSticky)
	if !hit(dir) {
		t.Error("no hit in a sticky folder")
	}
	chmod(dir, 0o700)
	real := filepath.Join(t.TempDir(), "real.gob")
	if err := os.Rename(path, real); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, path); err != nil {
		t.Fatal(err)
	}
	if hit(dir) {
		t.Error("a hit through a symbolic link")
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(real, path); err != nil {
		t.Fatal(err)
	}
	if os.Getuid() == 0 {
		if err := os.Chown(path, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if hit(dir) {
			t.Error("a hit from an index another user owns")
		}
	}
}
