package schema_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/imageconfig"
	"github.com/compose2manifest/compose2manifest/manifest"
)

// TestReaderAndSchemaAgree drives the readers (declare.Parse,
// manifest.Decode) and the schemas with the same documents: each accepts
// exactly what the other does, so an editor's schema check never passes
// a file the tool then refuses, nor flags one it reads.
func TestReaderAndSchemaAgree(t *testing.T) {
	v := validator(t)
	decl := func(entry string) string {
		return "version: 1\nhost_project_directory: /opt/app\nbinds:\n  ./data: " + entry + "\n"
	}
	for _, tc := range []struct {
		name string
		doc  string
		ok   bool
	}{
		{"good", decl(`{owner: "1000:1000", mode: "0750", intent: state}`), true},
		{"mode with 9", decl(`{owner: "1000:1000", mode: "0999", intent: state}`), false},
		{"mode of five digits", decl(`{owner: "1000:1000", mode: "07500", intent: state}`), false},
		{"mode of three digits", decl(`{owner: "1000:1000", mode: "750", intent: state}`), true},
		{"mode empty", decl(`{owner: "1000:1000", mode: "", intent: state}`), true},
		{"path empty", decl(`{path: "", owner: "1000:1000", mode: "0750", intent: state}`), false},
		{"host with empty owner", decl(`{kind: host, owner: ""}`), false},
		{"path with a dot component", decl(`{path: /srv/./app, owner: "1000:1000", mode: "0750", intent: state}`), false},
		{"path with a dotted name", decl(`{path: /srv/.app/..x, owner: "1000:1000", mode: "0750", intent: state}`), true},
		{"path with a tab", decl("{path: \"/srv/a\\tb\", owner: \"1000:1000\", mode: \"0750\", intent: state}"), false},
		{"path with a C1 control", decl("{path: \"/srv/a\\x85b\", owner: \"1000:1000\", mode: \"0750\", intent: state}"), false},
		{"path with a letter past ASCII", decl("{path: /srv/café, owner: \"1000:1000\", mode: \"0750\", intent: state}"), true},
		{"mode with setgid", decl(`{owner: "1000:1000", mode: "2750", intent: state}`), true},
		{"owner without group", decl(`{owner: "5000", mode: "0750", intent: state}`), false},
		{"owner by name", decl(`{owner: "app:app", mode: "0750", intent: state}`), true},
		{"owner negative", decl(`{owner: "-1:0", mode: "0750", intent: state}`), false},
		{"path unclean", decl(`{path: /srv//app, owner: "1000:1000", mode: "0750", intent: state}`), false},
		{"path with dot-dot", decl(`{path: /srv/../app, owner: "1000:1000", mode: "0750", intent: state}`), false},
		{"path with trailing slash", decl(`{path: /srv/app/, owner: "1000:1000", mode: "0750", intent: state}`), false},
		{"path relative", decl(`{path: srv/app, owner: "1000:1000", mode: "0750", intent: state}`), false},
		{"path clean", decl(`{path: /srv/app, owner: "1000:1000", mode: "0750", intent: state}`), true},
		{"host with owner", decl(`{kind: host, owner: "0:0"}`), false},
		{"host with mode", decl(`{kind: host, mode: "0750"}`), false},
		{"host", decl(`{kind: host}`), true},
		{"intent unknown", decl(`{owner: "1000:1000", mode: "0750", intent: stuff}`), false},
		{"volume host with path", "version: 1\nvolumes:\n  media: {kind: host, path: /srv/a/media}\n", true},
		{"volume host without path", "version: 1\nvolumes:\n  media: {kind: host}\n", false},
		{"volume host with owner", "version: 1\nvolumes:\n  media: {kind: host, path: /srv/a/media, owner: \"0:0\"}\n", false},
		{"volume root unclean", "version: 1\nvolume_root: /srv//x\n", false},
		{"volume root", "version: 1\nvolume_root: /srv\n", true},
		{"host project directory relative", "version: 1\nhost_project_directory: opt/app\n", false},
	} {
		t.Run("declarations/"+tc.name, func(t *testing.T) {
			_, rerr := declare.Parse("compose2manifest.yaml", []byte(tc.doc))
			serr := v.YAML("declarations", []byte(tc.doc))
			if (rerr == nil) != tc.ok || (serr == nil) != tc.ok {
				t.Errorf("want accepted %v; reader: %v; schema: %v\n%s", tc.ok, rerr, serr, tc.doc)
			}
		})
	}

	sum := strings.Repeat("ab", 32)
	man := func(extra string) string {
		return "version: 1\nmodule: m\nresources:\n  - directory: /srv/m\n    owner: \"0:0\"\n    mode: \"0750\"\n    intent: state\n" + extra
	}
	for _, tc := range []struct {
		name string
		doc  string
		ok   bool
	}{
		{"good", man(""), true},
		{"second document", man("---\nversion: 1\nmodule: n\nresources: []\n"), false},
		{"mode with 9", strings.Replace(man(""), `"0750"`, `"0999"`, 1), false},
		{"owner without group", strings.Replace(man(""), `"0:0"`, `"5000"`, 1), false},
		{"path unclean", strings.Replace(man(""), "/srv/m", "/srv//m", 1), false},
		{"source sha256", "version: 1\nmodule: m\nsources:\n  - file: compose.yaml\n    sha256: " + sum + "\nresources: []\n", true},
		{"source sha256 not hex", "version: 1\nmodule: m\nsources:\n  - file: compose.yaml\n    sha256: xyz\nresources: []\n", false},
	} {
		t.Run("manifest/"+tc.name, func(t *testing.T) {
			m, rerr := manifest.Decode("m.yaml", []byte(tc.doc))
			if rerr == nil {
				// Owner and mode are judged by check (C2M002), which
				// the schema holds them to as well.
				if !ownedValid(m) {
					rerr = fmt.Errorf("an invalid owner or mode (C2M002)")
				}
			}
			serr := v.YAML("manifest", []byte(tc.doc))
			if (rerr == nil) != tc.ok || (serr == nil) != tc.ok {
				t.Errorf("want accepted %v; reader: %v; schema: %v\n%s", tc.ok, rerr, serr, tc.doc)
			}
		})
	}
}

// TestLockReaderAndSchemaAgree drives imageconfig.ParseLock and the lock
// schema with the same documents: each accepts exactly what the other
// does.
func TestLockReaderAndSchemaAgree(t *testing.T) {
	v := validator(t)
	const sum = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	entry := func(extra string) string {
		return "version: 1\nimages:\n  - {image: acme/app:1, digest: " + sum + ", config: " + sum + ", read_at: \"2026-12-02T15:00:00Z\"" + extra + "}\n"
	}
	for _, tc := range []struct {
		name, doc string
		ok        bool
	}{
		{"registry", entry(", source: registry, user: \"70:70\", volumes: [/data], env: [PATH]"), true},
		{"no images", "version: 1\n", true},
		{"empty images", "version: 1\nimages: []\n", true},
		{"registry with a path", entry(", source: registry, path: /x"), false},
		{"layout with its path", entry(", source: layout, path: /oci"), true},
		{"archive without a path", entry(", source: archive"), false},
		{"unknown source", entry(", source: docker"), false},
		{"no source", entry(""), false},
		{"relative volume", entry(", source: registry, volumes: [data]"), false},
		{"unclean volume", entry(", source: registry, volumes: [/data/]"), false},
		{"volume twice", entry(", source: registry, volumes: [/a, /a]"), false},
		{"env with a value", entry(", source: registry, env: [A=1]"), false},
		{"short digest", strings.Replace(entry(", source: registry"), "digest: "+sum, "digest: sha256:ab", 1), false},
		{"local time", strings.Replace(entry(", source: registry"), "15:00:00Z", "15:00:00+01:00", 1), false},
		{"unknown key", entry(", source: registry, platform: linux/amd64"), false},
		{"version 2", strings.Replace(entry(", source: registry"), "version: 1", "version: 2", 1), false},
	} {
		t.Run("lock/"+tc.name, func(t *testing.T) {
			_, rerr := imageconfig.ParseLock(imageconfig.LockFile, []byte(tc.doc))
			serr := v.YAML("lock", []byte(tc.doc))
			if (rerr == nil) != tc.ok || (serr == nil) != tc.ok {
				t.Errorf("want accepted %v; reader: %v; schema: %v\n%s", tc.ok, rerr, serr, tc.doc)
			}
		})
	}
}
