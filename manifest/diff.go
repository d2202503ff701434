package manifest

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Difference is one way two manifests of the same module differ.
type Difference struct {
	// Key names what differs: a declared path, a credential's name, a
	// container's service name, or a top-level field.
	Key string
	// Old and New are the resource in the first and the second manifest;
	// nil when it is missing there.
	Old, New *Resource
	// Message says what differs, for people.
	Message string
}

// Diff returns the differences between manifests a (say, one read from a
// file) and b (say, one converted afresh), in a stable order: module name,
// then resources missing from b, added in b, and changed, each sorted by
// kind and key. Comments and positions are not compared, nor the
// fingerprints: they record what a conversion depended on, not what it
// gave.
func Diff(a, b *Module) []Difference {
	var out []Difference
	if a.Module != b.Module {
		out = append(out, Difference{Key: "module", Message: fmt.Sprintf("module is %q, but converts as %q", a.Module, b.Module)})
	}
	if ar, br := strings.Join(a.RootPaths(), ", "), strings.Join(b.RootPaths(), ", "); ar != br {
		out = append(out, Difference{Key: "roots", Message: fmt.Sprintf("roots are [%s], but convert as [%s]", ar, br)})
	}
	if !a.ConvertedWith.Equal(b.ConvertedWith) {
		out = append(out, Difference{Key: "converted_with", Message: fmt.Sprintf("converted_with records %s, but the conversion was given %s", a.ConvertedWith, b.ConvertedWith)})
	}
	index := func(m *Module) (map[string]*Resource, []string) {
		idx := map[string]*Resource{}
		var keys []string
		for i := range m.Resources {
			r := &m.Resources[i]
			k := string(r.Kind.group()) + "\x00" + r.Key()
			if _, dup := idx[k]; dup {
				continue
			}
			idx[k] = r
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return idx, keys
	}
	ai, akeys := index(a)
	bi, bkeys := index(b)
	for _, k := range akeys {
		if _, ok := bi[k]; !ok {
			r := ai[k]
			out = append(out, Difference{Key: r.Key(), Old: r, Message: fmt.Sprintf("%s %s is in the manifest but not in the conversion", r.Kind, r.Key())})
		}
	}
	for _, k := range bkeys {
		if _, ok := ai[k]; !ok {
			r := bi[k]
			out = append(out, Difference{Key: r.Key(), New: r, Message: fmt.Sprintf("%s %s is in the conversion but not in the manifest", r.Kind, r.Key())})
		}
	}
	for _, k := range akeys {
		ra, rb := ai[k], bi[k]
		if rb == nil {
			continue
		}
		if msg := resourceDiff(ra, rb); msg != "" {
			out = append(out, Difference{Key: ra.Key(), Old: ra, New: rb, Message: msg})
		}
	}
	return out
}

// group puts directory, file and host in one group, so that a path whose
// kind changed shows as changed rather than as removed and added.
func (k Kind) group() Kind {
	if k.Declares() {
		return KindDirectory
	}
	return k
}

// resourceDiff says how two resources with the same key differ, or "".
func resourceDiff(a, b *Resource) string {
	var parts []string
	field := func(name, x, y string) {
		if x != y {
			parts = append(parts, fmt.Sprintf("%s %q, conversion gives %q", name, x, y))
		}
	}
	field("kind", string(a.Kind), string(b.Kind))
	field("owner", a.Owner, b.Owner)
	field("mode", a.Mode, b.Mode)
	field("intent", string(a.Intent), string(b.Intent))
	field("note", a.Note, b.Note)
	field("content_from", a.ContentFrom, b.ContentFrom)
	field("target", a.Target, b.Target)
	if (a.Container == nil) != (b.Container == nil) || (a.Container != nil && !reflect.DeepEqual(*a.Container, *b.Container)) {
		parts = append(parts, "container fields differ"+containerDiff(a.Container, b.Container))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("%s %s: %s", a.Kind, a.Key(), strings.Join(parts, "; "))
}

// containerDiff names the container fields that differ, by their YAML
// names.
func containerDiff(a, b *Container) string {
	if a == nil || b == nil {
		return ""
	}
	va, vb := reflect.ValueOf(*a), reflect.ValueOf(*b)
	t := va.Type()
	var names []string
	for i := 0; i < t.NumField(); i++ {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " (" + strings.Join(names, ", ") + ")"
}
