package manifest

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// emitPair is a document holding v as a block value, a flow value, a
// block key and a flow sequence item, tagged tag.
func emitPair(v, tag string) *yaml.Node {
	s := func(tag, v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v} }
	return &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		s("!!str", "k"), s(tag, v),
		s("!!str", "f"), {Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{s("!!str", "a"), s(tag, v)}},
		s("!!str", "l"), {Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{s(tag, v)}},
		s("!!str", "b"), {Kind: yaml.SequenceNode, Content: []*yaml.Node{s(tag, v)}},
	}}
}

// FuzzEmitLikeYAML: whatever string emitDocument writes itself, it writes
// as yaml.v3 does, and what it writes reads back as the same string. A
// manifest value written otherwise (a mode unquoted, an old boolean)
// could be read as another value.
func FuzzEmitLikeYAML(f *testing.F) {
	for _, v := range []string{"yes", "Yes", "on", "off", "y", "n", "~", "null", "0750", "1:20", "1e3", "0x1f", "0o17", "a: b", "a #b", "-", "-1", "inf", ".inf", "nan", "2001-12-14", "=", "@x", "%x", "./data", "--name=x", "1.2.3.4", "a,b", "a:b", "x y", "é"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		root := emitPair(v, "!!str")
		got, ok := emitDocument(root)
		if !ok {
			return
		}
		want, err := yamlDocument(root)
		if err != nil {
			t.Skip()
		}
		if string(got) != string(want) {
			t.Fatalf("%q: emitDocument wrote\n%s\nyaml.v3 writes\n%s", v, got, want)
		}
		var back struct {
			K string             `yaml:"k"`
			F struct{ A string } `yaml:"f"`
			L []string           `yaml:"l"`
		}
		if err := yaml.Unmarshal(got, &back); err != nil || back.K != v || back.F.A != v || len(back.L) != 1 || back.L[0] != v {
			t.Fatalf("%q: read back as %+v (%v)", v, back, err)
		}
	})
}
