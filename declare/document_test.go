package declare

import (
	"strings"
	"testing"
)

// roundTrip is a commented declarations file in the style yaml.v3 writes
// back unchanged (see the package documentation).
const roundTrip = `# Declarations for the mail module.
# Edit by hand or with compose2manifest ask.
version: 1
module: mail # defaults to the project name
host_project_directory: /opt/mail
volume_root: /srv
binds: # host paths as the compose file writes them
  # the queue
  ./data/spool: {owner: "5000:5000", mode: "0750", intent: state, note: queue and mailboxes}
  ./main.cf: {kind: file, owner: "0:0", mode: "0644", intent: config} # shipped
  /etc/localtime: {kind: host}
  ./logs:
    owner: "syslog:adm"
    mode: "0750"
    intent: logs
volumes:
  dbdata: {path: /srv/mail/db, owner: "999:999", mode: "0700", intent: state}
anonymous:
  "postfix:/var/lib/postfix": {path: /srv/mail/postfix-lib, owner: "0:0", mode: "0755", intent: cache}
acknowledge:
  - postfix.build # built on the host
  - "*.cap_add"
images:
  web: registry.example.org/web:1.2
`

func load(t *testing.T, in string) *Document {
	t.Helper()
	d, err := LoadDocument("c2m.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func out(t *testing.T, d *Document) string {
	t.Helper()
	b, err := d.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("out.yaml", b); err != nil {
		t.Errorf("output does not parse: %v\n%s", err, b)
	}
	return string(b)
}

// wantInserted checks that got is in with the lines add inserted before
// line at (0-based) and nothing else changed.
func wantInserted(t *testing.T, in, got string, at int, add ...string) {
	t.Helper()
	lines := strings.SplitAfter(in, "\n")
	var want []string
	want = append(want, lines[:at]...)
	for _, a := range add {
		want = append(want, a+"\n")
	}
	want = append(want, lines[at:]...)
	if w := strings.Join(want, ""); got != w {
		t.Errorf("got:\n%s\nwant:\n%s", got, w)
	}
}

func TestDocumentUnchanged(t *testing.T) {
	if got := out(t, load(t, roundTrip)); got != roundTrip {
		t.Errorf("round trip changed the file:\n%s", got)
	}
	if got := out(t, load(t, goodFileRoundTrip)); got != goodFileRoundTrip {
		t.Errorf("round trip changed the file:\n%s", got)
	}
}

// goodFileRoundTrip is a second input, with block-style entries and
// no comments at all.
const goodFileRoundTrip = `version: 1
binds:
  ./a:
    kind: directory
    owner: "0:0"
    mode: "0755"
    intent: state
`

func TestDocumentAddEntry(t *testing.T) {
	d := load(t, roundTrip)
	d.SetEntry(SectionBinds, "./html", Entry{Kind: KindDirectory, Owner: "0:0", Mode: "0755", Intent: "content", Note: "web root: static"})
	wantInserted(t, roundTrip, out(t, d), 15,
		`  ./html: {kind: directory, owner: "0:0", mode: "0755", intent: content, note: 'web root: static'}`)

	d = load(t, roundTrip)
	d.SetEntry(SectionAnonymous, "web:/var/cache/nginx", Entry{Path: "/srv/mail/nginx-cache", Owner: "101:101", Mode: "0700", Intent: "cache"})
	wantInserted(t, roundTrip, out(t, d), 19,
		`  "web:/var/cache/nginx": {path: /srv/mail/nginx-cache, owner: "101:101", mode: "0700", intent: cache}`)

	d = load(t, roundTrip)
	d.SetEntry(SectionVolumes, "certs", Entry{Kind: KindDirectory})
	wantInserted(t, roundTrip, out(t, d), 17, `  certs: {kind: directory}`)
}

func TestDocumentReplaceEntry(t *testing.T) {
	d := load(t, roundTrip)
	// "main.cf" names the same source as "./main.cf": replaced in place,
	// key as written and line comment kept.
	d.SetEntry(SectionBinds, "main.cf", Entry{Kind: KindFile, Owner: "0:0", Mode: "0640", Intent: "config"})
	want := strings.Replace(roundTrip, `mode: "0644", intent: config} # shipped`, `mode: "0640", intent: config} # shipped`, 1)
	if got := out(t, d); got != want {
		t.Errorf("got:\n%s", got)
	}
	// A block entry becomes a flow entry.
	d = load(t, roundTrip)
	d.SetEntry(SectionBinds, "logs/", Entry{Owner: "0:4", Mode: "2750", Intent: "logs"})
	want = strings.Replace(roundTrip, "  ./logs:\n    owner: \"syslog:adm\"\n    mode: \"0750\"\n    intent: logs\n", "  ./logs: {owner: \"0:4\", mode: \"2750\", intent: logs}\n", 1)
	if got := out(t, d); got != want {
		t.Errorf("got:\n%s", got)
	}
}

func TestDocumentSetScalar(t *testing.T) {
	d := load(t, roundTrip)
	d.SetScalar("module", "post-office")
	d.SetScalar("volume_root", "/var/lib")
	want := strings.Replace(roundTrip, "module: mail #", "module: post-office #", 1)
	want = strings.Replace(want, "volume_root: /srv\n", "volume_root: /var/lib\n", 1)
	if got := out(t, d); got != want {
		t.Errorf("got:\n%s", got)
	}
	in := "# header\nversion: 1\n# the binds\nbinds:\n  ./a: {kind: host}\n"
	d = load(t, in)
	d.SetScalar("volume_root", "/srv")
	d.SetScalar("module", "m")
	wantInserted(t, in, out(t, d), 2, "module: m", "volume_root: /srv")
}

func TestDocumentNew(t *testing.T) {
	for _, in := range []string{"", "\n  \n"} {
		d := load(t, in)
		if got := out(t, d); got != "version: 1\n" {
			t.Errorf("new document = %q", got)
		}
		d.SetEntry(SectionVolumes, "db", Entry{Owner: "999:999", Mode: "0700", Intent: "state"})
		d.SetEntry(SectionBinds, "./data", Entry{Owner: "1000:1000"})
		d.SetScalar("host_project_directory", "/opt/x")
		want := "version: 1\nhost_project_directory: /opt/x\nbinds:\n  ./data: {owner: \"1000:1000\"}\nvolumes:\n  db: {owner: \"999:999\", mode: \"0700\", intent: state}\n"
		if got := out(t, d); got != want {
			t.Errorf("got:\n%s\nwant:\n%s", got, want)
		}
	}
	d := load(t, "# only a comment\n")
	if got := out(t, d); got != "# only a comment\nversion: 1\n" {
		t.Errorf("comment-only document = %q", got)
	}
	d = load(t, "version: 1\nbinds:\nimages: {}\n")
	d.SetEntry(SectionBinds, "./a", Entry{})
	if got := out(t, d); got != "version: 1\nbinds:\n  ./a: {}\nimages: {}\n" {
		t.Errorf("null section = %q", got)
	}
}

func TestDocumentErrors(t *testing.T) {
	for _, in := range []string{"version: 1\nbinds: {\n", "- a\n", "version: 1\n---\nversion: 1\n"} {
		if _, err := LoadDocument("c2m.yaml", []byte(in)); err == nil || !strings.HasPrefix(err.Error(), "c2m.yaml:") {
			t.Errorf("LoadDocument(%q) err = %v", in, err)
		}
	}
	d := load(t, "version: 1\n")
	d.SetEntry("bind", "./a", Entry{})
	if _, err := d.Bytes(); err == nil {
		t.Errorf("unknown section not reported")
	}
	d = load(t, "version: 1\nbinds: [a]\n")
	d.SetEntry(SectionBinds, "./a", Entry{})
	if _, err := d.Bytes(); err == nil {
		t.Errorf("section that is not a mapping not reported")
	}
}

// TestDocumentRefusalSections: acknowledge items, credentials and images
// are added with the file's comments kept, each section where the usual
// order puts it, an item already listed not twice, an existing key
// replaced in place.
func TestDocumentRefusalSections(t *testing.T) {
	in := "# head\nversion: 1\nacknowledge: [web.container_name] # known\nimages:\n  web: old:1 # was\n"
	d, err := LoadDocument("d.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	d.AddAcknowledge("web.container_name")
	d.AddAcknowledge("db.ports")
	d.SetString("images", "web", "registry.example.org/web:1.2")
	d.SetString("images", "worker", "registry.example.org/worker:1.2")
	d.SetString(KeyCredentials, "db.POSTGRES_PASSWORD", "db_postgres_password")
	got, err := d.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	want := "# head\nversion: 1\nacknowledge: [web.container_name, db.ports] # known\nimages:\n  web: registry.example.org/web:1.2 # was\n  worker: registry.example.org/worker:1.2\ncredentials:\n  db.POSTGRES_PASSWORD: db_postgres_password\n"
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if _, err := Parse("d.yaml", got); err != nil {
		t.Errorf("does not read back: %v", err)
	}
	d.SetString("binds", "x", "y")
	if _, err := d.Bytes(); err == nil {
		t.Error("SetString on binds: no error")
	}
}

// A clone is edited on its own, comments, order and aliases kept, and the
// original is unchanged.
func TestDocumentClone(t *testing.T) {
	src := "# head\nversion: 1\nx-own: &o \"0:0\"\nbinds:\n  ./a: {owner: *o, mode: \"0750\", intent: state} # kept\n"
	d, err := LoadDocument("c.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c := d.Clone()
	c.SetEntry(SectionBinds, "./b", Entry{Owner: "1:1", Mode: "0700", Intent: "cache"})
	got, err := d.Bytes()
	if err != nil || string(got) != src {
		t.Errorf("original after editing its clone: %v\n%s", err, got)
	}
	cb, err := c.Bytes()
	if want := src + "  ./b: {owner: \"1:1\", mode: \"0700\", intent: cache}\n"; err != nil || string(cb) != want {
		t.Errorf("clone: %v\n%s\nwant:\n%s", err, cb, want)
	}
}
