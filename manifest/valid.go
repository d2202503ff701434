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

// ValidOwner reports whether s is "USER:GROUP" with both parts names or
// numeric ids. A part of digits only is an id and must fit in 32 bits
// (uid_t and gid_t): "99999999999:1" is refused.
func ValidOwner(s string) bool {
	u, g, ok := strings.Cut(s, ":")
	return ok && validOwnerPart(u) && validOwnerPart(g)
}

func validOwnerPart(s string) bool {
	if !ownerRE.MatchString(s) {
		return false
	}
	if strings.Trim(s, "0123456789") == "" {
		_, err := strconv.ParseUint(s, 10, 32)
		return err == nil
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
