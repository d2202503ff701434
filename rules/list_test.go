package rules_test

import (
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
)

func dir(path string) manifest.Resource {
	return manifest.Resource{Kind: manifest.KindDirectory, Path: path, Owner: "0:0", Mode: "0755", Intent: manifest.IntentState,
		Pos: manifest.Pos{File: "m.yaml", Line: 1}}
}

// TestOddModules runs every rule over modules Decode would refuse but a
// program may build; no rule may panic.
func TestOddModules(t *testing.T) {
	for _, m := range []*manifest.Module{
		{Module: "relative", Resources: []manifest.Resource{dir("data"), dir("data/x")}},
		{Module: "empty path", Resources: []manifest.Resource{dir(""), {Kind: manifest.KindHost}}},
		{Module: "nil container", Resources: []manifest.Resource{{Kind: manifest.KindContainer}}},
		{Module: "unknown kind", Resources: []manifest.Resource{{Kind: "socket", Path: "/x"}}},
		{},
	} {
		t.Run(m.Module, func(t *testing.T) {
			rules.Run(rules.All(), m)
			rules.RunSet(rules.All(), []*manifest.Module{m, m})
		})
	}
}

func TestUndeclaredSourceFields(t *testing.T) {
	m := &manifest.Module{Module: "web", Resources: []manifest.Resource{
		{Kind: manifest.KindContainer, Pos: manifest.Pos{File: "web.yaml", Line: 7}, Container: &manifest.Container{
			Name:    "nginx",
			Volumes: []manifest.Volume{{Source: "/srv/web", Target: "/data"}},
		}},
	}}
	ds := rules.Run(rules.All(), m)
	if len(ds) != 1 {
		t.Fatalf("got %d diagnostics, want 1: %v", len(ds), ds)
	}
	d := ds[0]
	if d.Rule != "C2M001" || d.Service != "nginx" || d.Source != "/srv/web" || d.Target != "/data" || d.Module != "web" || d.Line != 7 {
		t.Errorf("diagnostic = %+v, want C2M001 at web.yaml:7 with service, source, target and module", d)
	}
	if want := `web.yaml:7: C2M001 error: service "nginx": volume "/srv/web": `; !strings.HasPrefix(d.String(), want) {
		t.Errorf("String() = %q, want prefix %q", d.String(), want)
	}
}

// TestSharedPaths checks C2M005 over a set: two owners are an error, an
// owner and a user of the path as host a warning, two users nothing.
func TestSharedPaths(t *testing.T) {
	host := func(path string) manifest.Resource {
		return manifest.Resource{Kind: manifest.KindHost, Path: path, Pos: manifest.Pos{File: "h.yaml", Line: 1}}
	}
	mod := func(name string, rs ...manifest.Resource) *manifest.Module {
		return &manifest.Module{Module: name, Resources: rs}
	}
	for _, tc := range []struct {
		name    string
		modules []*manifest.Module
		want    []rules.Severity
	}{
		{"two owners", []*manifest.Module{mod("a", dir("/srv/x")), mod("b", dir("/srv/x"))}, []rules.Severity{rules.Error}},
		{"three owners", []*manifest.Module{mod("a", dir("/srv/x")), mod("b", dir("/srv/x")), mod("c", dir("/srv/x"))}, []rules.Severity{rules.Error, rules.Error}},
		{"owner then user", []*manifest.Module{mod("a", dir("/srv/x")), mod("b", host("/srv/x"))}, []rules.Severity{rules.Warning}},
		{"user then owner", []*manifest.Module{mod("a", host("/srv/x")), mod("b", dir("/srv/x"))}, []rules.Severity{rules.Warning}},
		{"user then two owners", []*manifest.Module{mod("a", host("/srv/x")), mod("b", dir("/srv/x")), mod("c", dir("/srv/x"))}, []rules.Severity{rules.Warning, rules.Error}},
		{"two users", []*manifest.Module{mod("a", host("/srv/x")), mod("b", host("/srv/x"))}, nil},
		{"same module twice", []*manifest.Module{mod("a", dir("/srv/x")), mod("a", dir("/srv/x"))}, []rules.Severity{rules.Error, rules.Error}}, // C2M017 on each, no C2M005
		{"disjoint", []*manifest.Module{mod("a", dir("/srv/x")), mod("b", dir("/srv/xy"))}, nil},
		{"nested in another module's directory", []*manifest.Module{mod("a", dir("/srv/x")), mod("b", dir("/srv/x/y"))}, []rules.Severity{rules.Warning}},
		{"nested below a host use", []*manifest.Module{mod("a", host("/srv/x")), mod("b", dir("/srv/x/y"))}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []rules.Severity
			var rulesSeen []string
			for _, d := range rules.RunSet(rules.All(), tc.modules) {
				got = append(got, d.Severity)
				rulesSeen = append(rulesSeen, d.String())
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want severities %v", rulesSeen, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("got %v, want severities %v", rulesSeen, tc.want)
				}
			}
		})
	}
}

func TestSameModuleNamesOtherFiles(t *testing.T) {
	mods := []*manifest.Module{
		{Module: "mail", Pos: manifest.Pos{File: "a/mail.yaml", Line: 2}},
		{Module: "web", Pos: manifest.Pos{File: "web.yaml", Line: 2}},
		{Module: "mail", Pos: manifest.Pos{File: "b/mail.yaml", Line: 3}},
	}
	ds := rules.RunSet(rules.All(), mods)
	if len(ds) != 2 {
		t.Fatalf("got %v, want two C2M017", ds)
	}
	for i, want := range []struct{ file, other string }{{"a/mail.yaml", "b/mail.yaml:3"}, {"b/mail.yaml", "a/mail.yaml:2"}} {
		d := ds[i]
		if d.Rule != "C2M017" || d.File != want.file || !strings.Contains(d.Message, want.other) || d.Module != "mail" {
			t.Errorf("diagnostic %d = %s, want C2M017 in %s naming %s", i, d, want.file, want.other)
		}
	}
}
