package project

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestBindKeyAboveRoot: a relative bind source's key is its path from the
// project as written, its ".." kept, so that one climbing above this
// machine's root (where compose-go stops at /) is keyed the same however
// deep the checkout lies; written in an included or extended file in a
// subfolder, it is taken from that folder as before. Before, the key was
// the path from the checkout to where compose-go stopped: ../../../x in
// one checkout, ../../../../../x in another.
func TestBindKeyAboveRoot(t *testing.T) {
	up := strings.Repeat("../", 40)
	files := map[string]string{
		"compose.yaml": "include:\n  - db/compose.yaml\nservices:\n  web:\n    image: nginx\n    volumes:\n      - " + up + "var/lib/x:/x\n      - ./html:/html\n      - ../shared:/shared\n" +
			"  worker:\n    extends: {file: lib/base.yaml, service: base}\n",
		"db/compose.yaml": "services:\n  db:\n    image: postgres\n    volumes:\n      - ./pgdata:/var/lib/postgresql/data\n      - ../" + up + "srv/db:/backup\n",
		"lib/base.yaml":   "services:\n  base:\n    image: busybox\n    volumes:\n      - ./conf:/conf\n      - " + up + "etc/y:/y\n",
	}
	want := []string{
		"db ./db/pgdata", "db " + up + "srv/db",
		"web " + up + "var/lib/x", "web ./html", "web ../shared",
		"worker ./lib/conf", "worker " + strings.Repeat("../", 39) + "etc/y",
	}
	for _, depth := range []string{"p", "a/b/c/d/e/f/p"} {
		dir := filepath.Join(t.TempDir(), filepath.FromSlash(depth))
		writeFiles(t, dir, files)
		p, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, name := range []string{"db", "web", "worker"} {
			for _, m := range p.Mounts(p.Compose.Services[name]) {
				keys = append(keys, m.Service+" "+m.Key)
			}
		}
		if !reflect.DeepEqual(keys, want) {
			t.Errorf("checkout %s: keys\n%q, want\n%q", depth, keys, want)
		}
	}
}
