package convert

import (
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/placement"
)

// Decisions counts exactly the values the skeleton leaves empty: its ""
// fields and its empty acknowledge: items.
func TestDecisions(t *testing.T) {
	web := []Mount{{Service: "web", Target: "/data"}}
	for _, tc := range []struct {
		name    string
		missing []Missing
		s       Suggestions
		want    int
	}{
		{"nothing", nil, Suggestions{}, 0},
		{"all three", []Missing{{Section: declare.SectionBinds, Key: "./data", Mounts: web, Known: declare.Entry{Key: "./data"}}}, Suggestions{}, 3},
		{"owner produced", []Missing{{Section: declare.SectionBinds, Key: "./data", Mounts: web, Known: declare.Entry{Key: "./data", Owner: "1000:1000"}}}, Suggestions{}, 2},
		{"kind and setting", []Missing{{Section: declare.SectionBinds, Key: "./a.conf", NeedsKind: true, NeedsHostProjectDirectory: true, Mounts: web, Known: declare.Entry{Key: "./a.conf"}}}, Suggestions{}, 5},
		{"host kind", []Missing{{Section: declare.SectionBinds, Key: "/dev/dri", NeedsPath: true, Mounts: web, Known: declare.Entry{Key: "/dev/dri", Kind: declare.KindHost}}}, Suggestions{}, 1},
		// A field not carried alone warns and writes no skeleton; beside a
		// source it is one more item to fill in.
		{"acknowledge item alone", nil, Suggestions{Uncarried: []placement.Field{{Service: "web", Name: "container_name", Reason: "names are the host's"}}}, 0},
		{"acknowledge item", []Missing{{Section: declare.SectionBinds, Key: "./data", Mounts: web, Known: declare.Entry{Key: "./data"}}}, Suggestions{Uncarried: []placement.Field{{Service: "web", Name: "container_name", Reason: "names are the host's"}}}, 4},
		{"option", nil, Suggestions{Options: []OptionUse{{Name: "z", Service: "web", Target: "/data", Mounts: 3}}}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Decisions("app", tc.missing, tc.s)
			skel := string(SkeletonFor("app", tc.missing, tc.s))
			if got != tc.want {
				t.Errorf("Decisions = %d, want %d; skeleton:\n%s", got, tc.want, skel)
			}
			// Every decision is a "" in the skeleton (comments aside).
			empty := 0
			for _, l := range strings.Split(skel, "\n") {
				if body, _, _ := strings.Cut(l, " # "); !strings.HasPrefix(strings.TrimSpace(l), "#") {
					empty += strings.Count(body, `""`)
				}
			}
			if empty != got {
				t.Errorf("the skeleton has %d \"\", Decisions %d:\n%s", empty, got, skel)
			}
		})
	}
}
