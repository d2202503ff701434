package manifest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

var (
	modeRE = regexp.MustCompile(`^[0-7]{3,4}$`)
	nameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*\$?$`)
)

// MaxID is the largest uid or gid an owner may name: 2^32-2. uid_t and
// gid_t are 32 bits, and 2^32-1 is (uid_t)-1, which chown(2) takes as
// "leave unchanged", so no file can be owned by it.
const MaxID = 1<<32 - 2

// ValidID reports whether s is a numeric uid or gid: decimal digits of a
// number from 0 to MaxID. Every owner is judged by it: declarations, ask,
// convert's evidence, the image table, the survey and check.
func ValidID(s string) bool {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return false
	}
	n, err := strconv.ParseUint(s, 10, 32)
	return err == nil && n <= MaxID
}

// ValidOwner reports whether s is "USER:GROUP" with both parts names or
// numeric ids (see OwnerProblem): "99999999999:1", "4294967295:0",
// "1e3:1000" and "0x10:0" are refused.
func ValidOwner(s string) bool { return OwnerProblem(s) == "" }

// NotUserGroup is what OwnerProblem says of an owner without two
// non-empty parts, so a caller with its own words for that case can tell.
const NotUserGroup = `is not "USER:GROUP" (both parts, names or numeric ids, such as "0:0")`

// MaxNameLen is the longest user or group name an owner may name, as
// useradd and groupadd take it (32 bytes).
const MaxNameLen = 32

// OwnerProblem returns what is wrong with s as an owner, or "" when it is
// "USER:GROUP" with both parts a numeric id (decimal digits only, at most
// MaxID) or a user or group name as useradd's NAME_REGEX takes it (a
// letter or underscore, then letters, digits, '_' or '-', optionally a
// final '$', at most MaxNameLen bytes; a '.' after the first byte is
// kept, as shadow's useradd and systemd's relaxed check take "john.doe"). A part that starts with a digit
// is an id and must be digits only: "1e3" is neither a number nor a name
// any host has. The text follows the value it is about, quoted by the
// caller: `"1e3:1000" has user "1e3", which starts with a digit…`. Every
// owner is judged by it: declarations, ask, manifests and check.
func OwnerProblem(s string) string {
	u, g, ok := strings.Cut(s, ":")
	if !ok || u == "" || g == "" {
		return NotUserGroup
	}
	if p := ownerPartProblem("user", u); p != "" {
		return p
	}
	return ownerPartProblem("group", g)
}

func ownerPartProblem(what, s string) string {
	switch {
	case s[0] >= '0' && s[0] <= '9':
		if strings.Trim(s, "0123456789") != "" {
			return fmt.Sprintf("has %s %q, which starts with a digit but is not all digits: a numeric id is decimal digits only, a name starts with a letter or '_'", what, s)
		}
		if !ValidID(s) {
			return fmt.Sprintf("has %s id %s, over %d, the largest id a file can be owned by (%d is (uid_t)-1, which chown takes as \"leave unchanged\")", what, s, MaxID, uint64(MaxID)+1)
		}
	case len(s) > MaxNameLen:
		return fmt.Sprintf("has %s name %q, longer than %d bytes, which useradd and groupadd refuse", what, s, MaxNameLen)
	case !nameRE.MatchString(s):
		return fmt.Sprintf("has %s %q, which is not a user or group name: a letter or '_', then letters, digits, '_', '-' or '.', optionally a final '$', at most %d bytes", what, s, MaxNameLen)
	}
	return ""
}

// ValidMode reports whether s is 3 or 4 octal digits, such as "0750".
func ValidMode(s string) bool { return modeRE.MatchString(s) }

// moduleRE is what a compose project name may be (compose-go's
// loader.NormalizeProjectName keeps only these), and so a module name.
var moduleRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]*$`)

// MaxModuleLen is the longest module name, in bytes: DIR/MODULE.yaml must
// be a file name a file system takes (255 bytes), with room to spare.
const MaxModuleLen = 200

// ValidModule reports whether s can name a module: a lowercase letter or
// digit, then lowercase letters, digits, '.', '_' or '-', as a compose
// project name, at most MaxModuleLen bytes. It names /etc/MODULE and the
// output file DIR/MODULE.yaml, so a slash or a newline in it is refused.
func ValidModule(s string) bool {
	return len(s) <= MaxModuleLen && moduleRE.MatchString(s) && s != "." && s != ".."
}
