package manifest

import (
	"regexp"
	"strconv"
	"strings"
)

var (
	modeRE  = regexp.MustCompile(`^[0-7]{3,4}$`)
	ownerRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*\$?$`)
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
// numeric ids. A part of digits only is an id and must be at most MaxID:
// "99999999999:1" and "4294967295:0" are refused.
func ValidOwner(s string) bool {
	u, g, ok := strings.Cut(s, ":")
	return ok && validOwnerPart(u) && validOwnerPart(g)
}

func validOwnerPart(s string) bool {
	if !ownerRE.MatchString(s) {
		return false
	}
	if strings.Trim(s, "0123456789") == "" {
		return ValidID(s)
	}
	return true
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
