package inventory

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/manifest"
)

// commandLine returns the first line of out a GitHub runner reads as a
// workflow command, or "".
func commandLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "##[") || strings.HasPrefix(strings.TrimLeft(l, " \t"), "::") {
			return l
		}
	}
	return ""
}

// TestWriteNoWorkflowCommand: module names, notes and paths come from
// manifests a pull request edits; inventory's table and JSON, printed in
// a CI log, hold no workflow command, and the JSON decodes to the same
// entries.
func TestWriteNoWorkflowCommand(t *testing.T) {
	for _, h := range []string{"::error::pwned", "::add-mask::x", "##[error]pwned", "m##[group]x", "###[y"} {
		entries := []Entry{
			{Module: h, Kind: manifest.KindDirectory, Path: "/srv/" + h, Intent: manifest.IntentState, Owner: "0:0", Mode: "0750", Backup: Yes, Note: h, File: h + ".yaml", Line: 3},
			{Module: "m", Kind: manifest.KindHost, Path: "/srv/" + h + "/h", Backup: No},
		}
		var text bytes.Buffer
		if err := WriteText(&text, entries); err != nil {
			t.Fatal(err)
		}
		if l := commandLine(text.String()); l != "" {
			t.Errorf("%q: text line %q reads as a workflow command:\n%s", h, l, text.String())
		}
		if !strings.Contains(text.String(), h[strings.LastIndexAny(h, ":[")+1:]) {
			t.Errorf("%q: the table no longer shows the name:\n%s", h, text.String())
		}
		var js bytes.Buffer
		if err := WriteJSON(&js, entries); err != nil {
			t.Fatal(err)
		}
		if l := commandLine(js.String()); l != "" {
			t.Errorf("%q: JSON line %q reads as a workflow command:\n%s", h, l, js.String())
		}
		var got jsonReport
		if err := json.Unmarshal(js.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Paths[0].Module != h || got.Paths[0].Note != h || got.Paths[1].Path != "/srv/"+h+"/h" {
			t.Errorf("%q: JSON decodes differently:\n%s", h, js.String())
		}
	}
}
