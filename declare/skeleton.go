package declare

import (
	"bytes"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/compose2manifest/compose2manifest/internal/atomicfile"
)

// SkeletonHeader starts every declarations skeleton convert writes (after
// a yaml-language-server line, when there is one).
const SkeletonHeader = "# Declarations for the sources convert refused."

// WriteSkeleton writes the declarations skeleton data to the file at p
// atomically (convert --skeleton FILE). A file there that is not a
// skeleton (its comments do not open with SkeletonHeader), or a skeleton
// a person has filled in since (a value data leaves empty or lacks), is
// a person's, replaced only with force.
func WriteSkeleton(p string, data []byte, force bool) error {
	ours := func(old []byte) bool { return isSkeleton(old) && !filledIn(old, data) }
	return atomicfile.WriteOwned(p, data, 0o644, force, "a skeleton nobody has filled in since", ours)
}

// filledIn reports whether the skeleton old holds a value the skeleton
// data does not at the same place: an answer a person wrote into it,
// which writing data would lose. A document that does not parse counts
// as filled in.
func filledIn(old, data []byte) bool {
	var o, n yaml.Node
	if yaml.Unmarshal(old, &o) != nil || yaml.Unmarshal(data, &n) != nil {
		return true
	}
	have := map[string]string{}
	scalars(&n, "", func(at, v string) { have[at] = v })
	filled := false
	scalars(&o, "", func(at, v string) {
		if v != "" && have[at] != v {
			filled = true
		}
	})
	return filled
}

// scalars calls fn with each scalar value of n and the path of keys and
// indexes to it.
func scalars(n *yaml.Node, at string, fn func(at, v string)) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			scalars(c, at, fn)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			scalars(n.Content[i+1], at+"\x00"+n.Content[i].Value, fn)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			scalars(c, at+"\x00#"+strconv.Itoa(i), fn)
		}
	case yaml.ScalarNode:
		fn(at, n.Value)
	}
}

// isSkeleton reports whether data opens as a skeleton convert wrote.
func isSkeleton(data []byte) bool {
	for _, line := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(line, []byte(SchemaCommentPrefix)) {
			continue
		}
		return bytes.HasPrefix(line, []byte(SkeletonHeader))
	}
	return false
}
