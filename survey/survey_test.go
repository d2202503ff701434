package survey

import (
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/internal/schematest"
)

// good is a survey as the script prints it, with a fact of every kind.
const good = `{"version":1,"host":"old-nas","date":"2026-12-02T15:20:00Z","project":"app","user":"alice","home":"/home/alice","docker":true,` +
	`"containers":[{"id":"0123abcd","name":"app-db-1","service":"db","image":"postgres:16","working_dir":"/srv/app"}],"projects":["app","other"],` +
	`"sources":[{"section":"binds","key":"./data","path":"/srv/app/data","exists":true,"type":"directory","owner":"70:70","mode":"700","usage_kib":12,"files":3,"complete":true},` +
	`{"section":"binds","key":"./app.conf","path":"/srv/app/app.conf","link":"real.conf","exists":true,"type":"file","owner":"0:0","mode":"644","bytes":5},` +
	`{"section":"binds","key":"./none","path":"/srv/app/none","exists":false},` +
	`{"section":"volumes","key":"db","volume":"app_db","driver":"local","path":"/var/lib/docker/volumes/app_db/_data","exists":true,"type":"directory","owner":"999:999","mode":"2775","usage_kib":0,"files":0,"complete":false},` +
	`{"section":"anonymous","key":"db:/x","service":"db","error":"no container of service db is left to inspect"}],` +
	`"images":[{"image":"postgres:16","found":true,"id":"sha256:ab","user":"","volumes":["/var/lib/postgresql/data"]},{"image":"gone:1","found":false}]}` + "\n"

// TestRead: a good survey reads with its facts typed.
func TestRead(t *testing.T) {
	s, err := Read("survey.json", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Provenance(); got != "survey old-nas 2026-12-02T15:20:00Z" {
		t.Errorf("provenance %q", got)
	}
	if s.Time.Hour() != 15 {
		t.Errorf("time %v", s.Time)
	}
	d := s.Source("binds", "./data")
	if d == nil || d.Type != Directory || d.Owner != "70:70" || d.ManifestMode() != "0700" || *d.Files != 3 || !*d.Complete {
		t.Errorf("./data: %+v", d)
	}
	if v := s.Source("volumes", "db"); v == nil || v.ManifestMode() != "2775" || v.Volume != "app_db" {
		t.Errorf("db: %+v", v)
	}
	if f := s.Source("binds", "./app.conf"); f == nil || f.Type != File || *f.Bytes != 5 || f.Link != "real.conf" {
		t.Errorf("./app.conf: %+v", f)
	}
	if n := s.Source("binds", "./none"); n == nil || n.Exists {
		t.Errorf("./none: %+v", n)
	}
	if s.Source("binds", "./other") != nil {
		t.Error("a source the survey does not have was found")
	}
	if img := s.Image("postgres:16"); img == nil || !img.Found || len(img.Volumes) != 1 {
		t.Errorf("postgres:16: %+v", img)
	}
}

// TestSourceLines: each source knows the line its object starts on, so
// that a finding about it can name the survey's line (a survey printed
// on one line, or pretty-printed with sources before the host).
func TestSourceLines(t *testing.T) {
	if s, err := Read("survey.json", []byte(good)); err != nil {
		t.Fatal(err)
	} else {
		for i, src := range s.Sources {
			if src.Line != 1 {
				t.Errorf("one line: sources[%d] (%s) on line %d, want 1", i, src.Key, src.Line)
			}
		}
	}
	const pretty = `{
  "sources": [
    {"section": "binds", "key": "./a", "exists": false, "path": "/a"},

    {
      "section": "binds", "key": "./b", "exists": false, "path": "/b"
    }
  ],
  "images": [{"image": "x"}],
  "version": 1, "host": "h", "date": "2026-12-02T15:20:00Z", "project": "p", "user": "", "docker": false
}
`
	s, err := Read("survey.json", []byte(pretty))
	if err != nil {
		t.Fatal(err)
	}
	want := []int{3, 5}
	for i, src := range s.Sources {
		if src.Line != want[i] {
			t.Errorf("pretty: sources[%d] (%s) on line %d, want %d", i, src.Key, src.Line, want[i])
		}
	}
}

// edit returns good with old replaced by new, once; it fails when good
// does not hold old.
func edit(t *testing.T, old, new string) string {
	t.Helper()
	if !strings.Contains(good, old) {
		t.Fatalf("good has no %q", old)
	}
	return strings.Replace(good, old, new, 1)
}

// TestReadErrors: what the script never writes is refused, the error
// naming the file and where.
func TestReadErrors(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"empty", "", "survey.json: no JSON value"},
		{"syntax", "{\n  \"version\": 1,\n  x}", "survey.json:3:3: invalid character 'x'"},
		{"truncated", good[:40], "survey.json:1:41: unexpected EOF"},
		{"wrong type", edit(t, `"docker":true`, `"docker":"yes"`), "survey.json:1:"},
		{"unknown field", edit(t, `"docker":true`, `"docker":true,"extra":1`), `unknown field "extra"`},
		{"second value", good + "{}", "survey.json:2:1: more than one JSON value"},
		{"version", edit(t, `"version":1`, `"version":2`), "version 2, want 1"},
		{"date", edit(t, "2026-12-02T15:20:00Z", "2026-13-02T15:20:00Z"), `date "2026-13-02T15:20:00Z"`},
		{"date not UTC", edit(t, "2026-12-02T15:20:00Z", "2026-12-02T15:20:00+01:00"), "date"},
		{"no host", edit(t, `"host":"old-nas"`, `"host":""`), "host"},
		{"owner", edit(t, `"owner":"70:70"`, `"owner":"postgres:70"`), `sources[0] (binds "./data"): owner "postgres:70": want UID:GID`},
		{"mode", edit(t, `"mode":"700"`, `"mode":"0o700"`), `mode "0o700"`},
		// Found by a fresh-eyes trial: no uid a file can have, and a
		// source twice (the first would win by its order alone).
		{"owner range", edit(t, `"owner":"70:70"`, `"owner":"99999999999:0"`), `sources[0] (binds "./data"): owner "99999999999:0": want UID:GID, each at most 4294967294`},
		{"owner -1", edit(t, `"owner":"70:70"`, `"owner":"4294967295:0"`), `owner "4294967295:0"`},
		{"twice", edit(t, `{"section":"binds","key":"./none","path":"/srv/app/none","exists":false},`, `{"section":"binds","key":"./data","path":"/srv/app/data","exists":false},`), `sources[2] (binds "./data"): the same source as sources[0]; a survey has each source once`},
		{"type", edit(t, `"type":"directory"`, `"type":"dir"`), `type "dir"`},
		{"section", edit(t, `"section":"binds"`, `"section":"bind"`), `section "bind"`},
		{"relative path", edit(t, `"path":"/srv/app/data"`, `"path":"srv/app/data"`), "want an absolute path"},
		{"path without exists", edit(t, `"path":"/srv/app/none","exists":false`, `"path":"/srv/app/none"`), "want exists with a path"},
		{"exists without path", edit(t, `"error":"no container`, `"exists":false,"error":"no container`), "want exists with a path"},
		{"facts of nothing", edit(t, `"exists":false`, `"exists":false,"mode":"700"`), "facts of a path that does not exist"},
		{"empty member", edit(t, `"driver":"local"`, `"driver":""`), "driver: empty"},
		{"negative", edit(t, `"bytes":5`, `"bytes":-5`), "bytes -5: want a count"},
		{"container", edit(t, `"id":"0123abcd"`, `"id":"x; rm"`), "containers[0]: id"},
		{"no sources", edit(t, `"sources":[`, `"sourcez":[`), `unknown field "sourcez"`},
		// Found by a fresh-eyes trial: paths the script never writes for
		// a bind, which plan would copy data from.
		{"relative bind found elsewhere", edit(t, `"path":"/srv/app/data"`, `"path":"/etc/ssh"`), `sources[0] (binds "./data"): path "/etc/ssh": the script looks for a relative source in the checkout, at CHECKOUT/data`},
		{"two checkouts", edit(t, `"path":"/srv/app/app.conf"`, `"path":"/etc/app.conf"`), `sources[1] (binds "./app.conf"): path "/etc/app.conf" is in /etc, but sources[0] was found in /srv/app`},
		{"absolute bind found elsewhere", edit(t, `"key":"./none","path":"/srv/app/none"`, `"key":"/mnt/none","path":"/etc/shadow"`), `path "/etc/shadow": the script looks for an absolute source at /mnt/none itself`},
		{"home bind found elsewhere", edit(t, `"key":"./none","path":"/srv/app/none"`, `"key":"~/none","path":"/root/none"`), `at /home/alice/none, in the home /home/alice it found`},
		{"file with a directory's facts", edit(t, `"type":"file","owner":"0:0","mode":"644","bytes":5`, `"type":"file","owner":"0:0","mode":"644","files":5`), "a file with a directory's usage_kib or files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read("survey.json", []byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "survey.json") {
				t.Errorf("error %v, want one with %q", err, tc.want)
			}
		})
	}
	if _, err := Read("big.json", []byte(strings.Repeat(" ", MaxSize+1))); err == nil || !strings.Contains(err.Error(), "big.json") {
		t.Errorf("a survey over MaxSize: %v", err)
	}
}

// TestReaderAndSchemaAgree: Read and schema/survey.json accept and
// refuse the same documents.
func TestReaderAndSchemaAgree(t *testing.T) {
	v, err := schematest.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, doc string
		ok        bool
	}{
		{"good", good, true},
		{"no home", edit(t, `"home":"/home/alice",`, ``), true},
		{"no docker", edit(t, `"docker":true,`, `"docker":false,`), true},
		{"docker error", edit(t, `"docker":true,`, `"docker":true,"docker_error":"docker ps failed",`), true},
		{"empty home", edit(t, `"home":"/home/alice"`, `"home":""`), false},
		{"owner by name", edit(t, `"owner":"70:70"`, `"owner":"pg:pg"`), false},
		{"mode of five digits", edit(t, `"mode":"700"`, `"mode":"07000"`), false},
		{"path without exists", edit(t, `"path":"/srv/app/none","exists":false`, `"path":"/srv/app/none"`), false},
		{"type without exists", edit(t, `"error":"no container`, `"type":"file","error":"no container`), false},
		{"facts of nothing", edit(t, `"exists":false`, `"exists":false,"owner":"0:0"`), false},
		{"empty key", edit(t, `"key":"./data"`, `"key":""`), false},
		{"empty link", edit(t, `"link":"real.conf"`, `"link":""`), false},
		{"empty path", edit(t, `"path":"/srv/app/none"`, `"path":""`), false},
		{"container not hex", edit(t, `"id":"0123abcd"`, `"id":"ABC"`), false},
		{"date", edit(t, "2026-12-02T15:20:00Z", "2026-12-02 15:20:00Z"), false},
		{"no images", edit(t, `,"images":[{"image":"postgres:16","found":true,"id":"sha256:ab","user":"","volumes":["/var/lib/postgresql/data"]},{"image":"gone:1","found":false}]`, ``), false},
		{"image without name", edit(t, `{"image":"gone:1","found":false}`, `{"found":false}`), false},
		{"negative count", edit(t, `"files":3`, `"files":-3`), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, rerr := Read("survey.json", []byte(tc.doc))
			serr := v.JSON("survey", []byte(tc.doc))
			if (rerr == nil) != tc.ok || (serr == nil) != tc.ok {
				t.Errorf("want accepted %v; reader: %v; schema: %v\n%s", tc.ok, rerr, serr, tc.doc)
			}
		})
	}
}

// FuzzRead: Read never panics, and what it accepts the schema accepts.
func FuzzRead(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(`{"version":1,"host":"h","date":"2026-01-01T00:00:00Z","project":"","user":"","docker":false,"sources":[],"images":[]}`))
	f.Add([]byte(`{"version":1,"sources":[{"section":"binds","key":"k","path":"/p","exists":true,"bytes":1e3}]}`))
	v, err := schematest.New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Read("fuzz.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json") {
				t.Errorf("an error not naming the file: %v", err)
			}
			return
		}
		if s == nil {
			t.Fatal("no survey and no error")
		}
		if serr := v.JSON("survey", data); serr != nil {
			t.Errorf("Read accepts what the schema refuses: %v\n%q", serr, data)
		}
	})
}
