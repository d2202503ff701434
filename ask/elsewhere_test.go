package ask

import (
	"path"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
)

// An absolute or ~ bind source whose name looks like a file, with no
// kind: no checkout can show what it is, so convert refuses it (C2M004,
// NeedsKind) and ask suggests file, from its name, not as evidence; Enter
// takes it, and the entry says kind: file. (It suggested directory.)
func TestSuggestsFileElsewhere(t *testing.T) {
	for _, key := range []string{"/srv/app/app.conf", "~/certs/site.pem"} {
		it := Item{Missing: convert.Missing{
			Section: declare.SectionBinds, Key: key, Source: key, NeedsKind: true, LooksLikeFile: "its name " + path.Base(key),
			Mounts: []convert.Mount{{Service: "app", Image: "example/app:1", Target: "/etc/app/x", ReadOnly: true, Pos: manifest.Pos{File: "compose.yaml", Line: 6}}},
		}}
		it.suggest(true)
		if it.Kind.Value != string(declare.KindFile) || it.Kind.Evidence || !strings.Contains(it.Kind.From, "looks like a file") {
			t.Errorf("%s: kind suggestion %+v, want file from its name, not evidence", key, it.Kind)
		}
		if !strings.HasPrefix(key, "/") {
			continue // a ~ source also needs a path; the suggestion is what counts
		}
		p := &Plan{Module: "app", Items: []Item{it}}
		a, out, err := run(t, p, "\n0:0\n0644\nconfig\n\n\n")
		if err != nil {
			t.Fatalf("Run: %v\n%s", err, out)
		}
		if got := a.Entries[0]; got.Entry.Kind != declare.KindFile || got.Final.Kind != declare.KindFile {
			t.Errorf("%s: entry %+v, final %+v, want kind file\n%s", key, got.Entry, got.Final, out)
		}
		if want := key + " is a path on the target host, which the checkout does not show, and it looks like a file"; !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// A relative source belongs in the checkout: no suggestion there.
	it := Item{Missing: convert.Missing{Section: declare.SectionBinds, Key: "./local.conf", Source: "./local.conf", NeedsKind: true,
		Mounts: []convert.Mount{{Service: "app", Target: "/etc/local.conf"}}}}
	it.suggest(true)
	if it.Kind.Value != "" {
		t.Errorf("./local.conf: kind suggestion %+v, want none", it.Kind)
	}
}
