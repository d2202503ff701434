package declare

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/compose2manifest/compose2manifest/manifest"
)

const goodFile = `# Declarations for the mail module.
version: 1
module: mail
host_project_directory: /opt/mail
volume_root: /srv
binds:
  ./data/spool: {owner: "5000:5000", mode: "0750", intent: state, note: queue and mailboxes}
  ./main.cf:    {kind: file, owner: "0:0", mode: "0644", intent: config}
  /etc/localtime: {kind: host, note: time zone}
  ./logs:
    kind: directory
    path: /var/log/mail
    owner: "syslog:adm"
    mode: "750"
    intent: logs
  ./incomplete: {mode: "", intent: }
  ./empty:
volumes:
  dbdata: {path: /srv/mail/db, owner: "999:999", mode: "0700", intent: state}
anonymous:
  "postfix:/var/lib/postfix": {path: /srv/mail/postfix-lib, owner: "0:0", mode: "0755", intent: cache}
acknowledge:
  - postfix.build
  - "*.cap_add"
  - my.svc.healthcheck
images:
  web: registry.example.org/web:1.2
`

func pos(line int) manifest.Pos { return manifest.Pos{File: "c2m.yaml", Line: line} }

func TestParseGood(t *testing.T) {
	f, err := Parse("c2m.yaml", []byte(goodFile))
	if err != nil {
		t.Fatal(err)
	}
	want := &File{
		Name: "c2m.yaml", Version: 1,
		Module: "mail", ModulePos: pos(3),
		HostProjectDirectory: "/opt/mail", HostProjectDirectoryPos: pos(4),
		VolumeRoot: "/srv", VolumeRootPos: pos(5),
		Binds: []Entry{
			{Key: "./data/spool", Owner: "5000:5000", Mode: "0750", Intent: "state", Note: "queue and mailboxes", Pos: pos(7),
				Fields: map[string]manifest.Pos{"owner": pos(7), "mode": pos(7), "intent": pos(7), "note": pos(7)}},
			{Key: "./main.cf", Kind: KindFile, Owner: "0:0", Mode: "0644", Intent: "config", Pos: pos(8),
				Fields: map[string]manifest.Pos{"kind": pos(8), "owner": pos(8), "mode": pos(8), "intent": pos(8)}},
			{Key: "/etc/localtime", Kind: KindHost, Note: "time zone", Pos: pos(9),
				Fields: map[string]manifest.Pos{"kind": pos(9), "note": pos(9)}},
			{Key: "./logs", Kind: KindDirectory, Path: "/var/log/mail", Owner: "syslog:adm", Mode: "750", Intent: "logs", Pos: pos(10),
				Fields: map[string]manifest.Pos{"kind": pos(11), "path": pos(12), "owner": pos(13), "mode": pos(14), "intent": pos(15)}},
			{Key: "./incomplete", Pos: pos(16), Fields: map[string]manifest.Pos{"mode": pos(16), "intent": pos(16)}},
			{Key: "./empty", Pos: pos(17), Fields: map[string]manifest.Pos{}},
		},
		Volumes: []Entry{
			{Key: "dbdata", Path: "/srv/mail/db", Owner: "999:999", Mode: "0700", Intent: "state", Pos: pos(19),
				Fields: map[string]manifest.Pos{"path": pos(19), "owner": pos(19), "mode": pos(19), "intent": pos(19)}},
		},
		Anonymous: []Entry{
			{Key: "postfix:/var/lib/postfix", Path: "/srv/mail/postfix-lib", Owner: "0:0", Mode: "0755", Intent: "cache", Pos: pos(21),
				Fields: map[string]manifest.Pos{"path": pos(21), "owner": pos(21), "mode": pos(21), "intent": pos(21)}},
		},
		Acknowledge: []Ack{
			{Service: "postfix", Field: "build", Pos: pos(23)},
			{Service: "*", Field: "cap_add", Pos: pos(24)},
			{Service: "my.svc", Field: "healthcheck", Pos: pos(25)},
		},
		Images: []Image{{Service: "web", Ref: "registry.example.org/web:1.2", Pos: pos(27)}},
	}
	if !reflect.DeepEqual(f, want) {
		t.Errorf("got  %+v\nwant %+v", f, want)
	}
}

func TestLookups(t *testing.T) {
	f, err := Parse("c2m.yaml", []byte(goodFile))
	if err != nil {
		t.Fatal(err)
	}
	if e := f.Bind("data/spool/"); e == nil || e.Key != "./data/spool" {
		t.Errorf("Bind(data/spool/) = %v", e)
	}
	if e := f.Bind("/etc//localtime"); e == nil || e.Kind != KindHost {
		t.Errorf("Bind(/etc//localtime) = %v", e)
	}
	if e := f.Bind("./nope"); e != nil {
		t.Errorf("Bind(./nope) = %v", e)
	}
	if e := f.Volume("dbdata"); e == nil || e.Path != "/srv/mail/db" {
		t.Errorf("Volume(dbdata) = %v", e)
	}
	if e := f.AnonymousVolume("postfix", "/var/lib/postfix/"); e == nil {
		t.Errorf("AnonymousVolume = nil")
	}
	if !f.Acknowledged("anything", "cap_add") || !f.Acknowledged("postfix", "build") || f.Acknowledged("web", "build") {
		t.Errorf("Acknowledged wrong")
	}
	if ref, ok := f.ImageFor("web"); !ok || ref != "registry.example.org/web:1.2" {
		t.Errorf("ImageFor(web) = %q, %v", ref, ok)
	}
	if !f.Binds[0].Has(FieldMode) || f.Binds[4].Has(FieldOwner) {
		t.Errorf("Has wrong")
	}
	var nilFile *File
	if nilFile.Bind("x") != nil || nilFile.Acknowledged("a", "b") {
		t.Errorf("nil File lookups")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // "LINE: fragment", in order
	}{
		{"syntax", "version: 1\nbinds:\n  ./a: {owner: \"0:0\"\n  ./b: x\n", []string{":2: YAML syntax error: did not find expected ',' or '}'"}},
		{"syntax tab", "version: 1\nbinds:\n\t./a: {}\n", []string{":3: YAML syntax error"}},
		{"not a mapping", "- a\n- b\n", []string{":1: declarations: want a mapping starting with version: 1, got a sequence"}},
		{"scalar document", "hello\n", []string{`:1: declarations: want a mapping starting with version: 1, got "hello"`}},
		{"empty", "", []string{"c2m.yaml: empty document"}},
		{"comments only", "# nothing\n", []string{"c2m.yaml: empty document"}},
		{"two documents", "version: 1\n---\nversion: 1\n", []string{":2: more than one YAML document"}},
		{"mounts in a project's file", "version: 1\nmounts:\n  x/y:/data: {owner: \"0:0\"}\n", []string{`:2: mounts: only a defaults file (compose2manifest.defaults.yaml) gives it`}},
		{"unknown top key", "version: 1\nbind: {}\n", []string{`:2: declarations: unknown key "bind" (allowed: version, module, compose_files, env_files, profiles, host_project_directory, volume_root, layout, roots, binds, volumes, anonymous, directories, mounts, acknowledge, images, credentials)`}},
		{"unknown entry key", "version: 1\nbinds:\n  ./a: {onwer: \"0:0\"}\n", []string{`:3: binds: "./a": unknown key "onwer" (allowed: kind, path, owner, mode, intent, note, acknowledge_mode)`}},
		{"version missing", "module: mail\n", []string{":1: version missing"}},
		{"version 2", "version: 2\n", []string{":1: version: unsupported version 2"}},
		{"version string", "version: \"1\"\n", []string{`:1: version: want the integer 1, got "1"`}},
		{"mode integer", "version: 1\nbinds:\n  ./a:\n    mode: 0750\n", []string{`:4: binds: "./a": mode: 0750 is a YAML integer`, `quote it: "0750"`}},
		{"mode integer flow", "version: 1\nvolumes:\n  db: {mode: 750}\n", []string{`:3: volumes: "db": mode: 750 is a YAML integer`}},
		{"mode not octal", "version: 1\nbinds:\n  ./a: {mode: \"0780\"}\n", []string{`:3: binds: "./a": mode: "0780" is not a mode; want 3 or 4 octal digits`}},
		{"mode too long", "version: 1\nbinds:\n  ./a: {mode: \"01750\"}\n", []string{`:3: binds: "./a": mode: "01750" is not a mode`}},
		{"owner no group", "version: 1\nbinds:\n  ./a: {owner: \"5000\"}\n", []string{`:3: binds: "./a": owner: "5000" is not "USER:GROUP"`}},
		{"owner empty group", "version: 1\nbinds:\n  ./a: {owner: \"root:\"}\n", []string{`:3: binds: "./a": owner: "root:" is not "USER:GROUP"`}},
		{"owner integer", "version: 1\nbinds:\n  ./a: {owner: 5000}\n", []string{`:3: binds: "./a": owner: want a string "UID:GID" (both parts), got the integer 5000; quote it with its group: "5000:5000"`}},
		{"owner one part hint", "version: 1\nbinds:\n  ./a: {owner: \"1000\"}\n", []string{`:3: binds: "./a": owner: "1000" is not "USER:GROUP" (both parts, names or numeric ids, such as "0:0"); for the same user and group write "1000:1000"`}},
		{"owner float", "version: 1\nbinds:\n  ./a: {owner: 1e3}\n", []string{`:3: binds: "./a": owner: want a string, got`}},
		{"owner exponent", "version: 1\nvolumes:\n  db: {owner: \"1e3:1000\"}\n", []string{`:3: volumes: "db": owner: "1e3:1000" has user "1e3", which starts with a digit but is not all digits`}},
		{"owner hex", "version: 1\nvolumes:\n  db: {owner: \"0x10:0\"}\n", []string{`:3: volumes: "db": owner: "0x10:0" has user "0x10", which starts with a digit`}},
		{"owner id too big", "version: 1\nvolumes:\n  db: {owner: \"4294967295:0\"}\n", []string{`:3: volumes: "db": owner: "4294967295:0" has user id 4294967295, over 4294967294, the largest id`}},
		{"owner bad name", "version: 1\nvolumes:\n  db: {owner: \"a+b:c\"}\n", []string{`:3: volumes: "db": owner: "a+b:c" has user "a+b", which is not a user or group name`}},
		{"intent unknown", "version: 1\nbinds:\n  ./a: {intent: data}\n", []string{`:3: binds: "./a": intent: unknown intent "data" (want state, content, config, logs, cache or runtime)`}},
		{"kind unknown", "version: 1\nbinds:\n  ./a: {kind: dir}\n", []string{`:3: binds: "./a": kind: unknown kind "dir" (want directory, file or host)`}},
		{"path relative", "version: 1\nvolumes:\n  db: {path: srv/db}\n", []string{`:3: volumes: "db": path: "srv/db" is not absolute`}},
		{"path component over NAME_MAX", "version: 1\nvolumes:\n  db: {path: /srv/big/" + strings.Repeat("a", 300) + "/" + strings.Repeat("b", 300) + "}\n", []string{`:3: volumes: "db": path: "/srv/big/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…" has a component of 300 bytes ("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…"), over 255 (NAME_MAX): the host cannot create it`}},
		{"path over PATH_MAX", "version: 1\nvolumes:\n  db: {path: /srv" + strings.Repeat("/cccccccccc", 400) + "}\n", []string{`:3: volumes: "db": path: "/srv/cccccccccc/cccccccccc/cccccccccc/cc…" is 4404 bytes long, over 4095 (PATH_MAX)`}},
		{"directories key over NAME_MAX", "version: 1\ndirectories:\n  /srv/" + strings.Repeat("a", 256) + ": {owner: \"0:0\"}\n", []string{`:3: directories: key "/srv/aaaa`, `has a component of 256 bytes`}},
		{"anonymous target over NAME_MAX", "version: 1\nanonymous:\n  app:/" + strings.Repeat("t", 256) + ": {owner: \"0:0\"}\n", []string{`:3: anonymous: key "app:…": target "/tttt`, `has a component of 256 bytes`}},
		{"volume_root over NAME_MAX", "version: 1\nvolume_root: /" + strings.Repeat("r", 256) + "\n", []string{`:2: volume_root: "/rrrr`, `has a component of 256 bytes`}},
		{"path trailing slash", "version: 1\nvolumes:\n  db: {path: /srv/db/}\n", []string{`:3: volumes: "db": path: "/srv/db/" is not clean (no .., no // or trailing /); write "/srv/db"`}},
		{"path dotdot", "version: 1\nvolumes:\n  db: {path: /srv/../db}\n", []string{`:3: volumes: "db": path: "/srv/../db" is not clean`}},
		{"path newline", "version: 1\nvolumes:\n  db: {path: \"/srv/db\\nx\"}\n", []string{`:3: volumes: "db": path: "/srv/db\nx" holds a control character`}},
		{"host_project_directory relative", "version: 1\nhost_project_directory: opt/mail\n", []string{`:2: host_project_directory: "opt/mail" is not absolute`}},
		{"volume_root unclean", "version: 1\nvolume_root: /srv/\n", []string{`:2: volume_root: "/srv/" is not clean`}},
		{"host with owner", "version: 1\nbinds:\n  /etc/localtime:\n    kind: host\n    owner: \"0:0\"\n    mode: \"0644\"\n    intent: config\n    path: /etc/lt\n",
			[]string{`:5: binds: "/etc/localtime": owner is not allowed on a kind: host entry`, `:6: binds: "/etc/localtime": mode is not allowed`, `:7: binds: "/etc/localtime": intent is not allowed`}},
		{"host in volumes without a path", "version: 1\nvolumes:\n  db: {kind: host}\n", []string{`:3: volumes: "db": kind: host needs path: for a named volume`}},
		{"host in anonymous", "version: 1\nanonymous:\n  web:/cache: {kind: host, path: /srv/c}\n", []string{`:3: anonymous: "web:/cache": kind: host is for binds and named volumes only`}},
		{"duplicate key", "version: 1\nbinds:\n  ./a: {}\n  ./a: {}\n", []string{`:4: binds: duplicate key "./a" (first at line 3)`}},
		{"duplicate top key", "version: 1\nversion: 1\n", []string{`:2: declarations: duplicate key "version" (first at line 1)`}},
		{"duplicate field", "version: 1\nbinds:\n  ./a: {mode: \"0750\", mode: \"0700\"}\n", []string{`:3: binds: "./a": duplicate key "mode" (first at line 3)`}},
		{"same source", "version: 1\nbinds:\n  ./data: {}\n  data/: {}\n", []string{`:4: binds: "data/" names the same source as "./data" (line 3)`}},
		{"anonymous bad key", "version: 1\nanonymous:\n  postfix: {}\n  \"postfix:var\": {}\n  \":/x\": {}\n",
			[]string{`:3: anonymous: key "postfix" is not SERVICE:/TARGET`, `:4: anonymous: key "postfix:var" is not SERVICE:/TARGET`, `:5: anonymous: key ":/x" is not SERVICE:/TARGET`}},
		{"anonymous unclean target", "version: 1\nanonymous:\n  \"web:/a/\": {}\n", []string{`:3: anonymous: key "web:/a/": target "/a/" is not clean`}},
		{"acknowledge bad", "version: 1\nacknowledge:\n  - postfix\n  - .build\n  - web.Build\n  - web.build\n  - web.build\n",
			[]string{`:3: acknowledge: "postfix" is not SERVICE.FIELD`, `:4: acknowledge: ".build" is not SERVICE.FIELD`, `:5: acknowledge: "web.Build" is not SERVICE.FIELD`, `:7: acknowledge: "web.build" listed twice (first at line 6)`}},
		{"acknowledge not a list", "version: 1\nacknowledge: postfix.build\n", []string{`:2: acknowledge: want a list of SERVICE.FIELD items, got "postfix.build"`}},
		{"acknowledge item not string", "version: 1\nacknowledge:\n  - {a: b}\n", []string{`:3: acknowledge item: want a string, got a mapping`}},
		{"acknowledge item empty", "version: 1\nacknowledge:\n  - \"\"\n", []string{`:3: acknowledge: empty item; fill it in`}},
		{"images bad", "version: 1\nimages:\n  web: \"\"\n  \"a b\": x\n  db: 12\n",
			[]string{`:3: images: "web": "" is not an image reference`, `:4: images: "a b" is not a service name`, `:5: images: "db": want a string, got the integer 12`}},
		{"non-string note", "version: 1\nbinds:\n  ./a: {note: true}\n", []string{`:3: binds: "./a": note: want a string, got the boolean true; quote it: "true"`}},
		{"non-string key", "version: 1\nbinds:\n  1: {}\n", []string{`:3: binds: key: want a string, got the integer 1; quote it: "1"`}},
		{"module not string", "version: 1\nmodule: [a]\n", []string{`:2: module: want a string, got a sequence`}},
		{"module null", "version: 1\nmodule:\n", []string{`:2: module: want a string, got nothing (null)`}},
		// Found by a fresh-eyes trial: refused at their line, not when the
		// output file is written.
		{"module hidden", "version: 1\nmodule: .hidden\n", []string{`:2: module: ".hidden" is not a module name`}},
		{"module upper", "version: 1\nmodule: UPPER\n", []string{`:2: module: "UPPER" is not a module name`}},
		{"module long", "version: 1\nmodule: " + strings.Repeat("a", 201) + "\n", []string{`:2: module: "aaaa`, "at most 200 bytes"}},
		{"entry not mapping", "version: 1\nbinds:\n  ./a: state\n", []string{`:3: binds: "./a": want a mapping such as`}},
		{"section not mapping", "version: 1\nbinds: [./a]\n", []string{`:2: binds: want a mapping, got a sequence`}},
		{"merge key", "version: 1\nx: &x {owner: \"0:0\"}\n", []string{`:2: declarations: unknown key "x"`}},
		{"merge key in entry", "version: 1\nbinds:\n  ./a: &a {owner: \"0:0\"}\n  ./b: {<<: *a}\n", []string{`:4: binds: "./b": merge keys (<<) are not supported`}},
		{"volume name bad", "version: 1\nvolumes:\n  \"a/b\": {}\n", []string{`:3: volumes: "a/b" is not a volume name`}},
		{"custom tag", "version: 1\nmodule: !foo mail\n", []string{`:2: module: want a string, got a !foo value`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("c2m.yaml", []byte(tt.in))
			if err == nil {
				t.Fatalf("no error; got %+v", f)
			}
			if f != nil {
				t.Errorf("File not nil with error")
			}
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("error is %T, not Errors", err)
			}
			msg := err.Error()
			rest := msg
			for _, w := range tt.want {
				if !strings.HasPrefix(w, "c2m.yaml") && strings.HasPrefix(w, ":") {
					w = "c2m.yaml" + w
				}
				i := strings.Index(rest, w)
				if i < 0 {
					t.Errorf("missing (in order) %q in:\n%s", w, msg)
					continue
				}
				rest = rest[i+len(w):]
			}
			if len(es) < countLines(tt.want) {
				t.Errorf("got %d errors, want at least %d:\n%s", len(es), countLines(tt.want), msg)
			}
		})
	}
}

// countLines counts the wants that start a new error (with a line).
func countLines(want []string) int {
	n := 0
	for _, w := range want {
		if strings.HasPrefix(w, ":") || strings.HasPrefix(w, "c2m.yaml") {
			n++
		}
	}
	return n
}

func TestParseAllErrorsAtOnce(t *testing.T) {
	in := `version: 3
modul: mail
volume_root: srv
binds:
  ./a: {owner: "5000", mode: 0750, intent: stuff}
  /etc/localtime: {kind: host, owner: "0:0"}
volumes:
  db: {path: /srv/db/, kind: folder}
anonymous:
  web: {}
acknowledge:
  - build
`
	_, err := Parse("c2m.yaml", []byte(in))
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("error %v is not Errors", err)
	}
	want := []string{
		"c2m.yaml:1: version: unsupported version 3",
		`c2m.yaml:2: declarations: unknown key "modul"`,
		`c2m.yaml:3: volume_root: "srv" is not absolute`,
		`c2m.yaml:5: binds: "./a": owner: "5000" is not "USER:GROUP"`,
		`c2m.yaml:5: binds: "./a": mode: 0750 is a YAML integer`,
		`c2m.yaml:5: binds: "./a": intent: unknown intent "stuff"`,
		`c2m.yaml:6: binds: "/etc/localtime": owner is not allowed on a kind: host entry`,
		`c2m.yaml:8: volumes: "db": path: "/srv/db/" is not clean`,
		`c2m.yaml:8: volumes: "db": kind: unknown kind "folder"`,
		`c2m.yaml:10: anonymous: key "web" is not SERVICE:/TARGET`,
		`c2m.yaml:12: acknowledge: "build" is not SERVICE.FIELD`,
	}
	if len(es) != len(want) {
		t.Errorf("got %d errors, want %d:\n%v", len(es), len(want), err)
	}
	for i := range want {
		if i < len(es) && !strings.HasPrefix(es[i].Error(), want[i]) {
			t.Errorf("error %d = %q, want prefix %q", i, es[i].Error(), want[i])
		}
	}
}

func TestParseNode(t *testing.T) {
	compose := `services:
  web:
    image: nginx
x-compose2manifest:
  version: 1
  volume_root: /srv
  binds:
    ./html: {owner: "0:0", mode: "0755", intent: content}
    ./bad: {mode: 644}
`
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(compose), &doc); err != nil {
		t.Fatal(err)
	}
	var ext *yaml.Node
	root := doc.Content[0]
	for i := 0; i < len(root.Content); i += 2 {
		if root.Content[i].Value == ExtensionKey {
			ext = root.Content[i+1]
		}
	}
	_, err := ParseNode("compose.yaml", ext)
	if err == nil || !strings.Contains(err.Error(), `compose.yaml:9: binds: "./bad": mode: 644 is a YAML integer`) {
		t.Fatalf("err = %v", err)
	}
	ext.Content[len(ext.Content)-1].Content = ext.Content[len(ext.Content)-1].Content[:2]
	f, err := ParseNode("compose.yaml", ext)
	if err != nil {
		t.Fatal(err)
	}
	if f.VolumeRoot != "/srv" || f.VolumeRootPos.Line != 6 || len(f.Binds) != 1 || f.Binds[0].Pos != (manifest.Pos{File: "compose.yaml", Line: 8}) {
		t.Errorf("got %+v", f)
	}
	if _, err := ParseNode("compose.yaml", nil); err == nil {
		t.Errorf("nil node accepted")
	}
	if _, err := ParseNode("compose.yaml", &yaml.Node{Kind: yaml.DocumentNode}); err == nil {
		t.Errorf("empty document node accepted")
	}
}

func TestNormalizeBind(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{".", "."},
		{"./", "."},
		{"data", "./data"},
		{"data/", "./data"},
		{"./data", "./data"},
		{"./data/", "./data"},
		{".//data", "./data"},
		{"./a/../b", "./b"},
		{"a/./b", "./a/b"},
		{"./a/..", "."},
		{"..", ".."},
		{"../x", "../x"},
		{"../x/", "../x"},
		{"./../x", "../x"},
		{"a/../../x", "../x"},
		{"/", "/"},
		{"/a/b/", "/a/b"},
		{"//a//b", "/a/b"},
		{"/a/../b", "/b"},
		{"/..", "/"},
		{"~", "~"},
		{"~/", "~"},
		{"~/.", "~"},
		{"~/data/", "~/data"},
		{"~//data/./x", "~/data/x"},
		{"~user/x", "~/user/x"}, // compose-go joins the home and what follows ~
		{"~x", "~/x"},
	}
	for _, tt := range tests {
		if got := NormalizeBind(tt.in); got != tt.want {
			t.Errorf("NormalizeBind(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitHelpers(t *testing.T) {
	if s, tg, ok := SplitAnonymous("postfix:/var/lib/postfix"); !ok || s != "postfix" || tg != "/var/lib/postfix" {
		t.Errorf("SplitAnonymous = %q %q %v", s, tg, ok)
	}
	for _, bad := range []string{"postfix", "postfix:", ":/a", "p:a", "p:/a/"} {
		if _, _, ok := SplitAnonymous(bad); ok {
			t.Errorf("SplitAnonymous(%q) ok", bad)
		}
	}
	if got := AnonymousKey("web", "/a/b/"); got != "web:/a/b" {
		t.Errorf("AnonymousKey = %q", got)
	}
	if s, f, ok := SplitAck("my.svc.build"); !ok || s != "my.svc" || f != "build" {
		t.Errorf("SplitAck = %q %q %v", s, f, ok)
	}
	if s, f, ok := SplitAck("*.cap_add"); !ok || s != "*" || f != "cap_add" {
		t.Errorf("SplitAck = %q %q %v", s, f, ok)
	}
	for _, bad := range []string{"build", "web.", ".build", "web.Build", "a b.build", "**.x"} {
		if _, _, ok := SplitAck(bad); ok {
			t.Errorf("SplitAck(%q) ok", bad)
		}
	}
}

func TestMerge(t *testing.T) {
	ext, err := Parse("compose.yaml", []byte(`version: 1
module: ext
volume_root: /srv
binds:
  ./data: {owner: "1:1", mode: "0700", intent: state}
  ./conf: {owner: "0:0", mode: "0644", intent: config}
volumes:
  db: {owner: "2:2"}
acknowledge:
  - web.build
images:
  web: ext/web:1
`))
	if err != nil {
		t.Fatal(err)
	}
	side, err := Parse("compose2manifest.yaml", []byte(`version: 1
host_project_directory: /opt/x
binds:
  data/: {owner: "5:5", mode: "0750", intent: cache}
  ./new: {kind: host}
anonymous:
  "web:/cache": {owner: "0:0"}
acknowledge:
  - web.build
  - "*.privileged"
images:
  web: side/web:2
  api: side/api:1
`))
	if err != nil {
		t.Fatal(err)
	}
	m := Merge(ext, side)
	if m.Module != "ext" || m.VolumeRoot != "/srv" || m.HostProjectDirectory != "/opt/x" || m.HostProjectDirectoryPos.File != "compose2manifest.yaml" {
		t.Errorf("scalars: %+v", m)
	}
	var keys []string
	for _, e := range m.Binds {
		keys = append(keys, e.Key+"="+e.Owner)
	}
	if got := strings.Join(keys, " "); got != "data/=5:5 ./conf=0:0 ./new=" {
		t.Errorf("binds = %s", got)
	}
	if len(m.Volumes) != 1 || len(m.Anonymous) != 1 {
		t.Errorf("volumes %v anonymous %v", m.Volumes, m.Anonymous)
	}
	if len(m.Acknowledge) != 2 || m.Acknowledge[1].String() != "*.privileged" {
		t.Errorf("acknowledge = %v", m.Acknowledge)
	}
	if len(m.Images) != 2 || m.Images[0].Ref != "side/web:2" || m.Images[1].Service != "api" {
		t.Errorf("images = %v", m.Images)
	}
	// The inputs are not changed.
	if ext.Binds[0].Owner != "1:1" || len(ext.Binds) != 2 || ext.Images[0].Ref != "ext/web:1" {
		t.Errorf("ext changed: %+v", ext)
	}
	m.Binds[1].Fields["x"] = manifest.Pos{}
	if _, ok := ext.Binds[1].Fields["x"]; ok {
		t.Errorf("Merge shares Fields maps")
	}
	if Merge(nil, nil) != nil {
		t.Errorf("Merge(nil, nil) != nil")
	}
	if got := Merge(nil, side); got == side || got.HostProjectDirectory != "/opt/x" {
		t.Errorf("Merge(nil, side) = %+v", got)
	}
	if got := Merge(ext, nil); got == ext || got.Module != "ext" {
		t.Errorf("Merge(ext, nil) = %+v", got)
	}
}

func TestParseDirectories(t *testing.T) {
	f, err := Parse("d.yaml", []byte("version: 1\ndirectories:\n  /srv/mail: {owner: \"0:0\", mode: \"0755\", intent: state}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Directories) != 1 || f.Directories[0].Key != "/srv/mail" || f.Directories[0].Owner != "0:0" || f.Directories[0].Pos.Line != 3 {
		t.Fatalf("Directories = %+v", f.Directories)
	}
	for _, bad := range []string{
		"version: 1\ndirectories:\n  srv/mail: {owner: \"0:0\", mode: \"0755\", intent: state}\n",
		"version: 1\ndirectories:\n  /srv/mail/: {owner: \"0:0\", mode: \"0755\", intent: state}\n",
		"version: 1\ndirectories:\n  /srv/mail: {kind: file, owner: \"0:0\", mode: \"0755\", intent: state}\n",
		"version: 1\ndirectories:\n  /srv/mail: {path: /x, owner: \"0:0\", mode: \"0755\", intent: state}\n",
	} {
		if _, err := Parse("d.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "d.yaml:3:") {
			t.Errorf("Parse(%q) = %v, want an error at d.yaml:3", bad, err)
		}
	}
}

// A host path the module uses at another place than the compose file
// says may be relocated: kind: host takes a path.
func TestParseHostWithPath(t *testing.T) {
	f, err := Parse("d.yaml", []byte("version: 1\nbinds:\n  ./shared: {kind: host, path: /mnt/shared}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if e := f.Binds[0]; e.Kind != KindHost || e.Path != "/mnt/shared" {
		t.Errorf("entry = %+v", e)
	}
}

func TestLayout(t *testing.T) {
	f, err := Parse("c2m.yaml", []byte("version: 1\nlayout: fhs\n"))
	if err != nil || f.Layout != LayoutFHS || f.LayoutPos.Line != 2 {
		t.Fatalf("layout: fhs: %+v, %v", f, err)
	}
	for _, bad := range []string{"layout: FHS", "layout: [fhs]", "layout: 1", "layout: \"\""} {
		if _, err := Parse("c2m.yaml", []byte("version: 1\n"+bad+"\n")); err == nil || !strings.Contains(err.Error(), "c2m.yaml:2: layout: want one of fhs, none") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func TestCredentialsAndAcknowledgeForms(t *testing.T) {
	f, err := Parse("c2m.yaml", []byte(`version: 1
credentials:
  db.POSTGRES_PASSWORD: db_password
  my.app.API_KEY: api
acknowledge:
  - web.build
  - web.environment.DB_PASSWORD
  - "*.credentials.TOKEN"
  - web.volumes./data.z
  - "*.volumes.*.propagation"
  - db.volumes./var/lib/postgresql/data.disposable
binds:
  ./up: {owner: "0:0", mode: "0777", intent: content, acknowledge_mode: true}
`))
	if err != nil {
		t.Fatal(err)
	}
	if cr, ok := f.CredentialFor("my.app", "API_KEY"); !ok || cr.Name != "api" {
		t.Errorf("CredentialFor(my.app, API_KEY) = %+v, %v", cr, ok)
	}
	var got []string
	for _, a := range f.Acknowledge {
		got = append(got, a.String())
	}
	want := []string{"web.build", "web.environment.DB_PASSWORD", "*.credentials.TOKEN", "web.volumes./data.z", "*.volumes.*.propagation", "db.volumes./var/lib/postgresql/data.disposable"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("acknowledge = %v, want %v", got, want)
	}
	a := f.Acknowledge
	if !a[0].Matches("web", "build") || a[1].Matches("web", "environment") || !a[1].MatchesVariable(AckEnvironment, "web", "DB_PASSWORD") ||
		!a[2].MatchesVariable(AckCredentials, "any", "TOKEN") || !a[3].MatchesOption("web", "/data", "z") || a[3].MatchesOption("web", "/data", "Z") ||
		!a[4].MatchesOption("x", "/y", "propagation") || !a[5].MatchesOption("db", "/var/lib/postgresql/data", AckDisposable) {
		t.Errorf("matching: %+v", a)
	}
	if !f.Binds[0].AcknowledgeMode {
		t.Errorf("acknowledge_mode not read: %+v", f.Binds[0])
	}
	for _, bad := range []string{
		"version: 1\ncredentials:\n  POSTGRES_PASSWORD: x\n",
		"version: 1\ncredentials:\n  db.POSTGRES_PASSWORD: \"a b\"\n",
		"version: 1\nacknowledge: [web.volumes./data.U]\n",
		"version: 1\nacknowledge: [web.volumes.data.z]\n",
		"version: 1\nacknowledge: [web.environment.A-B]\n",
		"version: 1\nbinds:\n  ./a: {acknowledge_mode: yes please}\n",
	} {
		if _, err := Parse("c2m.yaml", []byte(bad)); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

// TestAnyVariableName: every variable name docker compose accepts (any
// non-empty text) can be declared under credentials: and acknowledge:,
// quoted when it is not letters, digits and _; what Variable, CredentialKey
// and AckVariable write, the reader reads back as the same variable.
func TestAnyVariableName(t *testing.T) {
	names := []string{"POSTGRES_PASSWORD", "sonar.jdbc.password", "a-b", "with space", "1ABC", `quo"te`, `back\slash`, "ü", "a:b #c", "x.environment.y", "nl\nx", "a=b"}
	for _, v := range names {
		key := CredentialKey("my.app", v)
		svc, got, ok := SplitCredentialKey(key)
		if !ok || svc != "my.app" || got != v {
			t.Errorf("SplitCredentialKey(%q) = %q, %q, %v; want my.app, %q", key, svc, got, ok, v)
		}
		for _, kind := range []string{AckEnvironment, AckCredentials} {
			item := AckVariable(kind, "web", v)
			a, ok := ParseAck(item)
			if !ok || !a.MatchesVariable(kind, "web", v) || a.String() != item {
				t.Errorf("ParseAck(%q) = %+v, %v", item, a, ok)
			}
		}
		// Written into a declarations file as the skeleton writes it.
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		if err := enc.Encode(map[string]any{"version": 1, "credentials": map[string]string{key: "c"}, "acknowledge": []string{AckVariable(AckEnvironment, "web", v)}}); err != nil {
			t.Fatal(err)
		}
		f, err := Parse("c2m.yaml", b.Bytes())
		if err != nil {
			t.Errorf("%q: %v\n%s", v, err, b.Bytes())
			continue
		}
		if cr, ok := f.CredentialFor("my.app", v); !ok || cr.Name != "c" {
			t.Errorf("%q: CredentialFor = %+v, %v\n%s", v, cr, ok, b.Bytes())
		}
		if !f.AcknowledgesVariable(AckEnvironment, "web", v) {
			t.Errorf("%q: not acknowledged\n%s", v, b.Bytes())
		}
	}
	if got := CredentialKey("web", "DB_PASSWORD"); got != "web.DB_PASSWORD" {
		t.Errorf("an identifier is written as it is: %q", got)
	}
	if got := AckVariable(AckEnvironment, "sonarqube", "sonar.jdbc.password"); got != `sonarqube.environment."sonar.jdbc.password"` {
		t.Errorf("AckVariable = %q", got)
	}
	// A quoted identifier is the same variable.
	if a, ok := ParseAck(`web.environment."DB_PASSWORD"`); !ok || a.Variable != "DB_PASSWORD" {
		t.Errorf(`ParseAck(web.environment."DB_PASSWORD") = %+v, %v`, a, ok)
	}
	for _, bad := range []string{`web.environment.""`, `web.environment."a`, `web.environment."a"b"`, `web.environment.a.b`, `web.environment.a-b`} {
		if a, ok := ParseAck(bad); ok {
			t.Errorf("ParseAck(%q) = %+v, want refused", bad, a)
		}
	}
	for _, bad := range []string{`web.""`, `web."a`, `"web".a`, `web.a-b`, `we"b.x`} {
		if s, v, ok := SplitCredentialKey(bad); ok {
			t.Errorf("SplitCredentialKey(%q) = %q, %q, want refused", bad, s, v)
		}
	}
}

// TestAckSectionWildcard: SECTION.*.FIELD acknowledges the attribute of
// every top-level NAME of that section, and nothing else.
func TestAckSectionWildcard(t *testing.T) {
	a, ok := ParseAck("networks.*.external")
	if !ok {
		t.Fatal("networks.*.external does not parse")
	}
	for _, tc := range []struct {
		service, field string
		want           bool
	}{
		{"networks.proxy", "external", true},
		{"networks.tipi_main_network", "external", true},
		{"networks.proxy", "name", false},
		{"volumes.proxy", "external", false},
		{"web", "external", false},
		{"networks", "external", false},
	} {
		if got := a.Matches(tc.service, tc.field); got != tc.want {
			t.Errorf("networks.*.external matches %s.%s = %v, want %v", tc.service, tc.field, got, tc.want)
		}
	}
	for _, bad := range []string{"services.*.build", "networks.*", "net.*.external", "networks.*.Ext-ernal!"} {
		if _, ok := ParseAck(bad); ok {
			t.Errorf("ParseAck(%q) ok, want refused", bad)
		}
	}
	if a.String() != "networks.*.external" {
		t.Errorf("String() = %q", a.String())
	}
}

// TestEmptySettingsUnset: volume_root and host_project_directory left
// "", as the refusal's skeleton writes them, are not given (convert then
// refuses what they would place, C2M013, exit 1), where they were a parse
// error (exit 2) for a skeleton saved as it was.
func TestEmptySettingsUnset(t *testing.T) {
	f, err := Parse("c2m.yaml", []byte("version: 1\nvolume_root: \"\"\nhost_project_directory: \"\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.VolumeRoot != "" || f.HostProjectDirectory != "" || f.VolumeRootPos.Line != 0 {
		t.Errorf("volume_root %q, host_project_directory %q: want both unset", f.VolumeRoot, f.HostProjectDirectory)
	}
	// Not a string, or not absolute, they are still errors.
	for _, doc := range []string{"version: 1\nvolume_root: ~\n", "version: 1\nvolume_root: srv\n", "version: 1\nhost_project_directory: 0\n"} {
		if _, err := Parse("c2m.yaml", []byte(doc)); err == nil {
			t.Errorf("%q: no error", doc)
		}
	}
}
