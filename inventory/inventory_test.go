package inventory

import (
	"reflect"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/manifest"
)

func TestBackedUp(t *testing.T) {
	want := map[manifest.Intent]Backup{
		manifest.IntentState: Yes, manifest.IntentContent: Yes, manifest.IntentConfig: No,
		manifest.IntentLogs: Policy, manifest.IntentCache: No, manifest.IntentRuntime: No, "": No,
	}
	for i, b := range want {
		if got := BackedUp(i); got != b {
			t.Errorf("BackedUp(%q) = %q, want %q", i, got, b)
		}
	}
}

const twoModules = `version: 1
module: a
resources:
  - host: /etc/localtime
  - directory: /srv/a
    owner: "0:0"
    mode: "0755"
    intent: state
  - directory: /srv/a/cache
    owner: "0:0"
    mode: "0755"
    intent: cache
  - directory: /srv/a/db
    owner: "999:999"
    mode: "0700"
    intent: state
  - directory: /var/log/a
    owner: "0:0"
    mode: "0750"
    intent: logs
  - directory: /etc/a
    owner: "0:0"
    mode: "0755"
    intent: config
`

const second = `version: 1
module: b
resources:
  - directory: /etc/b
    owner: "0:0"
    mode: "0755"
    intent: config
  - file: /etc/b/acme.json
    owner: "0:0"
    mode: "0600"
    intent: state
  - directory: /var/cache/b
    owner: "0:0"
    mode: "0755"
    intent: cache
`

func TestInventory(t *testing.T) {
	a, err := manifest.Decode("a.yaml", []byte(twoModules))
	if err != nil {
		t.Fatal(err)
	}
	b, err := manifest.Decode("b.yaml", []byte(second))
	if err != nil {
		t.Fatal(err)
	}
	es := Of([]*manifest.Module{b, nil, a})
	var paths []string
	for _, e := range es {
		paths = append(paths, e.Module+" "+e.Path+" "+string(e.Backup))
	}
	want := []string{
		"a /etc/a no", "b /etc/b no", "b /etc/b/acme.json yes", "a /etc/localtime no",
		"a /srv/a yes", "a /srv/a/cache no", "a /srv/a/db yes", "b /var/cache/b no", "a /var/log/a by policy",
	}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("Of:\n got %q\nwant %q", paths, want)
	}
	if es[0].File != "a.yaml" || es[0].Line != 21 {
		t.Errorf("position of /etc/a: %s:%d", es[0].File, es[0].Line)
	}
	if got, want := BackupPaths(es, false), []string{"/etc/b/acme.json", "/srv/a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("BackupPaths = %q, want %q", got, want)
	}
	if got, want := BackupPaths(es, true), []string{"/etc/b/acme.json", "/srv/a", "/var/log/a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("BackupPaths(logs) = %q, want %q", got, want)
	}
	if got, want := CacheDirectories(es), []string{"/srv/a/cache", "/var/cache/b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("CacheDirectories = %q, want %q", got, want)
	}
}

// TestBackupPathsUnderCache: state inside a cache (or runtime, or config)
// directory inside a backed-up parent is listed on its own line, since
// restic --exclude-caches skips the cache directory, CACHEDIR.TAG in it,
// with what it holds.
func TestBackupPathsUnderCache(t *testing.T) {
	m, err := manifest.Decode("a.yaml", []byte(`version: 1
module: a
resources:
  - directory: /srv/a
    owner: "0:0"
    mode: "0755"
    intent: state
  - directory: /srv/a/cache
    owner: "0:0"
    mode: "0755"
    intent: cache
  - directory: /srv/a/cache/index
    owner: "0:0"
    mode: "0755"
    intent: state
  - directory: /srv/a/cache/index/deep
    owner: "0:0"
    mode: "0755"
    intent: state
  - directory: /srv/a/run
    owner: "0:0"
    mode: "0755"
    intent: runtime
  - directory: /srv/a/run/keep
    owner: "0:0"
    mode: "0755"
    intent: content
  - directory: /srv/a/db
    owner: "0:0"
    mode: "0755"
    intent: state
  - directory: /srv/a/cachelike
    owner: "0:0"
    mode: "0755"
    intent: state
  - directory: /etc/a
    owner: "0:0"
    mode: "0755"
    intent: config
  - file: /etc/a/acme.json
    owner: "0:0"
    mode: "0600"
    intent: state
`))
	if err != nil {
		t.Fatal(err)
	}
	es := Of([]*manifest.Module{m})
	want := []string{"/etc/a/acme.json", "/srv/a", "/srv/a/cache/index", "/srv/a/run/keep"}
	if got := BackupPaths(es, false); !reflect.DeepEqual(got, want) {
		t.Errorf("BackupPaths = %q, want %q", got, want)
	}
	if got, want := CacheDirectories(es), []string{"/srv/a/cache"}; !reflect.DeepEqual(got, want) {
		t.Errorf("CacheDirectories = %q, want %q", got, want)
	}
}

// TestPatterns: each client's exclude line matches the path and nothing
// else in that client's syntax (the backup_* stories run the clients).
func TestPatterns(t *testing.T) {
	for _, c := range []struct{ path, restic, tar string }{
		{"/opt/bk/data/tmp*", `/opt/bk/data/tmp\*`, `/opt/bk/data/tmp\*`},
		{"/a/$HOME/[x]?", `/a/[$]HOME/\[x]\?`, `/a/$HOME/\[x]\?`},
		{`/a/back\slash`, `/a/back\\slash`, `/a/back\\slash`},
		{"/a/trail ", "/a/trail[ ]", "/a/trail[ ]"},
		{"/a/nbsp\u00a0", "/a/nbsp[\u00a0]", "/a/nbsp\u00a0"},
		{"/a/in side", "/a/in side", "/a/in side"},
		{"/a/#!", "/a/#!", "/a/#!"},
	} {
		if got := ResticPattern(c.path); got != c.restic {
			t.Errorf("ResticPattern(%q) = %q, want %q", c.path, got, c.restic)
		}
		if got := TarPattern(c.path); got != c.tar {
			t.Errorf("TarPattern(%q) = %q, want %q", c.path, got, c.tar)
		}
	}
	es := []Entry{{Path: "/srv/a", Kind: "directory", Backup: Yes}, {Path: "/srv/a/c ", Kind: "directory", Backup: No, File: "a.yaml", Line: 7}}
	if _, err := BorgPatterns(es, false); err == nil || !strings.HasPrefix(err.Error(), `a.yaml:7: "/srv/a/c " ends in white space`) {
		t.Errorf("BorgPatterns with a trailing space: %v", err)
	}
	if _, err := ExcludeList("rsync", es, false); err == nil {
		t.Error("ExcludeList(rsync): no error")
	}
}
