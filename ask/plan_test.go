package ask

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/images"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/report"
)

const shopCompose = `name: shop
services:
  app:
    image: example/app:1
    user: "1000:1000"
    volumes:
      - ./data:/var/lib/app
      - ./app.conf:/etc/app/app.conf:ro
  db:
    image: postgres:16
    volumes:
      - dbdata:/var/lib/postgresql/data
volumes:
  dbdata: {}
`

// shopPlan converts a project and builds its plan as the ask command does.
func shopPlan(t *testing.T, declarations string, strict bool) (*Plan, string) {
	t.Helper()
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("compose.yaml", shopCompose)
	write("app.conf", "x = 1\n")
	if err := os.Mkdir(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if declarations != "" {
		write(declare.DefaultFile, declarations)
	}
	table, err := images.Load()
	if err != nil {
		t.Fatal(err)
	}
	opts := convert.Options{ProjectDirectory: dir, WorkingDirectory: dir, Images: table, Strict: strict}
	res, err := convert.Convert(context.Background(), opts)
	if err != nil {
		t.Fatalf("Convert: %v", err)
	}
	var supplied []convert.Missing
	if !strict {
		opts.Strict = true
		sres, err := convert.Convert(context.Background(), opts)
		if err != nil {
			t.Fatalf("Convert strict: %v", err)
		}
		supplied = append([]convert.Missing{}, sres.Missing...)
	}
	return NewPlan("shop", res.Missing, supplied, table), dir
}

func (p *Plan) item(t *testing.T, key string) *Item {
	t.Helper()
	for i := range p.Items {
		if p.Items[i].Missing.Key == key {
			return &p.Items[i]
		}
	}
	t.Fatalf("no item %s in plan", key)
	return nil
}

func TestNewPlan(t *testing.T) {
	p, _ := shopPlan(t, "version: 1\nbinds:\n  ./data: {mode: \"0750\"}\n", false)
	if !p.NeedsHostProjectDirectory || !p.NeedsVolumeRoot {
		t.Errorf("Needs = %v, %v; want both", p.NeedsHostProjectDirectory, p.NeedsVolumeRoot)
	}
	var keys []string
	for _, it := range p.Items {
		keys = append(keys, it.Missing.Key)
	}
	if got := strings.Join(keys, " "); got != "./data ./app.conf dbdata" {
		t.Errorf("items = %s, want the order of the compose file", got)
	}

	data := p.item(t, "./data")
	if data.Supplied.Mode != "0750" || data.Supplied.Owner != "" {
		t.Errorf("./data supplied = %+v, want mode only", data.Supplied)
	}
	if data.Owner.Value != "1000:1000" || !data.Owner.Produced || data.Mode.Value != "" || data.Kind.Value != "" {
		t.Errorf("./data suggestions: owner %+v mode %+v kind %+v", data.Owner, data.Mode, data.Kind)
	}

	conf := p.item(t, "./app.conf")
	if conf.Kind != (Suggestion{Value: "file", From: "./app.conf is a regular file in the project", Evidence: true, Produced: true}) {
		t.Errorf("./app.conf kind = %+v", conf.Kind)
	}
	if conf.Intent.Value != "config" || conf.Intent.Evidence {
		t.Errorf("./app.conf intent = %+v, want a config hint", conf.Intent)
	}

	db := p.item(t, "dbdata")
	if db.Row == nil || db.Row.Repository != "postgres" {
		t.Fatalf("dbdata row = %+v", db.Row)
	}
	if db.Mode.Value != "0700" || !db.Mode.Produced || !strings.Contains(db.Mode.From, "mode required") {
		t.Errorf("dbdata mode = %+v", db.Mode)
	}
	if !strings.Contains(db.RowSource(), "source: https://") {
		t.Errorf("RowSource = %q, want the row's source URL", db.RowSource())
	}
	if db.Today() != "Docker volume shop_dbdata" {
		t.Errorf("Today = %q", db.Today())
	}
}

// TestNewPlanStrict: without production the table still suggests, and an
// accepted suggestion is written.
func TestNewPlanStrict(t *testing.T) {
	p, _ := shopPlan(t, "", true)
	db := p.item(t, "dbdata")
	if db.Owner.Value != "999:999" || db.Owner.Produced || !db.Owner.Evidence {
		t.Errorf("strict dbdata owner = %+v, want a table suggestion convert does not produce", db.Owner)
	}
	if o := p.item(t, "./data").Owner; o.Value != "" {
		t.Errorf("strict ./data owner = %+v, want none", o)
	}
	a, out, err := run(t, &Plan{Module: "shop", Items: []Item{*db}, NeedsVolumeRoot: true}, "/srv\n\n\n\n\n\n")
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if e := a.Entries[0].Entry; e.Owner != "999:999" || e.Mode != "0700" || e.Intent != "state" {
		t.Errorf("strict entry = %+v, want the accepted table values written", e)
	}
}

// TestApplyKeepsComments writes answers into a commented declarations
// file: every line of it is kept byte for byte, the new entries added.
func TestApplyKeepsComments(t *testing.T) {
	old := `# Declarations for the shop.
version: 1
# the target host keeps projects in /opt
host_project_directory: /opt/shop
binds:
  # application state
  ./data: {mode: "0750"} # owner from user:
acknowledge:
  - app.restart # restarts are the host's job
`
	doc, err := declare.LoadDocument(declare.DefaultFile, []byte(old))
	if err != nil {
		t.Fatal(err)
	}
	Apply(doc, &Answers{VolumeRoot: "/srv", Entries: []Answer{
		{Section: declare.SectionBinds, Key: "./data", Write: true, Entry: declare.Entry{Mode: "0750", Intent: "state"}},
		{Section: declare.SectionBinds, Key: "./app.conf", Write: true, Entry: declare.Entry{Kind: declare.KindFile, Owner: "0:0", Mode: "0644", Intent: "config", Note: "app: settings, #1"}},
		{Section: declare.SectionVolumes, Key: "dbdata", Write: false},
		{Section: declare.SectionAnonymous, Key: "app:/tmp/x", Write: true, Entry: declare.Entry{Path: "/srv/shop/x", Owner: "0:0", Mode: "0700", Intent: "cache"}},
	}})
	got, err := doc.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	want := `# Declarations for the shop.
version: 1
# the target host keeps projects in /opt
host_project_directory: /opt/shop
volume_root: /srv
binds:
  # application state
  ./data: {mode: "0750", intent: state} # owner from user:
  ./app.conf: {kind: file, owner: "0:0", mode: "0644", intent: config, note: 'app: settings, #1'}
anonymous:
  "app:/tmp/x": {path: /srv/shop/x, owner: "0:0", mode: "0700", intent: cache}
acknowledge:
  - app.restart # restarts are the host's job
`
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	f, err := declare.Parse(declare.DefaultFile, got)
	if err != nil {
		t.Fatalf("written file does not parse: %v", err)
	}
	if e := f.Bind("./app.conf"); e == nil || e.Note != "app: settings, #1" {
		t.Errorf("note read back = %+v", e)
	}
}

func TestSkeleton(t *testing.T) {
	p, _ := shopPlan(t, "", false)
	sk := string(Skeleton(p))
	for _, s := range []string{
		`# owner 1000:1000 (filled in) — evidence, convert produces it: service "app" runs as user: 1000:1000`,
		`# intent state? — a suggestion, not evidence: the target /var/lib/app is under /var/lib`,
		`# kind file (filled in) — evidence, convert produces it: ./app.conf is a regular file in the project`,
		`./data: {owner: "1000:1000", mode: "", intent: ""} # compose.yaml:7: service "app" → /var/lib/app`,
		`volume_root: ""`,
	} {
		if !strings.Contains(sk, s) {
			t.Errorf("skeleton lacks %q:\n%s", s, sk)
		}
	}
	var v map[string]any
	if err := yaml.Unmarshal([]byte(sk), &v); err != nil {
		t.Errorf("skeleton is not YAML: %v\n%s", err, sk)
	}
	if Skeleton(&Plan{}) != nil {
		t.Errorf("Skeleton of an empty plan is not nil")
	}
}

func TestWriteGitHub(t *testing.T) {
	p, _ := shopPlan(t, "", false)
	var b bytes.Buffer
	if err := WriteGitHub(&b, p, "compose2manifest.yaml", func(pos manifest.Pos) string { return "shop/" + pos.File }); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 annotations, got:\n%s", b.String())
	}
	want := "::warning file=shop/compose.yaml,line=7,title=declare bind ./data::bind ./data needs a declaration in compose2manifest.yaml (service \"app\" → /var/lib/app; data today: ./data in the project directory on the legacy host):%0A- kind? "
	if !strings.HasPrefix(lines[0], want) {
		t.Errorf("first annotation:\n%s\nwant prefix:\n%s", lines[0], want)
	}
	for _, s := range []string{"%0A- mode? 3 or 4 octal digits", "%0A- host_project_directory? "} {
		if !strings.Contains(lines[0], s) {
			t.Errorf("first annotation lacks %q: %s", s, lines[0])
		}
	}
	if !strings.Contains(lines[2], "title=declare named volume dbdata::") || !strings.Contains(lines[2], "source: https%3A") && !strings.Contains(lines[2], "source: https://") {
		t.Errorf("dbdata annotation: %s", lines[2])
	}
	if report.GitHubProperty("a:b,c%\n") != "a%3Ab%2Cc%25%0A" || report.GitHubData("a:b\r\n%") != "a:b%0D%0A%25" {
		t.Errorf("escaping is wrong")
	}
}

// TestWriteGitHubSuppliedHost: a bind declared {kind: host} only needs
// its location; the annotation asks nothing else.
func TestWriteGitHubSuppliedHost(t *testing.T) {
	p := &Plan{Module: "nc", Items: hostItems(), NeedsHostProjectDirectory: true}
	var b bytes.Buffer
	if err := WriteGitHub(&b, p, "compose2manifest.yaml", func(pos manifest.Pos) string { return pos.File }); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"owner?", "mode?", "intent?", "kind?"} {
		if strings.Contains(b.String(), s) {
			t.Errorf("annotations ask %s:\n%s", s, b.String())
		}
	}
	if !strings.Contains(b.String(), "bind ./shared needs a location in compose2manifest.yaml") || !strings.Contains(b.String(), "%0A- host_project_directory? ") {
		t.Errorf("annotations:\n%s", b.String())
	}
}

// TestSuggestRefusedModeFix: a mode evidence found and did not carry (a
// world-writable one on the legacy host) is offered fixed, as a
// suggestion, never as evidence convert produces.
func TestSuggestRefusedModeFix(t *testing.T) {
	it := &Item{Missing: convert.Missing{Section: "binds", Key: "./open",
		RefusedMode: &convert.RefusedMode{Found: "0777", From: "survey old-nas 2026-12-02T15:20:00Z", Why: "world-writable", Suggest: "0775"}}}
	it.suggestOwnership(true)
	if it.Mode.Value != "0775" || it.Mode.Evidence || it.Mode.Produced || !strings.Contains(it.Mode.From, "found 0777, not carried: world-writable") {
		t.Errorf("mode suggestion %+v", it.Mode)
	}
	it = &Item{Missing: convert.Missing{Section: "binds", Key: "./open"}, Supplied: declare.Entry{Mode: "0750"}}
	it.Missing.RefusedMode = &convert.RefusedMode{Found: "0777", Suggest: "0775"}
	it.suggestOwnership(true)
	if it.Mode.Value != "" {
		t.Errorf("a supplied mode got a suggestion %+v", it.Mode)
	}
}
