package fsread

import (
	"fmt"
	"io"
	"os"
	"time"
)

// ID tells one version of a file from another: which file a path named
// (device and inode where the system has them), its size, and when its
// content (mtime) and its inode (ctime, which no program can set back)
// last changed. A file written in place or replaced by a rename has
// another ID.
type ID struct {
	Dev, Ino     uint64
	Size         int64
	Mtime, Ctime int64 // nanoseconds since 1970
}

// IDOf returns the ID of the file fi describes.
func IDOf(fi os.FileInfo) ID {
	id := ID{Size: fi.Size(), Mtime: fi.ModTime().UnixNano()}
	sysID(fi, &id)
	return id
}

// Changed reports whether the file changed since the time t, by its
// content or its inode (a rename or a new link changes ctime).
func (id ID) Changed(t time.Time) bool {
	return id.Mtime > t.UnixNano() || id.Ctime > t.UnixNano()
}

// ChangedError is the error of a file whose version changed between two
// reads: the bytes one read hashed are not those another converted.
type ChangedError struct {
	What, Path string
}

func (e *ChangedError) Error() string {
	return fmt.Sprintf("%s %s changed while compose2manifest read it (written or replaced meanwhile): the bytes its digest is of may not be those converted; run again once nothing writes it", e.What, e.Path)
}

// FileID is File, with the ID of the version read: the open file's, taken
// before and after the read, which must agree (else a *ChangedError).
func FileID(what, path string, max int64) ([]byte, ID, error) {
	if err := Regular(what, path, max); err != nil {
		return nil, ID{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, ID{}, err
	}
	defer f.Close()
	before, err := f.Stat()
	if err != nil {
		return nil, ID{}, err
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, ID{}, err
	}
	if int64(len(data)) > max {
		return nil, ID{}, fmt.Errorf("%s %s is more than the %d bytes a %s may have", what, path, max, what)
	}
	after, err := f.Stat()
	if err != nil {
		return nil, ID{}, err
	}
	id := IDOf(after)
	if IDOf(before) != id || int64(len(data)) != id.Size {
		return nil, ID{}, &ChangedError{What: what, Path: path}
	}
	return data, id, nil
}

// Same returns a *ChangedError when the file at path is not the version
// id names any more (or is gone), nil when it is.
func Same(what, path string, id ID) error {
	fi, err := os.Stat(path)
	if err != nil || IDOf(fi) != id {
		return &ChangedError{What: what, Path: path}
	}
	return nil
}
