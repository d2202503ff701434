package imageconfig

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/compose2manifest/compose2manifest/internal/atomicfile"
	"github.com/compose2manifest/compose2manifest/internal/fsread"
	"go.yaml.in/yaml/v3"
)

// LockFile is the image lock's name, beside the declarations file.
const LockFile = "compose2manifest.lock.yaml"

// MaxLockSize bounds the lock file ReadLock reads, in bytes.
const MaxLockSize = 1 << 20

// Marker starts every lock compose2manifest writes: a file without it is
// a person's, which a refresh replaces only with force.
const Marker = "# Image lock written by compose2manifest"

// Lock is the image lock: for each image reference the project runs,
// its config as read once (Entry), so that conversions read the same
// facts offline.
type Lock struct {
	// Images are the entries, one per reference, sorted by it.
	Images []Entry
}

// Entry is the config of one image reference, pinned by digest.
type Entry struct {
	// Image is the reference as the compose file gives it.
	Image string
	Config
	// Source is where the config was read, ReadAt when (UTC, to the
	// second).
	Source Source
	ReadAt time.Time
	// Line is the entry's line in the lock file, 0 for one not read
	// from a file.
	Line int
	// Origin, for an entry not read from a lock file, says where its
	// facts were read ("survey legacy 2026-12-03T09:00:00Z, docker image
	// inspect"); a lock file never holds it.
	Origin string
}

// Provenance is how a value taken from e says where it came from:
// "image config ID (FILE:LINE)", or "image config ID (ORIGIN)" for an
// entry not read from a lock file.
func (e Entry) Provenance(file string) string {
	switch {
	case e.Line > 0:
		return fmt.Sprintf("image config %s (%s:%d)", e.ID, file, e.Line)
	case e.Origin != "":
		return fmt.Sprintf("image config %s (%s)", e.ID, e.Origin)
	}
	return "image config " + e.ID
}

// Entry returns the entry of the image reference ref, nil when l has none.
func (l *Lock) Entry(ref string) *Entry {
	if l == nil {
		return nil
	}
	for i := range l.Images {
		if l.Images[i].Image == ref {
			return &l.Images[i]
		}
	}
	return nil
}

// Error is a problem with one place of a lock file.
type Error struct {
	File string
	Line int
	Msg  string
}

// Error formats the error as FILE:LINE: MSG.
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// ReadLock reads the lock file at p, named file in errors: nil, nil
// when there is none. A lock that is not a regular file, or is larger
// than MaxLockSize, is an error.
func ReadLock(file, p string) (*Lock, []byte, error) {
	if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	data, err := fsread.File("image lock", p, MaxLockSize)
	if err != nil {
		return nil, nil, err
	}
	l, err := ParseLock(file, data)
	return l, data, err
}

var (
	digestRE = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	envRE    = regexp.MustCompile(`^[^=\x00-\x1f]+$`)
	ownerRE  = regexp.MustCompile(`^[0-9]{1,10}:[0-9]{1,10}$`)
	modeRE   = regexp.MustCompile(`^[0-7]{4}$`)
)

// ParseLock parses and validates a lock file's bytes, named file in errors.
func ParseLock(file string, data []byte) (*Lock, error) {
	fail := func(line int, format string, args ...any) error {
		return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if len(data) > MaxLockSize {
		return nil, fail(0, "%d bytes, more than the %d an image lock may have", len(data), MaxLockSize)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fail(0, "%v", err)
	}
	if len(doc.Content) == 0 {
		return nil, fail(0, "empty: want version: 1 and images:")
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fail(root.Line, "want a mapping with version: 1 and images:")
	}
	l := &Lock{}
	version := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "version":
			if v.Kind != yaml.ScalarNode || v.Value != "1" {
				return nil, fail(v.Line, "version: want 1")
			}
			version = true
		case "images":
			if v.Kind != yaml.SequenceNode {
				return nil, fail(v.Line, "images: want a list of entries")
			}
			for _, n := range v.Content {
				e, err := parseEntry(fail, n)
				if err != nil {
					return nil, err
				}
				if l.Entry(e.Image) != nil {
					return nil, fail(n.Line, "image %q has a second entry", e.Image)
				}
				l.Images = append(l.Images, e)
			}
		default:
			return nil, fail(k.Line, "unknown key %q: want version, images", k.Value)
		}
	}
	if !version {
		return nil, fail(root.Line, "no version: want version: 1")
	}
	return l, nil
}

// parseEntry parses one entry of images:.
func parseEntry(fail func(int, string, ...any) error, n *yaml.Node) (Entry, error) {
	if n.Kind != yaml.MappingNode {
		return Entry{}, fail(n.Line, "an entry of images: is a mapping (image, digest, config, user, volumes, env, paths, source, read_at)")
	}
	e := Entry{Line: n.Line}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			return Entry{}, fail(k.Line, "%s: given twice", k.Value)
		}
		seen[k.Value] = true
		var err error
		switch k.Value {
		case "image", "digest", "config", "user", "source", "path", "read_at":
			if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
				return Entry{}, fail(v.Line, "%s: want a string", k.Value)
			}
			err = e.set(k.Value, v.Value)
		case "volumes":
			e.Volumes, err = list(v, func(s string) bool { return path.IsAbs(s) && path.Clean(s) == s })
		case "env":
			e.Env, err = list(v, envRE.MatchString)
		case "paths":
			e.Paths, err = pathList(v)
		default:
			return Entry{}, fail(k.Line, "unknown key %q: want image, digest, config, user, volumes, env, paths, source, path, read_at", k.Value)
		}
		if err != nil {
			return Entry{}, fail(v.Line, "%s: %v", k.Value, err)
		}
	}
	for _, key := range []string{"image", "digest", "config", "source", "read_at"} {
		if !seen[key] {
			return Entry{}, fail(n.Line, "no %s: an entry has image, digest, config, source and read_at", key)
		}
	}
	if (e.Source.Kind == Registry) != (e.Source.Path == "") {
		return Entry{}, fail(n.Line, "path: a layout or archive entry names its path; a registry one none")
	}
	return e, nil
}

// set sets the scalar field key of e to s.
func (e *Entry) set(key, s string) error {
	switch key {
	case "image":
		if s == "" || strings.ContainsAny(s, " \t\n") {
			return errors.New("want an image reference")
		}
		e.Image = s
	case "digest", "config":
		if !digestRE.MatchString(s) {
			return errors.New("want sha256: and 64 lowercase hex digits")
		}
		if key == "digest" {
			e.Digest = s
		} else {
			e.ID = s
		}
	case "user":
		if strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return errors.New("holds a control character")
		}
		e.User = s
	case "source":
		if !slices.Contains([]Kind{Registry, Layout, Archive}, Kind(s)) {
			return errors.New("want registry, layout or archive")
		}
		e.Source.Kind = Kind(s)
	case "path":
		if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return errors.New("want a path")
		}
		e.Source.Path = s
	case "read_at":
		t, err := time.Parse(time.RFC3339, s)
		if err != nil || !strings.HasSuffix(s, "Z") {
			return errors.New("want a UTC time, 2006-01-02T15:04:05Z")
		}
		e.ReadAt = t
	}
	return nil
}

// list parses a sequence of strings, each valid, none twice.
func list(v *yaml.Node, valid func(string) bool) ([]string, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, errors.New("want a list")
	}
	var out []string
	for _, n := range v.Content {
		if n.Kind != yaml.ScalarNode || !valid(n.Value) || slices.Contains(out, n.Value) {
			return nil, fmt.Errorf("%q is not a valid entry, or a second one", n.Value)
		}
		out = append(out, n.Value)
	}
	return out, nil
}

// pathList parses paths:, a mapping of container path to its PathFact
// (PathFact.String), each path absolute and clean, once, in order.
func pathList(v *yaml.Node) ([]PathFact, error) {
	if v.Kind != yaml.MappingNode {
		return nil, errors.New("want a mapping of container path to what the layers hold there")
	}
	var out []PathFact
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, f := v.Content[i], v.Content[i+1]
		p := k.Value
		if k.Kind != yaml.ScalarNode || !path.IsAbs(p) || path.Clean(p) != p || p == "/" {
			return nil, fmt.Errorf("%q is not an absolute, clean container path", p)
		}
		if len(out) > 0 && out[len(out)-1].Path >= p {
			return nil, fmt.Errorf("%q: paths are sorted, each once", p)
		}
		if f.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("%s: want a string", p)
		}
		fact, err := ParsePathFact(p, f.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		out = append(out, fact)
	}
	return out, nil
}

// Encode returns the lock file of l: Marker, then the entries sorted by
// image reference, deterministic.
func (l *Lock) Encode() ([]byte, error) {
	type entry struct {
		Image   string     `yaml:"image"`
		Digest  string     `yaml:"digest"`
		Config  string     `yaml:"config"`
		User    quoted     `yaml:"user"`
		Volumes []string   `yaml:"volumes,flow"`
		Env     []string   `yaml:"env,flow"`
		Paths   *yaml.Node `yaml:"paths,omitempty"`
		Source  string     `yaml:"source"`
		Path    string     `yaml:"path,omitempty"`
		ReadAt  string     `yaml:"read_at"`
	}
	doc := struct {
		Version int     `yaml:"version"`
		Images  []entry `yaml:"images"`
	}{Version: 1, Images: []entry{}}
	es := slices.Clone(l.Images)
	slices.SortFunc(es, func(a, b Entry) int { return strings.Compare(a.Image, b.Image) })
	for _, e := range es {
		doc.Images = append(doc.Images, entry{Image: e.Image, Digest: e.Digest, Config: e.ID, User: quoted(e.User),
			Volumes: nonNil(e.Volumes), Env: nonNil(e.Env), Paths: pathsNode(e.Paths), Source: string(e.Source.Kind), Path: e.Source.Path,
			ReadAt: e.ReadAt.UTC().Format(time.RFC3339)})
	}
	var b bytes.Buffer
	b.WriteString(Marker + " (convert --refresh-images): the config of each image\n")
	b.WriteString("# the project runs, pinned by digest. Convert and check --against read it offline.\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// quoted is a string always written in double quotes: a User such as
// 70:70 is a number in YAML 1.1 (sexagesimal) to some readers.
type quoted string

// MarshalYAML writes q double-quoted.
func (q quoted) MarshalYAML() (any, error) {
	return &yaml.Node{Kind: yaml.ScalarNode, Style: yaml.DoubleQuotedStyle, Value: string(q)}, nil
}

// pathsNode is the paths: mapping of facts, nil for none.
func pathsNode(facts []PathFact) *yaml.Node {
	if len(facts) == 0 {
		return nil
	}
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, f := range facts {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: f.Path},
			&yaml.Node{Kind: yaml.ScalarNode, Value: f.String()})
	}
	return n
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// WriteLock writes l to the lock file at p atomically. A file there that
// compose2manifest did not write (no Marker) is replaced only with force.
func WriteLock(p string, l *Lock, force bool) error {
	data, err := l.Encode()
	if err != nil {
		return err
	}
	isLock := func(old []byte) bool { return bytes.HasPrefix(old, []byte(Marker)) }
	return atomicfile.WriteOwned(p, data, 0o644, force, "an image lock", isLock)
}
