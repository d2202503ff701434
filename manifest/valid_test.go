package manifest_test

import (
	"strings"
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
		// Numeric ids fit in 32 bits; a part that starts with a digit is an
		// id, digits only: "1e3" and "0x10" are neither ids nor names.
		{"4294967294:4294967294", true}, {"4294967295:4294967295", false}, {"1000:0100", true}, {"1abc:2x", false},
		{"1e3:1000", false}, {"0x10:0", false}, {"0:0x10", false}, {"1000:1e3", false},
		// Names: a letter or '_' first, then letters, digits, '_', '-', '.', a final '$', at most 32 bytes.
		{"_apt:nogroup", true}, {"a$:b", true}, {"a$b:c", false}, {"a:b:c", false}, {".x:y", false}, {"x:-y", false},
		{"a+b:c", false}, {"é:c", false}, {"a\nb:c", false},
		{"a234567890123456789012345678901b:c", true}, {"a2345678901234567890123456789012c:c", false},
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
		"4294967294:4294967294": true, "4294967295:0": false, "0:4294967295": false, "4294967295x:0": false,
	} {
		if got := manifest.ValidOwner(s); got != want {
			t.Errorf("ValidOwner(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestOwnerProblem: what is wrong with an owner is said, not only that it
// is not "USER:GROUP": an id over MaxID, a part that starts with a digit
// and is no number, a name no useradd takes.
func TestOwnerProblem(t *testing.T) {
	for s, want := range map[string]string{
		"0:0":                                 "",
		"1000":                                `is not "USER:GROUP"`,
		"1000:":                               `is not "USER:GROUP"`,
		"4294967295:0":                        `has user id 4294967295, over 4294967294`,
		"0:4294967296":                        `has group id 4294967296, over 4294967294`,
		"1e3:1000":                            `has user "1e3", which starts with a digit but is not all digits`,
		"0:0x10":                              `has group "0x10", which starts with a digit but is not all digits`,
		"a b:c":                               `has user "a b", which is not a user or group name`,
		"a234567890123456789012345678901bc:c": `has user name "a234567890123456789012345678901bc", longer than 32 bytes`,
	} {
		got := manifest.OwnerProblem(s)
		if want == "" && got != "" || !strings.HasPrefix(got, want) {
			t.Errorf("OwnerProblem(%q) = %q, want prefix %q", s, got, want)
		}
	}
}
