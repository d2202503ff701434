package convert

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/compose2manifest/compose2manifest/declare"
	"go.yaml.in/yaml/v3"
)

// Skeleton returns a declarations document for exactly the sources of
// missing: every value known so far filled in, every other value "" for
// the author to fill, each entry with a comment saying where the source is
// used. module names the module in comments. Nil when missing is empty.
func Skeleton(module string, missing []Missing) []byte {
	return skeleton(module, missing, nil)
}

// SecretSuggestion is a secret-looking environment variable the skeleton
// offers to declare under credentials:, with acknowledge as the
// alternative.
type SecretSuggestion struct {
	Service, Variable string
	// Credential is the suggested credential name.
	Credential string
	// FileEnv is set when the image table says the image reads
	// VARIABLE_FILE ("postgres table.yaml:905").
	FileEnv string
	Image   string
}

// secretSuggestions returns the secret-looking variables that are neither
// delivered as credentials nor acknowledged.
func (c *converter) secretSuggestions() []SecretSuggestion {
	var out []SecretSuggestion
	for _, s := range c.secrets {
		if s.Credential != "" || s.Acknowledged || s.Field != "" || s.Config != "" {
			continue // a field or a config carrying a secret: no credentials: item covers it
		}
		name := strings.ToLower(s.Service + "_" + s.Variable)
		name = strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.' {
				return r
			}
			return '_'
		}, name)
		out = append(out, SecretSuggestion{Service: s.Service, Variable: s.Variable, Credential: name, FileEnv: s.FileEnv, Image: s.Image})
	}
	return out
}

// skeleton is Skeleton with a credentials: section for secrets.
func skeleton(module string, missing []Missing, secrets []SecretSuggestion) []byte {
	if len(missing) == 0 && len(secrets) == 0 {
		return nil
	}
	root := &yaml.Node{Kind: yaml.MappingNode}
	root.HeadComment = "Declarations for the sources convert refused. Fill in every \"\" (intent: state, content, config, logs, cache\nor runtime; mode: quoted octal such as \"0750\"; owner: \"USER:GROUP\") and paste into " + DeclarationsFile + "."
	addKV(root, "version", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"})
	needHost, needRoot := false, false
	for _, m := range missing {
		needHost = needHost || m.NeedsHostProjectDirectory
		needRoot = needRoot || m.NeedsVolumeRoot
	}
	if needHost {
		n := quoted("")
		n.LineComment = "where the project lives on the target host, such as /opt/" + module
		addKV(root, "host_project_directory", n)
	}
	if needRoot {
		n := quoted("")
		n.LineComment = "where named and anonymous volumes land: VOLUME_ROOT/" + module + "/NAME"
		addKV(root, "volume_root", n)
	}
	for _, section := range []string{declare.SectionBinds, declare.SectionVolumes, declare.SectionAnonymous} {
		sec := &yaml.Node{Kind: yaml.MappingNode}
		for _, m := range missing {
			if m.Section != section {
				continue
			}
			if !m.NeedsPath && !m.NeedsEntry && m.Complete() {
				continue // every value is known; only its location is missing
			}
			e := m.Known
			v := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
			switch {
			case e.Kind != declare.KindNone:
				addKV(v, "kind", plain(string(e.Kind)))
			case m.NeedsKind:
				addKV(v, "kind", quoted("")) // file or directory: the author's choice
			}
			if e.Path != "" || m.NeedsPath || m.LinkOutside != "" {
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
			v.LineComment = m.where()
			key := plain(declare.EscapeKey(m.Key))
			if strings.ContainsAny(key.Value, ":#{}[]") {
				key.Style = yaml.DoubleQuotedStyle
			}
			sec.Content = append(sec.Content, key, v)
		}
		if len(sec.Content) > 0 {
			addKV(root, section, sec)
		}
	}
	if len(secrets) > 0 {
		sec := &yaml.Node{Kind: yaml.MappingNode}
		for _, sg := range secrets {
			k := plain(sg.Service + "." + sg.Variable)
			v := plain(sg.Credential)
			how := fmt.Sprintf("service %q: image %s is not known to read %s_FILE: configure it to read /run/secrets/%s and acknowledge %s.credentials.%s", sg.Service, sg.Image, sg.Variable, sg.Credential, sg.Service, sg.Variable)
			if sg.FileEnv != "" {
				how = fmt.Sprintf("service %q: image %s reads %s_FILE (%s)", sg.Service, sg.Image, sg.Variable, sg.FileEnv)
			}
			v.LineComment = how + "; or, to carry the value in plaintext knowingly, acknowledge: [" + sg.Service + ".environment." + sg.Variable + "]"
			sec.Content = append(sec.Content, k, v)
		}
		addKV(root, "credentials", sec)
		root.Content[len(root.Content)-2].HeadComment = "The mesh delivers each credential; put its value there, never in a file of the module."
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

// where says where a missing source is used: position, services, target,
// legacy volume, and why no owner was produced.
func (m *Missing) where() string {
	first := m.Mounts[0]
	var services []string
	for _, mt := range m.Mounts {
		if len(services) == 0 || services[len(services)-1] != mt.Service {
			services = append(services, mt.Service)
		}
	}
	where := fmt.Sprintf("%s: service %q", first.Pos, first.Service)
	if len(services) > 1 {
		where = fmt.Sprintf("%s: services %s", first.Pos, quoteList(services))
	}
	where += " → " + first.Target
	if m.Legacy != "" {
		where += "; legacy Docker volume " + m.Legacy
	}
	if i := strings.Index(m.Reason, "no owner produced"); i >= 0 {
		where += "; " + m.Reason[i:]
	} else if i := strings.Index(m.Reason, outOfVersionText); i >= 0 {
		where += "; " + m.Reason[i:]
	}
	if m.NeedsKind {
		where += "; not in the checkout: kind file or directory?"
	}
	if m.LinkOutside != "" {
		where += "; " + m.LinkOutside + ": a path, or {kind: host} alone"
	}
	return where
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
