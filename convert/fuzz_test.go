package convert

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzConvert feeds arbitrary compose and declarations files to Convert,
// which must never panic: a bad input is an error or a refusal.
func FuzzConvert(f *testing.F) {
	seeds, _ := filepath.Glob("../testdata/convert/*")
	for _, dir := range seeds {
		compose, err1 := os.ReadFile(filepath.Join(dir, "compose.yaml"))
		decl, _ := os.ReadFile(filepath.Join(dir, DeclarationsFile))
		if err1 == nil {
			f.Add(compose, decl)
		}
	}
	f.Add([]byte("services: {a: {image: x, volumes: [\"~:/h\", \"/:/r:ro,z,U\", \":\"]}}"), []byte("version: 1\nbinds: {\"~\": {kind: host}}"))
	f.Add([]byte("x: &a [*a]\nservices: {a: {<<: *a}}"), []byte(nil))
	f.Fuzz(func(t *testing.T, compose, decl []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), compose, 0o644); err != nil {
			t.Fatal(err)
		}
		if decl != nil {
			if err := os.WriteFile(filepath.Join(dir, DeclarationsFile), decl, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		res, err := Convert(context.Background(), Options{WorkingDirectory: dir, Environ: []string{"HOME=/home/x"}})
		if res == nil {
			t.Fatalf("nil Result (err %v)", err)
		}
		if err == nil && res.Status == Converted && len(res.Manifest) == 0 {
			t.Fatal("converted without a manifest")
		}
		if res.Status == Refused && res.Module != nil {
			t.Fatal("refused with a module")
		}
		// The same input converts to the same bytes, report included.
		again, err2 := Convert(context.Background(), Options{WorkingDirectory: dir, Environ: []string{"HOME=/home/x"}})
		if again == nil || (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) {
			t.Fatalf("second conversion: %v, then %v", err, err2)
		}
		if !bytes.Equal(res.Manifest, again.Manifest) || !bytes.Equal(res.Skeleton, again.Skeleton) || res.Status != again.Status {
			t.Fatalf("two conversions differ:\n%s\n---\n%s", res.Manifest, again.Manifest)
		}
		if !reflect.DeepEqual(res.Diagnostics, again.Diagnostics) {
			t.Fatalf("two conversions report differently:\n%v\n---\n%v", res.Diagnostics, again.Diagnostics)
		}
	})
}
