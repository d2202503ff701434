package manifest

import (
	"bytes"
	"fmt"
	"maps"
	"reflect"
	"strconv"

	"github.com/compose2manifest/compose2manifest/internal/textsafe"
	"go.yaml.in/yaml/v3"
)

// Encode returns m as a YAML document. The output depends only on m: the same
// Module always encodes to the same bytes. Mapping keys of environment and
// labels are sorted; every other order is the order of m's slices.
//
// Encode writes owner and mode as quoted strings and each resource's Comment
// as a line comment on its first line, its control characters and the
// format characters that reorder text escaped (textsafe.Escape: a
// reviewer reads the comment raw). A Fingerprint is written last, its
// body digest computed from the bytes written (m.Fingerprint.Body is not
// used). It returns an error only when a
// container cannot be represented in YAML.
func Encode(m *Module) ([]byte, error) {
	root, err := tree(m)
	if err != nil {
		return nil, err
	}
	text, ok := emitDocument(root)
	if !ok {
		if text, err = yamlDocument(root); err != nil {
			return nil, fmt.Errorf("manifest: encode module %q: %w", m.Module, err)
		}
	}
	// "##[" is now only in comments and in double-quoted scalars, where
	// \x5b is "[".
	out := text
	if bytes.Contains(text, []byte("##[")) {
		out = bytes.ReplaceAll(text, []byte("##["), []byte(`##\x5b`))
	}
	if m.Fingerprint != nil {
		return setBody(out)
	}
	return out, nil
}

// tree returns the YAML node tree Encode writes of m.
func tree(m *Module) (*yaml.Node, error) {
	root := &yaml.Node{Kind: yaml.MappingNode}
	if m.Header != "" {
		root.HeadComment = "# " + m.Header
	}
	addScalar(root, "version", strconv.Itoa(m.Version), "!!int")
	addScalar(root, "module", m.Module, "!!str")
	if len(m.Sources) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, s := range m.Sources {
			n := &yaml.Node{Kind: yaml.MappingNode}
			addScalar(n, "file", s.File, "!!str")
			addScalar(n, "sha256", s.SHA256, "!!str")
			seq.Content = append(seq.Content, n)
		}
		root.Content = append(root.Content, str("sources"), seq)
	}
	if len(m.Roots) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, r := range m.Roots {
			seq.Content = append(seq.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: r.Path})
		}
		root.Content = append(root.Content, str("roots"), seq)
	}
	if !m.ConvertedWith.IsZero() {
		encodeSettings(root, m.ConvertedWith)
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Content: make([]*yaml.Node, 0, len(m.Resources))}
	var b nodeBuilder
	for i := range m.Resources {
		n, err := encodeResource(&m.Resources[i], &b)
		if err != nil {
			return nil, err
		}
		seq.Content = append(seq.Content, n)
	}
	root.Content = append(root.Content, str("resources"), seq)
	if m.Fingerprint != nil {
		encodeFingerprint(root, m.Fingerprint)
	}

	quoteCommands(root)
	return root, nil
}

// quoteCommands writes double-quoted every scalar below n, key or value,
// that printed raw could give a CI runner a workflow command
// (textsafe.Commands: a line starting "::", a "##["). Double-quoted, its
// line breaks are escapes, so none of its text starts a line, and Encode
// writes each "##[" of it as "##\x5b", the same text to a YAML reader.
func quoteCommands(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && textsafe.Commands(n.Value) {
		n.Style = yaml.DoubleQuotedStyle
	}
	for _, c := range n.Content {
		quoteCommands(c)
	}
}

// encodeResource returns r's node, a container's built by b.
func encodeResource(r *Resource, b *nodeBuilder) (*yaml.Node, error) {
	n := &yaml.Node{Kind: yaml.MappingNode}
	switch r.Kind {
	case KindContainer:
		if r.Container == nil {
			return nil, fmt.Errorf("manifest: container resource without a container")
		}
		n = b.value(reflect.ValueOf(withEnvCredentials(r.Container)))
		envCredentials(n, r.Container.EnvCredentials)
		styleContainer(n)
		if len(n.Content) > 1 && r.Comment != "" {
			n.Content[1].LineComment = "# " + textsafe.Escape(r.Comment, false)
		}
		return n, nil
	case KindCredential:
		addScalar(n, string(r.Kind), r.Name, "!!str")
		if r.Target != "" {
			addScalar(n, "target", r.Target, "!!str")
		}
	default:
		addScalar(n, string(r.Kind), r.Path, "!!str")
		if r.Kind != KindHost {
			if r.Owner != "" {
				addQuoted(n, "owner", r.Owner)
			}
			if r.Mode != "" {
				addQuoted(n, "mode", r.Mode)
			}
			if r.Intent != "" {
				addScalar(n, "intent", string(r.Intent), "!!str")
			}
			if r.ContentFrom != "" {
				addScalar(n, "content_from", r.ContentFrom, "!!str")
			}
		}
	}
	if r.Note != "" {
		addScalar(n, "note", r.Note, "!!str")
	}
	if r.Comment != "" {
		n.Content[1].LineComment = "# " + textsafe.Escape(r.Comment, false)
	}
	return n, nil
}

// styleContainer writes ports, volumes, tmpfs and devices entries as one-line flow
// mappings, the form of SPEC section 3.
func styleContainer(c *yaml.Node) {
	for i := 0; i+1 < len(c.Content); i += 2 {
		switch c.Content[i].Value {
		case "user":
			// "1000:50" is a base-60 integer to YAML 1.1 readers.
			c.Content[i+1].Style = yaml.DoubleQuotedStyle
		case "ports", "volumes", "tmpfs", "devices":
			for _, item := range c.Content[i+1].Content {
				item.Style = yaml.FlowStyle
			}
		}
	}
}

func str(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
}

func addScalar(m *yaml.Node, key, value, tag string) {
	m.Content = append(m.Content, str(key), &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value})
}

func addQuoted(m *yaml.Node, key, value string) {
	m.Content = append(m.Content, str(key), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value, Style: yaml.DoubleQuotedStyle})
}

// withEnvCredentials returns c, or a copy of it whose Environment also
// holds each variable of EnvCredentials (empty, for envCredentials to
// replace), so that the variables are written in order in one mapping.
func withEnvCredentials(c *Container) *Container {
	if len(c.EnvCredentials) == 0 {
		return c
	}
	cp := *c
	cp.Environment = make(map[string]string, len(c.Environment)+len(c.EnvCredentials))
	maps.Copy(cp.Environment, c.Environment)
	for k := range c.EnvCredentials {
		cp.Environment[k] = ""
	}
	return &cp
}

// envCredentials writes, in the environment mapping of container node n,
// the value of each variable of creds as {credential: NAME}.
func envCredentials(n *yaml.Node, creds map[string]string) {
	if len(creds) == 0 {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != "environment" {
			continue
		}
		env := n.Content[i+1]
		for j := 0; j+1 < len(env.Content); j += 2 {
			if name, ok := creds[env.Content[j].Value]; ok {
				v := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
				addScalar(v, KeyEnvCredential, name, "!!str")
				env.Content[j+1] = v
			}
		}
	}
}

// KeyEnvCredential is the key of an environment value the host sets
// from a credential: VARIABLE: {credential: NAME}.
const KeyEnvCredential = "credential"
