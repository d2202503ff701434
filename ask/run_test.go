package ask

import "testing"

// TestChangedLines: the preview shows a replaced entry as its old line
// removed and its new line added, and ignores a line yaml.v3 only
// reflowed (the blanks before a comment).
func TestChangedLines(t *testing.T) {
	old := "version: 1\nhost_project_directory: /opt/dms   # prod host\nbinds:\n  ./shared: {kind: host}\n  ./x: {mode: \"0750\"}\n"
	data := "version: 1\nhost_project_directory: /opt/dms # prod host\nvolume_root: /srv\nbinds:\n  ./shared: {kind: host, path: /srv/shared}\n  ./x: {mode: \"0750\"}\n"
	want := "    …\n  + volume_root: /srv\n    …\n  -   ./shared: {kind: host}\n  +   ./shared: {kind: host, path: /srv/shared}\n    …\n"
	if got := changedLines([]byte(old), []byte(data)); got != want {
		t.Errorf("changedLines:\n%s\nwant:\n%s", got, want)
	}
	if got, want := changedLines(nil, []byte("version: 1\n")), "  + version: 1\n"; got != want {
		t.Errorf("changedLines of a new file = %q, want %q", got, want)
	}
}
