package imageconfig

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
)

// PathType is what an image's layers hold at a path.
type PathType string

// The types of PathFact.
const (
	// Directory: a directory, whose owner and mode docker gives a new
	// (empty) named or anonymous volume mounted there, copying its
	// content into it.
	Directory PathType = "directory"
	// File: a regular file.
	File PathType = "file"
	// Absent: nothing, and no link on the way: docker makes a new volume
	// mounted there root's, mode 0755.
	Absent PathType = "absent"
	// Link: a link (symbolic or hard), or a path through a symbolic link,
	// or anything else (a device, a fifo): no evidence of a directory.
	Link PathType = "link"
)

// PathFact is what an image's layers, flattened as a container sees them
// (whiteouts applied), hold at one container path.
type PathFact struct {
	// Path is the container path, absolute and clean.
	Path string
	Type PathType
	// Owner ("UID:GID") and Mode (octal, four digits with the setuid,
	// setgid and sticky bits: "0755", "1777") are the entry's, for a
	// Directory or a File; "" otherwise.
	Owner, Mode string
}

// String writes f as the lock does: "directory 999:999 0700", "absent".
func (f PathFact) String() string {
	if f.Type == Directory || f.Type == File {
		return fmt.Sprintf("%s %s %s", f.Type, f.Owner, f.Mode)
	}
	return string(f.Type)
}

// ParsePathFact parses the lock's form of the fact of container path p
// (String).
func ParsePathFact(p, s string) (PathFact, error) {
	f := PathFact{Path: p}
	fields := strings.Fields(s)
	switch {
	case len(fields) == 1 && (fields[0] == string(Absent) || fields[0] == string(Link)):
		f.Type = PathType(fields[0])
		return f, nil
	case len(fields) == 3 && (fields[0] == string(Directory) || fields[0] == string(File)):
		if !ownerRE.MatchString(fields[1]) || !modeRE.MatchString(fields[2]) {
			break
		}
		f.Type, f.Owner, f.Mode = PathType(fields[0]), fields[1], fields[2]
		return f, nil
	}
	return PathFact{}, fmt.Errorf("%q: want absent, link, or directory|file UID:GID MODE (directory 999:999 0700)", s)
}

// pathFacts reads img's layers, flattened, once, and returns what they
// hold at each of paths, sorted by path. Only tar headers are kept.
func pathFacts(img v1.Image, paths []string) ([]PathFact, error) {
	want := map[string]bool{}
	for _, p := range paths {
		if !path.IsAbs(p) || path.Clean(p) != p || p == "/" {
			return nil, fmt.Errorf("container path %q: want an absolute, clean path below /", p)
		}
		for q := p; q != "/"; q = path.Dir(q) {
			want[q] = true
		}
	}
	seen := map[string]*tar.Header{}
	rc := mutate.Extract(img)
	defer rc.Close()
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		name := "/" + strings.Trim(strings.TrimPrefix(h.Name, "./"), "/")
		if want[name] && seen[name] == nil {
			seen[name] = h
		}
	}
	var out []PathFact
	for _, p := range slices.Sorted(slices.Values(slices.Compact(slices.Sorted(slices.Values(paths))))) {
		out = append(out, factOf(p, seen))
	}
	return out, nil
}

// factOf says what the headers seen (by container path) hold at p: a
// link on the way to p, or at it, makes it a Link.
func factOf(p string, seen map[string]*tar.Header) PathFact {
	for q := path.Dir(p); q != "/"; q = path.Dir(q) {
		if h := seen[q]; h != nil && h.Typeflag != tar.TypeDir {
			return PathFact{Path: p, Type: Link}
		}
	}
	h := seen[p]
	f := PathFact{Path: p}
	switch {
	case h == nil:
		f.Type = Absent
	case h.Typeflag == tar.TypeDir:
		f.Type = Directory
	case h.Typeflag == tar.TypeReg:
		f.Type = File
	default:
		f.Type = Link
	}
	if f.Type == Directory || f.Type == File {
		f.Owner = fmt.Sprintf("%d:%d", h.Uid, h.Gid)
		f.Mode = fmt.Sprintf("%04o", h.Mode&0o7777)
	}
	return f
}
