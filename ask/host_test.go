package ask

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/images"
)

const hostCompose = `name: clock
services:
  app:
    image: example/clock:1
    volumes:
      - /etc/localtime:/etc/localtime:ro
      - /var/run/docker.sock:/var/run/docker.sock
      - /proc/cpuinfo:/host/cpuinfo:ro
      - /etc/shadow:/host/shadow:ro
      - /var/lib/docker:/host/docker:ro
      - /srv/proc:/data
`

// hostPlan converts hostCompose and builds its plan as the ask command
// does.
func hostPlan(t *testing.T, strict bool) *Plan {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(hostCompose), 0o644); err != nil {
		t.Fatal(err)
	}
	table, err := images.Load()
	if err != nil {
		t.Fatal(err)
	}
	opts := convert.Options{ProjectDirectory: dir, WorkingDirectory: dir, Images: table, Strict: strict}
	res, err := convert.Convert(context.Background(), opts)
	if err != nil {
		t.Fatalf("Convert: %v", err)
	}
	var supplied []convert.Missing
	if !strict {
		opts.Strict = true
		sres, err := convert.Convert(context.Background(), opts)
		if err != nil {
			t.Fatalf("Convert strict: %v", err)
		}
		supplied = append([]convert.Missing{}, sres.Missing...)
	}
	return NewPlan("clock", res.Missing, supplied, table)
}

// TestHostSuggestion: a well-known host path (SPEC section 6) and an
// absolute bind source C2M006 forbids owning are suggested kind host, as a
// suggestion, not evidence; a close variant is not.
func TestHostSuggestion(t *testing.T) {
	for _, strict := range []bool{true, false} {
		p := hostPlan(t, strict)
		keys := map[string]bool{}
		for _, it := range p.Items {
			keys[it.Missing.Key] = true
		}
		for _, key := range []string{"/etc/localtime", "/var/run/docker.sock", "/proc/cpuinfo", "/etc/shadow", "/var/lib/docker"} {
			if !keys[key] {
				if strict || key == "/etc/shadow" { // /var/lib/docker, read-only, is produced host too
					t.Errorf("strict=%v: no item %s", strict, key)
				}
				continue // produced as host without --strict
			}
			k := p.item(t, key).Kind
			if k.Value != "host" || k.Evidence || k.Produced || !strings.Contains(k.Why(), "not evidence") || !strings.Contains(k.From, key) {
				t.Errorf("strict=%v: %s kind = %+v, want a host suggestion, not evidence", strict, key, k)
			}
		}
		if k := p.item(t, "/srv/proc").Kind; k.Value != "directory" {
			t.Errorf("strict=%v: /srv/proc kind = %+v, want directory", strict, k)
		}
	}

	// Accepting every default declares /etc/localtime as a host path.
	p := hostPlan(t, true)
	it := *p.item(t, "/etc/localtime")
	a, out, err := run(t, &Plan{Module: "clock", Items: []Item{it}}, "\n\n")
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if e := a.Entries[0]; !e.Write || e.Entry.Kind != declare.KindHost || e.Entry.Owner != "" {
		t.Errorf("entry = %+v, want kind host\n%s", e, out)
	}

	// The strict skeleton shows the suggestion.
	sk := string(Skeleton(p))
	for _, s := range []string{
		"# kind host? — a suggestion, not evidence: /etc/localtime is a well-known host path",
		"# kind host? — a suggestion, not evidence: /etc/shadow is a host path the module must not own",
	} {
		if !strings.Contains(sk, s) {
			t.Errorf("strict skeleton lacks %q:\n%s", s, sk)
		}
	}
}
