//go:build unix

package check

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByMe reports whether fi is owned by the process's user.
func ownedByMe(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
