package convert

import "testing"

// TestMayWrite: who may write to a path is decided as the kernel decides
// it: the owner by the owner's bits alone (a directory the process user
// owns with mode 0500 is not its to write), a member of the group by the
// group's, anyone else by everyone's; root writes anywhere.
func TestMayWrite(t *testing.T) {
	for _, tc := range []struct {
		user, owner, mode string
		want              bool
	}{
		{"1000:1000", "1000:1000", "0700", true},
		{"1000:1000", "1000:1000", "0500", false},
		{"1000:1000", "1000:1000", "0555", false},
		{"1000:1000", "1000:1000", "0077", false}, // the owner's bits, not the others'
		{"1000:1000", "1000:1000", "", true},      // mode not known yet
		{"1000:1000", "1000:2000", "0570", false}, // the owner, though its group may
		{"1000:2000", "3000:2000", "0770", true},
		{"1000:2000", "3000:2000", "0750", false},
		{"1000:2000", "3000:2000", "0707", false}, // the group's bits, not everyone's
		{"1000:2000", "3000:4000", "0777", true},
		{"1000:2000", "3000:4000", "1777", true},
		{"1000:2000", "3000:4000", "0775", false},
		{"1000:2000", "3000:4000", "", false},
		{"0:0", "1000:1000", "0500", true},
		{"0:5", "1000:1000", "0000", true},
	} {
		if got := mayWrite(tc.user, tc.owner, tc.mode); got != tc.want {
			t.Errorf("mayWrite(%s, %s, %q) = %v, want %v", tc.user, tc.owner, tc.mode, got, tc.want)
		}
	}
}
