//go:build !unix

package atomicfile

import "os"

// fileOwner reports that a file's owner is not known on this system.
func fileOwner(fi os.FileInfo) (uid, gid int, ok bool) { return -1, -1, false }
