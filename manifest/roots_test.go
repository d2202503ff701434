package manifest

import (
	"strings"
	"testing"
)

func TestRootsRoundTrip(t *testing.T) {
	m := &Module{Version: 1, Module: "app", Roots: []Root{{Path: "/data/app"}, {Path: "/mnt/tank/app"}},
		Resources: []Resource{{Kind: KindHost, Path: "/data"}}}
	b, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "roots:\n  - /data/app\n  - /mnt/tank/app\nresources:") {
		t.Fatalf("roots not written before resources:\n%s", b)
	}
	got, err := Decode("app.yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.RootPaths(), " ") != "/data/app /mnt/tank/app" || got.Roots[0].Pos.Line != 4 {
		t.Errorf("decoded roots %+v", got.Roots)
	}
	if d := Diff(m, got); len(d) != 0 {
		t.Errorf("round trip differs: %v", d)
	}
	other := *got
	other.Roots = other.Roots[:1]
	if d := Diff(got, &other); len(d) != 1 || d[0].Key != "roots" {
		t.Errorf("Diff of changed roots = %v", d)
	}
	if _, err := Decode("bad.yaml", []byte("version: 1\nmodule: a\nroots: /data\nresources: []\n")); err == nil {
		t.Error("roots as a scalar decoded")
	}
}
