package convert

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/compose2manifest/compose2manifest/declare"
	"go.yaml.in/yaml/v3"
)

// skeleton returns a declarations document for exactly the sources whose
// declaration is missing or incomplete: every value known so far filled
// in, every other value "" for the author to fill. Nil when none.
func (c *converter) skeleton() []byte {
	if len(c.missing) == 0 {
		return nil
	}
	root := &yaml.Node{Kind: yaml.MappingNode}
	root.HeadComment = "Declarations for the sources convert refused. Fill in every \"\" (intent: state, content, config, logs, cache\nor runtime; mode: quoted octal such as \"0750\"; owner: \"USER:GROUP\") and paste into " + DeclarationsFile + "."
	addKV(root, "version", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"})
	needHost, needRoot := false, false
	for _, m := range c.missing {
		if m.entry.Path != "" {
			continue
		}
		switch {
		case m.src.section == declare.SectionBinds && !strings.HasPrefix(m.src.key, "/") && !strings.HasPrefix(m.src.key, "~") && c.hostDir == "":
			needHost = true
		case m.src.section != declare.SectionBinds && c.volumeRoot == "":
			needRoot = true
		}
	}
	if needHost {
		n := quoted("")
		n.LineComment = "where the project lives on the target host, such as /opt/" + c.module
		addKV(root, "host_project_directory", n)
	}
	if needRoot {
		n := quoted("")
		n.LineComment = "where named and anonymous volumes land: VOLUME_ROOT/" + c.module + "/NAME"
		addKV(root, "volume_root", n)
	}
	for _, section := range []string{declare.SectionBinds, declare.SectionVolumes, declare.SectionAnonymous} {
		sec := &yaml.Node{Kind: yaml.MappingNode}
		for _, m := range c.missing {
			if m.src.section != section {
				continue
			}
			e := m.entry
			needPath := strings.HasPrefix(m.src.key, "~") && e.Path == ""
			if m.src.entry == nil && !needPath && e.Owner != "" && e.Mode != "" && e.Intent != "" {
				continue // evidence gives every value; only its location is missing
			}
			v := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
			if e.Kind != declare.KindNone {
				addKV(v, "kind", plain(string(e.Kind)))
			}
			if e.Path != "" || needPath {
				addKV(v, "path", quoted(e.Path))
			}
			if e.Kind != declare.KindHost {
				addKV(v, "owner", quoted(e.Owner))
				addKV(v, "mode", quoted(e.Mode))
				if e.Intent == "" {
					addKV(v, "intent", quoted(""))
				} else {
					addKV(v, "intent", plain(e.Intent))
				}
			}
			if e.Note != "" {
				addKV(v, "note", plain(e.Note))
			}
			first := m.src.first()
			where := fmt.Sprintf("%s: service %q", first.pos, first.service)
			if len(m.src.services()) > 1 {
				where = fmt.Sprintf("%s: services %s", first.pos, quoteList(m.src.services()))
			}
			where += " → " + first.target
			if m.src.section == declare.SectionVolumes {
				where += "; legacy Docker volume " + c.dockerVolumeName(first.volume)
			}
			key := plain(e.Key)
			if e.Key == "" {
				key = plain(m.src.key)
			}
			key.Style = 0
			if strings.ContainsAny(key.Value, ":#{}[]") {
				key.Style = yaml.DoubleQuotedStyle
			}
			if strings.Contains(m.reason, "no owner produced") {
				where += "; " + m.reason[strings.Index(m.reason, "no owner produced"):]
			}
			v.LineComment = where
			sec.Content = append(sec.Content, key, v)
		}
		if len(sec.Content) > 0 {
			addKV(root, section, sec)
		}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil
	}
	enc.Close()
	return buf.Bytes()
}

func addKV(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, plain(key), v)
}

func plain(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
}

func quoted(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Style: yaml.DoubleQuotedStyle}
}
