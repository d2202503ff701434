//go:build unix && !linux

package fsread

import (
	"os"
	"syscall"
)

// sysID fills the device and inode of id from fi (the ctime field's name
// differs between these systems: only size and mtime tell a file written
// in place).
func sysID(fi os.FileInfo, id *ID) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id.Dev, id.Ino = uint64(st.Dev), uint64(st.Ino)
	}
}
