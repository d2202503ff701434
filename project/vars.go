package project

import (
	"bytes"
	"fmt"
	"iter"
	"maps"
	"os"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose2manifest/compose2manifest/declare"
	"go.yaml.in/yaml/v3"
)

// composeVariables are the variables docker compose reads from the
// environment to decide which files, env files, profiles and name a
// project has; they change a conversion without being written in a file.
var composeVariables = []string{
	"COMPOSE_DISABLE_ENV_FILE", "COMPOSE_ENV_FILES", "COMPOSE_FILE",
	"COMPOSE_PATH_SEPARATOR", "COMPOSE_PROFILES", "COMPOSE_PROJECT_NAME",
}

var (
	// bareLineRE finds an env file line that names a variable without a
	// value: its value comes from the environment.
	bareLineRE = regexp.MustCompile(`(?m)^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_.]*)[ \t]*\r?$`)
)

// Variables returns, sorted and unique, the names of every variable of
// the environment the project's files may take a value from: each $NAME
// or ${NAME…} written in a compose file, an env file or extra (the
// declarations' bytes, say); each environment entry of a service written
// without a value (FOO, or FOO: with nothing), which compose fills from
// the environment; each env file line naming a variable without a value;
// and the COMPOSE_* variables docker compose chooses files, profiles and
// the name by. It is a superset, never a subset: a variable not named
// here cannot change what the project converts to.
func (p *Project) Variables(extra ...[]byte) ([]string, error) {
	names := map[string]bool{}
	for _, n := range composeVariables {
		names[n] = true
	}
	scan := func(data []byte) { references(data, names) }
	for _, f := range p.raw.files {
		scan(f.data)
		for _, svc := range mapValues(get(f.root, "services")) {
			bareEnvironment(get(svc, "environment"), names)
		}
	}
	for _, data := range extra {
		scan(data)
	}
	inputs, err := p.Inputs()
	if err != nil {
		return nil, err
	}
	for _, in := range inputs {
		if p.raw.file(in.Path) != nil {
			continue // a compose file, scanned above
		}
		data, ok := p.inputBytes(in.Path)
		if !ok {
			return nil, fmt.Errorf("%s: not read with the project's inputs", in.Path)
		}
		envReferences(data, names)
		for _, m := range bareLineRE.FindAllSubmatch(data, -1) {
			names[string(m[1])] = true
		}
	}
	out := make([]string, 0, len(names))
	for n := range names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

// references adds to names each $NAME and ${NAME…} of data, leaving out
// what follows $$: compose's escape of a literal $, which no interpolation
// reads. A secret written $$ecret must not become a variable name in the
// fingerprint.
func references(data []byte, names map[string]bool) {
	for at, name := range referenceSpans(data) {
		dollars := 0
		for i := at; i >= 0 && data[i] == '$'; i-- {
			dollars++
		}
		if dollars%2 == 0 {
			continue // $$NAME: an escaped $ and the text NAME
		}
		if !names[string(data[name[0]:name[1]])] {
			names[string(data[name[0]:name[1]])] = true
		}
	}
}

// referenceSpans yields, left to right, each $NAME and ${NAME…} of data
// (the matches of `\$\{?([A-Za-z_][A-Za-z0-9_]*)`, none overlapping): the
// offset of its $ and the span of NAME. It is every interpolation, and
// some text that only looks like one (a comment), which is harmless to
// Variables. It scans for $ rather than running a regexp over the whole
// file: a conversion scans every compose file with it.
func referenceSpans(data []byte) iter.Seq2[int, [2]int] {
	return func(yield func(int, [2]int) bool) {
		for pos := 0; pos < len(data); {
			i := bytes.IndexByte(data[pos:], '$')
			if i < 0 {
				return
			}
			at := pos + i
			start := at + 1
			if start < len(data) && data[start] == '{' && start+1 < len(data) && nameStart(data[start+1]) {
				start++
			}
			if start >= len(data) || !nameStart(data[start]) {
				pos = at + 1
				continue
			}
			end := start + 1
			for end < len(data) && (nameStart(data[end]) || data[end] >= '0' && data[end] <= '9') {
				end++
			}
			if !yield(at, [2]int{start, end}) {
				return
			}
			pos = end
		}
	}
}

// nameStart reports whether c may start a variable name: a letter or _.
func nameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// envReferences is references for an env file, line by line, leaving out
// the values in single quotes, which dotenv takes literally: a
// single-quoted password such as '$ecret' names no variable.
func envReferences(data []byte, names map[string]bool) {
	for line := range strings.Lines(string(data)) {
		_, v, ok := strings.Cut(line, "=")
		if ok && strings.HasPrefix(strings.TrimSpace(v), "'") {
			continue
		}
		references([]byte(line), names)
	}
}

// bareEnvironment adds to names the variables a service's environment
// entry n names without a value.
func bareEnvironment(n *yaml.Node, names map[string]bool) {
	switch {
	case n == nil:
	case n.Kind == yaml.SequenceNode:
		for _, item := range seqItems(n) {
			if item != nil && item.Kind == yaml.ScalarNode && !strings.Contains(item.Value, "=") {
				names[strings.TrimSpace(item.Value)] = true
			}
		}
	case n.Kind == yaml.MappingNode:
		for _, kv := range pairs(n) {
			if v := resolve(kv[1]); v == nil || v.Tag == "!!null" {
				names[kv[0].Value] = true
			}
		}
	}
}

// String says what e shows, in one line that changes whenever e does:
// "file", "directory", "absent", "other" (something that is neither, or
// nothing the project can tell), followed by the link followed, where the
// links lead in the project and, for a link out of the project, where it
// leads.
func (e SourceEvidence) String() string {
	var s string
	switch {
	case e.Kind == declare.KindFile:
		s = "file"
	case e.Kind == declare.KindDirectory:
		s = "directory"
	case e.Absent:
		s = "absent"
	default:
		s = "other"
	}
	if e.Executable {
		s += " executable"
	}
	if e.Link != "" {
		s += fmt.Sprintf(" (link %s)", e.Link)
	}
	if e.Resolved != "" {
		s += fmt.Sprintf(" (in the project: %s)", e.Resolved)
	}
	if e.Outside != "" {
		s += fmt.Sprintf(" (outside: %s)", e.Outside)
	}
	return s
}

// Probes returns the files, relative to the project directory as
// "./NAME", that were looked for and not found but would feed the
// conversion had they been there: the default compose and override file
// names not there (looked for however the compose files were named), the
// project's .env when no env file was read from it, and each service's
// env_file and label_file inside the project that does not exist, and the
// .env of an included project's directory when the include names no env
// file. extra names more files (absolute) to look for, such as the
// declarations file.
func (p *Project) Probes(extra ...string) []string {
	var out []string
	add := func(abs string) {
		r := p.Rel(abs)
		if r == ".." || strings.HasPrefix(r, "../") || strings.HasPrefix(r, "/") {
			return
		}
		if _, err := os.Lstat(abs); err == nil {
			return
		}
		r = "./" + path.Clean(r)
		for _, o := range out {
			if o == r {
				return
			}
		}
		out = append(out, r)
	}
	join := func(name string) string { return p.Dir + string(os.PathSeparator) + name }
	// Looked for whatever named the compose files, so that -f compose.yaml
	// and finding it by default record the same.
	for _, n := range append(append([]string{}, cli.DefaultFileNames...), cli.DefaultOverrideFileNames...) {
		add(join(n))
	}
	add(join(".env"))
	for _, f := range extra {
		add(f)
	}
	for _, f := range p.raw.probes {
		add(f) // an included project's .env
	}
	if p.Compose != nil {
		for _, name := range slices.Sorted(maps.Keys(p.Compose.Services)) {
			svc := p.Compose.Services[name]
			for _, ef := range svc.EnvFiles {
				add(ef.Path)
			}
			for _, lf := range svc.LabelFiles {
				add(lf)
			}
		}
	}
	return out
}
