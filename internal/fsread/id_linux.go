//go:build linux

package fsread

import (
	"os"
	"syscall"
)

// sysID fills the device, inode and ctime of id from fi.
func sysID(fi os.FileInfo, id *ID) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id.Dev, id.Ino = uint64(st.Dev), uint64(st.Ino)
		id.Ctime = st.Ctim.Sec*1e9 + st.Ctim.Nsec
	}
}
