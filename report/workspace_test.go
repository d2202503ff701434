package report

import (
	"testing"

	"github.com/compose2manifest/compose2manifest/rules"
)

func TestWorkspace(t *testing.T) {
	for _, tc := range []struct {
		dir     string
		environ []string
		want    string
	}{
		{"/ws/sub", []string{"GITHUB_WORKSPACE=/ws"}, "/ws"},
		{"/ws", []string{"GITHUB_WORKSPACE=/ws/"}, "/ws"},
		{"/ws/a/b", []string{"GITHUB_WORKSPACE=/ws"}, "/ws"},
		{"/other", []string{"GITHUB_WORKSPACE=/ws"}, "/other"},
		{"/wsx", []string{"GITHUB_WORKSPACE=/ws"}, "/wsx"},
		{"/ws/sub", []string{"GITHUB_WORKSPACE=relative"}, "/ws/sub"},
		{"/ws/sub", nil, "/ws/sub"},
	} {
		if got := Workspace(tc.dir, tc.environ); got != tc.want {
			t.Errorf("Workspace(%q, %q) = %q, want %q", tc.dir, tc.environ, got, tc.want)
		}
	}
}

func TestRebase(t *testing.T) {
	r := &Report{Modules: []Module{{Module: "m", File: "manifests/m.yaml", Output: "out/m.yaml", Diagnostics: []rules.Diagnostic{
		{Rule: "C2M001", File: "services/m/compose.yaml", Line: 3, Related: []rules.Related{{File: "services/m/compose2manifest.yaml", Line: 2}, {File: "/abs/x.yaml"}}},
		{Rule: "C2M002", File: "../../outside.yaml"},
		{Rule: "C2M003"},
	}}}}
	got := Rebase(r, "/ws/deploy", "/ws")
	m := got.Modules[0]
	d := m.Diagnostics
	if m.File != "deploy/manifests/m.yaml" || m.Output != "deploy/out/m.yaml" || d[0].File != "deploy/services/m/compose.yaml" ||
		d[0].Related[0].File != "deploy/services/m/compose2manifest.yaml" || d[0].Related[1].File != "/abs/x.yaml" ||
		d[1].File != "../../outside.yaml" || d[2].File != "" || d[0].Line != 3 {
		t.Errorf("Rebase: %+v", got.Modules)
	}
	if r.Modules[0].File != "manifests/m.yaml" || r.Modules[0].Diagnostics[0].File != "services/m/compose.yaml" || r.Modules[0].Diagnostics[0].Related[0].File != "services/m/compose2manifest.yaml" {
		t.Errorf("Rebase changed its input: %+v", r.Modules)
	}
	if Rebase(r, "/ws", "/ws") != r || Rebase(r, "/elsewhere", "/ws") != r {
		t.Error("Rebase to the same or an unrelated directory: want r itself")
	}
}
