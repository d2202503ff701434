package declare

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/compose2manifest/compose2manifest/manifest"
)

// Document is a declarations file kept as a yaml.Node tree so it can be
// edited and written back with comments and order intact. See the package
// documentation for the input style that survives byte for byte.
//
// Document does not validate the declarations (Parse does); it only needs
// the file to be YAML with a mapping at the top.
type Document struct {
	name string
	doc  *yaml.Node
	// err is the first misuse of SetEntry, returned by Bytes.
	err error
}

// LoadDocument reads a declarations file for editing. Empty data (or data
// holding only blank lines and comments) gives a new document holding
// "version: 1", with those comments kept above it. The error, when not
// nil, is an Errors.
func LoadDocument(name string, data []byte) (*Document, error) {
	d := &Document{name: name}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	err := dec.Decode(&doc)
	switch {
	case errors.Is(err, io.EOF):
		d.doc = newDoc(commentsOnly(data))
		return d, nil
	case err != nil:
		return nil, Errors{syntaxError(name, data, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, Errors{{Pos: manifest.Pos{File: name, Line: extra.Line}, Msg: "more than one YAML document; a declarations file holds one"}}
	} else if !errors.Is(err, io.EOF) {
		return nil, Errors{syntaxError(name, data, err)}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		d.doc = newDoc("")
		return d, nil
	}
	root := doc.Content[0]
	switch {
	case root.Kind == yaml.MappingNode:
	case isNull(root):
		m := newDoc("").Content[0]
		m.HeadComment, m.LineComment, m.FootComment = root.HeadComment, root.LineComment, root.FootComment
		doc.Content[0] = m
	default:
		return nil, Errors{{Pos: manifest.Pos{File: name, Line: root.Line}, Msg: fmt.Sprintf("declarations: want a mapping starting with version: 1, got %s", kindName(root))}}
	}
	d.doc = &doc
	return d, nil
}

// commentsOnly returns the comment lines of data (which holds no YAML
// content), "#" included, as yaml.v3 keeps a head comment.
func commentsOnly(data []byte) string {
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

func newDoc(head string) *yaml.Node {
	return &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{
		Kind: yaml.MappingNode, Tag: "!!map", HeadComment: head,
		Content: []*yaml.Node{strNode("version", 0), {Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"}},
	}}}
}

func strNode(v string, style yaml.Style) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Style: style}
}

func (d *Document) root() *yaml.Node { return d.doc.Content[0] }

// index returns the index in m.Content of the key node named key, or -1.
func index(m *yaml.Node, key string, norm func(string) string) int {
	want := norm(key)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := resolve(m.Content[i])
		if k != nil && k.Kind == yaml.ScalarNode && norm(k.Value) == want {
			return i
		}
	}
	return -1
}

func same(s string) string { return s }

// insertTop adds key: v to the top-level mapping, before the first key
// that comes later in the usual order of a declarations file.
func (d *Document) insertTop(key string, v *yaml.Node) {
	m := d.root()
	rank := func(k string) int {
		for i, t := range topKeys {
			if t == k {
				return i
			}
		}
		return len(topKeys)
	}
	at := len(m.Content)
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := resolve(m.Content[i]); k != nil && rank(k.Value) > rank(key) {
			at = i
			break
		}
	}
	kv := []*yaml.Node{strNode(key, 0), v}
	m.Content = append(m.Content[:at], append(kv, m.Content[at:]...)...)
}

// replace makes the node n hold v's content, keeping n's comments and
// anchor.
func replace(n, v *yaml.Node) {
	head, line, foot, anchor := n.HeadComment, n.LineComment, n.FootComment, n.Anchor
	*n = *v
	n.HeadComment, n.LineComment, n.FootComment, n.Anchor = head, line, foot, anchor
}

// SetScalar sets a top-level string: host_project_directory, volume_root
// or module. An existing value is replaced in place, keeping its comments;
// a new key is inserted where the usual order of a declarations file puts
// it.
func (d *Document) SetScalar(key, value string) {
	m := d.root()
	if i := index(m, key, same); i >= 0 {
		if m.Content[i+1].Kind == yaml.AliasNode {
			m.Content[i+1] = strNode(value, 0)
			return
		}
		replace(m.Content[i+1], strNode(value, 0))
		return
	}
	d.insertTop(key, strNode(value, 0))
}

// SetEntry adds or replaces the entry for key in section ("binds",
// "volumes" or "anonymous"). An existing entry for the same source (keys
// compared as Parse matches them) is replaced in place, keeping its key as
// written and its comments. The entry is written in flow style,
// {kind: file, path: …, owner: "0:0", mode: "0644", intent: config,
// note: …}, with owner and mode double-quoted and empty fields left out;
// e.Key and e.Pos are not used. A misuse (an unknown section, or a section
// that is not a mapping) is returned by Bytes.
func (d *Document) SetEntry(section string, key string, e Entry) {
	var norm func(string) string
	switch section {
	case SectionBinds:
		norm = NormalizeBind
	case SectionVolumes:
		norm = same
	case SectionAnonymous:
		norm = normalizeAnonymous
	case SectionDirectories:
		norm = same
	default:
		d.fail(fmt.Errorf("SetEntry: unknown section %q (want binds, volumes, anonymous or directories)", section))
		return
	}
	m := d.root()
	var sec *yaml.Node
	if i := index(m, section, same); i >= 0 {
		sec = m.Content[i+1]
		if isNull(sec) {
			replace(sec, &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"})
		}
	} else {
		sec = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		d.insertTop(section, sec)
	}
	if sec.Kind != yaml.MappingNode {
		d.fail(fmt.Errorf("SetEntry: %s: %s is not a mapping", d.name, section))
		return
	}
	v := entryNode(e)
	if i := index(sec, key, norm); i >= 0 {
		if sec.Content[i+1].Kind == yaml.AliasNode {
			sec.Content[i+1] = v
			return
		}
		replace(sec.Content[i+1], v)
		return
	}
	var style yaml.Style
	if section == SectionAnonymous {
		style = yaml.DoubleQuotedStyle
	}
	sec.Content = append(sec.Content, strNode(key, style), v)
}

func (d *Document) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

func entryNode(e Entry) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
	add := func(k, v string, style yaml.Style) {
		if v != "" {
			m.Content = append(m.Content, strNode(k, 0), strNode(v, style))
		}
	}
	add(FieldKind, string(e.Kind), 0)
	add(FieldPath, e.Path, 0)
	add(FieldOwner, e.Owner, yaml.DoubleQuotedStyle)
	add(FieldMode, e.Mode, yaml.DoubleQuotedStyle)
	add(FieldIntent, e.Intent, 0)
	add(FieldNote, e.Note, 0)
	return m
}

// Bytes encodes the document with 2-space indentation. It returns the
// first misuse of SetEntry, if any.
func (d *Document) Bytes() ([]byte, error) {
	if d.err != nil {
		return nil, d.err
	}
	flowNulls(d.doc, false)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(d.doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// flowNulls spells out the empty nulls inside flow collections as "null":
// yaml.v3 would write them as an empty single-quoted string, which reads
// back as a string, not a null.
func flowNulls(n *yaml.Node, flow bool) {
	if n == nil {
		return
	}
	flow = flow || n.Style&yaml.FlowStyle != 0
	if flow && n.Kind == yaml.ScalarNode && n.Value == "" && n.ShortTag() == "!!null" {
		n.Value = "null"
	}
	for _, c := range n.Content {
		flowNulls(c, flow)
	}
}

// SetString sets key: value in the string mapping section ("images" or
// "credentials"): an existing item for key is replaced in place, keeping
// its comments; a new one is added at the end of the section, which is
// created where the usual order of a declarations file puts it. A section
// that is not a mapping is a misuse, returned by Bytes.
func (d *Document) SetString(section, key, value string) {
	if section != KeyCredentials && section != "images" {
		d.fail(fmt.Errorf("SetString: unknown section %q (want images or credentials)", section))
		return
	}
	sec := d.section(section, yaml.MappingNode, "!!map")
	if sec == nil {
		return
	}
	if i := index(sec, key, same); i >= 0 {
		if sec.Content[i+1].Kind == yaml.AliasNode {
			sec.Content[i+1] = strNode(value, 0)
			return
		}
		replace(sec.Content[i+1], strNode(value, 0))
		return
	}
	sec.Content = append(sec.Content, strNode(key, 0), strNode(value, 0))
}

// AddAcknowledge adds item to the acknowledge: list unless the list holds
// it already; the list is created where the usual order of a
// declarations file puts it. A list kept in flow style stays so. An
// acknowledge: that is not a list is a misuse, returned by Bytes.
func (d *Document) AddAcknowledge(item string) {
	sec := d.section("acknowledge", yaml.SequenceNode, "!!seq")
	if sec == nil {
		return
	}
	for _, n := range sec.Content {
		if r := resolve(n); r != nil && r.Kind == yaml.ScalarNode && r.Value == item {
			return
		}
	}
	sec.Content = append(sec.Content, strNode(item, 0))
}

// section returns the top-level collection key of the given kind,
// creating it (or filling a null) when missing; nil after recording a
// misuse when it is another kind.
func (d *Document) section(key string, kind yaml.Kind, tag string) *yaml.Node {
	m := d.root()
	var sec *yaml.Node
	if i := index(m, key, same); i >= 0 {
		sec = resolve(m.Content[i+1])
		if sec == nil || isNull(sec) {
			sec = m.Content[i+1]
			replace(sec, &yaml.Node{Kind: kind, Tag: tag})
		}
	} else {
		sec = &yaml.Node{Kind: kind, Tag: tag}
		d.insertTop(key, sec)
	}
	if sec.Kind != kind {
		d.fail(fmt.Errorf("%s: %s is not a %s", d.name, key, map[yaml.Kind]string{yaml.MappingNode: "mapping", yaml.SequenceNode: "list"}[kind]))
		return nil
	}
	return sec
}

// Clone returns a copy of d to edit on its own: what is set in one is not
// in the other.
func (d *Document) Clone() *Document {
	copied := map[*yaml.Node]*yaml.Node{}
	var cp func(n *yaml.Node) *yaml.Node
	cp = func(n *yaml.Node) *yaml.Node {
		if n == nil {
			return nil
		}
		if c, ok := copied[n]; ok {
			return c // an anchor an alias points at, copied once
		}
		c := *n
		copied[n] = &c
		if n.Content != nil {
			c.Content = make([]*yaml.Node, len(n.Content))
			for i, k := range n.Content {
				c.Content[i] = cp(k)
			}
		}
		c.Alias = cp(n.Alias)
		return &c
	}
	return &Document{name: d.name, doc: cp(d.doc), err: d.err}
}
