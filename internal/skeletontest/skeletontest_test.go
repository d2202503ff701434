package skeletontest

import (
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/declare"
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

// TestFillAcknowledge: an empty acknowledge: item takes the credentials
// choice its comment offers; one without choices is an error.
func TestFillAcknowledge(t *testing.T) {
	skel := "version: 1\ncredentials:\n  web.TOKEN: web_token\nacknowledge:\n  - \"\" # " + declare.AckChoiceComment(declare.AckChoice{Item: "web.credentials.TOKEN", Means: "the image reads /run/secrets/web_token"}, declare.AckChoice{Item: "web.environment.TOKEN", Means: "plaintext"}) + "\n"
	got, err := Fill([]byte(skel))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), `- "web.credentials.TOKEN"`) {
		t.Errorf("filled skeleton lacks the credentials choice:\n%s", got)
	}
	if _, err := Fill([]byte("version: 1\nacknowledge:\n  - \"\"\n")); err == nil {
		t.Error("an acknowledge item without choices was filled")
	}
}

func TestAckChoicesRoundTrip(t *testing.T) {
	got := declare.AckChoices("# " + declare.AckChoiceComment(declare.AckChoice{Item: "a.credentials.X", Means: "a file (under /run/secrets)"}, declare.AckChoice{Item: "a.environment.X", Means: "plaintext"}))
	if len(got) < 2 || got[0] != "a.credentials.X" || got[1] != "a.environment.X" {
		t.Errorf("AckChoices = %q", got)
	}
	if got := declare.AckChoices("# where the project lives"); got != nil {
		t.Error("AckChoices took an unrelated comment")
	}
}
