package legacy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/survey"
)

// TestSpec: the survey of a refused project looks at every source it
// mounts, and at each image once.
func TestSpec(t *testing.T) {
	dir, err := filepath.Abs("../../testdata/convert/home")
	if err != nil {
		t.Fatal(err)
	}
	res, err := convert.Convert(t.Context(), convert.Options{ProjectDirectory: dir})
	if err != nil || res.Status != convert.Refused {
		t.Fatalf("%v %v", res.Status, err)
	}
	s, f := Spec(res, Request{LegacyProjectDirectory: "/opt/home"})
	if f != nil {
		t.Fatal(f)
	}
	var got []string
	for _, src := range s.Sources {
		got = append(got, src.Section+" "+src.Key+" "+src.Real+src.Volume)
	}
	want := "binds ~/worlds ~/worlds|binds ./mods ./mods|binds ./server.properties ./server.properties|volumes saves home_saves"
	if strings.Join(got, "|") != want || strings.Join(s.Images, "|") != "example/game:1" || s.Project != "home" || s.ProjectDirectory != "/opt/home" {
		t.Errorf("sources %q, images %q, project %q in %s; want %q", got, s.Images, s.Project, s.ProjectDirectory, want)
	}
}

// TestSpecFolderNamed: a project named after its folder ran on the
// legacy host under the legacy folder's name, its volumes too, as plan
// takes them.
func TestSpecFolderNamed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shop")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	compose := "services:\n  db:\n    image: postgres:16\n    volumes:\n      - data:/var/lib/postgresql/data\n      - ./conf:/etc/x\nvolumes:\n  data:\n  ext:\n    external: true\n"
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(compose), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := convert.Convert(t.Context(), convert.Options{ProjectDirectory: dir})
	if err != nil || res.Status == convert.Failed {
		t.Fatalf("%v %v", res.Status, err)
	}
	s, f := Spec(res, Request{LegacyProjectDirectory: "/srv/Old-Shop"})
	if f != nil {
		t.Fatal(f)
	}
	if s.Project != "old-shop" || len(s.Sources) != 2 || s.Sources[0].Volume != "old-shop_data" {
		t.Errorf("project %q, sources %+v", s.Project, s.Sources)
	}
	if _, f := Spec(res, Request{LegacyProjectDirectory: "/srv/___"}); f == nil || f.Code != 2 {
		t.Errorf("a legacy folder whose name gives no project name: %v", f)
	}
	var b strings.Builder
	if f := Command(Request{Convert: convert.Options{ProjectDirectory: dir}, Output: "-", User: "-x"}, &b); f == nil || !strings.Contains(f.Msg, "--user") || b.Len() > 0 {
		t.Errorf("a bad --user: %v", f)
	}
	if err := survey.WriteScript(&b, s); err != nil || !strings.Contains(b.String(), "\tvolume '\"section\":\"volumes\",\"key\":\"data\"' 'old-shop_data'\n") {
		t.Errorf("%v\n%s", err, b.String())
	}
}
