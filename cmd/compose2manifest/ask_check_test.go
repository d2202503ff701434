package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAskShowsRulesFindings: ask checks each answer by converting in
// memory with the answers so far, and shows the rules' own findings at
// once: a mode the image refuses (C2M023) is named as it is answered, and
// asked again, not only at the end.
func TestAskShowsRulesFindings(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	compose := "services:\n  db:\n    image: postgres:16\n    volumes:\n      - dbdata:/var/lib/postgresql/data\nvolumes:\n  dbdata: {}\n"
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(compose), 0o644); err != nil {
		t.Fatal(err)
	}
	tm := startAsk(t, dir)
	tm.answer("volume_root (such as /srv;", "/srv")
	tm.expect("[1/1] named volume dbdata")
	tm.answer("owner (USER:GROUP) [999:999]: ", "")
	tm.answer("mode (3 or 4 octal digits) [0700]: ", "0755")
	tm.expect("  mode 0755: convert refuses it: compose2manifest.yaml:4: C2M023 error: ")
	tm.expect("requires mode 0700 or 0750 there, not 0755: the software refuses to run otherwise; try again\n")
	tm.answer("mode (3 or 4 octal digits) [0700]: ", "0750")
	tm.answer("[state]: ", "")
	tm.answer("Enter keeps /srv/db/dbdata): ", "")
	tm.answer("note", "")
	tm.key("\x03")
	if code := tm.exit(); code == 0 {
		t.Errorf("ask interrupted: exit 0")
	}
}
