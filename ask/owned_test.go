package ask

import (
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
)

// TestSessionPathInRoot: a path in the module's own /etc/MODULE or in a
// root the declarations name is taken.
func TestSessionPathInRoot(t *testing.T) {
	it := Item{Missing: convert.Missing{Section: declare.SectionVolumes, Key: "cache", NeedsVolumeRoot: true,
		Mounts: []convert.Mount{{Service: "web", Target: "/var/cache/web"}}}}
	it.suggest(true)
	a, out, err := run(t, &Plan{Module: "web", Items: []Item{it}, NeedsVolumeRoot: true, Roots: []string{"/data/web"}}, "\n0:0\n0755\n\n/data/web/cache\n-\n")
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if got := a.Entries[0].Entry; got.Path != "/data/web/cache" || strings.Contains(out, "C2M006") {
		t.Errorf("Entry = %+v\n%s", got, out)
	}
}

// TestHostParentOfferedAsHost: a parent directory the module may not own
// (/etc/cron.d) is offered as kind: host with no owner, mode or intent
// suggested, and an owner typed there is refused.
func TestHostParentOfferedAsHost(t *testing.T) {
	m := &manifest.Module{Module: "app", Resources: []manifest.Resource{
		{Kind: manifest.KindFile, Path: "/etc/cron.d/app", Owner: "0:0", Mode: "0644", Intent: "config"},
		{Kind: manifest.KindDirectory, Path: "/srv/app/data", Owner: "0:0", Mode: "0755", Intent: "state"},
	}}
	ds := NewDirectories([]string{"/etc/cron.d", "/srv/app"}, m)
	if ds[0].Host == "" || ds[0].Owner.Value != "" || ds[0].Intent.Value != "" {
		t.Fatalf("/etc/cron.d: %+v, want a host directory without suggestions", ds[0])
	}
	if ds[1].Host != "" || ds[1].Owner.Value != "0:0" {
		t.Errorf("/srv/app: %+v, want an owned directory", ds[1])
	}
	a, out, err := runDirectories(t, ds[:1], "0:0\n\n")
	if err != nil {
		t.Fatalf("RunDirectories: %v\n%s", err, out)
	}
	if len(a) != 1 || a[0].Entry.Kind != declare.KindHost || a[0].Entry.Owner != "" || a[0].Section != declare.SectionDirectories {
		t.Errorf("answers %+v, want /etc/cron.d as kind: host", a)
	}
	if !strings.Contains(out, "the module may not own it") || !strings.Contains(out, `kind "0:0": the module may not own /etc/cron.d`) {
		t.Errorf("output:\n%s", out)
	}
	lines := strings.Join(directoryLines(ds[:1]), "\n")
	if !strings.Contains(lines, "#   /etc/cron.d: {kind: host}") || strings.Contains(lines, "owner") {
		t.Errorf("skeleton lines:\n%s", lines)
	}
}
