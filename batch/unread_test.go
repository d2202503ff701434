package batch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
)

// TestUnreadDefaults: the nearest defaults file in or above a project
// converted alone is named from the working directory, unless one is
// given or the compose file comes from standard input.
func TestUnreadDefaults(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"fleet/apps/a", "fleet/b", "other"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"fleet", "fleet/b"} {
		if err := os.WriteFile(filepath.Join(root, f, declare.DefaultsFile), []byte("version: 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name string
		opts convert.Options
		want string
	}{
		{"above", convert.Options{ConfigFiles: []string{"fleet/apps/a/compose.yaml"}}, "fleet/" + declare.DefaultsFile},
		{"own folder", convert.Options{ConfigFiles: []string{"fleet/b/compose.yaml"}}, "fleet/b/" + declare.DefaultsFile},
		{"project directory", convert.Options{ProjectDirectory: "fleet/apps/a", ConfigFiles: []string{"other/compose.yaml"}}, "fleet/" + declare.DefaultsFile},
		{"none", convert.Options{ConfigFiles: []string{"other/compose.yaml"}}, ""},
		{"named", convert.Options{ConfigFiles: []string{"fleet/apps/a/compose.yaml"}, DefaultsFile: "x.yaml"}, ""},
		{"stdin", convert.Options{ConfigFiles: []string{"-"}}, ""},
	}
	for _, c := range cases {
		c.opts.WorkingDirectory = root
		if got := UnreadDefaults(c.opts); filepath.ToSlash(got) != c.want {
			t.Errorf("%s: UnreadDefaults = %q, want %q", c.name, got, c.want)
		}
	}
}
