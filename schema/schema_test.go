package schema_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/internal/schematest"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/schema"
	"github.com/rogpeppe/go-internal/txtar"
)

var placeholder = regexp.MustCompile(`SHA256\([^)]*\)`)

// doc is one file found under a testdata folder, or inside a txtar
// archive there.
type doc struct {
	name string
	data []byte
}

// testdataFiles returns every file under the repository's testdata
// folders, and every file inside the txtar archives (*.txt) there.
func testdataFiles(t *testing.T) []doc {
	t.Helper()
	var out []doc
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && p != ".." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.Contains(filepath.ToSlash(p), "/testdata/") || !d.Type().IsRegular() {
			return nil // links and FIFOs are fixtures of hostile input
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(p, ".txt") {
			for _, f := range txtar.Parse(data).Files {
				out = append(out, doc{p + ":" + f.Name, f.Data})
			}
			return nil
		}
		out = append(out, doc{p, data})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func validator(t *testing.T) *schematest.Validator {
	t.Helper()
	v, err := schematest.New()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestTestdata validates, against the schemas, every declarations file
// (compose2manifest.yaml, and the repository's own) that declare.Parse
// accepts, every manifest manifest.Decode accepts, and every JSON report,
// in the testdata folders and the testscript stories. Files the readers
// refuse are the fixtures of those refusals: the schemas describe what the
// readers accept, so they need not match those.
func TestTestdata(t *testing.T) {
	v := validator(t)
	counts := map[string]int{}
	files := testdataFiles(t)
	if own, err := os.ReadFile("../" + declare.DefaultFile); err == nil {
		files = append(files, doc{"../" + declare.DefaultFile, own})
	}
	for _, f := range files {
		base := filepath.Base(strings.ReplaceAll(f.name, ":", "/"))
		switch {
		case base == declare.DefaultFile || strings.HasSuffix(base, ".declarations.yaml"):
			if _, err := declare.Parse(f.name, f.data); err != nil {
				continue
			}
			counts["declarations"]++
			if err := v.YAML("declarations", f.data); err != nil {
				t.Errorf("%s: declarations schema: %v", f.name, err)
			}
		case strings.HasSuffix(base, ".yaml") || strings.HasSuffix(base, ".yml"):
			if !bytes.Contains(f.data, []byte("\nresources:")) {
				continue
			}
			m, err := manifest.Decode(f.name, f.data)
			if err != nil || !ownedValid(m) {
				continue // a fixture of a refusal (C2M002 judges owner and mode)
			}
			counts["manifest"]++
			// rules/testdata/against fixtures stand SHA256(FILE) for the
			// digest their test fills in.
			data := placeholder.ReplaceAll(f.data, []byte(strings.Repeat("ab", 32)))
			if err := v.YAML("manifest", data); err != nil {
				t.Errorf("%s: manifest schema: %v", f.name, err)
			}
		case strings.HasSuffix(base, "want.txt"):
			// testdata/convert/CASE/want.txt: the manifest after "--- manifest".
			if _, m, ok := bytes.Cut(f.data, []byte("--- manifest\n")); ok {
				m, _, _ = bytes.Cut(m, []byte("\n--- "))
				counts["manifest"]++
				if err := v.YAML("manifest", m); err != nil {
					t.Errorf("%s: manifest schema: %v", f.name, err)
				}
			}
		case strings.HasSuffix(base, ".json"):
			var top map[string]json.RawMessage
			if json.Unmarshal(f.data, &top) != nil || top["modules"] == nil {
				continue
			}
			counts["report"]++
			if err := v.JSON("report", f.data); err != nil {
				t.Errorf("%s: report schema: %v", f.name, err)
			}
		}
	}
	// Plans and inventories are printed, never kept in testdata: the
	// stories validate what plan and inventory print.
	for _, name := range []string{"declarations", "manifest", "report"} {
		if counts[name] < 3 {
			t.Errorf("only %d %s files validated", counts[name], name)
		}
	}
	t.Logf("validated %v", counts)
}

// TestRefused: the schemas refuse what the readers refuse for its shape.
func TestRefused(t *testing.T) {
	v := validator(t)
	for _, tc := range []struct{ schema, doc string }{
		{"declarations", "version: 2\n"},
		{"declarations", "version: 1\nbinds:\n  ./data: {owner: \"0:0\", mode: 0750, intent: state}\n"},
		{"declarations", "version: 1\nbinds:\n  ./data: {owner: \"0:0\", mode: \"0750\", intent: stuff}\n"},
		{"declarations", "version: 1\nvolume_root: srv\n"},
		{"declarations", "version: 1\nbind:\n  ./data: {}\n"},
		{"declarations", "version: 1\nprofiles: []\n"},
		{"manifest", "version: 1\nmodule: m\nresources:\n  - directory: /srv/m\n    mode: 0750\n"},
		{"manifest", "version: 1\nmodule: m\nresources:\n  - directory: /srv/m\n    size: 1\n"},
		{"manifest", "version: 1\nmodule: m\nresources:\n  - container: web\n    imag: nginx\n"},
		{"manifest", "version: 1\nresources: []\n"},
	} {
		if err := v.YAML(tc.schema, []byte(tc.doc)); err == nil {
			t.Errorf("%s schema accepts:\n%s", tc.schema, tc.doc)
		}
	}
	for _, doc := range []string{`{"modules": []}`, `{"version": 2, "tool": {"name": "compose2manifest", "version": "(devel)"}, "modules": []}`} {
		if err := v.JSON("report", []byte(doc)); err == nil {
			t.Errorf("report schema accepts %s", doc)
		}
	}
}

func TestGet(t *testing.T) {
	for _, name := range schema.Names() {
		data, err := schema.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			ID string `json:"$id"`
		}
		if err := json.Unmarshal(data, &s); err != nil || s.ID != schema.URL(name) {
			t.Errorf("%s: $id %q, want %q (%v)", name, s.ID, schema.URL(name), err)
		}
	}
	if _, err := schema.Get("sarif"); err == nil {
		t.Error("Get(sarif): want an error")
	}
}

// ownedValid reports whether every directory and file m owns has an owner
// and mode that C2M002 accepts.
func ownedValid(m *manifest.Module) bool {
	for _, r := range m.Resources {
		if (r.Kind == manifest.KindDirectory || r.Kind == manifest.KindFile) && (!manifest.ValidOwner(r.Owner) || !manifest.ValidMode(r.Mode)) {
			return false
		}
	}
	return true
}
