package rules_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
)

// againstManifest is a committed manifest of module "app" in out/app.yaml,
// recording two sources.
func againstManifest() *manifest.Module {
	return &manifest.Module{
		Header: "generated", Module: "app", Pos: manifest.Pos{File: "out/app.yaml", Line: 3},
		Sources: []manifest.Source{
			{File: "compose.yaml", SHA256: "aaaaaaaaaaaaaaaa", Pos: manifest.Pos{File: "out/app.yaml", Line: 5}},
			{File: "app.env", SHA256: "bbbbbbbbbbbbbbbb", Pos: manifest.Pos{File: "out/app.yaml", Line: 7}},
		},
	}
}

// unchanged returns the manifest's sources, each unchanged.
func unchanged(m *manifest.Module) []rules.SourceCheck {
	var out []rules.SourceCheck
	for _, s := range m.Sources {
		out = append(out, rules.SourceCheck{Source: s, State: rules.SourceUnchanged})
	}
	return out
}

func res(kind manifest.Kind, path, mode string, pos manifest.Pos) *manifest.Resource {
	return &manifest.Resource{Kind: kind, Path: path, Owner: "0:0", Mode: mode, Intent: manifest.IntentState, Pos: pos}
}

// got formats diagnostics as "FILE:LINE: RULE SEVERITY: MESSAGE" lines,
// with their related positions.
func againstLines(ds []rules.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintln(&b, d)
		for _, r := range d.Related {
			fmt.Fprintf(&b, "  related %s:%d: %s\n", r.File, r.Line, r.Message)
		}
	}
	return b.String()
}

func TestRunAgainst(t *testing.T) {
	m := againstManifest()
	modeDiff := manifest.Difference{
		Key:     "/opt/app/data",
		Old:     res(manifest.KindDirectory, "/opt/app/data", "0777", manifest.Pos{File: "out/app.yaml", Line: 12}),
		New:     res(manifest.KindDirectory, "/opt/app/data", "0700", manifest.Pos{File: "compose2manifest.yaml", Line: 4}),
		Message: `directory /opt/app/data: mode "0777", conversion gives "0700"`,
	}
	kindDiff := manifest.Difference{
		Key:     "/opt/app/app.ini",
		Old:     res(manifest.KindDirectory, "/opt/app/app.ini", "0644", manifest.Pos{File: "out/app.yaml", Line: 16}),
		New:     res(manifest.KindFile, "/opt/app/app.ini", "0644", manifest.Pos{File: "compose2manifest.yaml", Line: 5}),
		Message: "kinds differ",
	}
	gone := manifest.Difference{Key: "worker", Message: "container worker is in the conversion but not in the manifest",
		New: &manifest.Resource{Kind: manifest.KindContainer, Pos: manifest.Pos{File: "compose.yaml", Line: 10}}}
	converted := func(dfs ...manifest.Difference) *rules.Conversion {
		return &rules.Conversion{Module: &manifest.Module{Header: "generated", Module: "app"}, Differences: dfs}
	}
	for _, tc := range []struct {
		name string
		pass rules.AgainstPass
		want string
	}{
		{
			name: "no sources",
			pass: rules.AgainstPass{Manifest: &manifest.Module{Module: "app"}, File: "out/app.yaml", Root: "/r", Candidates: []string{"a", "b"}},
			want: "out/app.yaml: C2M008 error: the manifest records no sources, so its compose project under /r cannot be found\n",
		},
		{
			name: "ambiguous",
			pass: rules.AgainstPass{Manifest: m, Root: "/r", Candidates: []string{"a", "b/c"}},
			want: `out/app.yaml:3: C2M017 error: projects a, b/c under /r all convert to module "app": check cannot tell which one the manifest was made from` + "\n",
		},
		{
			name: "no project",
			pass: rules.AgainstPass{Manifest: m, Root: "/r", Unconverted: []string{"a", "b", "c", "d", "e", "f"}},
			want: `out/app.yaml:5: C2M008 error: no compose project under /r converts to module "app" (6 projects could not be converted: a, b, c, d, e and 1 more)` + "\n",
		},
		{
			name: "fresh",
			pass: rules.AgainstPass{Manifest: m, Root: "/r", Project: "app", Sources: unchanged(m), Conversion: converted()},
		},
		{
			name: "stale",
			pass: rules.AgainstPass{Manifest: m, Root: "/r", Project: "app",
				Sources: []rules.SourceCheck{
					{Source: m.Sources[0], State: rules.SourceChanged, CurrentSHA256: "cccccccccccccccc"},
					{Source: m.Sources[1], State: rules.SourceGone},
				},
				Conversion: &rules.Conversion{Module: &manifest.Module{Header: "other", Module: "app"}, Unrecorded: []string{"app/extra.yaml"}, Differences: []manifest.Difference{modeDiff, kindDiff}},
			},
			want: `out/app.yaml:16: C2M004 error: /opt/app/app.ini is declared as a directory, but the mount's source is a file (app/compose2manifest.yaml:5)
  related app/compose2manifest.yaml:5: the conversion declares it here
out/app.yaml:5: C2M008 error: source app/compose.yaml has changed since the manifest was made (sha256 aaaaaaaaaaaa…, now cccccccccccc…)
out/app.yaml:7: C2M008 error: source app.env is gone from app
out/app.yaml:5: C2M008 error: app/extra.yaml now feeds the conversion, but the manifest does not record it
out/app.yaml:3: C2M008 error: the header line is "generated", but the conversion writes "other"
out/app.yaml:12: C2M008 error: directory /opt/app/data: mode "0777", conversion gives "0700" (the conversion declares it at app/compose2manifest.yaml:4)
  related app/compose2manifest.yaml:4: the conversion declares it here
`,
		},
		{
			name: "outside",
			pass: rules.AgainstPass{Manifest: m, Root: "/r", Project: "app",
				Sources: []rules.SourceCheck{{Source: m.Sources[0], State: rules.SourceOutside}, {Source: m.Sources[1], State: rules.SourceUnchanged}}},
			want: "out/app.yaml:5: C2M008 error: source compose.yaml lies outside /r; not read (a defaults file outside it is read when named with --defaults)\n",
		},
		{
			name: "edited",
			pass: rules.AgainstPass{Manifest: &manifest.Module{Module: "app", Sources: m.Sources, Pos: m.Pos}, File: "out/app.yaml", Root: "/r", Project: "app", Sources: unchanged(m), Conversion: converted(modeDiff, gone)},
			want: `out/app.yaml:3: C2M018 error: edited by hand: the generated header line is missing, so convert would take the file for one a person wrote and not replace it
out/app.yaml:12: C2M018 error: edited by hand: directory /opt/app/data: mode "0777", conversion gives "0700" (the conversion declares it at app/compose2manifest.yaml:4)
  related app/compose2manifest.yaml:4: the conversion declares it here
out/app.yaml:3: C2M018 error: edited by hand: container worker is in the conversion but not in the manifest (the conversion declares it at app/compose.yaml:10)
  related app/compose.yaml:10: the conversion declares it here
`,
		},
		{
			name: "unedited, earlier conversion",
			pass: rules.AgainstPass{Manifest: m, Root: "/r", Project: "app", Sources: unchanged(m),
				Conversion: &rules.Conversion{Module: &manifest.Module{Header: "generated", Module: "app"}, Differences: []manifest.Difference{modeDiff}, DigestHolds: true, EarlierConversion: 20}},
			want: `out/app.yaml:12: C2M018 error: its body digest holds and names an earlier compose2manifest (conversion 20), which may have written it (a digest anyone can recompute after an edit); this one converts the same sources otherwise (convert again): directory /opt/app/data: mode "0777", conversion gives "0700" (the conversion declares it at app/compose2manifest.yaml:4)
  related app/compose2manifest.yaml:4: the conversion declares it here
`,
		},
		{
			name: "unedited",
			pass: rules.AgainstPass{Manifest: m, Root: "/r", Project: "app", Sources: unchanged(m),
				Conversion: &rules.Conversion{Module: &manifest.Module{Header: "generated", Module: "app"}, Differences: []manifest.Difference{modeDiff}, DigestHolds: true}},
			want: `out/app.yaml:12: C2M018 error: its body digest holds (a digest anyone can recompute after an edit), but its unchanged sources convert otherwise (the checkout or the image table changed since, or it was edited; convert again): directory /opt/app/data: mode "0777", conversion gives "0700" (the conversion declares it at app/compose2manifest.yaml:4)
  related app/compose2manifest.yaml:4: the conversion declares it here
`,
		},
		{
			name: "refused",
			pass: rules.AgainstPass{Manifest: m, Root: "/r", Project: "app", Sources: unchanged(m),
				Conversion: &rules.Conversion{Module: &manifest.Module{Module: "app"}, Refused: true, Differences: []manifest.Difference{modeDiff}}},
		},
		{
			name: "uncarried",
			pass: rules.AgainstPass{Manifest: m, Root: "/r", Project: "app", Sources: unchanged(m),
				Conversion: &rules.Conversion{Module: &manifest.Module{Header: "generated", Module: "app"}, Diagnostics: []rules.Diagnostic{
					{Rule: "C2M007", Severity: rules.Warning, File: "app/compose.yaml", Line: 9, Service: "worker", Message: "field container_name is not carried", Fix: "f"},
					{Rule: "C2M007", Severity: rules.Error, File: "app/compose.yaml", Line: 10, Message: "already an error: the driver keeps it"},
					{Rule: "C2M015", Severity: rules.Warning, File: "app/compose.yaml", Line: 11, Message: "not judged again"},
				}}},
			want: `app/compose.yaml:9: C2M007 error: service "worker": field container_name is not carried` + "\n",
		},
		{
			name: "odd",
			pass: rules.AgainstPass{Manifest: m, Project: "app", Conversion: &rules.Conversion{Differences: []manifest.Difference{{Key: "x"}}}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := rules.RunAgainst(rules.All(), &tc.pass)
			if g := againstLines(ds); g != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", g, tc.want)
			}
			for _, d := range ds {
				if d.Module != "app" || d.Fix == "" {
					t.Errorf("%s: module %q, fix %q: want module app and a fix", d, d.Module, d.Fix)
				}
			}
		})
	}
	if ds := rules.RunAgainst(rules.All(), &rules.AgainstPass{}); ds != nil {
		t.Errorf("a pass without a manifest: %v", ds)
	}
}

func TestScopes(t *testing.T) {
	list := rules.All()
	for id, want := range map[string][]rules.Scope{
		"C2M001": {rules.ScopeProject, rules.ScopeModule},
		"C2M004": {rules.ScopeProject, rules.ScopeModule, rules.ScopeAgainst},
		"C2M005": {rules.ScopeProject, rules.ScopeModule, rules.ScopeModules},
		"C2M007": {rules.ScopeProject, rules.ScopeAgainst},
		"C2M008": {rules.ScopeAgainst},
		"C2M017": {rules.ScopeModules, rules.ScopeAgainst},
		"C2M018": {rules.ScopeAgainst},
	} {
		if got := rules.Lookup(list, id).Scopes(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Scopes() = %v, want %v", id, got, want)
		}
	}
}

func TestSort(t *testing.T) {
	ds := []rules.Diagnostic{
		{File: "b.yaml", Line: 1, Rule: "C2M001", Message: "b1"},
		{File: "a.yaml", Line: 2, Rule: "C2M018", Message: "z first"},
		{File: "a.yaml", Line: 2, Rule: "C2M008", Message: "stale"},
		{File: "a.yaml", Line: 2, Rule: "C2M018", Message: "a second"},
		{File: "a.yaml", Line: 1, Rule: "C2M018", Message: "line 1"},
		{Message: "no position"},
	}
	rules.Sort(ds)
	var order []string
	for _, d := range ds {
		order = append(order, d.Message)
	}
	want := "no position|line 1|stale|z first|a second|b1"
	if g := strings.Join(order, "|"); g != want {
		t.Errorf("Sort: %s, want %s", g, want)
	}
}
