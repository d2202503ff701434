package manifest

import (
	"bytes"
	"strings"

	"go.yaml.in/yaml/v3"
)

// emitDocument writes the document of root, the node tree Encode builds,
// byte for byte as yaml.v3's encoder with an indent of 2 writes it, and
// reports whether it could. It writes the shapes Encode builds (block
// mappings and sequences, one-line flow mappings and sequences of
// scalars, empty collections, a head comment on root and line comments
// on scalar values) and the scalars whose form it knows without asking;
// any other scalar on one line it has yaml.v3 write in the same context
// alone (probe) and copies. Anything else (a literal block, a comment
// elsewhere, an anchor, a scalar yaml.v3 would write on several lines)
// makes it report false, and Encode has yaml.v3 write the whole
// document. yaml.v3's event emitter was most of Encode's time (about 40 %
// of what a conversion adds to compose-go's load on the largest corpus
// projects); TestEmitLikeYAML holds the two to the same bytes.
func emitDocument(root *yaml.Node) ([]byte, bool) {
	e := &emitter{buf: make([]byte, 0, 4096)}
	if root.Kind != yaml.MappingNode || root.Style != 0 || len(root.Content) == 0 || root.LineComment != "" || root.FootComment != "" || root.Anchor != "" {
		return nil, false
	}
	if c := root.HeadComment; c != "" {
		if !strings.HasPrefix(c, "#") || strings.ContainsAny(c, breaks) {
			return nil, false
		}
		e.buf = append(e.buf, c...)
		e.buf = append(e.buf, '\n')
	}
	e.blockMapping(root, 0, false)
	if !e.failed {
		return e.buf, true
	}
	return nil, false
}

// emitter is emitDocument's state: the bytes so far, whether a node was
// met that it does not write, and the probes' answers by context and
// scalar.
type emitter struct {
	buf    []byte
	failed bool
	probes map[probeKey]string
}

// A context is where a scalar is written; yaml.v3 quotes by it.
type context int

const (
	blockKey   context = iota // a key of a block mapping
	blockValue                // a value of a block mapping
	blockItem                 // an item of a block sequence
	flowKey                   // a key of a flow mapping
	flowValue                 // a value of a flow mapping
	flowItem                  // an item of a flow sequence
)

// probeKey names one probe: a scalar, by tag, style and value, in a context.
type probeKey struct {
	ctx        context
	tag, value string
	style      yaml.Style
}

// plain reports whether n has no comment, anchor or tag style that
// emitDocument does not write; comment allows a line comment.
func plain(n *yaml.Node, comment bool) bool {
	return n.HeadComment == "" && n.FootComment == "" && n.Anchor == "" && (comment || n.LineComment == "") && n.Kind != yaml.AliasNode && n.Kind != yaml.DocumentNode
}

func (e *emitter) indent(n int) {
	for range n {
		e.buf = append(e.buf, ' ')
	}
}

// blockMapping writes the pairs of n at indent; inItem is set when n is
// an item of a block sequence, whose "- " the first key follows.
func (e *emitter) blockMapping(n *yaml.Node, indent int, inItem bool) {
	if len(n.Content)%2 != 0 {
		e.failed = true
		return
	}
	for i := 0; i+1 < len(n.Content) && !e.failed; i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if i > 0 || !inItem {
			e.indent(indent)
		}
		if k.Kind != yaml.ScalarNode || !plain(k, false) {
			e.failed = true
			return
		}
		e.scalar(k, blockKey)
		e.buf = append(e.buf, ':')
		if !plain(v, v.Kind == yaml.ScalarNode) {
			e.failed = true
			return
		}
		switch {
		case v.Kind == yaml.ScalarNode:
			e.buf = append(e.buf, ' ')
			e.scalar(v, blockValue)
			if v.LineComment != "" {
				if !strings.HasPrefix(v.LineComment, "#") || strings.ContainsAny(v.LineComment, breaks) {
					e.failed = true
					return
				}
				e.buf = append(e.buf, ' ')
				e.buf = append(e.buf, v.LineComment...)
			}
			e.buf = append(e.buf, '\n')
		case v.Kind == yaml.MappingNode && len(v.Content) == 0:
			e.buf = append(e.buf, " {}\n"...)
		case v.Kind == yaml.SequenceNode && len(v.Content) == 0:
			e.buf = append(e.buf, " []\n"...)
		case v.Style == yaml.FlowStyle:
			e.buf = append(e.buf, ' ')
			e.flow(v)
			e.buf = append(e.buf, '\n')
		case v.Style != 0:
			e.failed = true
		case v.Kind == yaml.MappingNode:
			e.buf = append(e.buf, '\n')
			e.blockMapping(v, indent+2, false)
		case v.Kind == yaml.SequenceNode:
			e.buf = append(e.buf, '\n')
			e.blockSequence(v, indent+2)
		default:
			e.failed = true
		}
	}
}

// blockSequence writes the items of n at indent.
func (e *emitter) blockSequence(n *yaml.Node, indent int) {
	for _, item := range n.Content {
		if e.failed {
			return
		}
		e.indent(indent)
		e.buf = append(e.buf, "- "...)
		if !plain(item, false) {
			e.failed = true
			return
		}
		switch {
		case item.Kind == yaml.ScalarNode:
			e.scalar(item, blockItem)
			e.buf = append(e.buf, '\n')
		case item.Kind == yaml.MappingNode && len(item.Content) == 0:
			e.buf = append(e.buf, "{}\n"...)
		case item.Kind == yaml.MappingNode && item.Style == yaml.FlowStyle:
			e.flow(item)
			e.buf = append(e.buf, '\n')
		case item.Kind == yaml.MappingNode && item.Style == 0:
			e.blockMapping(item, indent+2, true)
		default:
			e.failed = true
		}
	}
}

// flow writes n, a flow mapping or sequence of scalars, on one line.
func (e *emitter) flow(n *yaml.Node) {
	switch n.Kind {
	case yaml.MappingNode:
		if len(n.Content)%2 != 0 {
			e.failed = true
			return
		}
		e.buf = append(e.buf, '{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || v.Kind != yaml.ScalarNode || !plain(k, false) || !plain(v, false) {
				e.failed = true
				return
			}
			if i > 0 {
				e.buf = append(e.buf, ", "...)
			}
			e.scalar(k, flowKey)
			e.buf = append(e.buf, ": "...)
			e.scalar(v, flowValue)
		}
		e.buf = append(e.buf, '}')
	case yaml.SequenceNode:
		e.buf = append(e.buf, '[')
		for i, item := range n.Content {
			if item.Kind != yaml.ScalarNode || !plain(item, false) {
				e.failed = true
				return
			}
			if i > 0 {
				e.buf = append(e.buf, ", "...)
			}
			e.scalar(item, flowItem)
		}
		e.buf = append(e.buf, ']')
	default:
		e.failed = true
	}
}

// scalar writes n in ctx: itself when its form is known, else as a probe
// has yaml.v3 write it.
func (e *emitter) scalar(n *yaml.Node, ctx context) {
	if s, ok := known(n, ctx); ok {
		e.buf = append(e.buf, s...)
		return
	}
	k := probeKey{ctx: ctx, tag: n.Tag, value: n.Value, style: n.Style}
	s, ok := e.probes[k]
	if !ok {
		var good bool
		if s, good = probe(n, ctx); !good {
			e.failed = true
			return
		}
		if e.probes == nil {
			e.probes = map[probeKey]string{}
		}
		e.probes[k] = s
	}
	e.buf = append(e.buf, s...)
}

// known returns how yaml.v3 writes the scalar n in ctx when that is
// plain to see: an integer, a boolean or null as itself; the empty
// string as ""; a double-quoted string of printable ASCII with no quote
// or backslash between quotes; and as itself a string that YAML reads as
// a string and yaml.v3 writes plain: one that starts with a letter, "/"
// or "_", and holds only letters, digits and "_./-=@+%", with single
// spaces inside, ":" not before a space nor last, and "," in a block
// context (but not true, false or null). Anything else is for probe.
func known(n *yaml.Node, ctx context) (string, bool) {
	s := n.Value
	if (ctx == blockKey || ctx == flowKey) && len(s) > 128 {
		return "", false // not a simple key
	}
	switch n.Style {
	case 0:
	case yaml.DoubleQuotedStyle:
		if n.Tag != "!!str" && n.Tag != "" {
			return "", false
		}
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
				return "", false
			}
		}
		return `"` + s + `"`, true
	default:
		return "", false
	}
	switch n.Tag {
	case "!!int":
		if isDecimal(s) {
			return s, true
		}
		return "", false
	case "!!bool":
		return s, s == "true" || s == "false"
	case "!!null":
		return s, s == "null"
	case "!!str":
	default:
		return "", false
	}
	if s == "" {
		return `""`, ctx != blockKey && ctx != flowKey
	}
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
		return "", false
	}
	switch c := s[0]; {
	case isLetter(c) || c == '/' || c == '_':
	case c == '.' && (strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../")):
		// A path: no float, nor "..." (a document's end).
	case c == '-' && len(s) > 2 && (isLetter(s[1]) || s[1] == '-' && isLetter(s[2])):
		// An option (-g, --name=x): no number, nor "---".
	case c >= '0' && c <= '9':
		return digitFirst(s)
	default:
		return "", false
	}
	flow := ctx == flowKey || ctx == flowValue || ctx == flowItem
	last := len(s) - 1
	if s[last] == ' ' || s[last] == ':' {
		return "", false
	}
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		case strings.IndexByte("_./-=@+%", c) >= 0:
		case c == ' ':
			if s[i-1] == ' ' {
				return "", false
			}
		case c == ':' || c == ',':
			if flow || i < last && s[i+1] == ' ' {
				return "", false
			}
		default:
			return "", false
		}
	}
	return s, true
}

// isLetter reports whether c is an ASCII letter.
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// digitFirst returns how yaml.v3 writes the string s, which starts with
// a digit, when that is plain to see: double-quoted when YAML reads it
// as a number (digits, or digits, a dot and digits), as itself when it
// is letters and digits that no number or timestamp can be (a letter
// other than e or E, no base prefix such as 0x) or digits and two dots
// or more (an IPv4 address). Anything else is for probe.
func digitFirst(s string) (string, bool) {
	letters, other, dots := false, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
		case c == '.':
			dots++
		case isLetter(c):
			letters = true
			if c != 'e' && c != 'E' {
				other = true
			}
		default:
			return "", false
		}
	}
	switch {
	case !letters && dots == 0:
		return `"` + s + `"`, true
	case !letters && dots == 1 && s[len(s)-1] != '.':
		return `"` + s + `"`, true
	case !letters && dots >= 2:
		return s, true
	case letters && dots == 0 && other && !(s[0] == '0' && len(s) > 1 && strings.IndexByte("xXoObB", s[1]) >= 0):
		return s, true
	}
	return "", false
}

// isDecimal reports whether s is an integer as strconv writes one, of
// 18 digits at most (one past int64 YAML reads as a float).
func isDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || s[0] == '0' && len(s) > 1 || len(s) > 18 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// probe has yaml.v3 write a document that holds a copy of n (without
// comments) in ctx and nothing else that varies, and returns what it
// wrote for n, if it wrote it on one line.
func probe(n *yaml.Node, ctx context) (string, bool) {
	c := &yaml.Node{Kind: yaml.ScalarNode, Tag: n.Tag, Value: n.Value, Style: n.Style}
	x := func() *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "x"} }
	mapping := func(style yaml.Style, content ...*yaml.Node) *yaml.Node {
		return &yaml.Node{Kind: yaml.MappingNode, Style: style, Content: content}
	}
	var doc *yaml.Node
	var prefix, suffix string
	switch ctx {
	case blockKey:
		doc, prefix, suffix = mapping(0, c, x()), "", ": x\n"
	case blockValue:
		doc, prefix, suffix = mapping(0, x(), c), "x: ", "\n"
	case blockItem:
		doc, prefix, suffix = mapping(0, x(), &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{c}}), "x:\n  - ", "\n"
	case flowKey:
		doc, prefix, suffix = mapping(0, x(), mapping(yaml.FlowStyle, c, x())), "x: {", ": x}\n"
	case flowValue:
		doc, prefix, suffix = mapping(0, x(), mapping(yaml.FlowStyle, x(), c)), "x: {x: ", "}\n"
	case flowItem:
		doc, prefix, suffix = mapping(0, x(), &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{c}}), "x: [", "]\n"
	}
	out, err := yamlDocument(doc)
	if err != nil || !bytes.HasPrefix(out, []byte(prefix)) || !bytes.HasSuffix(out, []byte(suffix)) || len(out) < len(prefix)+len(suffix) {
		return "", false
	}
	s := string(out[len(prefix) : len(out)-len(suffix)])
	if strings.ContainsAny(s, breaks) {
		return "", false
	}
	return s, true
}

// breaks are the characters YAML takes for line breaks: yaml.v3 writes
// each at the line's indent, which a probe's does not have.
const breaks = "\n\r\u0085\u2028\u2029"

// yamlDocument is root's document as yaml.v3's encoder writes it, with
// an indent of 2.
func yamlDocument(root *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
