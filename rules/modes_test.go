package rules

import (
	"testing"

	"github.com/compose2manifest/compose2manifest/manifest"
)

// TestUnsafeMode: the one judge of modes nobody should choose, for a
// directory and a file, and the safer mode offered for each: 1777 is a
// shared drop box (the sticky bit keeps what others put there), 0777
// lets anyone delete it; 0600 and 0666 are file modes a directory's
// owner cannot enter.
func TestUnsafeMode(t *testing.T) {
	for _, tc := range []struct {
		mode string
		// unsafe reports whether UnsafeMode refuses it, and safer is
		// SaferMode, for a directory and for a file.
		dirUnsafe, fileUnsafe bool
		dirSafer, fileSafer   string
	}{
		{"0777", true, true, "0775", "0775"},
		{"1777", false, true, "1777", "1775"},
		{"0770", false, false, "0770", "0770"},
		{"2775", false, true, "2775", "0775"},
		{"0700", false, false, "0700", "0700"},
		{"0600", true, false, "0700", "0600"},
		{"0666", true, true, "0775", "0664"},
		{"0644", true, false, "0755", "0644"},
		{"0755", false, false, "0755", "0755"},
		{"777", true, true, "0775", "0775"},
		{"0640", true, false, "0750", "0640"},
	} {
		for _, k := range []struct {
			kind   manifest.Kind
			unsafe bool
			safer  string
		}{{manifest.KindDirectory, tc.dirUnsafe, tc.dirSafer}, {manifest.KindFile, tc.fileUnsafe, tc.fileSafer}} {
			why := UnsafeMode(k.kind, tc.mode)
			if (why != "") != k.unsafe {
				t.Errorf("UnsafeMode(%s, %s) = %q, want unsafe %v", k.kind, tc.mode, why, k.unsafe)
			}
			safer := SaferMode(k.kind, tc.mode)
			if safer != k.safer {
				t.Errorf("SaferMode(%s, %s) = %q, want %q", k.kind, tc.mode, safer, k.safer)
			}
			if why := UnsafeMode(k.kind, safer); why != "" {
				t.Errorf("SaferMode(%s, %s) = %s, which UnsafeMode refuses: %s", k.kind, tc.mode, safer, why)
			}
		}
	}
	for _, bad := range []string{"", "x", "0800", "750 ", "07777"} {
		if UnsafeMode(manifest.KindDirectory, bad) != "" || SaferMode(manifest.KindDirectory, bad) != "" {
			t.Errorf("%q, not a mode, is judged", bad)
		}
	}
}

// TestRootUser: a user: starts its process as root when its user is 0,
// root, or empty before a ':' (docker runs ":" and ":1000" as uid 0); no
// user: at all runs as the image's.
func TestRootUser(t *testing.T) {
	for user, want := range map[string]bool{
		"0": true, "0:0": true, "root": true, "root:wheel": true, ":": true, ":1000": true,
		"": false, "1000": false, "1000:": false, "1000:0": false, "app:root": false,
	} {
		if got := RootUser(user); got != want {
			t.Errorf("RootUser(%q) = %v, want %v", user, got, want)
		}
	}
}
