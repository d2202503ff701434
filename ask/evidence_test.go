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
// convert does (project.Evidence, which follows symbolic links within the
// project). A regular file is evidence of kind file for both, and convert
// produces the kind; so is a symbolic link in the project to a regular
// file, and a link to a directory is evidence of a directory. A link out
// of the project is evidence of nothing for both: convert produces no
// kind and ask offers none as evidence.
func TestLocalEvidenceAsConvert(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"compose.yaml": "name: ev\nservices:\n  app:\n    image: example/app:1\n    volumes:\n" +
			"      - ./real.cf:/etc/real.cf\n      - ./link.cf:/etc/link.cf\n      - ./realdir:/realdir\n      - ./linkdir:/linkdir\n      - ./out:/out\n",
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
	for link, target := range map[string]string{"link.cf": "real.cf", "linkdir": "realdir", "out": ".."} {
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
	p := NewPlan("ev", res.Missing, append([]convert.Missing{}, sres.Missing...), nil)
	want := map[string]declare.Kind{"./real.cf": declare.KindFile, "./link.cf": declare.KindFile, "./realdir": declare.KindDirectory, "./linkdir": declare.KindDirectory, "./out": declare.KindNone}
	if len(p.Items) != len(want) {
		t.Fatalf("%d items, want %d", len(p.Items), len(want))
	}
	for _, it := range p.Items {
		key := it.Missing.Key
		ev := project.Evidence(res.ProjectDirectory, key)
		conv := ev.Kind
		if conv != want[key] {
			t.Errorf("%s: project.Evidence = %+v, want kind %q", key, ev, want[key])
		}
		if it.Missing.Local != ev {
			t.Errorf("%s: ask's evidence %+v, convert's %+v", key, it.Missing.Local, ev)
		}
		if (ev.Outside != "") != (key == "./out") || (it.Missing.LinkOutside != "") != (key == "./out") {
			t.Errorf("%s: evidence %+v, convert's link out of the project %q", key, ev, it.Missing.LinkOutside)
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
