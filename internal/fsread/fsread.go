// Package fsread reads files whose content nobody vouches for: compose
// projects, manifests in a pull request, files left in an output folder.
// Each read is of a regular file, bounded, and never blocks on a FIFO or
// reads a device without end.
package fsread

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrNotRegular is the error of a read of a directory, device, FIFO or
// socket.
var ErrNotRegular = errors.New("not a regular file")

// Regular reports, from os.Stat (after symbolic links), whether path is a
// regular file of at most max bytes: nil if it is; an error naming what
// and path otherwise. An error for a missing file satisfies
// os.IsNotExist.
func Regular(what, path string, max int64) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("%s %s is a directory: %w", what, path, ErrNotRegular)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s %s is a %s: %w", what, path, kind(fi.Mode()), ErrNotRegular)
	case fi.Size() > max:
		return fmt.Errorf("%s %s is %d bytes, more than the %d a %s may have", what, path, fi.Size(), max, what)
	}
	return nil
}

// File returns the content of the regular file at path, of at most max
// bytes (see Regular). It reads at most max+1 bytes, so a file that grows
// between the check and the read is refused too.
func File(what, path string, max int64) ([]byte, error) {
	if err := Regular(what, path, max); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s %s is more than the %d bytes a %s may have", what, path, max, what)
	}
	return data, nil
}

// kind names a file mode that is not a regular file's.
func kind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		return "socket"
	case m&os.ModeCharDevice != 0:
		return "character device"
	case m&os.ModeDevice != 0:
		return "device"
	}
	return "special file"
}
