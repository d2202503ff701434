package project_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/project"
)

func TestWellKnownHost(t *testing.T) {
	for p, want := range map[string]bool{
		"/etc/localtime": true, "/etc/timezone": true, "/var/run/docker.sock": true, "/run/docker.sock": true,
		"/proc": true, "/proc/1/ns": true, "/sys/fs/cgroup": true, "/dev/ttyUSB0": true, "/lib/modules": true,
		"/": false, "/etc": false, "/etc/nginx": false, "/devices": false, "/procfs": false, "/var/run": false,
	} {
		if got := project.WellKnownHost(p); got != want {
			t.Errorf("WellKnownHost(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestLooksLikeFile pins what "has an extension" means.
func TestLooksLikeFile(t *testing.T) {
	for p, want := range map[string]bool{
		"./nginx.conf": true, "/etc/app/config.yml": true, "db.sqlite3": true, "./.env.local": true, "x.JSON": true,
		"./.env": false, ".htpasswd": false, "/root/.ssh": false, "/etc/nginx/conf.d": false, "mysql-8.0": false,
		"data.1": false, "./data": false, "./app.conf/": false, "a.": false, "a.toolongext": false, "a.b-c": false, ".": false,
	} {
		if got := project.LooksLikeFile(p); got != want {
			t.Errorf("LooksLikeFile(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestEvidenceLinks: links are followed within the project; an absolute
// link, or one that leaves the project, is no evidence and says so.
func TestEvidenceLinks(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "real", "f.ini"), nil, 0o644))
	for link, target := range map[string]string{"lf": "real/f.ini", "ld": "real", "abs": "/etc", "up": "..", "gone": "real/none", "via": "ld/sub/../f.ini"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skipf("no symbolic links: %v", err)
		}
	}
	for key, want := range map[string]struct {
		kind            declare.Kind
		absent, outside bool
	}{
		"./real/f.ini": {kind: declare.KindFile}, "./real": {kind: declare.KindDirectory}, "./lf": {kind: declare.KindFile},
		"./ld": {kind: declare.KindDirectory}, "./ld/f.ini": {kind: declare.KindFile}, "./via": {kind: declare.KindFile},
		"./abs": {outside: true}, "./abs/passwd": {outside: true}, "./up": {outside: true}, "./gone": {absent: true},
		"./none.conf": {absent: true}, "../x": {absent: true}, "/etc": {}, "~/x": {},
	} {
		ev := project.Evidence(dir, key)
		if ev.Kind != want.kind || ev.Absent != want.absent || (ev.Outside != "") != want.outside {
			t.Errorf("Evidence(%q) = %+v, want %+v", key, ev, want)
		}
	}
}
