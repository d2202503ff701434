package declare

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// profileRE is the compose specification's pattern for a profile name;
// "*" (every profile, as --profile '*') is accepted besides.
var profileRE = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_.-]*$`)

// settings reads the list of compose_files, env_files or profiles: a
// non-empty sequence of strings, no item twice. A path must be relative
// to the project directory, clean and inside it, without variables (it
// is not interpolated); a profile must be a profile name or "*".
func (p *parser) settings(key string, n *yaml.Node) []Setting {
	n = resolve(n)
	want := "paths relative to the project directory, such as [compose.yaml, compose.prod.yaml]"
	if key == KeyProfiles {
		want = "profile names, such as [web, worker]"
	}
	if n == nil || n.Kind != yaml.SequenceNode {
		got := "nothing"
		if n != nil {
			got = kindName(n)
		}
		p.errorf(n, "%s: want a list of %s, got %s", key, want, got)
		return nil
	}
	if len(n.Content) == 0 {
		p.errorf(n, "%s: empty list; want %s, or leave %s out", key, want, key)
		return nil
	}
	var out []Setting
	seen := map[string]int{}
	for _, item := range n.Content {
		s, ok := p.str(item, key+" item")
		if !ok {
			continue
		}
		if key == KeyProfiles {
			if s != "*" && !profileRE.MatchString(s) {
				p.errorf(item, "%s: %q is not a profile name (letters, digits, '.', '_', '-'; or \"*\" for every profile)", key, s)
				continue
			}
		} else if msg := relativeProblem(s); msg != "" {
			p.errorf(item, "%s: %q %s", key, s, msg)
			continue
		} else {
			s = path.Clean(s)
		}
		if first, dup := seen[s]; dup {
			p.errorf(item, "%s: %q listed twice (first at line %d)", key, s, first)
			continue
		}
		seen[s] = item.Line
		out = append(out, Setting{Value: s, Pos: p.pos(item)})
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// relativeProblem says why s is not a clean path relative to the project
// directory and inside it, or "" when it is. A leading "./" is allowed.
func relativeProblem(s string) string {
	t := strings.TrimPrefix(s, "./")
	switch {
	case t == "" || t == ".":
		return "is not a file; want a path relative to the project directory"
	case strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~"):
		return "is not relative; want a path relative to the project directory (it must stay inside it)"
	case strings.ContainsAny(s, "$\\"):
		return "holds '$' or '\\'; want a plain slash-separated path (settings are not interpolated)"
	case path.Clean(t) != t:
		if c := path.Clean(t); c == ".." || strings.HasPrefix(c, "../") {
			return "leaves the project directory; a file it names must be inside it"
		}
		return fmt.Sprintf("is not clean; write %q", path.Clean(t))
	case t == ".." || strings.HasPrefix(t, "../"):
		return "leaves the project directory; a file it names must be inside it"
	}
	return ""
}
