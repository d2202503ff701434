package manifest

import (
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// valueNode builds the YAML node of a Go value the way yaml.v3 would
// encode it (yaml tags, omitempty, IsZero), without yaml.v3's
// Node.Encode, which emits the value as text and parses it back. Map keys
// are sorted bytewise. It handles the kinds the container shape uses:
// structs, pointers, slices, maps with string keys, strings, bools and
// integers.
func valueNode(v reflect.Value) *yaml.Node {
	var b nodeBuilder
	return b.value(v)
}

// nodeBuilder builds valueNode's nodes, knowing the fields of each
// struct type it met (one Encode's builder meets every container's).
type nodeBuilder struct {
	fields map[reflect.Type][]structField
}

// structField is an exported field of a struct type as yaml.v3 encodes
// it: its index, its name and whether it has omitempty.
type structField struct {
	index     int
	name      string
	omitEmpty bool
}

// structFields returns the fields of the struct type t yaml.v3 encodes,
// found once per builder.
func (b *nodeBuilder) structFields(t reflect.Type) []structField {
	if fs, ok := b.fields[t]; ok {
		return fs
	}
	var fs []structField
	for _, f := range YAMLFields(t) {
		if !f.Skip {
			fs = append(fs, structField{index: f.Index, name: f.Name, omitEmpty: f.OmitEmpty})
		}
	}
	if b.fields == nil {
		b.fields = map[reflect.Type][]structField{}
	}
	b.fields[t] = fs
	return fs
}

// YAMLField is an exported field of a struct type as its yaml tag names
// it: Index in the struct, Name (the tag's name, else the lower-cased Go
// name, as yaml.v3 names it), OmitEmpty, and Skip for a field tagged "-",
// which yaml.v3 leaves out (its Name is then the lower-cased Go name).
type YAMLField struct {
	Index     int
	Name      string
	OmitEmpty bool
	Skip      bool
}

// YAMLFields returns the exported fields of the struct type t, in order.
func YAMLFields(t reflect.Type) []YAMLField {
	var fs []YAMLField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		skip := name == "-"
		if name == "" || skip {
			name = strings.ToLower(f.Name)
		}
		fs = append(fs, YAMLField{Index: i, Name: name, OmitEmpty: strings.Contains(opts, "omitempty"), Skip: skip})
	}
	return fs
}

// value is valueNode.
func (b *nodeBuilder) value(v reflect.Value) *yaml.Node {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, f := range b.structFields(v.Type()) {
			fv := v.Field(f.index)
			if f.omitEmpty && isZero(fv) {
				continue
			}
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: f.name}, b.value(fv))
		}
		return n
	case reflect.Slice, reflect.Array:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: make([]*yaml.Node, 0, v.Len())}
		for i := 0; i < v.Len(); i++ {
			n.Content = append(n.Content, b.value(v.Index(i)))
		}
		return n
	case reflect.Map:
		type entry struct {
			key   string
			value reflect.Value
		}
		entries := make([]entry, 0, v.Len())
		for iter := v.MapRange(); iter.Next(); {
			entries = append(entries, entry{iter.Key().String(), iter.Value()})
		}
		slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: make([]*yaml.Node, 0, 2*len(entries))}
		for _, e := range entries {
			n.Content = append(n.Content, stringNode(e.key), b.value(e.value))
		}
		return n
	case reflect.String:
		return stringNode(v.String())
	case reflect.Bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v.Bool())}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v.Int(), 10)}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatUint(v.Uint(), 10)}
	case reflect.Float32, reflect.Float64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(v.Float(), 'g', -1, 64)}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v.String()}
}

// stringNode returns the node of a string with the style yaml.v3's
// encoder gives it: a literal block for several lines, double quotes for
// what YAML 1.1 readers would take for a boolean or a base-60 number
// ("yes", "on", "1:30"); otherwise the emitter quotes what YAML 1.2 would
// not read back as this string.
func stringNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	switch {
	case strings.Contains(s, "\n") && literalSafe(s):
		n.Style = yaml.LiteralStyle
	case strings.Contains(s, "\n"):
		// A tab, a carriage return or leading blanks do not survive a
		// literal block (yaml.v3 writes one that does not parse).
		n.Style = yaml.DoubleQuotedStyle
	case isOldBool(s) || strings.Contains(s, ":") && base60.MatchString(s):
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// literalSafe reports whether s reads back unchanged from a literal block:
// no tab, no carriage return, no line that starts with a blank.
func literalSafe(s string) bool {
	if strings.ContainsAny(s, "\t\r") {
		return false
	}
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, " ") {
			return false
		}
	}
	return true
}

// isOldBool reports whether YAML 1.1 reads s as a boolean.
func isOldBool(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "off", "Off", "OFF":
		return true
	}
	return false
}

// zeroer is the interface of a type that says whether it is empty.
var zeroer = reflect.TypeFor[interface{ IsZero() bool }]()

// base60 matches what YAML 1.1 reads as a base-60 number ("1:30").
var base60 = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)

// isZero reports whether v is empty for omitempty, as yaml.v3 decides.
func isZero(v reflect.Value) bool {
	// Only a value whose type has IsZero (or an interface, whose value's
	// may) is made an interface: boxing every field costs an allocation.
	if v.CanInterface() && (v.Kind() == reflect.Interface || v.Type().Implements(zeroer)) {
		if z, ok := v.Interface().(interface{ IsZero() bool }); ok {
			if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
				return true
			}
			return z.IsZero()
		}
	}
	switch v.Kind() {
	case reflect.String:
		return v.Len() == 0
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	case reflect.Slice, reflect.Map:
		return v.Len() == 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Struct:
		for i := v.NumField() - 1; i >= 0; i-- {
			if v.Type().Field(i).PkgPath == "" && !isZero(v.Field(i)) {
				return false
			}
		}
		return true
	}
	return false
}
