package declare

import (
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/compose2manifest/compose2manifest/manifest"
)

func TestParseSettings(t *testing.T) {
	f, err := Parse("c2m.yaml", []byte(`version: 1
compose_files: [docker-compose.yml, ./deploy/prod.yml]
env_files:
  - env/prod.env
profiles: [web, "*"]
`))
	if err != nil {
		t.Fatal(err)
	}
	want := func(line int, vs ...string) []Setting {
		var out []Setting
		for _, v := range vs {
			out = append(out, Setting{Value: v, Pos: pos(line)})
		}
		return out
	}
	if got, w := f.ComposeFiles, want(2, "docker-compose.yml", "deploy/prod.yml"); !reflect.DeepEqual(got, w) {
		t.Errorf("compose_files = %+v, want %+v", got, w)
	}
	if got, w := f.EnvFiles, want(4, "env/prod.env"); !reflect.DeepEqual(got, w) {
		t.Errorf("env_files = %+v, want %+v", got, w)
	}
	if got := Values(f.Profiles); !reflect.DeepEqual(got, []string{"web", "*"}) {
		t.Errorf("profiles = %q", got)
	}
	if !f.HasSettings() || f.SettingsPos() != pos(2) {
		t.Errorf("HasSettings %v, SettingsPos %v", f.HasSettings(), f.SettingsPos())
	}
	m := Merge(&File{Name: "compose.yaml"}, f)
	if !reflect.DeepEqual(m.ComposeFiles, f.ComposeFiles) || !reflect.DeepEqual(m.Profiles, f.Profiles) {
		t.Errorf("Merge lost the settings: %+v", m)
	}
	m.ComposeFiles[0].Value = "changed"
	if f.ComposeFiles[0].Value == "changed" {
		t.Errorf("Merge shares the settings slice")
	}
}

func TestParseSettingsErrors(t *testing.T) {
	_, err := Parse("c2m.yaml", []byte(`version: 1
compose_files:
  - /etc/compose.yaml
  - ../other/compose.yaml
  - a/../../x.yml
  - sub//x.yml
  - ${FILE}
  - ok.yml
  - ./ok.yml
  - 3
env_files: .env
profiles: [web, "bad name", web]
`))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, w := range []string{
		`c2m.yaml:3: compose_files: "/etc/compose.yaml" is not relative`,
		`c2m.yaml:4: compose_files: "../other/compose.yaml" leaves the project directory`,
		`c2m.yaml:5: compose_files: "a/../../x.yml" leaves the project directory`,
		`c2m.yaml:6: compose_files: "sub//x.yml" is not clean; write "sub/x.yml"`,
		`c2m.yaml:7: compose_files: "${FILE}" holds '$'`,
		`c2m.yaml:9: compose_files: "ok.yml" listed twice (first at line 8)`,
		`c2m.yaml:10: compose_files item: want a string, got the integer 3`,
		`c2m.yaml:11: env_files: want a list of paths relative to the project directory`,
		`c2m.yaml:12: profiles: "bad name" is not a profile name`,
		`c2m.yaml:12: profiles: "web" listed twice`,
	} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("missing %q in:\n%v", w, err)
		}
	}
	if _, err := Parse("c2m.yaml", []byte("version: 1\nprofiles: []\n")); err == nil || !strings.Contains(err.Error(), "c2m.yaml:2: profiles: empty list") {
		t.Errorf("empty list: %v", err)
	}
}

func TestParseNodeRefusesSettings(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("version: 1\nprofiles: [web]\ncompose_files: [a.yml]\n"), &doc); err != nil {
		t.Fatal(err)
	}
	_, err := ParseNode("compose.yaml", &doc)
	for _, w := range []string{
		`compose.yaml:2: profiles: only compose2manifest.yaml may give it, not x-compose2manifest`,
		`compose.yaml:3: compose_files: only compose2manifest.yaml may give it`,
	} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("missing %q in %v", w, err)
		}
	}
	_ = manifest.Pos{}
}
