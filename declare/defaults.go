package declare

import (
	"fmt"
	"strings"
)

// DefaultsFile is the name of the declarations a batch applies to every
// project under its root (convert --batch ROOT reads ROOT/DefaultsFile;
// --defaults FILE names another).
const DefaultsFile = "compose2manifest.defaults.yaml"

// ParseDefaults parses a defaults file: a declarations document that
// gives only version, layout, volume_root, acknowledge: and mounts:, what
// holds for many projects alike. Its acknowledge: items are marked Default. name
// names the file in errors; any other key is an error naming it.
func ParseDefaults(name string, data []byte) (*File, error) {
	f, err := parseData(name, data, true)
	if err != nil {
		return nil, err
	}
	for _, other := range []struct {
		key   string
		given bool
	}{
		{"module", f.Module != ""},
		{"host_project_directory", f.HostProjectDirectory != ""},
		{"compose_files", len(f.ComposeFiles) > 0},
		{"env_files", len(f.EnvFiles) > 0},
		{"profiles", len(f.Profiles) > 0},
		{SectionBinds, len(f.Binds) > 0},
		{SectionVolumes, len(f.Volumes) > 0},
		{SectionAnonymous, len(f.Anonymous) > 0},
		{SectionDirectories, len(f.Directories) > 0},
		{"images", len(f.Images) > 0},
		{"credentials", len(f.Credentials) > 0},
		{"roots", len(f.Roots) > 0},
	} {
		if other.given {
			at := name
			if line := keyLine(data, other.key); line > 0 {
				at = fmt.Sprintf("%s:%d", name, line)
			}
			return nil, fmt.Errorf("%s: %s: a defaults file gives only version, layout, volume_root, acknowledge: and mounts:, which hold for every project under the root; %s belongs in a project's own %s", at, other.key, other.key, DefaultFile)
		}
	}
	for i := range f.Acknowledge {
		f.Acknowledge[i].Default = true
	}
	return f, nil
}

// WithDefaults returns the declarations f with what the defaults d say
// and f does not: layout and volume_root where f leaves them unset, d's
// acknowledge: items besides f's, and d's mounts: (which only a defaults
// file gives). f wins where both say something.
// Either may be nil.
func WithDefaults(f, d *File) *File {
	out := Merge(d, f)
	if out == nil || f == nil || d == nil {
		return out
	}
	// f's own items first, as f wrote them: an item both give is f's.
	out.Acknowledge = append([]Ack(nil), f.Acknowledge...)
	for _, a := range d.Acknowledge {
		if !f.hasAck(a) {
			out.Acknowledge = append(out.Acknowledge, a)
		}
	}
	return out
}

// keyLine returns the line of data on which the top-level key is
// written ("key:" at the start of a line), 0 when none is.
func keyLine(data []byte, key string) int {
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, key+":") || strings.HasPrefix(l, `"`+key+`":`) {
			return i + 1
		}
	}
	return 0
}
