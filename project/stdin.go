package project

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// StdinName is how a compose file read from standard input is named, on
// the command line (-f -) and in positions, as docker compose names it.
const StdinName = "-"

// ReadStdin reads a compose file from r, standard input, bounded like
// every other input: at most MaxInputSize bytes.
func ReadStdin(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputSize+1))
	if err != nil {
		return nil, fmt.Errorf("-f -: reading standard input: %w", err)
	}
	if len(data) > MaxInputSize {
		return nil, fmt.Errorf("-f -: standard input is more than the %d bytes a compose file may have", MaxInputSize)
	}
	return data, nil
}

// stdinFile writes opts.Stdin, the compose file -f - names, to a file of
// its own for compose-go, which reads compose files by path (and reads
// "-" from the process's standard input, unbounded). It returns the
// file's path and a function that removes it; "" when ConfigFiles names
// no "-".
func stdinFile(opts Options) (path string, remove func(), err error) {
	remove = func() {}
	n := 0
	for _, f := range opts.ConfigFiles {
		if f == StdinName {
			n++
		}
	}
	switch {
	case n == 0:
		return "", remove, nil
	case n > 1:
		return "", remove, fmt.Errorf("-f - is given %d times: standard input holds one compose file", n)
	case opts.Stdin == nil:
		return "", remove, fmt.Errorf("-f -: no compose file from standard input was given (convert reads one; ask reads its answers there)")
	case len(opts.Stdin) > MaxInputSize:
		return "", remove, fmt.Errorf("-f -: standard input is more than the %d bytes a compose file may have", MaxInputSize)
	}
	dir, err := os.MkdirTemp("", "compose2manifest-stdin-")
	if err != nil {
		return "", remove, err
	}
	remove = func() { os.RemoveAll(dir) }
	path = filepath.Join(dir, "compose.yaml")
	if err := os.WriteFile(path, opts.Stdin, 0o600); err != nil {
		remove()
		return "", func() {}, err
	}
	return path, remove, nil
}

// firstFileDir returns the folder of the first compose file that is not
// standard input, as compose-go's working directory is taken, or "".
func firstFileDir(files []string, abs func(string) string) string {
	if i := slices.IndexFunc(files, func(f string) bool { return f != StdinName }); i >= 0 {
		return filepath.Dir(abs(files[i]))
	}
	return ""
}

// stdinNamed returns err with the path of the file standard input was
// written to (stdinFile) named "-", as the positions name it.
func stdinNamed(err error, path string) error {
	if err == nil || path == "" || !strings.Contains(err.Error(), path) {
		return err
	}
	return &stableErr{msg: strings.ReplaceAll(err.Error(), path, StdinName), err: err}
}
