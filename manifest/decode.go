package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// MaxSize is the largest manifest read, in bytes: a manifest of 20,000
// resources is about 2 MiB.
const MaxSize = 16 << 20

// Error is one problem found by Decode, at a position in the manifest.
type Error struct {
	Pos Pos
	Msg string
	// IntegerMode reports a mode written as a YAML integer, which breaks
	// a rule (rules.Decoded says which) rather than only the format.
	IntegerMode bool
}

// Error formats e as "FILE:LINE: MESSAGE".
func (e *Error) Error() string {
	if p := e.Pos.String(); p != "" {
		return p + ": " + e.Msg
	}
	return e.Msg
}

// Errors is every problem Decode found in one manifest, in line order.
type Errors []*Error

// Error formats the errors one per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the errors, for errors.Is and errors.As.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// Decode reads a manifest in the format Encode writes (SPEC section 3). name
// is the file name used in positions and errors.
//
// Decode is strict about structure: YAML syntax, unknown keys, values of the
// wrong type, a version other than 1, a missing module, a resource with no
// kind key or two, a declared path that is not absolute and clean, a mode
// written as a YAML integer, and YAML aliases and merge keys are errors. It
// reports every such problem at once, as Errors.
//
// Decode does not judge values the rules judge: a missing or invalid owner,
// mode or intent, the order of paths and so on are kept as written, with
// each resource's Pos, for the rules to report.
//
// Positions name the file and the line of: the module key (Module.Pos), a
// source's first key (Source.Pos), a resource's first key (Resource.Pos).
//
// Decode recovers Header from the comment above the document and each
// resource's Comment from the line comment on its first line, so that
// Decode(Encode(m)) gives back m (apart from positions).
func Decode(name string, data []byte) (*Module, error) {
	d := &decoder{file: name}
	m := d.module(data)
	if len(d.errs) > 0 {
		d.errs.SortByLine()
		return nil, d.errs
	}
	return m, nil
}

type decoder struct {
	file string
	errs Errors
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	d.errs = append(d.errs, &Error{Pos: Pos{File: d.file, Line: line}, Msg: fmt.Sprintf(format, args...)})
}

func (d *decoder) pos(n *yaml.Node) Pos { return Pos{File: d.file, Line: n.Line} }

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError records an error of the YAML parser.
func (d *decoder) syntaxError(data []byte, err error) {
	line, msg := YAMLErrorAt(data, err)
	d.errs = append(d.errs, &Error{Pos: Pos{File: d.file, Line: line}, Msg: "YAML syntax: " + msg})
}

var yamlOffsetRE = regexp.MustCompile(`^yaml: offset (\d+): (.*)$`)

// YAMLErrorAt is YAMLErrorLine for an error of reading data, the whole
// document: an error of the YAML reader, which names a byte offset
// ("yaml: offset 31: control characters are not allowed", as yaml v4
// words it) or no place at all (yaml.v3's "invalid leading UTF-8
// octet"), gets the line of that byte, or of the first byte the reader
// refuses. The line is 0 when none can be told.
func YAMLErrorAt(data []byte, err error) (line int, msg string) {
	line, msg = YAMLErrorLine(err)
	if line > 0 {
		return line, msg
	}
	if m := yamlOffsetRE.FindStringSubmatch(err.Error()); m != nil {
		if off, aerr := strconv.Atoi(m[1]); aerr == nil && off <= len(data) {
			return bytes.Count(data[:off], []byte("\n")) + 1, m[2]
		}
	}
	if off := unreadable(data); off >= 0 && (strings.Contains(msg, "UTF-8") || strings.Contains(msg, "control characters")) {
		return bytes.Count(data[:off], []byte("\n")) + 1, msg
	}
	return 0, msg
}

// unreadable returns the offset of the first byte of data the YAML
// reader refuses: one that is not UTF-8, or a control character other
// than tab, line feed, carriage return and NEL (YAML 1.2's printable
// set); -1 when there is none.
func unreadable(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return i
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0x7f, r >= 0x80 && r <= 0x9f && r != 0x85:
			return i
		}
		i += size
	}
	return -1
}

// YAMLErrorLine splits an error of yaml.v3's parser ("yaml: line 3: did
// not find …") into the line it names (0 when none) and the message.
func YAMLErrorLine(err error) (line int, msg string) {
	msg = err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		return line, m[2]
	}
	return 0, strings.TrimPrefix(msg, "yaml: ")
}

// SortByLine orders es by line, keeping the order of errors on one line.
func (es Errors) SortByLine() {
	sort.SliceStable(es, func(i, j int) bool { return es[i].Pos.Line < es[j].Pos.Line })
}

func (d *decoder) module(data []byte) *Module {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			d.errorf(nil, "empty manifest: want version: 1, module and resources")
		} else {
			d.syntaxError(data, err)
		}
		return nil
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		d.errorf(&next, "a manifest is one YAML document; found another")
	case !errors.Is(err, io.EOF):
		d.syntaxError(data, err)
	}
	if len(doc.Content) == 0 {
		d.errorf(&doc, "empty manifest: want version: 1, module and resources")
		return nil
	}
	root := doc.Content[0]
	if !d.noAliases(root) {
		return nil
	}
	if root.Kind != yaml.MappingNode {
		// Not quoted: a file that is no manifest may be anything (a key).
		d.errorf(root, "a manifest is a mapping with version, module and resources; found %s", kindOf(root))
		return nil
	}

	m := &Module{Pos: Pos{File: d.file, Line: root.Line}}
	m.Header = commentText(doc.HeadComment)
	if m.Header == "" {
		m.Header = commentText(root.HeadComment)
	}
	if m.Header == "" && len(root.Content) > 0 {
		m.Header = commentText(root.Content[0].HeadComment)
	}

	var sawVersion, sawModule bool
	for _, kv := range d.pairs(root) {
		k, v := kv[0], kv[1]
		switch k.Value {
		case "version":
			sawVersion = true
			if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || v.Value != "1" {
				d.errorf(v, "version must be 1, the format this reader knows; found %s", describe(v))
				continue
			}
			m.Version = 1
		case "module":
			sawModule = true
			m.Pos.Line = k.Line
			s, ok := d.str(v, "module")
			switch {
			case ok && s == "":
				d.errorf(v, "module must name the module")
			case ok && !ValidModule(s):
				d.errorf(v, "module %q: want a lowercase letter or digit, then lowercase letters, digits, '.', '_' or '-', as convert writes it", s)
			}
			m.Module = s
		case "sources":
			m.Sources = d.sources(v)
		case "roots":
			m.Roots = d.roots(v)
		case "converted_with":
			m.ConvertedWith = d.settings(v)
		case "resources":
			m.Resources = d.resources(v)
		case "fingerprint":
			m.Fingerprint = d.fingerprint(v)
		default:
			d.errorf(k, "unknown key %q (want version, module, sources, roots, converted_with, resources or fingerprint)", k.Value)
		}
	}
	if !sawVersion {
		d.errorf(root, "missing version: 1")
	}
	if !sawModule {
		d.errorf(root, "missing module: the module's name")
	}
	return m
}

// commentText returns the text of a YAML comment without its "# " markers.
func commentText(c string) string {
	if c == "" {
		return ""
	}
	lines := strings.Split(c, "\n")
	for i, l := range lines {
		l = strings.TrimPrefix(l, "#")
		lines[i] = strings.TrimPrefix(l, " ")
	}
	return strings.Join(lines, "\n")
}

// noAliases reports an error for every alias, anchor or merge key under n and
// reports whether there were none. A manifest spells every value out, so that
// what a reader sees is what the host applies.
func (d *decoder) noAliases(n *yaml.Node) bool {
	ok := true
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		switch {
		case n.Kind == yaml.AliasNode:
			d.errorf(n, "YAML alias *%s: a manifest spells out every value", n.Value)
			ok = false
			return
		case n.Anchor != "":
			d.errorf(n, "YAML anchor &%s: a manifest spells out every value", n.Anchor)
			ok = false
		case n.Tag == "!!merge":
			d.errorf(n, "YAML merge key <<: a manifest spells out every value")
			ok = false
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return ok
}

// pairs returns the key/value pairs of mapping n, reporting keys that are not
// strings and keys given twice. n must be a mapping.
func (d *decoder) pairs(n *yaml.Node) [][2]*yaml.Node {
	var out [][2]*yaml.Node
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag != "!!str" {
			d.errorf(k, "mapping key must be a string; found %s", describe(k))
			continue
		}
		if line, dup := seen[k.Value]; dup {
			d.errorf(k, "key %q given twice (first at line %d)", k.Value, line)
			continue
		}
		seen[k.Value] = k.Line
		out = append(out, [2]*yaml.Node{k, v})
	}
	return out
}

// describe names the kind of value n holds, for error messages.
// kindOf names what a node is without quoting it: "a mapping", "a list",
// "a string", "an alias".
func kindOf(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		return fmt.Sprintf("a string of %d bytes", len(n.Value))
	}
	return describe(n)
}

// describe names what a node is, quoting a string of at most 64 bytes
// (a longer one is cut, with its length said), so that an error about a
// value never prints a whole file.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "nothing (null)"
		case "!!str":
			if len(n.Value) > 64 {
				return fmt.Sprintf("a string of %d bytes, %q…", len(n.Value), strings.ToValidUTF8(n.Value[:64], ""))
			}
			return fmt.Sprintf("the string %q", n.Value)
		case "!!int":
			return "the integer " + n.Value
		case "!!bool":
			return "the boolean " + n.Value
		case "!!float":
			return "the number " + n.Value
		}
		return fmt.Sprintf("%s %s", n.Tag, n.Value)
	}
	return "an alias"
}

// str decodes a scalar as text. Null gives "" (a missing value, for the rules
// to report); a mapping or list is an error. what names the field in errors.
func (d *decoder) str(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		d.errorf(n, "%s must be a string; found %s", what, describe(n))
		return "", false
	}
	if n.Tag == "!!null" {
		return "", true
	}
	return n.Value, true
}

// mode decodes a mode, which must be a quoted string: YAML readers disagree
// on what an unquoted 0750 means.
func (d *decoder) mode(n *yaml.Node, what string) string {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!int" {
		d.errorf(n, "%s %s is a YAML integer, which YAML readers read differently; quote it: %q", what, n.Value, n.Value)
		d.errs[len(d.errs)-1].IntegerMode = true
		return ""
	}
	s, _ := d.str(n, what)
	return s
}

func (d *decoder) sources(n *yaml.Node) []Source {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.errorf(n, "sources must be a list; found %s", describe(n))
		return nil
	}
	var out []Source
	for _, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			d.errorf(item, "a source must be a mapping with file and sha256; found %s", describe(item))
			continue
		}
		s := Source{Pos: d.pos(item)}
		if len(item.Content) > 0 {
			s.Pos = d.pos(item.Content[0])
		}
		for _, kv := range d.pairs(item) {
			k, v := kv[0], kv[1]
			switch k.Value {
			case "file":
				s.File, _ = d.str(v, "source file")
			case "sha256":
				s.SHA256, _ = d.str(v, "source sha256")
				if s.SHA256 != "" && !validSHA256(s.SHA256) {
					d.errorf(v, "source sha256 %q is not a sha256: want 64 lowercase hex digits", s.SHA256)
				}
			default:
				d.errorf(k, "unknown key %q in a source (want file and sha256)", k.Value)
			}
		}
		if s.File == "" {
			d.errorf(item, "a source needs a file")
		}
		out = append(out, s)
	}
	return out
}

// roots reads the roots list: absolute, clean directory paths, each once.
func (d *decoder) roots(n *yaml.Node) []Root {
	if n.Kind != yaml.SequenceNode {
		d.errorf(n, "roots must be a list of absolute directory paths; found %s", describe(n))
		return nil
	}
	var out []Root
	seen := map[string]int{}
	for _, item := range n.Content {
		s, ok := d.str(item, "root")
		switch {
		case !ok:
		case PathLengthProblem(s) != "":
			d.errorf(item, "root %s", PathLengthProblem(s))
		case !ValidPath(s):
			d.errorf(item, "root %q must be absolute and clean (no \"..\", \".\", \"//\" or trailing \"/\")", s)
		case seen[s] > 0:
			d.errorf(item, "root %s is listed twice; first at line %d", s, seen[s])
		default:
			seen[s] = item.Line
			out = append(out, Root{Path: s, Pos: d.pos(item)})
		}
	}
	return out
}

// resourceKeys lists the keys each kind of resource other than a container
// takes, beside its kind key.
var resourceKeys = map[Kind][]string{
	KindDirectory:  {"owner", "mode", "intent", "note"},
	KindFile:       {"owner", "mode", "intent", "note", "content_from"},
	KindHost:       {"note"},
	KindCredential: {"target", "note"},
}

func (d *decoder) resources(n *yaml.Node) []Resource {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.errorf(n, "resources must be a list; found %s", describe(n))
		return nil
	}
	var out []Resource
	for _, item := range n.Content {
		if r, ok := d.resource(item); ok {
			out = append(out, r)
		}
	}
	return out
}

func (d *decoder) resource(n *yaml.Node) (Resource, bool) {
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "a resource must be a mapping whose first key is its kind (directory, file, host, credential or container); found %s", describe(n))
		return Resource{}, false
	}
	if len(n.Content) == 0 {
		d.errorf(n, "empty resource: want one of directory, file, host, credential or container")
		return Resource{}, false
	}
	r := Resource{Pos: d.pos(n.Content[0])}
	var kinds []string
	var kindKey, kindVal *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!str" && isKind(k.Value) && !slices.Contains(kinds, k.Value) {
			kinds = append(kinds, k.Value)
			if kindKey == nil {
				kindKey, kindVal = k, n.Content[i+1]
			}
		}
	}
	switch len(kinds) {
	case 0:
		d.errorf(n.Content[0], "resource has no kind: want one key of directory, file, host, credential or container")
		return Resource{}, false
	case 1:
	default:
		d.errorf(n.Content[0], "resource has %d kinds (%s); want exactly one", len(kinds), strings.Join(kinds, ", "))
		return Resource{}, false
	}
	r.Kind = Kind(kindKey.Value)
	r.Comment = commentText(kindVal.LineComment)
	if r.Comment == "" {
		r.Comment = commentText(kindKey.LineComment)
	}

	if r.Kind == KindContainer {
		c := &Container{}
		d.value(n, reflect.ValueOf(c).Elem(), "container")
		if c.Name == "" && kindVal.Kind == yaml.ScalarNode {
			d.errorf(kindVal, "container needs a name")
		}
		r.Container = c
		for i := 0; i+1 < len(n.Content); i += 2 { // d.pairs has reported duplicates already
			if k, v := n.Content[i], n.Content[i+1]; k.Value == "volumes" && v.Kind == yaml.SequenceNode {
				r.VolumePos = r.VolumePos[:0]
				for _, item := range v.Content {
					r.VolumePos = append(r.VolumePos, d.pos(item))
				}
			}
		}
		if len(r.VolumePos) != len(c.Volumes) {
			r.VolumePos = nil // not read one for one: the resource's line
		}
		return r, true
	}

	allowed := resourceKeys[r.Kind]
	for _, kv := range d.pairs(n) {
		k, v := kv[0], kv[1]
		what := string(r.Kind) + " " + k.Value
		switch k.Value {
		case kindKey.Value:
			s, ok := d.str(v, string(r.Kind))
			switch {
			case !ok:
			case r.Kind == KindCredential && s == "":
				d.errorf(v, "credential needs a name")
			case r.Kind == KindCredential:
				r.Name = s
			case s == "":
				d.errorf(v, "%s needs a path", r.Kind)
			case PathLengthProblem(s) != "":
				d.errorf(v, "%s path %s", r.Kind, PathLengthProblem(s))
			case !ValidPath(s):
				d.errorf(v, "%s path %q must be absolute and clean (no \"..\", \".\", \"//\" or trailing \"/\")", r.Kind, s)
			default:
				r.Path = s
			}
			continue
		case "mode":
			if slices.Contains(allowed, k.Value) {
				r.Mode = d.mode(v, what)
				continue
			}
		default:
			if !slices.Contains(allowed, k.Value) {
				break
			}
			s, _ := d.str(v, what)
			switch k.Value {
			case "owner":
				r.Owner = s
			case "intent":
				r.Intent = Intent(s)
			case "note":
				r.Note = s
			case "content_from":
				r.ContentFrom = s
			case "target":
				r.Target = s
			}
			continue
		}
		d.errorf(k, "unknown key %q in a %s resource (want %s)", k.Value, r.Kind, strings.Join(allowed, ", "))
	}
	return r, true
}

func isKind(s string) bool {
	for _, k := range Kinds() {
		if string(k) == s {
			return true
		}
	}
	return false
}

// value decodes n into v strictly, by v's type and its fields' yaml tags:
// unknown keys, keys given twice and values of the wrong type are errors.
// It handles the types Container is made of. path names the value in
// errors, such as `container "web": ports[0].target`.
func (d *decoder) value(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return // zero value
	}
	switch v.Kind() {
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		d.value(n, p.Elem(), path)
		v.Set(p)
	case reflect.Struct:
		d.structValue(n, v, path)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			d.errorf(n, "%s must be a list; found %s", path, describe(n))
			return
		}
		if len(n.Content) == 0 && v.Type() != reflect.TypeOf(ShellCommand(nil)) {
			return // an empty list is no list: the writer leaves it out
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, item := range n.Content {
			d.value(item, s.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
		v.Set(s)
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			d.errorf(n, "%s must be a mapping; found %s", path, describe(n))
			return
		}
		if len(n.Content) == 0 {
			return // an empty mapping is none: the writer leaves it out
		}
		m := reflect.MakeMap(v.Type())
		for _, kv := range d.pairs(n) {
			e := reflect.New(v.Type().Elem()).Elem()
			d.value(kv[1], e, path+"."+kv[0].Value)
			m.SetMapIndex(reflect.ValueOf(kv[0].Value).Convert(v.Type().Key()), e)
		}
		v.Set(m)
	case reflect.String:
		if strings.HasSuffix(path, ".mode") {
			v.SetString(d.mode(n, path))
			return
		}
		s, _ := d.str(n, path)
		v.SetString(s)
	case reflect.Bool:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
			d.errorf(n, "%s must be true or false; found %s", path, describe(n))
			return
		}
		var b bool
		if err := n.Decode(&b); err != nil {
			d.errorf(n, "%s must be true or false; found %s", path, describe(n))
			return
		}
		v.SetBool(b)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
			d.errorf(n, "%s must be a non-negative integer; found %s", path, describe(n))
			return
		}
		u, err := strconv.ParseUint(strings.ReplaceAll(n.Value, "_", ""), 0, v.Type().Bits())
		if err != nil {
			d.errorf(n, "%s must be a non-negative integer of at most %d bits; found %s", path, v.Type().Bits(), n.Value)
			return
		}
		v.SetUint(u)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
			d.errorf(n, "%s must be an integer; found %s", path, describe(n))
			return
		}
		i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, v.Type().Bits())
		if err != nil {
			d.errorf(n, "%s must be an integer of at most %d bits; found %s", path, v.Type().Bits(), n.Value)
			return
		}
		v.SetInt(i)
	default:
		d.errorf(n, "%s: cannot decode into %s", path, v.Type())
	}
}

// structValue decodes mapping n into struct v by its fields' yaml tags.
func (d *decoder) structValue(n *yaml.Node, v reflect.Value, path string) {
	t := v.Type()
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "%s must be a mapping; found %s", path, describe(n))
		return
	}
	fields := map[string]int{}
	var names []string
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if name == "" || name == "-" || !t.Field(i).IsExported() {
			continue
		}
		fields[name] = i
		names = append(names, name)
	}
	for _, kv := range d.pairs(n) {
		k, val := kv[0], kv[1]
		i, ok := fields[k.Value]
		if !ok {
			d.errorf(k, "unknown key %q in %s (want one of %s)", k.Value, path, strings.Join(names, ", "))
			continue
		}
		sub := path + "." + k.Value
		if t == reflect.TypeOf(Container{}) {
			if k.Value == "container" {
				sub = "container name"
			} else if name := containerName(n); name != "" {
				sub = fmt.Sprintf("container %q: %s", name, k.Value)
			}
		}
		if t == reflect.TypeOf(Container{}) && k.Value == "environment" {
			d.environment(val, v.Addr().Interface().(*Container), sub)
			continue
		}
		d.value(val, v.Field(i), sub)
	}
}

// environment decodes a container's environment: each value a string, or
// {credential: NAME} for a variable the host sets from a credential
// (Container.EnvCredentials).
func (d *decoder) environment(n *yaml.Node, c *Container, path string) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return
	}
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "%s must be a mapping; found %s", path, describe(n))
		return
	}
	for _, kv := range d.pairs(n) {
		k, val := kv[0].Value, kv[1]
		if val.Kind != yaml.MappingNode {
			s, _ := d.str(val, path+"."+k)
			if c.Environment == nil {
				c.Environment = map[string]string{}
			}
			c.Environment[k] = s
			continue
		}
		name := ""
		for _, f := range d.pairs(val) {
			if f[0].Value != KeyEnvCredential {
				d.errorf(f[0], "unknown key %q in %s.%s (want %s: NAME, a credential the host sets the variable from)", f[0].Value, path, k, KeyEnvCredential)
				continue
			}
			name, _ = d.str(f[1], path+"."+k+"."+KeyEnvCredential)
		}
		if name == "" {
			d.errorf(val, "%s.%s needs {%s: NAME}, the credential the host sets it from", path, k, KeyEnvCredential)
			continue
		}
		if c.EnvCredentials == nil {
			c.EnvCredentials = map[string]string{}
		}
		c.EnvCredentials[k] = name
	}
}

// containerName returns the scalar value of the container key of n, or "".
func containerName(n *yaml.Node) string {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "container" && n.Content[i+1].Kind == yaml.ScalarNode {
			return n.Content[i+1].Value
		}
	}
	return ""
}

// validSHA256 reports whether s is a sha256 as convert writes it: 64
// lowercase hex digits.
func validSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
