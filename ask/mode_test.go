package ask

import (
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
)

// A mode convert refuses for the kind answered (C2M021) is refused at the
// prompt too: a directory 0640 (its owner cannot enter it) is asked
// again; 0750 is taken. (ask accepted 0640, and convert then refused it.)
func TestModeRefusedAsConvertDoes(t *testing.T) {
	it := Item{Missing: convert.Missing{Section: declare.SectionVolumes, Key: "data", Source: "data",
		Mounts: []convert.Mount{{Service: "app", Target: "/data"}}, Known: declare.Entry{Key: "data"}}}
	it.suggest(true)
	p := &Plan{Module: "app", Items: []Item{it}}
	a, out, err := run(t, p, "1000:1000\n0640\n0750\nstate\n/srv/app/data\n\n")
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if !strings.Contains(out, "mode 0640: a directory its owner cannot enter") || !strings.Contains(out, "C2M021") {
		t.Errorf("0640 not refused:\n%s", out)
	}
	if got := a.Entries[0].Final.Mode; got != "0750" {
		t.Errorf("mode %q, want 0750\n%s", got, out)
	}
}
