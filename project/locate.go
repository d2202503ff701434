package project

import (
	"cmp"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/compose-spec/compose-go/v2/format"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose2manifest/compose2manifest/manifest"
	"go.yaml.in/yaml/v3"
)

// missingFileRE matches compose-go's error for a service's env_file or
// label_file that does not exist: the kind and the absolute path.
var missingFileRE = regexp.MustCompile(`^(env|label) file (\S+) not found: `)

// noFileRE matches the error of a file compose-go opens that does not
// exist (an include, its env_file, an extends.file): the absolute path.
var noFileRE = regexp.MustCompile(`^(?:open|stat) (\S+): no such file or directory`)

// composePathRE matches a key path of compose-go's errors
// (services.app.volumes.[0], volumes.data.driver_opts).
var composePathRE = regexp.MustCompile(`\b(?:services|volumes|networks|secrets|configs|models|include)\.[A-Za-z0-9_.\[\]-]*[A-Za-z0-9_\]]`)

// positionRE matches a message that starts with a position already.
var positionRE = regexp.MustCompile(`^[^\s:]+:\d+: `)

// locate returns a load error of compose-go with the position in the
// compose files that it is about, when the raw reading can tell and the
// message has none: a missing env_file or label_file at the entry that
// names it ("FILE:LINE: service "S": env file …"), any other message at
// the key path it names. err's message still holds this machine's paths
// (relativeError takes them out later).
func (l *Project) locate(err error) error {
	msg := err.Error()
	if positionRE.MatchString(msg) {
		return err
	}
	if m := missingFileRE.FindStringSubmatch(msg); m != nil {
		if pos, service, ok := l.fileRefPos(m[1]+"_file", m[2]); ok {
			msg = fmt.Sprintf("%s: service %q: %s", pos, service, msg)
			if m[1] == "env" {
				msg += " (docker compose refuses a missing env_file unless its entry says required: false)"
			}
			return &stableErr{msg: msg, err: err}
		}
		return err
	}
	if m := noFileRE.FindStringSubmatch(msg); m != nil {
		if ref, ok := l.raw.missing[m[1]]; ok {
			return &stableErr{msg: fmt.Sprintf("%s:%d: %s: %s", ref.file, ref.line, ref.what, msg), err: err}
		}
	}
	if head, rest, ok := strings.Cut(msg, "\n"); ok && strings.HasPrefix(head, "decoding failed") {
		return &stableErr{msg: l.locateDecoding(rest), err: err}
	}
	if m := mountConfigRE.FindStringSubmatch(msg); m != nil {
		if pos, service, ok := l.mountPos(m[1], strings.ToLower(m[2])); ok {
			return &stableErr{msg: fmt.Sprintf("%s: service %q: volumes: %s", pos, service, msg), err: err}
		}
	}
	for _, short := range shortSyntaxes {
		if pos, service, ok := l.shortPos(short.key, short.parse, msg); ok {
			return &stableErr{msg: fmt.Sprintf("%s: service %q: %s: %s", pos, service, short.key, msg), err: err}
		}
	}
	value := ""
	if m := parsingRE.FindStringSubmatch(msg); m != nil {
		value, _ = strconv.Unquote(`"` + m[1] + `"`)
	}
	for _, p := range composePathRE.FindAllString(msg, -1) {
		if pos, ok := l.pathPosValue(p, value); ok {
			return &stableErr{msg: pos.String() + ": " + msg, err: err}
		}
	}
	if i := strings.LastIndex(msg, ": "); i >= 0 && !strings.Contains(msg, "\n") {
		if pos, where, ok := l.valuePos(msg[i+2:]); ok {
			return &stableErr{msg: fmt.Sprintf("%s: %s: %s", pos, where, msg), err: err}
		}
	}
	return err
}

// mountConfigRE matches compose-go's error for a long-syntax volume
// without a field its type needs: the type and the field.
var mountConfigRE = regexp.MustCompile(`invalid mount config for type "([^"]+)": field (\w+) must not be empty`)

// mountPos returns the first long-syntax volume of a service, in the
// compose files, whose type (interpolated) is typ and whose field key is
// missing or empty, with its service: where compose-go's "field Source
// must not be empty", which names neither, is about.
func (l *Project) mountPos(typ, key string) (manifest.Pos, string, bool) {
	for _, f := range l.raw.files {
		services := get(f.root, "services")
		if services == nil || services.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(services.Content); i += 2 {
			vols := get(services.Content[i+1], "volumes")
			if vols == nil || vols.Kind != yaml.SequenceNode {
				continue
			}
			for _, v := range vols.Content {
				t, field := get(v, "type"), get(v, key)
				if v.Kind == yaml.MappingNode && t != nil && f.subst(t.Value) == typ && (field == nil || f.subst(field.Value) == "") {
					return manifest.Pos{File: f.name, Line: v.Line}, services.Content[i].Value, true
				}
			}
		}
	}
	return manifest.Pos{}, "", false
}

// valuePos returns the first scalar of the services in the compose files
// whose value, interpolated, is value, and its key path: where a message
// of compose-go that ends with the value it refuses ("confusing device
// mapping, please use long syntax: a:b:c:d") and names no key is about.
func (l *Project) valuePos(value string) (manifest.Pos, string, bool) {
	if value == "" {
		return manifest.Pos{}, "", false
	}
	for _, f := range l.raw.files {
		var pos manifest.Pos
		where := ""
		walkScalars(get(f.root, "services"), []string{"services"}, func(path []string, n *yaml.Node) {
			if pos.Line == 0 && f.subst(n.Value) == value {
				pos, where = manifest.Pos{File: f.name, Line: n.Line}, strings.ReplaceAll(strings.Join(path, "."), ".[", "[")
			}
		})
		if pos.Line > 0 {
			return pos, where, true
		}
	}
	return manifest.Pos{}, "", false
}

// decodingRE matches one error of the list compose-go gives when it
// cannot decode the model into its types ("decoding failed due to the
// following error(s):"): the key path as mapstructure writes it
// ('services[web].healthcheck.interval') and the problem.
var decodingRE = regexp.MustCompile(`^'([^']+)' (.*)$`)

// indexRE matches a map key or list index of a mapstructure key path.
var indexRE = regexp.MustCompile(`\[([^\]]*)\]`)

// parsingRE matches the value a cast failed on: strconv's parsing "abc".
var parsingRE = regexp.MustCompile(`parsing "((?:[^"\\]|\\.)*)"`)

// locateDecoding returns the errors of a decoding failure (one a line,
// after its first), each with the position of the key it is about, as
// "FILE:LINE: services.web.healthcheck.interval: PROBLEM", in file and
// line order; one it cannot place keeps its words, after those.
func (l *Project) locateDecoding(list string) string {
	type located struct {
		file, line int
		text       string
	}
	var out []located
	for _, line := range strings.Split(list, "\n") {
		if line == "" {
			continue
		}
		m := decodingRE.FindStringSubmatch(line)
		if m == nil {
			out = append(out, located{file: len(l.raw.files), text: line})
			continue
		}
		p := indexRE.ReplaceAllString(m[1], ".$1")
		x := located{file: len(l.raw.files), text: p + ": " + m[2]}
		if pos, ok := l.pathPos(p); ok {
			x.file = slices.IndexFunc(l.raw.files, func(f *rawFile) bool { return f.name == pos.File })
			x.line, x.text = pos.Line, pos.String()+": "+x.text
		}
		out = append(out, x)
	}
	slices.SortStableFunc(out, func(a, b located) int { return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line)) })
	texts := make([]string, len(out))
	for i, x := range out {
		texts[i] = x.text
	}
	return strings.Join(texts, "\n")
}

// shortSyntaxes are the keys of a service whose short-syntax entries
// compose-go parses with an error that names only the value ("invalid
// hostPort: web", "invalid spec: ./a::/x: empty section between colons"),
// each with compose-go's own parser of one entry.
var shortSyntaxes = []struct {
	key   string
	parse func(string) error
}{
	{"ports", func(s string) error { _, err := types.ParsePortConfig(s); return err }},
	{"volumes", func(s string) error { _, err := format.ParseVolume(s); return err }},
}

// shortPos returns the entry of a service's key (ports, volumes) that
// compose-go's error msg is about (it names the value, not where it is):
// the first in file order whose short syntax, interpolated, parse refuses
// with msg.
func (l *Project) shortPos(key string, parse func(string) error, msg string) (manifest.Pos, string, bool) {
	for _, f := range l.raw.files {
		for _, kv := range pairs(get(f.root, "services")) {
			for _, item := range seqItems(get(resolve(kv[1]), key)) {
				if item = resolve(item); item == nil || item.Kind != yaml.ScalarNode {
					continue
				}
				if err := parse(f.subst(item.Value)); err != nil && err.Error() == msg {
					return manifest.Pos{File: f.name, Line: item.Line}, kv[0].Value, true
				}
			}
		}
	}
	return manifest.Pos{}, "", false
}

// fileRefPos returns the entry of a service's key (env_file, label_file)
// that names the file at abs, in the first compose file that has one.
func (l *Project) fileRefPos(key, abs string) (manifest.Pos, string, bool) {
	for _, f := range l.raw.files {
		base := f.workDir
		if f.extended {
			base = filepath.Dir(f.path)
		}
		for _, kv := range pairs(get(f.root, "services")) {
			for _, ref := range fileRefs(get(resolve(kv[1]), key)) {
				if resolveRef(base, f.subst(ref.Value)) == abs {
					return manifest.Pos{File: f.name, Line: ref.Line}, kv[0].Value, true
				}
			}
		}
	}
	return manifest.Pos{}, "", false
}

// pathPos returns the line of a compose-go key path (services.app.
// volumes.[0]) in the last compose file that writes it.
func (l *Project) pathPos(p string) (manifest.Pos, bool) {
	return l.pathPosValue(p, "")
}

// pathPosValue is pathPos for a path that may hold a list item whose
// index compose-go does not say (services.app.ports.[].target, from its
// interpolation): the item whose value there, interpolated, is value, or
// else the list itself.
func (l *Project) pathPosValue(p, value string) (manifest.Pos, bool) {
	parts := strings.Split(p, ".")
	for i, part := range parts {
		parts[i] = strings.TrimSuffix(strings.TrimPrefix(part, "["), "]")
	}
	for i := len(l.raw.files) - 1; i >= 0; i-- {
		f := l.raw.files[i]
		if f.extended {
			continue
		}
		if line := anyItemLine(f, parts, value); line > 0 {
			return manifest.Pos{File: f.name, Line: line}, true
		}
	}
	if len(parts) > 2 && parts[0] == "services" {
		// Not written in the service: in a service it extends, maybe in
		// another file.
		for i := len(l.raw.files) - 1; i >= 0; i-- {
			f := l.raw.files[i]
			if f.extended {
				continue
			}
			n := f.service(parts[1])
			for depth := 0; n != nil && depth <= MaxExtendsDepth; depth++ {
				if f, n = l.raw.base(f, n); n == nil {
					break
				}
				if line, _ := nodeUnder(n, parts[2:]); line > 0 {
					return manifest.Pos{File: f.name, Line: line}, true
				}
			}
		}
	}
	return manifest.Pos{}, false
}

// anyItemLine returns nodeLine of path in f, where an empty part stands
// for any index of the list there: the line of the first item whose
// scalar at the rest of path is value, interpolated with f's
// environment, else the list's own line when value is "" or none is.
func anyItemLine(f *rawFile, path []string, value string) int {
	at := slices.Index(path, "")
	if at < 0 {
		return nodeLine(f, path)
	}
	line, list := nodeAt(f, path[:at])
	if list == nil || list.Kind != yaml.SequenceNode {
		return line
	}
	for i := range list.Content {
		rest := slices.Concat(path[:at], []string{strconv.Itoa(i)}, path[at+1:])
		if l, n := nodeAt(f, rest); l > 0 && n != nil && n.Kind == yaml.ScalarNode && value != "" && f.subst(n.Value) == value {
			return l
		}
	}
	return line
}
