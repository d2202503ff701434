package refresh_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/imageconfig"
	"github.com/compose2manifest/compose2manifest/imageconfig/imagetest"
	"github.com/compose2manifest/compose2manifest/imageconfig/refresh"
)

// TestRun refreshes the lock of a project of two services, one image
// from the in-memory registry and one it lacks; the lock lands beside a
// --declarations file given elsewhere, and is written only when every
// image was read.
func TestRun(t *testing.T) {
	reg, err := imagetest.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	img, err := imagetest.Image("5:5", []string{"/data"}, []string{"A=1"})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := reg.Push("acme/a:1", img)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	compose := "name: p\nservices:\n  a:\n    image: " + ref + "\n  b:\n    image: " + ref + "\n"
	os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(compose), 0o644)
	os.Mkdir(filepath.Join(dir, "decl"), 0o755)
	os.WriteFile(filepath.Join(dir, "decl", "d.yaml"), []byte("version: 1\n"), 0o644)
	when := time.Date(2026, 12, 2, 15, 4, 5, 9, time.UTC)
	r := &refresh.Request{Refresh: true, Timeout: 10 * time.Second, Now: func() time.Time { return when }}
	opts := convert.Options{DeclarationsFile: "decl/d.yaml"}
	if err := r.Run(context.Background(), opts, nil, dir, "", false); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "decl", imageconfig.LockFile)
	l, _, err := imageconfig.ReadLock("lock", p)
	if err != nil || l == nil {
		t.Fatalf("%v %v", l, err)
	}
	if len(l.Images) != 1 || l.Images[0].User != "5:5" || !l.Images[0].ReadAt.Equal(when.Truncate(time.Second)) {
		t.Errorf("got %+v", l.Images)
	}
	before, _ := os.ReadFile(p)
	os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(compose+"  c:\n    image: "+reg.Host+"/acme/none:1\n"), 0o644)
	if err := r.Run(context.Background(), opts, nil, dir, "", false); err == nil || !strings.Contains(err.Error(), "acme/none:1 (registry)") {
		t.Errorf("an image the registry lacks: %v", err)
	}
	if after, _ := os.ReadFile(p); string(after) != string(before) {
		t.Error("a failed refresh changed the lock")
	}
	if err := r.Run(context.Background(), opts, nil, dir, "root", false); err == nil || !strings.Contains(err.Error(), "--batch") {
		t.Errorf("with --batch: %v", err)
	}
	if err := (&refresh.Request{Archive: "x.tar"}).Run(context.Background(), opts, nil, dir, "", false); err == nil {
		t.Error("--image-archive without --refresh-images")
	}
	if err := (&refresh.Request{}).Run(context.Background(), opts, nil, dir, "", false); err != nil {
		t.Errorf("no refresh asked: %v", err)
	}
}
