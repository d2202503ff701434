package ask

import (
	"bytes"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
)

// mailModule is the README example's module as convert builds it once
// its sources are declared, without directories:.
func mailModule() *manifest.Module {
	return &manifest.Module{Resources: []manifest.Resource{
		{Kind: manifest.KindHost, Path: "/etc/localtime"},
		{Kind: manifest.KindDirectory, Path: "/opt/mail/config", Owner: "0:0", Mode: "0755", Intent: "config"},
		{Kind: manifest.KindDirectory, Path: "/opt/mail/data/spool", Owner: "5000:5000", Mode: "0750", Intent: "state"},
		{Kind: manifest.KindDirectory, Path: "/opt/mail/data/state", Owner: "5000:5000", Mode: "0750", Intent: "state"},
		{Kind: manifest.KindDirectory, Path: "/opt/mail/logs", Owner: "5000:5000", Mode: "0750", Intent: "logs"},
		{Kind: manifest.KindFile, Path: "/opt/mail/main.cf", Owner: "0:0", Mode: "0644", Intent: "config"},
		{Kind: manifest.KindDirectory, Path: "/srv/mail/db", Owner: "999:999", Mode: "0700", Intent: "state"},
	}}
}

func mailDirectories() []Directory {
	return NewDirectories([]string{"/opt/mail", "/opt/mail/data", "/srv/mail"}, mailModule())
}

func TestNewDirectories(t *testing.T) {
	ds := mailDirectories()
	if len(ds) != 3 {
		t.Fatalf("got %d directories, want 3", len(ds))
	}
	opt, data, srv := ds[0], ds[1], ds[2]
	if len(opt.Below) != 5 || strings.Join(opt.Undeclared, " ") != "/opt/mail/data" {
		t.Errorf("/opt/mail: below %v, undeclared %v", opt.Below, opt.Undeclared)
	}
	// Mixed owners and intents, and a file below: nothing to suggest.
	if opt.Owner.Value != "" || opt.Mode.Value != "" || opt.Intent.Value != "" {
		t.Errorf("/opt/mail suggestions: %+v %+v %+v, want none", opt.Owner, opt.Mode, opt.Intent)
	}
	if data.Owner.Value != "5000:5000" || data.Owner.Evidence || !strings.Contains(data.Owner.Why(), "a suggestion, not evidence: both declared paths below it are owned by 5000:5000") {
		t.Errorf("/opt/mail/data owner: %+v", data.Owner)
	}
	if data.Mode.Value != "0755" || data.Mode.Evidence || !strings.Contains(data.Mode.From, "holds only directories") {
		t.Errorf("/opt/mail/data mode: %+v", data.Mode)
	}
	if data.Intent.Value != "state" {
		t.Errorf("/opt/mail/data intent: %+v", data.Intent)
	}
	if srv.Owner.Value != "999:999" || !strings.Contains(srv.Owner.From, "the one declared path below it, /srv/mail/db, is owned by 999:999") {
		t.Errorf("/srv/mail owner: %+v", srv.Owner)
	}
}

func runDirectories(t *testing.T, ds []Directory, input string) ([]Answer, string, error) {
	t.Helper()
	var out bytes.Buffer
	s := &Session{In: strings.NewReader(input), Out: &out, Echo: true}
	a, err := s.RunDirectories(ds)
	return a, out.String(), err
}

// TestRunDirectoriesSkip: Enter skips a directory nothing suggests an
// owner for, - skips one at its owner or its mode.
func TestRunDirectoriesSkip(t *testing.T) {
	a, out, err := runDirectories(t, mailDirectories(), "\n-\n0:0\n-\n")
	if err != nil {
		t.Fatalf("RunDirectories: %v\n%s", err, out)
	}
	if len(a) != 0 {
		t.Errorf("answers %+v, want none", a)
	}
	for _, s := range []string{
		"Nothing declares these 3 parent directories, so the host would create them as root 0755",
		"[1/3] directory /opt/mail\n  declared below it:\n    /opt/mail/config      directory 0:0 0755 config\n",
		"    /opt/mail/main.cf     file 0:0 0644 config\n  also undeclared below it (asked after it): /opt/mail/data\n",
		"owner (USER:GROUP; Enter or - skips this directory): \n",
		"skipped: the host creates /opt/mail as root 0755 and convert keeps warning C2M011",
		"owner (USER:GROUP; - skips this directory) [5000:5000]: -\n",
		"skipped: the host creates /opt/mail/data as root 0755",
		"mode (3 or 4 octal digits; - skips this directory) [0755]: -\n",
		"skipped: the host creates /srv/mail as root 0755",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

// TestRunDirectoriesAccept accepts the suggestions with Enter where there
// are some, and answers the rest.
func TestRunDirectoriesAccept(t *testing.T) {
	in := "0:0\n0755\nconfig\nthe checkout\n" + // /opt/mail: nothing suggested
		"\n\n\n\n" + // /opt/mail/data: 5000:5000, 0755, state
		"0:0\n\n\n\n" // /srv/mail: another owner
	a, out, err := runDirectories(t, mailDirectories(), in)
	if err != nil {
		t.Fatalf("RunDirectories: %v\n%s", err, out)
	}
	want := []declare.Entry{
		{Key: "/opt/mail", Owner: "0:0", Mode: "0755", Intent: "config", Note: "the checkout"},
		{Key: "/opt/mail/data", Owner: "5000:5000", Mode: "0755", Intent: "state"},
		{Key: "/srv/mail", Owner: "0:0", Mode: "0755", Intent: "state"},
	}
	if len(a) != len(want) {
		t.Fatalf("answers %+v, want %d", a, len(want))
	}
	for i := range want {
		if a[i].Section != declare.SectionDirectories || a[i].Key != want[i].Key || !a[i].Write || !equalEntry(a[i].Entry, want[i]) {
			t.Errorf("answer %d = %+v, want %+v", i, a[i], want[i])
		}
	}
	for _, s := range []string{
		"suggested: 5000:5000 — a suggestion, not evidence: both declared paths below it are owned by 5000:5000",
		"suggested: 0755 — a suggestion, not evidence: it holds only directories, each with a mode of its own, and the host would create it as root 0755 anyway",
		"suggested: state — a suggestion, not evidence: both declared paths below it have intent state",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}

	// Apply writes them under directories:, which reads back.
	doc, err := declare.LoadDocument(declare.DefaultFile, []byte("version: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	Apply(doc, &Answers{Directories: a})
	got, err := doc.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	wantFile := `version: 1
directories:
  /opt/mail: {owner: "0:0", mode: "0755", intent: config, note: the checkout}
  /opt/mail/data: {owner: "5000:5000", mode: "0755", intent: state}
  /srv/mail: {owner: "0:0", mode: "0755", intent: state}
`
	if string(got) != wantFile {
		t.Errorf("got:\n%s\nwant:\n%s", got, wantFile)
	}
	if _, err := declare.Parse(declare.DefaultFile, got); err != nil {
		t.Errorf("written file does not parse: %v", err)
	}
}

// TestRunDirectoriesReasks: an invalid owner, mode or intent is asked
// again with the reason; Enter at a mode with nothing suggested needs an
// answer.
func TestRunDirectoriesReasks(t *testing.T) {
	ds := mailDirectories()[:1]
	a, out, err := runDirectories(t, ds, "root\n0:0\n\n755x\n0750\nstuff\n?\nconfig\n\n")
	if err != nil {
		t.Fatalf("RunDirectories: %v\n%s", err, out)
	}
	if len(a) != 1 || !equalEntry(a[0].Entry, declare.Entry{Key: "/opt/mail", Owner: "0:0", Mode: "0750", Intent: "config"}) {
		t.Errorf("answers %+v", a)
	}
	for _, s := range []string{
		"Nothing declares this parent directory, so the host would create it as root 0755",
		`owner "root": want USER:GROUP`,
		"an answer is needed: the permission bits of the directory itself",
		`mode "755x": want 3 or 4 octal digits (0-7), such as 0750; try again`,
		`intent "stuff": want one of state, content, config, logs, cache, runtime`,
		"cache    data the software can rebuild",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

func TestRunDirectoriesEndOfInput(t *testing.T) {
	if _, _, err := runDirectories(t, mailDirectories(), "0:0\n"); err != ErrEndOfInput {
		t.Errorf("err = %v, want ErrEndOfInput", err)
	}
}

// TestPredictDirectories: off a terminal, the parents come from where the
// missing sources would land with the settings known.
func TestPredictDirectories(t *testing.T) {
	p, _ := shopPlan(t, "", false)
	if ds := p.PredictDirectories(nil); len(ds) != 0 {
		t.Errorf("no settings: directories %+v, want none", ds)
	}
	p.HostProjectDirectory, p.VolumeRoot = "/opt/shop", "/srv"
	ds := p.PredictDirectories(nil)
	var got []string
	for _, d := range ds {
		got = append(got, d.Path)
	}
	if strings.Join(got, " ") != "/opt/shop /srv/shop" {
		t.Fatalf("directories %q, want /opt/shop /srv/shop", got)
	}
	// /opt/shop holds ./data (1000:1000, produced) and ./app.conf, a
	// file: an owner suggestion, no mode.
	if ds[0].Owner.Value != "1000:1000" || ds[0].Mode.Value != "" {
		t.Errorf("/opt/shop: owner %+v, mode %+v", ds[0].Owner, ds[0].Mode)
	}

	p.Directories = ds
	sk := string(Skeleton(p))
	for _, s := range []string{
		"# Optional: nothing declares these parent directories, so the host would create them as root 0755\n",
		"\n# directories:\n#   # holds /opt/shop/app.conf, /opt/shop/data\n#   # owner 1000:1000? — a suggestion, not evidence: both paths below it are owned by 1000:1000 so far\n#   /opt/shop: {owner: \"\", mode: \"\", intent: \"\"}\n",
		"#   # mode 0755? — a suggestion, not evidence: it would hold only directories",
		"#   /srv/shop: {owner: \"\", mode: \"\", intent: \"\"}\n",
	} {
		if !strings.Contains(sk, s) {
			t.Errorf("skeleton lacks %q:\n%s", s, sk)
		}
	}
	var v map[string]any
	if err := yaml.Unmarshal([]byte(sk), &v); err != nil {
		t.Errorf("skeleton is not YAML: %v\n%s", err, sk)
	}
	if _, ok := v["directories"]; ok {
		t.Errorf("the skeleton's directories: is not commented out:\n%s", sk)
	}
}

// TestPredictDirectoriesKindUnknown: a parent that would hold a source of
// unknown kind (a file or a directory: the author's choice) gets no "only
// directories" mode suggestion.
func TestPredictDirectoriesKindUnknown(t *testing.T) {
	m := convert.Missing{Section: declare.SectionBinds, Key: "./init-data.sh", Source: "./init-data.sh", NeedsKind: true,
		Mounts: []convert.Mount{{Service: "db", Target: "/docker-entrypoint-initdb.d/init-data.sh"}}}
	p := NewPlan("app", []convert.Missing{m}, nil, nil)
	p.HostProjectDirectory = "/opt/app"
	ds := p.PredictDirectories(nil)
	if len(ds) != 1 || ds[0].Path != "/opt/app" {
		t.Fatalf("directories %+v, want /opt/app", ds)
	}
	if ds[0].Mode.Value != "" {
		t.Errorf("/opt/app: mode suggested %+v, though what it holds may be a file", ds[0].Mode)
	}
}
