package manifest

import (
	"reflect"
	"regexp"
	"sort"
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
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.PkgPath != "" {
				continue
			}
			name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = strings.ToLower(f.Name)
			}
			fv := v.Field(i)
			if strings.Contains(opts, "omitempty") && isZero(fv) {
				continue
			}
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name}, valueNode(fv))
		}
		return n
	case reflect.Slice, reflect.Array:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i := 0; i < v.Len(); i++ {
			n.Content = append(n.Content, valueNode(v.Index(i)))
		}
		return n
	case reflect.Map:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		for _, k := range keys {
			kv := reflect.ValueOf(k).Convert(v.Type().Key())
			n.Content = append(n.Content, stringNode(k), valueNode(v.MapIndex(kv)))
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
	case isOldBool(s) || base60.MatchString(s):
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

// base60 matches what YAML 1.1 reads as a base-60 number ("1:30").
var base60 = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)

// isZero reports whether v is empty for omitempty, as yaml.v3 decides.
func isZero(v reflect.Value) bool {
	if v.CanInterface() {
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
