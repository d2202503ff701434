package project

import (
	"github.com/compose-spec/compose-go/v2/interpolation"
	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/tree"
	"go.yaml.in/yaml/v3"
)

// keys returns every mapping key written in the compose files of ix, as
// the YAML library decodes it (quotes and escapes undone; a key written
// as an alias is its anchor's value).
func (ix *rawIndex) keys() map[string]bool {
	out := map[string]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || n.Kind == yaml.AliasNode {
			// An alias repeats a node written elsewhere in the file,
			// whose keys the walk meets there.
			return
		}
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := resolve(n.Content[i]); k != nil && k.Kind == yaml.ScalarNode {
					out[k.Value] = true
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	for _, f := range ix.files {
		walk(f.root)
	}
	return out
}

// castsFor returns a compose-go load option that keeps, of the
// interpolation casts compose-go would apply (its private table of some
// 90 key paths, such as services.*.cpus to a float and
// services.*.volumes.[].read_only to a boolean), only those whose every
// named segment is a key written in one of the project's compose files.
//
// compose-go interpolates each file as decoded, before it merges, extends
// or canonicalizes anything, so a value it casts sits under keys written
// in the file that holds it: a cast naming a key no file writes matches no
// value, and leaving it out changes nothing that is loaded. What it saves
// is compose-go matching every string value of the project against every
// cast (tree.Path.Matches splits both paths each time); since v2.15 the
// table holds each container attribute three times, for services, jobs and
// pre_start hooks, which most projects have none of.
//
// The premise is that ix read every compose file compose-go reads, which
// the inputs' digests (the check cache) rest on as well; so a load that
// fails with the casts pruned fails as it would with every cast, and is
// not done again. When ix could not read or parse a compose file
// (ix.partial), every cast is kept.
func castsFor(ix *rawIndex) func(*loader.Options) {
	keys := ix.keys()
	return func(o *loader.Options) {
		if ix.partial || o.Interpolate == nil || o.Interpolate.TypeCastMapping == nil {
			return
		}
		kept := make(map[tree.Path]interpolation.Cast)
		for pattern, cast := range o.Interpolate.TypeCastMapping {
			if namesOnly(pattern, keys) {
				kept[pattern] = cast
			}
		}
		in := *o.Interpolate
		in.TypeCastMapping = kept
		o.Interpolate = &in
	}
}

// namesOnly reports whether every segment of pattern that is not a
// wildcard (tree.PathMatchAll, tree.PathMatchList) is in keys, a dot
// that a segment escapes restored.
func namesOnly(pattern tree.Path, keys map[string]bool) bool {
	for _, part := range pattern.Parts() {
		if part != tree.PathMatchAll && part != tree.PathMatchList && !keys[tree.Path(part).String()] {
			return false
		}
	}
	return true
}
