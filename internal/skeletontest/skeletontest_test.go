package skeletontest

import (
	"strings"
	"testing"
)

func TestFill(t *testing.T) {
	got, err := Fill([]byte("version: 1\nvolume_root: \"\"\nbinds:\n  ./a: {owner: \"\", mode: \"0700\", intent: \"\"}\n  ~/b: {path: \"\", owner: \"1:1\", mode: \"\", intent: logs}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`volume_root: "/srv"`, `owner: "0:0"`, `mode: "0700"`, `intent: "state"`, `path: "/srv/placeholder/`, `mode: "0755"`, "intent: logs"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("filled skeleton lacks %q:\n%s", want, got)
		}
	}
	if _, err := Fill([]byte("binds:\n  ./a: {note: \"\"}\n")); err == nil {
		t.Error("an empty note was filled")
	}
}

// TestFillKind: the empty kind of a source that is not in the checkout
// and looks like a file is filled with file.
func TestFillKind(t *testing.T) {
	got, err := Fill([]byte("version: 1\nbinds:\n  ./nginx.conf: {kind: \"\", owner: \"0:0\", mode: \"0644\", intent: config}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), `kind: "file"`) {
		t.Errorf("filled skeleton lacks kind file:\n%s", got)
	}
}
