package imageconfig_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/imageconfig"
)

const sum = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func goodLock() string {
	return "version: 1\nimages:\n  - image: acme/app:1\n    digest: " + sum + "\n    config: " + sum +
		"\n    user: \"70:70\"\n    volumes: [/var/lib/app]\n    env: [PATH]\n    source: archive\n    path: /tmp/app.tar\n    read_at: 2026-12-02T15:00:00Z\n"
}

// TestLockRoundTrip: what Encode writes, ParseLock reads back the same,
// and Encode of that gives the same bytes.
func TestLockRoundTrip(t *testing.T) {
	l := &imageconfig.Lock{Images: []imageconfig.Entry{
		{Image: "b:2", Config: imageconfig.Config{Digest: sum, ID: sum}, Source: imageconfig.Source{Kind: imageconfig.Registry}, ReadAt: time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC)},
		{Image: "a:1", Config: imageconfig.Config{Digest: sum, ID: sum, User: "1000:1000", Volumes: []string{"/data"}, Env: []string{"PUID"},
			Paths: []imageconfig.PathFact{{Path: "/data", Type: imageconfig.Directory, Owner: "1000:1000", Mode: "0750"}, {Path: "/srv", Type: imageconfig.Absent}}}, Source: imageconfig.Source{Kind: imageconfig.Layout, Path: "/oci"}, ReadAt: time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC)},
	}}
	data, err := l.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte(imageconfig.Marker)) {
		t.Errorf("no marker:\n%s", data)
	}
	got, err := imageconfig.ParseLock("lock", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if len(got.Images) != 2 || got.Images[0].Image != "a:1" || got.Entry("a:1").User != "1000:1000" || got.Entry("a:1").Source.Path != "/oci" || got.Entry("b:2").Source.Kind != imageconfig.Registry ||
		got.Entry("a:1").Path("/data").String() != "directory 1000:1000 0750" || got.Entry("a:1").Path("/srv").Type != imageconfig.Absent || got.Entry("b:2").Paths != nil {
		t.Errorf("got %+v", got.Images)
	}
	again, _ := got.Encode()
	if !bytes.Equal(again, data) {
		t.Errorf("not deterministic:\n%s\n%s", data, again)
	}
}

// TestParseLockErrors: each problem names the file and its line.
func TestParseLockErrors(t *testing.T) {
	good := goodLock()
	for _, tc := range []struct{ name, doc, want string }{
		{"no version", strings.Replace(good, "version: 1\n", "", 1), "lock:1: no version"},
		{"version 2", strings.Replace(good, "version: 1", "version: 2", 1), "lock:1: version: want 1"},
		{"unknown key", good + "extra: 1\n", `lock:12: unknown key "extra"`},
		{"bad digest", strings.Replace(good, "digest: "+sum, "digest: sha256:abc", 1), "lock:4: digest: want sha256:"},
		{"relative volume", strings.Replace(good, "[/var/lib/app]", "[var/lib/app]", 1), "lock:7: volumes:"},
		{"no path", strings.Replace(good, "    path: /tmp/app.tar\n", "", 1), "lock:3: path:"},
		{"local time", strings.Replace(good, "15:00:00Z", "15:00:00+01:00", 1), "lock:11: read_at: want a UTC time"},
		{"twice", good + strings.TrimPrefix(good, "version: 1\nimages:\n"), `image "acme/app:1" has a second entry`},
		{"paths not a mapping", strings.Replace(good, "    env: [PATH]\n", "    env: [PATH]\n    paths: [/data]\n", 1), "lock:9: paths: want a mapping"},
		{"relative container path", strings.Replace(good, "    env: [PATH]\n", "    env: [PATH]\n    paths: {data: absent}\n", 1), `lock:9: paths: "data" is not an absolute`},
		{"unsorted paths", strings.Replace(good, "    env: [PATH]\n", "    env: [PATH]\n    paths: {/b: absent, /a: absent}\n", 1), `lock:9: paths: "/a": paths are sorted`},
		{"bad fact", strings.Replace(good, "    env: [PATH]\n", "    env: [PATH]\n    paths: {/a: directory 999 0700}\n", 1), `lock:9: paths: /a: "directory 999 0700": want`},
		{"unknown entry key", strings.Replace(good, "    env:", "    envs:", 1), `lock:8: unknown key "envs"`},
		{"no image", strings.Replace(good, "  - image: acme/app:1\n    digest", "  - digest", 1), "lock:3: no image"},
		{"not a mapping", "[1]", "lock:1: want a mapping"},
	} {
		_, err := imageconfig.ParseLock("lock", []byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := imageconfig.ParseLock("lock", []byte(good)); err != nil {
		t.Errorf("good: %v", err)
	}
	if _, err := imageconfig.ParseLock("lock", bytes.Repeat([]byte("#"), imageconfig.MaxLockSize+1)); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("too large: %v", err)
	}
}

// TestWriteLock: a lock is written atomically, rewritten when
// compose2manifest wrote it, and a person's file is replaced only with
// force; ReadLock of no file is no lock.
func TestWriteLock(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, imageconfig.LockFile)
	if l, _, err := imageconfig.ReadLock("lock", p); l != nil || err != nil {
		t.Fatalf("no file: %v %v", l, err)
	}
	l, err := imageconfig.ParseLock("lock", []byte(goodLock()))
	if err != nil {
		t.Fatal(err)
	}
	if err := imageconfig.WriteLock(p, l, false); err != nil {
		t.Fatal(err)
	}
	l.Images[0].User = "71:71"
	if err := imageconfig.WriteLock(p, l, false); err != nil {
		t.Fatalf("rewrite of our own lock: %v", err)
	}
	if got, _, err := imageconfig.ReadLock("lock", p); err != nil || got.Images[0].User != "71:71" {
		t.Fatalf("read back: %v %v", got, err)
	}
	os.WriteFile(p, []byte(goodLock()), 0o644) // a person's, without the marker
	if err := imageconfig.WriteLock(p, l, false); err == nil || !strings.Contains(err.Error(), "use --force") {
		t.Errorf("a person's lock: %v", err)
	}
	if err := imageconfig.WriteLock(p, l, true); err != nil {
		t.Errorf("with force: %v", err)
	}
}

// FuzzParseLock: no input panics, and what parses encodes to a lock that
// parses to the same encoding.
func FuzzParseLock(f *testing.F) {
	f.Add([]byte(goodLock()))
	f.Add([]byte("version: 1\nimages: []\n"))
	f.Add([]byte("version: 1\nimages:\n  - {image: a, digest: x}\n"))
	f.Add([]byte(strings.Replace(goodLock(), "    env: [PATH]\n", "    env: [PATH]\n    paths: {/a: absent, /b/c: directory 999:999 0700, /d: file 0:0 0644, /e: link}\n", 1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := imageconfig.ParseLock("lock", data)
		if err != nil {
			return
		}
		out, err := l.Encode()
		if err != nil {
			t.Fatal(err)
		}
		l2, err := imageconfig.ParseLock("lock", out)
		if err != nil {
			t.Fatalf("the encoding does not parse: %v\n%s", err, out)
		}
		out2, _ := l2.Encode()
		if !bytes.Equal(out, out2) {
			t.Fatalf("encodings differ:\n%s\n%s", out, out2)
		}
	})
}

// BenchmarkParseLock parses a lock of 20 images, a large project's: the
// whole cost reading the lock adds to a conversion.
func BenchmarkParseLock(b *testing.B) {
	var s strings.Builder
	s.WriteString("version: 1\nimages:\n")
	for i := range 20 {
		s.WriteString(strings.Replace(strings.TrimPrefix(goodLock(), "version: 1\nimages:\n"), "acme/app:1", "acme/app"+string(rune('a'+i))+":1", 1))
	}
	data := []byte(s.String())
	for b.Loop() {
		if _, err := imageconfig.ParseLock("lock", data); err != nil {
			b.Fatal(err)
		}
	}
}
