package plan

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/internal/shell"
	"github.com/compose2manifest/compose2manifest/manifest"
)

// fhsModule is a module laid out by intent: a relocated relative bind,
// an absolute bind, a named volume, an anonymous volume, a bind that
// stays, and a file.
func fhsModule() *manifest.Module {
	dir := func(p, owner, mode, legacy string) manifest.Resource {
		r := manifest.Resource{Kind: manifest.KindDirectory, Path: p, Owner: owner, Mode: mode, Intent: manifest.IntentState}
		if legacy != "" {
			r.Origin = &manifest.Origin{Legacy: legacy}
		}
		return r
	}
	cf := dir("/etc/app/main.cf", "0:0", "0644", "bind ./main.cf")
	cf.Kind, cf.Intent = manifest.KindFile, manifest.IntentConfig
	return &manifest.Module{Module: "app", Resources: []manifest.Resource{
		dir("/etc/app", "0:0", "0755", ""),
		cf,
		dir("/opt/app/stays", "0:0", "0755", ""),
		{Kind: manifest.KindDirectory, Path: "/opt/app/logs", Owner: "0:0", Mode: "0755", Origin: &manifest.Origin{Source: "./logs"}},
		dir("/var/lib/app", "0:0", "0755", ""),
		dir("/var/lib/app/data-spool", "5000:5000", "0750", "bind ./data/spool"),
		dir("/var/lib/app/dbdata", "999:999", "0700", "Docker volume app_dbdata"),
		dir("/var/lib/app/uploads", "33:33", "0750", "bind /data/uploads"),
		dir("/var/lib/app/web-var-cache", "33:33", "0750", "anonymous Docker volume of service web"),
		{Kind: manifest.KindContainer, Container: &manifest.Container{Name: "web", Volumes: []manifest.Volume{{Source: "/var/lib/app/web-var-cache", Target: "/var/cache/web"}}}},
	}}
}

func TestOf(t *testing.T) {
	o := Options{Project: "app", LegacyProjectDirectory: "/home/ops/app", DockerRoot: "/data/docker",
		Anonymous: map[string]string{"web:/var/cache/web": "0f1e2d"}}
	p, err := Of([]*manifest.Module{fhsModule()}, o)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range p.Moves {
		got = append(got, m.From+" -> "+m.To+" "+m.Owner+" "+m.Mode)
	}
	want := []string{
		"/home/ops/app/main.cf -> /etc/app/main.cf 0:0 0644",
		"/home/ops/app/data/spool -> /var/lib/app/data-spool 5000:5000 0750",
		"/data/docker/volumes/app_dbdata/_data -> /var/lib/app/dbdata 999:999 0700",
		"/data/uploads -> /var/lib/app/uploads 33:33 0750",
		"/data/docker/volumes/0f1e2d/_data -> /var/lib/app/web-var-cache 33:33 0750",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("moves:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(p.Directories) != 2 || p.Directories[0].Path != "/etc/app" || p.Directories[1].Path != "/var/lib/app" {
		t.Errorf("directories: %+v, want /etc/app and /var/lib/app", p.Directories)
	}
	// Nothing declares /etc, /var or /var/lib: the script creates them
	// as the host would when missing, parents first.
	if got := strings.Join(p.Parents, " "); got != "/etc /var /var/lib" {
		t.Errorf("parents: %q, want /etc /var /var/lib", got)
	}

	// Without --anonymous, the script finds the anonymous volume when
	// it runs, from the legacy container of the service.
	o.Anonymous = nil
	p, err = Of([]*manifest.Module{fhsModule()}, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Moves) != 5 || len(p.Unlocated) != 0 {
		t.Fatalf("moves %+v, unlocated %+v", p.Moves, p.Unlocated)
	}
	if a := p.Moves[4].Anonymous; a == nil || *a != (Anonymous{Service: "web", Target: "/var/cache/web"}) || p.Moves[4].From != "" {
		t.Errorf("the anonymous move: %+v", p.Moves[4])
	}
	var script bytes.Buffer
	if err := WriteScript(&script, p); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\nDOCKER_ROOT='/data/docker'\n",
		"\n\tanonymous_volume 'app' 'web' '{{range .Mounts}}{{if and (eq .Type \"volume\") (eq .Destination \"/var/cache/web\")}}{{.Name}}{{end}}{{end}}' 'move 5 (/var/lib/app/web-var-cache)'\n\tcopy_directory \"$src\" '/var/lib/app/web-var-cache' '33:33' '0750'",
	} {
		if !strings.Contains(script.String(), want) {
			t.Errorf("the script lacks %q:\n%s", want, script.String())
		}
	}

	// With no project name to find the container by, it is not
	// located: the script says how to find it and refuses to copy it.
	o.Project = ""
	p, err = Of([]*manifest.Module{fhsModule()}, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Moves) != 4 || len(p.Unlocated) != 1 || !strings.Contains(p.Unlocated[0].Find, "docker container inspect") ||
		!strings.Contains(p.Unlocated[0].Find, "--anonymous web:/var/cache/web=VOLUME_ID") {
		t.Errorf("unlocated: %+v", p.Unlocated)
	}
	script.Reset()
	if err := WriteScript(&script, p); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(script.String(), "\n\tunlocated 'anonymous Docker volume of service web for /var/lib/app/web-var-cache: find it with docker container inspect") {
		t.Errorf("the script does not refuse the anonymous volume:\n%s", script.String())
	}
	o.Project = "app"

	// An --anonymous naming no anonymous volume is an error.
	o.Anonymous = map[string]string{"db:/x": "1"}
	if _, err := Of([]*manifest.Module{fhsModule()}, o); err == nil || !strings.Contains(err.Error(), "db:/x") {
		t.Errorf("unused --anonymous: %v", err)
	}
}

// TestJSONReadsBack: what plan --format json prints, check --plan reads.
func TestJSONReadsBack(t *testing.T) {
	p, err := Of([]*manifest.Module{fhsModule()}, Options{Project: "app", LegacyProjectDirectory: "/home/ops/app"})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, p); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := Read(file)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Planned("/data/docker/volumes/app_dbdata/_data", "/var/lib/app/dbdata") && !back.Planned("/var/lib/docker/volumes/app_dbdata/_data", "/var/lib/app/dbdata") {
		t.Errorf("the plan read back lacks the dbdata move: %+v", back.Moves)
	}
	if len(back.Unlocated) != 0 || len(back.Directories) != 2 || len(back.Moves) != 5 || back.Moves[4].Anonymous == nil || back.Moves[4].Anonymous.Target != "/var/cache/web" {
		t.Errorf("read back: %+v", back)
	}
	// A move with neither a from nor an anonymous volume is refused.
	if !strings.Contains(b.String(), `"anonymous": {`) {
		t.Fatalf("no anonymous move in the JSON:\n%s", b.String())
	}
	if err := os.WriteFile(file, []byte(strings.Replace(b.String(), `"from": "",`, ``, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(file); err != nil {
		t.Errorf("an anonymous move without from: %v", err)
	}
	p.Moves[4].Anonymous = nil
	b.Reset()
	if err := WriteJSON(&b, p); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(file); err == nil || !strings.Contains(err.Error(), "move 5") {
		t.Errorf("a move with no from read back: %v", err)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/a b":        `'/a b'`,
		"it's":        `'it'\''s'`,
		"new\nline":   "'new\nline'",
		"''":          `''\'''\'''`,
		"$x `y` \\ *": "'$x `y` \\ *'",
	} {
		if got := shell.Quote(in); got != want {
			t.Errorf("shell.Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestParseAnonymous(t *testing.T) {
	if k, id, err := ParseAnonymous("web:/var/cache/web=0f1e"); err != nil || k != "web:/var/cache/web" || id != "0f1e" {
		t.Errorf("got %q %q %v", k, id, err)
	}
	for _, bad := range []string{"web", "web:/x", "web:rel=1", ":/x=1", "web:/x=a/b", "web:/x=.."} {
		if _, _, err := ParseAnonymous(bad); err == nil {
			t.Errorf("ParseAnonymous(%q): no error", bad)
		}
	}
}

// TestUncovered: a move inside another move, at the same place in both
// source and target, is carried by that copy and left out; one at another
// place is kept.
func TestUncovered(t *testing.T) {
	moves := []Move{
		{From: "/old/data", To: "/var/lib/app/data"},
		{From: "/old/data/app/uploads", To: "/var/lib/app/data/app/uploads"},
		{From: "/old/data/logs", To: "/var/log/app/logs"},
		{From: "/old/other", To: "/var/lib/app/data/other"},
	}
	var got []string
	for _, m := range uncovered(moves) {
		got = append(got, m.From)
	}
	if strings.Join(got, " ") != "/old/data /old/data/logs /old/other" {
		t.Errorf("uncovered: %q", got)
	}
}
