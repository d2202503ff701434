package ask

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/project"
)

// TestLocalEvidenceAsConvert: ask sees a bind source in the checkout as
// convert does (project.Evidence, which does not follow a symbolic
// link). A regular file is evidence of kind file for both, and convert
// produces the kind; a symbolic link to a regular file, or to a
// directory, is evidence of nothing for both: convert produces no kind
// and ask offers none as evidence.
func TestLocalEvidenceAsConvert(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"compose.yaml": "name: ev\nservices:\n  app:\n    image: example/app:1\n    volumes:\n" +
			"      - ./real.cf:/etc/real.cf\n      - ./link.cf:/etc/link.cf\n      - ./realdir:/realdir\n      - ./linkdir:/linkdir\n",
		"real.cf":       "x\n",
		"realdir/.keep": "",
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"link.cf": "real.cf", "linkdir": "realdir"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skipf("no symbolic links: %v", err)
		}
	}
	res, err := convert.Convert(context.Background(), convert.Options{WorkingDirectory: dir, Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	sres, err := convert.Convert(context.Background(), convert.Options{WorkingDirectory: dir, Environ: []string{}, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlan("ev", res.Missing, append([]convert.Missing{}, sres.Missing...), res.ProjectDirectory, nil)
	want := map[string]declare.Kind{"./real.cf": declare.KindFile, "./link.cf": declare.KindNone, "./realdir": declare.KindDirectory, "./linkdir": declare.KindNone}
	if len(p.Items) != len(want) {
		t.Fatalf("%d items, want %d", len(p.Items), len(want))
	}
	for _, it := range p.Items {
		key := it.Missing.Key
		conv := project.Evidence(filepath.Join(dir, filepath.FromSlash(key)))
		if conv != want[key] {
			t.Errorf("%s: project.Evidence = %q, want %q", key, conv, want[key])
		}
		if it.Local != conv {
			t.Errorf("%s: ask's evidence %q, convert's %q", key, it.Local, conv)
		}
		// convert produces kind file from the same evidence, and only
		// from it.
		if produced := it.Missing.Known.Kind == declare.KindFile; produced != (conv == declare.KindFile) {
			t.Errorf("%s: convert produced kind %q from evidence %q", key, it.Missing.Known.Kind, conv)
		}
		if it.Kind.Evidence != (conv != declare.KindNone) {
			t.Errorf("%s: ask's kind suggestion %+v; convert's evidence %q", key, it.Kind, conv)
		}
		if conv != declare.KindNone && it.Kind.Value != string(conv) {
			t.Errorf("%s: ask suggests kind %q, evidence is %q", key, it.Kind.Value, conv)
		}
	}
}
