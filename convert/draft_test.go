package convert

import (
	"fmt"
	"testing"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
)

// A Draft's skeleton carries what a driver adds in typed form: a setting
// after version:, a setting filling in the value left "" for it, comment
// lines above an entry (a line break in one escaped, never a line of its
// own), and lines after the document.
func TestDraftSkeleton(t *testing.T) {
	web := []Mount{{Service: "web", Target: "/data", Pos: manifest.Pos{File: "compose.yaml", Line: 3}}}
	d := &Draft{
		Module: "app",
		Missing: []Missing{
			{Section: declare.SectionBinds, Key: "./data", Mounts: web, Known: declare.Entry{Key: "./data", Owner: "1000:1000"}, NeedsHostProjectDirectory: true},
			{Section: declare.SectionVolumes, Key: "db", Mounts: web, Known: declare.Entry{Key: "db"}},
		},
		Settings: []DraftSetting{{Key: "volume_root", Value: "/srv", Comment: "given as --volume-root"}, {Key: "host_project_directory", Value: "/opt/app", Comment: "given as --host-project-directory"}},
		Notes:    [][]string{{"owner 1000:1000 (filled in) — evidence", "two\nlines"}, nil},
		Tail:     []string{"# directories:"},
	}
	want := `# Declarations for the sources convert refused. Fill in every "" (intent: state, content, config, logs, cache
# or runtime; mode: quoted octal such as "0750"; owner: "USER:GROUP") and paste into compose2manifest.yaml.
version: 1
volume_root: /srv # given as --volume-root
host_project_directory: "/opt/app" # given as --host-project-directory
binds:
  # owner 1000:1000 (filled in) — evidence
  # two\nlines
  ./data: {owner: "1000:1000", mode: "", intent: ""} # compose.yaml:3: service "web" → /data
volumes:
  db: {owner: "", mode: "", intent: ""} # compose.yaml:3: service "web" → /data
# directories:
`
	if got := string(d.Skeleton()); got != want {
		t.Errorf("Skeleton:\n%s\nwant:\n%s", got, want)
	}
}

// The skeleton writes each field Missing.Needs lists that is known or
// required, and nothing else: a host path has no owner, mode or intent,
// and a kind nothing needs is left out.
func TestNeeds(t *testing.T) {
	host := Missing{Section: declare.SectionBinds, Key: "/dev/dri", NeedsPath: true, Known: declare.Entry{Kind: declare.KindHost}}
	var fields []string
	for _, n := range host.Needs() {
		fields = append(fields, n.Field)
	}
	if got := fmt.Sprint(fields); got != "[kind path note]" {
		t.Errorf("Needs of a host path: %s, want [kind path note]", got)
	}
	if n, ok := host.Need(declare.KindDirectory, declare.FieldOwner); !ok || !n.Required {
		t.Errorf("Need(directory, owner) = %+v, %v: want required once the kind answered is directory", n, ok)
	}
	vol := Missing{Section: declare.SectionVolumes, Key: "db"}
	if _, ok := vol.Need(declare.KindNone, declare.FieldKind); ok {
		t.Errorf("a named volume with no kind known needs no kind")
	}
}
