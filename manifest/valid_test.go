package manifest_test

import (
	"testing"

	"github.com/compose2manifest/compose2manifest/manifest"
)

func TestValidOwnerMode(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"0:0", true}, {"root:root", true}, {"www-data:adm", true}, {"user$:grp", true}, {"a.b:c_d", true},
		{"", false}, {"0", false}, {"0:", false}, {":0", false}, {"0:0:0", false}, {"a b:c", false}, {"-x:y", false},
		// Numeric ids fit in 32 bits; names that start with a digit stay names.
		{"4294967294:4294967294", true}, {"4294967295:4294967295", false}, {"1000:0100", true}, {"1abc:2x", true},
		{"99999999999:1", false}, {"1:4294967296", false}, {"18446744073709551616:0", false},
	} {
		if got := manifest.ValidOwner(tc.s); got != tc.want {
			t.Errorf("ValidOwner(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"0750", true}, {"750", true}, {"1777", true}, {"0000", true},
		{"", false}, {"75", false}, {"07500", false}, {"0758", false}, {"0o750", false}, {"rwx", false}, {" 750", false},
	} {
		if got := manifest.ValidMode(tc.s); got != tc.want {
			t.Errorf("ValidMode(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

// TestValidID: ids run from 0 to 2^32-2; 2^32-1 is (uid_t)-1, which chown
// takes as "unchanged", and every owner check shares this one limit.
func TestValidID(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "4294967294": true, "4294967295": false, "4294967296": false,
		"": false, "-1": false, "+1": false, "1a": false, "99999999999": false,
	} {
		if got := manifest.ValidID(s); got != want {
			t.Errorf("ValidID(%q) = %v, want %v", s, got, want)
		}
	}
	for s, want := range map[string]bool{
		"4294967294:4294967294": true, "4294967295:0": false, "0:4294967295": false, "4294967295x:0": true,
	} {
		if got := manifest.ValidOwner(s); got != want {
			t.Errorf("ValidOwner(%q) = %v, want %v", s, got, want)
		}
	}
}
