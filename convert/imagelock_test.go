package convert_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/imageconfig"
)

// lockProject writes a project of n services, each with a named volume
// at its image's VOLUME path, declared but for the owner, and returns its
// folder; with lock, the image lock gives each config's User, and with
// owners instead the declarations do.
func lockProject(t testing.TB, n int, lock, owners bool) string {
	dir := t.TempDir()
	var compose, decl, lk strings.Builder
	compose.WriteString("name: app\nservices:\n")
	decl.WriteString("version: 1\nvolume_root: /srv\ndirectories:\n  /srv/app: {owner: \"0:0\", mode: \"0755\", intent: state}\nvolumes:\n")
	lk.WriteString("version: 1\nimages:\n")
	for i := range n {
		fmt.Fprintf(&compose, "  s%d:\n    image: acme/s%d:1\n    volumes:\n      - v%d:/data\n", i, i, i)
		if owners {
			fmt.Fprintf(&decl, "  v%d: {owner: \"%d:%d\", mode: \"0750\", intent: state}\n", i, 1000+i, 1000+i)
		} else {
			fmt.Fprintf(&decl, "  v%d: {mode: \"0750\", intent: state}\n", i)
		}
		fmt.Fprintf(&lk, "  - {image: acme/s%d:1, digest: sha256:%064d, config: sha256:%064d, user: \"%d:%d\", volumes: [/data], env: [PATH], source: registry, read_at: \"2026-12-02T15:00:00Z\"}\n", i, i, i, 1000+i, 1000+i)
	}
	compose.WriteString("volumes:\n")
	for i := range n {
		fmt.Fprintf(&compose, "  v%d:\n", i)
	}
	files := map[string]string{"compose.yaml": compose.String(), "compose2manifest.yaml": decl.String()}
	if lock {
		files[imageconfig.LockFile] = lk.String()
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestLockFingerprint: with the lock, each volume's owner is its image's
// User and the lock is a source; a lock that appears after a conversion
// without one, or goes, makes the fingerprint fail.
func TestLockFingerprint(t *testing.T) {
	dir := lockProject(t, 2, true, false)
	opts := convert.Options{ProjectDirectory: dir, WorkingDirectory: dir}
	res, err := convert.Convert(context.Background(), opts)
	if err != nil || res.Status != convert.Converted {
		t.Fatalf("%v %v %v", res.Status, err, res.Diagnostics)
	}
	if !strings.Contains(string(res.Manifest), "User 1001:1001") || !strings.Contains(string(res.Manifest), "file: "+imageconfig.LockFile) {
		t.Errorf("no owner from the lock, or no lock source:\n%s", res.Manifest)
	}
	if !convert.Reproduces(dir, res.Manifest, res.Module, opts) {
		t.Error("a conversion with the lock does not reproduce")
	}
	// Without the lock the owners are missing: the lock is the evidence.
	os.Rename(filepath.Join(dir, imageconfig.LockFile), filepath.Join(dir, "kept"))
	if convert.FingerprintHolds(dir, res.Module, opts) {
		t.Error("the fingerprint holds with the lock gone")
	}
	if res2, _ := convert.Convert(context.Background(), opts); res2.Status != convert.Refused {
		t.Errorf("without the lock: %s, want refused (no owner)", res2.Status)
	}
	// A conversion made without a lock no longer holds once one is there.
	os.WriteFile(filepath.Join(dir, "compose2manifest.yaml"), []byte(strings.ReplaceAll(mustRead(t, filepath.Join(dir, "compose2manifest.yaml")), `mode: "0750"`, `owner: "5:5", mode: "0750"`)), 0o644)
	res3, err := convert.Convert(context.Background(), opts)
	if err != nil || res3.Status != convert.Converted {
		t.Fatalf("%v %v", res3.Status, err)
	}
	if !convert.FingerprintHolds(dir, res3.Module, opts) {
		t.Error("the fingerprint of a conversion without a lock fails with none there")
	}
	os.Rename(filepath.Join(dir, "kept"), filepath.Join(dir, imageconfig.LockFile))
	if convert.FingerprintHolds(dir, res3.Module, opts) {
		t.Error("the fingerprint holds with a lock that appeared since")
	}
}

func mustRead(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// BenchmarkImageLock converts a project of 10 services to the same
// manifest's owners twice: from the declarations (no lock: one stat finds
// none, as for every project without one) and from an image lock of 10
// entries. Reading and parsing the lock (imageconfig.BenchmarkParseLock
// gives its part alone) is within the noise of the conversion.
func BenchmarkImageLock(b *testing.B) {
	for _, lock := range []bool{false, true} {
		dir := lockProject(b, 10, lock, !lock)
		opts := convert.Options{ProjectDirectory: dir, WorkingDirectory: dir}
		b.Run(fmt.Sprintf("lock=%v", lock), func(b *testing.B) {
			for b.Loop() {
				res, err := convert.Convert(context.Background(), opts)
				if err != nil || res.Status != convert.Converted {
					b.Fatal(res.Status, err)
				}
			}
		})
	}
}

// TestLockOutsideProject: the lock beside the default declarations file
// is the project's; a link to one outside it is refused, as such a
// declarations file is.
func TestLockOutsideProject(t *testing.T) {
	dir := lockProject(t, 1, true, false)
	outside := filepath.Join(t.TempDir(), "lock.yaml")
	if err := os.Rename(filepath.Join(dir, imageconfig.LockFile), outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, imageconfig.LockFile)); err != nil {
		t.Skip(err)
	}
	res, err := convert.Convert(context.Background(), convert.Options{ProjectDirectory: dir, WorkingDirectory: dir})
	if err == nil || !strings.Contains(err.Error(), "image lock") || !strings.Contains(err.Error(), "is outside the project directory") {
		var manifest []byte
		if res != nil {
			manifest = res.Manifest
		}
		t.Errorf("a lock linked out of the project: %v\n%s", err, manifest)
	}
}

// TestLockBindOwner: a bind's owner is its image config's User when that
// is a numeric, non-root UID:GID every service mounting it writable runs
// as (the process cannot change user); root's User, a read-only mount,
// and two services of different Users give none.
func TestLockBindOwner(t *testing.T) {
	for _, tc := range []struct {
		name, compose, users, want string
	}{
		{"one service", "  a:\n    image: acme/a:1\n    volumes: [./data:/srv/data]\n", "1000:1001", `owner: "1000:1001"`},
		{"root", "  a:\n    image: acme/a:1\n    volumes: [./data:/srv/data]\n", "0:0", ""},
		{"read-only", "  a:\n    image: acme/a:1\n    volumes: [./data:/srv/data:ro]\n", "1000:1001", ""},
		{"two users", "  a:\n    image: acme/a:1\n    volumes: [./data:/srv/data]\n  b:\n    image: acme/b:1\n    volumes: [./data:/srv/data]\n", "1000:1001", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			lock := "version: 1\nimages:\n"
			for i, img := range []string{"acme/a:1", "acme/b:1"} {
				user := tc.users
				if i == 1 {
					user = "2000:2000"
				}
				lock += fmt.Sprintf("  - {image: %s, digest: sha256:%064d, config: sha256:%064d, user: \"%s\", env: [PATH], source: registry, read_at: \"2026-12-02T15:00:00Z\"}\n", img, i, i, user)
			}
			files := map[string]string{
				"compose.yaml":          "name: app\nservices:\n" + tc.compose,
				"compose2manifest.yaml": "version: 1\nhost_project_directory: /opt/app\ndirectories:\n  /opt/app: {owner: \"0:0\", mode: \"0755\", intent: state}\nbinds:\n  ./data: {mode: \"0750\", intent: state}\n",
				imageconfig.LockFile:    lock,
			}
			for name, data := range files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Mkdir(filepath.Join(dir, "data"), 0o755); err != nil {
				t.Fatal(err)
			}
			res, err := convert.Convert(context.Background(), convert.Options{ProjectDirectory: dir, WorkingDirectory: dir})
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				// Refused for want of an owner, or (read-only) converted
				// from other evidence: never from the User.
				if strings.Contains(string(res.Manifest), "the process writes the bind as it") || res.Status == convert.Refused && !strings.Contains(fmt.Sprint(res.Diagnostics), "missing owner") {
					t.Errorf("status %s %v, want no owner from the User:\n%s", res.Status, res.Diagnostics, res.Manifest)
				}
				return
			}
			if res.Status != convert.Converted || !strings.Contains(string(res.Manifest), tc.want) || !strings.Contains(string(res.Manifest), "the process writes the bind as it") {
				t.Errorf("status %s %v, want %s with its provenance:\n%s", res.Status, res.Diagnostics, tc.want, res.Manifest)
			}
		})
	}
}
