package manifest

import (
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	base := func() *Module {
		return &Module{Version: 1, Module: "m", Resources: []Resource{
			{Kind: KindDirectory, Path: "/srv/m", Owner: "0:0", Mode: "0755", Intent: IntentState, Pos: Pos{File: "m.yaml", Line: 7}},
			{Kind: KindHost, Path: "/etc/localtime"},
			{Kind: KindContainer, Container: &Container{Name: "web", Image: "x:1"}},
		}}
	}
	tests := []struct {
		name string
		edit func(*Module)
		want []string // message fragments, in order
	}{
		{"same", func(*Module) {}, nil},
		{"mode", func(m *Module) { m.Resources[0].Mode = "0777" }, []string{`directory /srv/m: mode "0777", conversion gives "0755"`}},
		{"kind", func(m *Module) { m.Resources[1].Kind = KindDirectory }, []string{`directory /etc/localtime: kind "directory", conversion gives "host"`}},
		{"removed container", func(m *Module) { m.Resources = m.Resources[:2] }, []string{"container web is in the conversion but not in the manifest"}},
		{"added path", func(m *Module) {
			m.Resources = append(m.Resources, Resource{Kind: KindDirectory, Path: "/srv/x"})
		}, []string{"directory /srv/x is in the manifest but not in the conversion"}},
		{"image", func(m *Module) { m.Resources[2].Container.Image = "x:2" }, []string{"container web: container fields differ (image)"}},
		{"module", func(m *Module) { m.Module = "n" }, []string{`module is "n", but converts as "m"`}},
		{"comment and position ignored", func(m *Module) { m.Resources[0].Comment = "x"; m.Resources[0].Pos = Pos{} }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := base()
			tc.edit(a)
			got := Diff(a, base())
			if len(got) != len(tc.want) {
				t.Fatalf("Diff = %d differences %+v, want %d", len(got), got, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i].Message, w) {
					t.Errorf("difference %d = %q, want it to contain %q", i, got[i].Message, w)
				}
			}
		})
	}
}
