package ask

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/project"
)

// spoolItem is a bind whose owner convert produced from user: and whose
// intent only the target path hints at.
func spoolItem() Item {
	it := Item{Missing: convert.Missing{
		Section: declare.SectionBinds, Key: "./data/spool", Source: "./data/spool",
		Mounts:                    []convert.Mount{{Service: "postfix", Image: "example/postfix:3.8", Target: "/var/spool/postfix", Pos: manifest.Pos{File: "compose.yaml", Line: 13}}},
		Known:                     declare.Entry{Key: "./data/spool", Owner: "5000:5000"},
		NeedsHostProjectDirectory: true,
		Reason:                    "relative bind source ./data/spool has no location on the target host",
	}}
	it.suggest(true)
	return it
}

func run(t *testing.T, p *Plan, input string) (*Answers, string, error) {
	t.Helper()
	var out bytes.Buffer
	s := &Session{In: strings.NewReader(input), Out: &out, Echo: true}
	a, err := s.Run(p)
	return a, out.String(), err
}

func TestSuggestions(t *testing.T) {
	it := spoolItem()
	if it.Owner != (Suggestion{Value: "5000:5000", From: `service "postfix" runs as user: 5000:5000`, Evidence: true, Produced: true, fromUser: true}) {
		t.Errorf("owner suggestion = %+v", it.Owner)
	}
	if it.Intent.Value != "state" || it.Intent.Evidence || !strings.Contains(it.Intent.Why(), "not evidence") {
		t.Errorf("intent suggestion = %+v, want a hint of state, not evidence", it.Intent)
	}
	if it.Mode.Value != "" {
		t.Errorf("mode suggestion = %+v, want none: no default mode", it.Mode)
	}
}

func TestIntentHints(t *testing.T) {
	for target, want := range map[string]string{
		"/var/log/nginx": "logs", "/var/cache/x": "cache", "/etc/app": "config", "/var/lib/mysql": "state",
		"/run/app": "runtime", "/data": "", "/etcetera": "", "/app/cache": "cache", "/app/logs": "logs", "/opt/x/conf": "", "/config": "",
	} {
		m := convert.Missing{Mounts: []convert.Mount{{Target: target}}}
		if got := intentHint(&m).Value; got != want {
			t.Errorf("intentHint(%s) = %q, want %q", target, got, want)
		}
	}
	m := convert.Missing{Mounts: []convert.Mount{{Target: "/opt/app/conf", ReadOnly: true}}}
	if got := intentHint(&m).Value; got != "config" {
		t.Errorf("read-only mount: intentHint = %q, want config", got)
	}
	// A secret is state with a strict mode, read-only or not, whatever
	// directory convention its target is under.
	for _, m := range []convert.Missing{
		{Key: "./secrets/db_password.txt", Mounts: []convert.Mount{{Target: "/etc/app/db", ReadOnly: true}}},
		{Key: "./certs/tls.key", Mounts: []convert.Mount{{Target: "/certs/tls.key", ReadOnly: true}}},
		{Key: "./dbpass", Mounts: []convert.Mount{{Target: "/run/secrets/db", ReadOnly: true}}},
		{Key: "~/.ssh/id_rsa", Mounts: []convert.Mount{{Target: "/root/.ssh/id_rsa", ReadOnly: true}}},
	} {
		if got := intentHint(&m); got.Value != "state" || !strings.Contains(got.From, "secret") {
			t.Errorf("intentHint(%s → %s) = %+v, want state for a secret", m.Key, m.Mounts[0].Target, got)
		}
	}
}

// TestSessionAcceptsSuggestions accepts every suggestion with Enter: the
// owner convert produces is left out of the entry, the hinted intent is
// written.
func TestSessionAcceptsSuggestions(t *testing.T) {
	p := &Plan{Module: "mail", Items: []Item{spoolItem()}, NeedsHostProjectDirectory: true}
	a, out, err := run(t, p, "/opt/mail\n\n\n0750\n\n\nqueue and mailboxes\n")
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if a.HostProjectDirectory != "/opt/mail" {
		t.Errorf("HostProjectDirectory = %q", a.HostProjectDirectory)
	}
	got := a.Entries[0]
	want := declare.Entry{Key: "./data/spool", Mode: "0750", Intent: "state", Note: "queue and mailboxes"}
	if !equalEntry(got.Entry, want) || !got.Write {
		t.Errorf("Entry = %+v (write %v), want %+v", got.Entry, got.Write, want)
	}
	if got.Final.Owner != "5000:5000" || got.Final.Path != "/opt/mail/data/spool" || got.Final.Kind != declare.KindDirectory {
		t.Errorf("Final = %+v", got.Final)
	}
	for _, s := range []string{
		`service "postfix" (image example/postfix:3.8) mounts it at /var/spool/postfix   compose.yaml:13`,
		`suggested: 5000:5000 — evidence, convert produces it: service "postfix" runs as user: 5000:5000`,
		`suggested: state — a suggestion, not evidence: the target /var/spool/postfix is under /var/spool`,
		`owner (USER:GROUP) [5000:5000]: ` + "\n",
		"Enter keeps /opt/mail/data/spool",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

func TestSessionReasks(t *testing.T) {
	p := &Plan{Module: "mail", Items: []Item{spoolItem()}, NeedsHostProjectDirectory: true}
	in := "opt/mail\n/opt/mail\nfolder\ndirectory\nroot\n99999999999:1\n4294967295:0\nroot:root\n750x\n\n0750\nstuff\n?\nlogs\nrelative\n/srv/mail/spool\n\n"
	a, out, err := run(t, p, in)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	for _, s := range []string{
		`path "opt/mail": want an absolute, clean path`,
		`kind "folder": want directory, file or host; try again`,
		`owner "root": want USER:GROUP`,
		`owner "99999999999:1" has user id 99999999999, over 4294967294`,
		`owner "4294967295:0" has user id 4294967295, over 4294967294`,
		`mode "750x": want 3 or 4 octal digits (0-7), such as 0750; try again`,
		"an answer is needed: the permission bits",
		`intent "stuff": want one of state, content, config, logs, cache, runtime`,
		"cache    data the software can rebuild",
		`path "relative": want an absolute, clean path`,
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	want := declare.Entry{Key: "./data/spool", Path: "/srv/mail/spool", Owner: "root:root", Mode: "0750", Intent: "logs"}
	if got := a.Entries[0].Entry; !equalEntry(got, want) {
		t.Errorf("Entry = %+v, want %+v", got, want)
	}
}

// TestSessionFileAndHost answers kind file for one bind and host for
// another: a host path is asked for nothing but a note.
func TestSessionFileAndHost(t *testing.T) {
	cf := Item{Missing: convert.Missing{Section: declare.SectionBinds, Key: "/srv/main.cf", Source: "/srv/main.cf",
		Mounts: []convert.Mount{{Service: "postfix", Target: "/etc/postfix/main.cf", ReadOnly: true}}}}
	cf.suggest(true)
	dev := Item{Missing: convert.Missing{Section: declare.SectionBinds, Key: "/dev/dri/renderD128", Source: "/dev/dri/renderD128",
		Mounts: []convert.Mount{{Service: "jellyfin", Target: "/dev/dri/renderD128"}}}}
	dev.suggest(true)
	p := &Plan{Module: "mail", Items: []Item{cf, dev}}
	a, out, err := run(t, p, "file\n0:0\n0644\n\n\n\nhost\nthe GPU\n")
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if got, want := a.Entries[0].Entry, (declare.Entry{Key: "/srv/main.cf", Kind: declare.KindFile, Owner: "0:0", Mode: "0644", Intent: "config"}); !equalEntry(got, want) {
		t.Errorf("file entry = %+v, want %+v", got, want)
	}
	if got, want := a.Entries[1].Entry, (declare.Entry{Key: "/dev/dri/renderD128", Kind: declare.KindHost, Note: "the GPU"}); !equalEntry(got, want) {
		t.Errorf("host entry = %+v, want %+v", got, want)
	}
}

// TestSessionSupplied asks only for what a supplied entry lacks, and
// writes the entry whole, as it replaces the one the declarations had.
func TestSessionSupplied(t *testing.T) {
	it := Item{Missing: convert.Missing{Section: declare.SectionVolumes, Key: "dbdata", Legacy: "mail_dbdata", Supplied: true,
		Mounts: []convert.Mount{{Service: "db", Target: "/data"}},
		Known:  declare.Entry{Key: "dbdata", Path: "/srv/mail/db", Mode: "0700", Note: "cluster"}}}
	it.Supplied = it.Missing.Known
	it.suggest(true)
	a, out, err := run(t, &Plan{Module: "mail", Items: []Item{it}}, "999:999\nstate\n")
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if !strings.Contains(out, "already declared: path /srv/mail/db, mode 0700, note cluster") || !strings.Contains(out, "data today: Docker volume mail_dbdata") {
		t.Errorf("output:\n%s", out)
	}
	want := declare.Entry{Key: "dbdata", Path: "/srv/mail/db", Owner: "999:999", Mode: "0700", Intent: "state", Note: "cluster"}
	if got := a.Entries[0]; !equalEntry(got.Entry, want) || !got.Write {
		t.Errorf("Entry = %+v, want %+v", got.Entry, want)
	}
}

// TestSessionNeedsPath requires a path when the source cannot be placed
// otherwise: a volume whose volume_root was skipped.
func TestSessionNeedsPath(t *testing.T) {
	it := Item{Missing: convert.Missing{Section: declare.SectionVolumes, Key: "cache", NeedsVolumeRoot: true,
		Mounts: []convert.Mount{{Service: "web", Target: "/var/cache/web"}}}}
	it.suggest(true)
	a, out, err := run(t, &Plan{Module: "web", Items: []Item{it}, NeedsVolumeRoot: true}, "\n0:0\n0755\n\n\n/srv/web-cache\n-\n")
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if !strings.Contains(out, "path (required, as volume_root is unset") || !strings.Contains(out, "an answer is needed") {
		t.Errorf("output:\n%s", out)
	}
	if got := a.Entries[0].Entry; got.Path != "/srv/web-cache" || got.Intent != "cache" || got.Note != "" {
		t.Errorf("Entry = %+v", got)
	}
}

func TestSessionEndOfInput(t *testing.T) {
	p := &Plan{Module: "mail", Items: []Item{spoolItem()}, NeedsHostProjectDirectory: true}
	for _, in := range []string{"", "/opt/mail\n\n\n", "/opt/mail\n\n\n0750"} {
		a, out, err := run(t, p, in)
		if !errors.Is(err, ErrEndOfInput) || a != nil {
			t.Errorf("input %q: Run = %v, %v; want ErrEndOfInput\n%s", in, a, err, out)
		}
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestSessionReadError(t *testing.T) {
	s := &Session{In: failingReader{}, Out: io.Discard}
	if _, err := s.Run(&Plan{Items: []Item{spoolItem()}}); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("Run = %v, want the read error", err)
	}
}

func TestConfirm(t *testing.T) {
	for in, want := range map[string]bool{"\n": true, "y\n": true, "No\n": false, "maybe\nn\n": false} {
		s := &Session{In: strings.NewReader(in), Out: io.Discard}
		got, err := s.Confirm("Write?")
		if err != nil || got != want {
			t.Errorf("Confirm(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

func equalEntry(a, b declare.Entry) bool {
	a.Fields, b.Fields, a.Pos, b.Pos = nil, nil, manifest.Pos{}, manifest.Pos{}
	return a.Key == b.Key && a.Kind == b.Kind && a.Path == b.Path && a.Owner == b.Owner && a.Mode == b.Mode && a.Intent == b.Intent && a.Note == b.Note
}

// hostItems are two relative binds declared {kind: host} whose location
// is missing (host_project_directory unset), as convert reports them.
func hostItems() []Item {
	var out []Item
	for i, key := range []string{"./shared", "./cfg.txt"} {
		m := convert.Missing{Section: declare.SectionBinds, Key: key, Source: key, Supplied: true,
			Mounts:                    []convert.Mount{{Service: "app", Target: "/data/" + key[2:], Pos: manifest.Pos{File: "compose.yaml", Line: 5 + i}}},
			Known:                     declare.Entry{Key: key, Kind: declare.KindHost},
			NeedsHostProjectDirectory: true,
			Reason:                    "relative bind source " + key + " has no location on the target host",
		}
		strict := m
		if i == 1 {
			// A strict conversion that lost the kind must not lose it
			// here.
			strict.Known.Kind = declare.KindNone
		}
		out = append(out, NewPlan("nc", []convert.Missing{m}, []convert.Missing{strict}, nil).Items...)
	}
	return out
}

// TestSessionSuppliedHost: a bind declared {kind: host} that only lacks
// its location stays a host path: ask asks for host_project_directory or,
// skipped, the path, and never owner, mode, intent or a note.
func TestSessionSuppliedHost(t *testing.T) {
	p := &Plan{Module: "nc", Items: hostItems(), NeedsHostProjectDirectory: true}
	a, out, err := run(t, p, "\n/srv/shared\n/srv/cfg.txt\n")
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	for _, s := range []string{"owner", "mode", "intent", "note", "kind ("} {
		if strings.Contains(out, s) {
			t.Errorf("output asks about %s:\n%s", s, out)
		}
	}
	if !strings.Contains(out, "path (required, as host_project_directory is unset") {
		t.Errorf("output does not ask for the path:\n%s", out)
	}
	for i, want := range []declare.Entry{
		{Key: "./shared", Kind: declare.KindHost, Path: "/srv/shared"},
		{Key: "./cfg.txt", Kind: declare.KindHost, Path: "/srv/cfg.txt"},
	} {
		if got := a.Entries[i]; !equalEntry(got.Entry, want) || !got.Write {
			t.Errorf("Entry %d = %+v (write %v), want %+v", i, got.Entry, got.Write, want)
		}
	}

	// With host_project_directory, nothing else is asked.
	a, out, err = run(t, &Plan{Module: "nc", Items: hostItems(), NeedsHostProjectDirectory: true}, "/opt/nc\n")
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if strings.Contains(out, "path (") || strings.Contains(out, "note") || !strings.Contains(out, "used at /opt/nc/shared on the target host") {
		t.Errorf("output:\n%s", out)
	}
	if got, want := a.Entries[0].Entry, (declare.Entry{Key: "./shared", Kind: declare.KindHost}); !equalEntry(got, want) {
		t.Errorf("Entry = %+v, want %+v", got, want)
	}
}

// TestSessionRequiredAnswers: Enter on a required intent shows the whole
// help; "-" on a required mode says it is required.
func TestSessionRequiredAnswers(t *testing.T) {
	it := spoolItem()
	it.Intent = Suggestion{}
	p := &Plan{Module: "mail", Items: []Item{it}, HostProjectDirectory: "/opt/mail"}
	_, out, err := run(t, p, "\n\n-\n0750\n\nstate\n\n\n")
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	for _, s := range []string{
		"mode is required (- leaves out only an optional value); ? explains",
		"an answer is needed: what the data is, judged by what the software does with it:\n  state    data the software writes",
		"  runtime  sockets, pid and lock files",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, `mode "-"`) {
		t.Errorf("output treats - as a mode:\n%s", out)
	}
}

// TestSessionPathTaken: a source whose place is declared already for
// something else must be relocated: its path is required, and the
// question says what lands there.
func TestSessionPathTaken(t *testing.T) {
	bind := func(key, target string, local declare.Kind) Item {
		it := Item{Missing: convert.Missing{Section: declare.SectionBinds, Key: key, Source: key,
			Mounts: []convert.Mount{{Service: "app", Target: target}}}}
		it.suggest(true)
		it.Missing.Local = project.SourceEvidence{Kind: local}
		return it
	}
	p := &Plan{Module: "p2", HostProjectDirectory: "/opt/p2", Items: []Item{bind("./conf", "/etc/conf", declare.KindNone)},
		Taken: []TakenPath{{Path: "/opt/p2/conf", What: "a directories: entry"}}}
	a, out, err := run(t, p, "\n0:0\n0755\n\n\n/opt/p2/etc\n\n")
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if !strings.Contains(out, "path (required, as a directories: entry lands at /opt/p2/conf already: another absolute host path)") ||
		!strings.Contains(out, "an answer is needed") || a.Entries[0].Entry.Path != "/opt/p2/etc" {
		t.Errorf("entry %+v; output:\n%s", a.Entries[0].Entry, out)
	}
}

// TestTakePaths: the declared paths of the module other than the plan's
// own sources.
func TestTakePaths(t *testing.T) {
	it := Item{Missing: convert.Missing{Section: declare.SectionBinds, Key: "./data", Source: "./data", Supplied: true}}
	p := &Plan{Module: "m", HostProjectDirectory: "/opt/m", Items: []Item{it}}
	m := &manifest.Module{Resources: []manifest.Resource{
		{Kind: manifest.KindDirectory, Path: "/opt/m/data", Origin: &manifest.Origin{Source: "./data"}},
		{Kind: manifest.KindDirectory, Path: "/opt/m/data", Origin: &manifest.Origin{Source: "db"}},
		{Kind: manifest.KindDirectory, Path: "/opt/m"},
		{Kind: manifest.KindHost, Path: "/etc/localtime", Origin: &manifest.Origin{Source: "/etc/localtime"}},
		{Kind: manifest.KindDirectory, Path: "/srv/m/app/tmp", Origin: &manifest.Origin{Services: []string{"app"}}},
	}}
	p.TakePaths(m)
	want := []TakenPath{{"/opt/m/data", "volume db"}, {"/opt/m", "a directories: entry"}, {"/etc/localtime", "bind /etc/localtime"}, {"/srv/m/app/tmp", "an anonymous volume of service app"}}
	if len(p.Taken) != len(want) {
		t.Fatalf("Taken = %v, want %v", p.Taken, want)
	}
	for i := range want {
		if p.Taken[i] != want[i] {
			t.Errorf("Taken[%d] = %v, want %v", i, p.Taken[i], want[i])
		}
	}
}

func TestConfirmDash(t *testing.T) {
	var out bytes.Buffer
	s := &Session{In: strings.NewReader("-\nno\n"), Out: &out}
	if got, err := s.Confirm("Write?"); err != nil || got {
		t.Errorf("Confirm = %v, %v; want false", got, err)
	}
	if !strings.Contains(out.String(), "an answer is required") {
		t.Errorf("output:\n%s", out.String())
	}
}

// TestSessionMustMove: a source that must move under layout fhs, its
// values produced, is offered them; Enter at the path leaves it to the
// layout, never keeping the place the module may not own.
func TestSessionMustMove(t *testing.T) {
	it := Item{Missing: convert.Missing{
		Section: declare.SectionBinds, Key: "/usr/share/appdata/vpn", Source: "/usr/share/appdata/vpn",
		Mounts:    []convert.Mount{{Service: "vpn", Image: "lscr.io/linuxserver/wireguard:latest", Target: "/config", Pos: manifest.Pos{File: "compose.yaml", Line: 9}}},
		Known:     declare.Entry{Key: "/usr/share/appdata/vpn", Owner: "1000:100", Mode: "0750", Intent: "state"},
		Moves:     "the module may not own it there (under /usr), so its data moves",
		OwnerFrom: `service "vpn" environment PUID=1000, PGID=100 (image lscr.io/linuxserver/* runs as them: table.yaml:1)`,
	}}
	it.suggest(true)
	if it.OnlyLocation() {
		t.Fatal("a source that must move is offered as only lacking its location")
	}
	a, out, err := run(t, &Plan{Module: "vpn", Items: []Item{it}}, "\n\n\n\n\n\n-\n")
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if !strings.Contains(out, "Enter keeps where the settings place it") || strings.Contains(out, "Enter keeps /usr") {
		t.Errorf("path question:\n%s", out)
	}
	if !strings.Contains(out, `environment PUID=1000, PGID=100`) {
		t.Errorf("the owner's evidence is not named:\n%s", out)
	}
	// What is written is what convert does not produce: nothing but the
	// entry itself, which layout fhs places; the values it produces.
	if got := a.Entries[0].Entry; got.Path != "" || got.Kind != declare.KindNone || got.Owner != "" {
		t.Errorf("Entry = %+v", got)
	}
	if got := a.Entries[0].Final; got.Path != "" || got.Owner != "1000:100" || got.Mode != "0750" || got.Intent != "state" {
		t.Errorf("Final = %+v", got)
	}
}

// TestSessionNotOwnablePath: a source the module may not own where it is,
// without layout fhs (NotOwnable), needs a path: Enter does not keep it
// there, where C2M006 would refuse it after the fact (fresh-eyes trial).
func TestSessionNotOwnablePath(t *testing.T) {
	it := Item{Missing: convert.Missing{
		Section: declare.SectionBinds, Key: "/mnt/data", Source: "/mnt/data",
		Mounts:     []convert.Mount{{Service: "web", Image: "busybox", Target: "/data", Pos: manifest.Pos{File: "compose.yaml", Line: 4}}},
		Known:      declare.Entry{Key: "/mnt/data"},
		NotOwnable: "outside the places a module may own",
	}}
	it.suggest(true)
	a, out, err := run(t, &Plan{Module: "web", Items: []Item{it}}, "\n1000:1000\n0750\ncontent\n\n/srv/web/data\n-\n")
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if strings.Contains(out, "Enter keeps /mnt/data") || !strings.Contains(out, "path (required, as the module may not own /mnt/data there") {
		t.Errorf("path question:\n%s", out)
	}
	if got := a.Entries[0].Entry.Path; got != "/srv/web/data" {
		t.Errorf("path %q, want the one answered after Enter was refused:\n%s", got, out)
	}
}
