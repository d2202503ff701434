package project

import (
	"os"
	"time"

	"github.com/compose2manifest/compose2manifest/internal/fsread"
)

// versions holds, for files compose-go reads itself, the version each
// was found at before anything read it: compose-go takes files by path,
// never as bytes, so the bytes Inputs hashes are those converted only if
// the file is that same version throughout.
type versions map[string]fsread.ID

// add records the version of the file at path now, unless one is
// recorded already. A file that cannot be stat'ed is left out: the read
// reports it.
func (v versions) add(path string) {
	if _, ok := v[path]; ok {
		return
	}
	if fi, err := os.Stat(path); err == nil {
		v[path] = fsread.IDOf(fi)
	}
}

// checkVersion returns a *fsread.ChangedError when the file at path,
// read by Inputs as version id, may not be the version compose-go read:
// another version was found before the load (seen), or, when none was
// (a service's env_file or label_file, named only once the project is
// loaded), it changed after the load began (start).
func checkVersion(path string, id fsread.ID, seen versions, start time.Time) error {
	if before, ok := seen[path]; ok {
		if before != id {
			return &fsread.ChangedError{What: "input file", Path: path}
		}
		return nil
	}
	if id.Changed(start) {
		return &fsread.ChangedError{What: "input file", Path: path}
	}
	return nil
}
