package survey

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/internal/fsread"
	"github.com/compose2manifest/compose2manifest/manifest"
)

// Version is the survey format's version.
const Version = 1

// MaxSize is the most bytes Read reads: a survey has one small object
// per source and image.
const MaxSize = 4 << 20

// Survey is what the survey script found on the legacy host.
type Survey struct {
	Version int `json:"version"`
	// Host is the legacy host's name (uname -n), Date when the script
	// ran (UTC, RFC 3339); Time is Date parsed.
	Host string    `json:"host"`
	Date string    `json:"date"`
	Time time.Time `json:"-"`
	// Project is the compose project name the script looked for.
	Project string `json:"project"`
	// User is whose home ~ is, Home that home ("" when not found).
	User string `json:"user"`
	Home string `json:"home,omitempty"`
	// Docker reports whether docker was installed there; DockerError
	// says why docker ps failed, "" when it did not.
	Docker      bool   `json:"docker"`
	DockerError string `json:"docker_error,omitempty"`
	// Containers are the project's containers as docker compose
	// labelled them; Projects every compose project's name on the host.
	Containers []Container `json:"containers,omitempty"`
	Projects   []string    `json:"projects,omitempty"`
	Sources    []Source    `json:"sources"`
	Images     []Image     `json:"images"`
}

// Container is one container docker compose made for the project.
type Container struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Service string `json:"service"`
	Image   string `json:"image"`
	// WorkingDir is where docker compose ran (the project's checkout),
	// its com.docker.compose.project.working_dir label.
	WorkingDir string `json:"working_dir"`
}

// Type is what a source is: a directory, a regular file, or another
// kind of file (a socket, a device).
type Type string

// The types of a source.
const (
	Directory Type = "directory"
	File      Type = "file"
	Other     Type = "other"
)

// Source is what one source of the project is on the legacy host.
type Source struct {
	// Section and Key name its declaration, as in the declarations file.
	Section string `json:"section"`
	Key     string `json:"key"`
	// Path is where its data was looked for: the bind source, the
	// volume's mount point, the home joined; "" when it was not located,
	// and Error says why.
	Path  string `json:"path,omitempty"`
	Error string `json:"error,omitempty"`
	// Volume is the Docker volume (a named volume's, or the one an
	// anonymous volume turned out to be), Driver its driver; Service
	// and Container the anonymous volume's service and container.
	Volume    string `json:"volume,omitempty"`
	Driver    string `json:"driver,omitempty"`
	Service   string `json:"service,omitempty"`
	Container string `json:"container,omitempty"`
	// Link is where Path points when it is a symbolic link; the other
	// facts are of what it points to, as docker mounts it.
	Link string `json:"link,omitempty"`
	// Exists reports whether Path exists; Type, Owner (numeric
	// UID:GID) and Mode (octal, as stat prints it: 750, 2775) are set
	// when it does.
	Exists bool   `json:"exists"`
	Type   Type   `json:"type,omitempty"`
	Owner  string `json:"owner,omitempty"`
	Mode   string `json:"mode,omitempty"`
	// Bytes is a file's size; UsageKiB a directory's disk usage and
	// Files how many entries that are not directories it holds, on its
	// own file system; Complete false when find could not read it all.
	Bytes    *int64 `json:"bytes,omitempty"`
	UsageKiB *int64 `json:"usage_kib,omitempty"`
	Files    *int64 `json:"files,omitempty"`
	Complete *bool  `json:"complete,omitempty"`
	// Line is the line of the survey file its object starts on, 0 when
	// the survey was not read from one.
	Line int `json:"-"`
}

// Image is what docker image inspect told of one image.
type Image struct {
	Image string `json:"image"`
	// Found reports whether the image is on the host; ID, User and
	// Volumes are then its config's.
	Found   bool     `json:"found,omitempty"`
	ID      string   `json:"id,omitempty"`
	User    string   `json:"user,omitempty"`
	Volumes []string `json:"volumes,omitempty"`
	Error   string   `json:"error,omitempty"`
}

// Provenance is how a value taken from s says where it came from:
// "survey HOST DATE".
func (s *Survey) Provenance() string { return "survey " + s.Host + " " + s.Date }

// Source returns the facts of the source of the declaration section and
// key, nil when s has none.
func (s *Survey) Source(section, key string) *Source {
	for i := range s.Sources {
		if s.Sources[i].Section == section && s.Sources[i].Key == key {
			return &s.Sources[i]
		}
	}
	return nil
}

// Image returns what s found of the image ref, nil when s has nothing.
func (s *Survey) Image(ref string) *Image {
	for i := range s.Images {
		if s.Images[i].Image == ref {
			return &s.Images[i]
		}
	}
	return nil
}

// ManifestMode is the source's mode as the manifest writes modes (four
// octal digits: 0750), "" when the survey has none.
func (src *Source) ManifestMode() string {
	if src.Mode == "" {
		return ""
	}
	if len(src.Mode) == 3 {
		return "0" + src.Mode
	}
	return src.Mode
}

var (
	ownerRE = regexp.MustCompile(`^[0-9]+:[0-9]+$`)
	modeRE  = regexp.MustCompile(`^[0-7]{3,4}$`)
	hexRE   = regexp.MustCompile(`^[0-9a-f]+$`)
	dateRE  = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$`)
)

// ReadFile reads the survey in the regular file path (at most MaxSize
// bytes) with Read.
func ReadFile(path string) (*Survey, error) {
	data, err := fsread.File("survey", path, MaxSize)
	if err != nil {
		return nil, err
	}
	return Read(path, data)
}

// Read reads a survey as the script prints it, strictly: unknown fields,
// a second value, a wrong type or a value the script never writes are
// errors naming name and where (a line and column, or the field).
func Read(name string, data []byte) (*Survey, error) {
	if len(data) > MaxSize {
		return nil, fmt.Errorf("%s: %d bytes: a survey has at most %d", name, len(data), MaxSize)
	}
	var s Survey
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%s:%s", name, decodeError(data, dec, err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s:%s: more than one JSON value", name, position(data, dec.InputOffset()-1))
	}
	var raw any
	_ = json.Unmarshal(data, &raw) // decoded strictly before
	if err := exactMembers(raw, reflect.TypeFor[Survey](), ""); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if err := s.valid(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if err := present(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	sourceLines(data, s.Sources)
	return &s, nil
}

// sourceLines sets the Line of each of sources, decoded from data, to
// the line its object starts on in data.
func sourceLines(data []byte, sources []Source) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return
		}
		if key != "sources" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return
		}
		for i := 0; dec.More() && i < len(sources); i++ {
			var obj json.RawMessage
			if dec.Decode(&obj) != nil {
				return
			}
			start := dec.InputOffset() - int64(len(obj))
			sources[i].Line = bytes.Count(data[:start], []byte("\n")) + 1
		}
		return
	}
}

// exactMembers checks the members of v, a JSON value decoded as any,
// against t's json tags as the schema does and encoding/json does not:
// a name matches its tag exactly (encoding/json takes "dAte" for
// "date"), and a member whose tag has no omitempty is required (but
// exists, which present judges). at names where v is, for errors.
func exactMembers(v any, t reflect.Type, at string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice:
		list, _ := v.([]any)
		for i, x := range list {
			if err := exactMembers(x, t.Elem(), fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		fields := map[string]reflect.StructField{}
		for i := range t.NumField() {
			f := t.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			fields[name] = f
			if _, given := obj[name]; !given && opts != "omitempty" && name != "exists" {
				return fmt.Errorf("%s: member %q missing", strings.TrimPrefix(at+".", "."), name)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			f, ok := fields[k]
			if !ok {
				return fmt.Errorf("%s: unknown member %q (member names are exact, in lower case)", strings.TrimPrefix(at+"."+k, "."), k)
			}
			if err := exactMembers(obj[k], f.Type, at+"."+k); err != nil {
				return err
			}
		}
	}
	return nil
}

// decodeError is err with the line and column of data it happened at.
func decodeError(data []byte, dec *json.Decoder, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return position(data, syn.Offset-1) + ": " + err.Error()
	case errors.As(err, &typ):
		return position(data, typ.Offset) + ": " + err.Error()
	case errors.Is(err, io.EOF):
		return " no JSON value"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return position(data, int64(len(data))) + ": " + err.Error()
	}
	return position(data, dec.InputOffset()) + ": " + err.Error()
}

// position is the 1-based line and column of the byte at offset in data
// (just after its end, for an offset past it).
func position(data []byte, offset int64) string {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(offset) - bytes.LastIndexByte(before, '\n')
	return strconv.Itoa(line) + ":" + strconv.Itoa(col)
}

// present reports what the typed form of s cannot tell apart from an
// absent member: an empty home or source member (the script writes
// none: it leaves the member out), and a path without exists or the
// other way round (the script writes exists wherever it writes a path:
// false is a fact).
func present(data []byte, s *Survey) error {
	var shadow struct {
		Home    *string
		Sources []map[string]json.RawMessage
	}
	_ = json.Unmarshal(data, &shadow) // decoded strictly before
	if shadow.Home != nil && *shadow.Home == "" {
		return fmt.Errorf("home: empty (left out where not found)")
	}
	for i, m := range shadow.Sources {
		at := fmt.Sprintf("sources[%d] (%s %s)", i, s.Sources[i].Section, strconv.Quote(s.Sources[i].Key))
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if string(m[k]) == `""` {
				return fmt.Errorf("%s: %s: empty (left out where not known)", at, k)
			}
		}
		_, path := m["path"]
		_, exists := m["exists"]
		if path != exists {
			return fmt.Errorf("%s: want exists with a path, and only with one", at)
		}
	}
	return nil
}

// valid reports the first value of s the script never writes.
func (s *Survey) valid() error {
	if s.Version != Version {
		return fmt.Errorf("version %d, want %d", s.Version, Version)
	}
	if s.Host == "" {
		return fmt.Errorf("host: want the legacy host's name")
	}
	t, err := time.Parse(time.RFC3339, s.Date)
	if err != nil || !dateRE.MatchString(s.Date) {
		return fmt.Errorf("date %q: want UTC as date -u +%%Y-%%m-%%dT%%H:%%M:%%SZ prints it", s.Date)
	}
	s.Time = t
	if s.Home != "" && s.Home[0] != '/' {
		return fmt.Errorf("home %q: want an absolute path", s.Home)
	}
	if s.Sources == nil || s.Images == nil {
		return fmt.Errorf("sources and images: want both, lists")
	}
	for i, c := range s.Containers {
		if !hexRE.MatchString(c.ID) {
			return fmt.Errorf("containers[%d]: id %q: want a container ID", i, c.ID)
		}
	}
	seen := map[[2]string]int{}
	for i := range s.Sources {
		src := &s.Sources[i]
		if err := src.valid(); err != nil {
			return fmt.Errorf("sources[%d] (%s %s): %v", i, src.Section, strconv.Quote(src.Key), err)
		}
		// The script writes each source once: two entries would make the
		// first one's facts win by their order alone.
		if j, ok := seen[[2]string{src.Section, src.Key}]; ok {
			return fmt.Errorf("sources[%d] (%s %s): the same source as sources[%d]; a survey has each source once", i, src.Section, strconv.Quote(src.Key), j)
		}
		seen[[2]string{src.Section, src.Key}] = i
	}
	for i, img := range s.Images {
		if img.Image == "" {
			return fmt.Errorf("images[%d]: no image", i)
		}
	}
	return s.bindPaths()
}

// bindPaths reports a bind's path the script never writes: the script
// looks for an absolute source at itself, a ~ source in the home it
// found, and every relative one in one checkout (path.Join of the
// checkout and the source as written). A plan copies data from there,
// so a path that says otherwise (./library found at /etc/ssh) is a
// survey edited or mixed up, not evidence.
func (s *Survey) bindPaths() error {
	checkout, first := "", -1
	for i := range s.Sources {
		src := &s.Sources[i]
		if src.Section != declare.SectionBinds || src.Path == "" {
			continue
		}
		at := fmt.Sprintf("sources[%d] (%s %s)", i, src.Section, strconv.Quote(src.Key))
		key := src.Key
		switch {
		case strings.HasPrefix(key, "/"):
			if want := path.Clean(key); src.Path != want {
				return fmt.Errorf("%s: path %q: the script looks for an absolute source at %s itself", at, src.Path, want)
			}
		case key == "~" || strings.HasPrefix(key, "~/"):
			if want := path.Join(s.Home, strings.TrimPrefix(key, "~")); s.Home != "" && src.Path != want {
				return fmt.Errorf("%s: path %q: the script looks for it at %s, in the home %s it found", at, src.Path, want, s.Home)
			}
		case slices.Contains(strings.Split(path.Clean(key), "/"), ".."):
			// Above the checkout: its folder cannot be told from it.
		default:
			rel := path.Clean(key)
			dir := src.Path
			if rel != "." {
				var ok bool
				if dir, ok = strings.CutSuffix(src.Path, "/"+rel); !ok {
					return fmt.Errorf("%s: path %q: the script looks for a relative source in the checkout, at CHECKOUT/%s", at, src.Path, rel)
				}
				if dir == "" {
					dir = "/" // a checkout at the root
				}
			}
			switch {
			case first < 0:
				checkout, first = dir, i
			case dir != checkout:
				return fmt.Errorf("%s: path %q is in %s, but sources[%d] was found in %s: the script looks for every relative source in one checkout", at, src.Path, dir, first, checkout)
			}
		}
		switch {
		case src.Type == File && (src.UsageKiB != nil || src.Files != nil):
			return fmt.Errorf("%s: a file with a directory's usage_kib or files", at)
		case src.Type == Directory && src.Bytes != nil:
			return fmt.Errorf("%s: a directory with a file's bytes", at)
		}
	}
	return nil
}

// idRange reports whether both ids of owner ("UID:GID", digits) are ids
// a file can have: at most 2^32-2 (2^32-1 is no id, chown's -1).
func idRange(owner string) bool {
	uid, gid, _ := strings.Cut(owner, ":")
	for _, id := range []string{uid, gid} {
		if !manifest.ValidID(id) {
			return false
		}
	}
	return true
}

// valid reports the first fact of src the script never writes.
func (src *Source) valid() error {
	switch {
	case src.Section != declare.SectionBinds && src.Section != declare.SectionVolumes && src.Section != declare.SectionAnonymous:
		return fmt.Errorf("section %q: want %s, %s or %s", src.Section, declare.SectionBinds, declare.SectionVolumes, declare.SectionAnonymous)
	case src.Key == "":
		return fmt.Errorf("no key")
	case src.Path != "" && src.Path[0] != '/':
		return fmt.Errorf("path %q: want an absolute path", src.Path)
	case src.Container != "" && !hexRE.MatchString(src.Container):
		return fmt.Errorf("container %q: want a container ID", src.Container)
	case src.Path == "" && (src.Exists || src.Type != "" || src.Link != ""):
		return fmt.Errorf("facts without a path")
	case !src.Exists && (src.Type != "" || src.Owner != "" || src.Mode != "" || src.Bytes != nil || src.UsageKiB != nil || src.Files != nil || src.Complete != nil):
		return fmt.Errorf("facts of a path that does not exist")
	case src.Type != "" && src.Type != Directory && src.Type != File && src.Type != Other:
		return fmt.Errorf("type %q: want directory, file or other", src.Type)
	case src.Owner != "" && (!ownerRE.MatchString(src.Owner) || !idRange(src.Owner)):
		return fmt.Errorf("owner %q: want UID:GID, each at most 4294967294", src.Owner)
	case src.Mode != "" && !modeRE.MatchString(src.Mode):
		return fmt.Errorf("mode %q: want 3 or 4 octal digits", src.Mode)
	}
	for i, n := range []*int64{src.Bytes, src.UsageKiB, src.Files} {
		if n != nil && *n < 0 {
			return fmt.Errorf("%s %d: want a count", []string{"bytes", "usage_kib", "files"}[i], *n)
		}
	}
	return nil
}
