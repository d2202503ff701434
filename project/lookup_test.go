package project

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestLookupAsPairs: lookup finds, for every key, the pair pairs gives
// first, through merge keys of one source or a list, nested merges, keys
// written twice, a merge of a mapping into itself, and keys absent.
func TestLookupAsPairs(t *testing.T) {
	docs := []string{
		"a: 1\nb: 2\n",
		"base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n  z: 4\n",
		"b1: &b1 {x: 1}\nb2: &b2 {x: 2, y: 2}\nm:\n  <<: [*b1, *b2]\n",
		"b1: &b1 {x: 1}\nb2: &b2 {<<: *b1, y: 2}\nb3: &b3 {z: 3, x: 9}\nm:\n  <<: *b2\n  <<: *b3\n",
		"m:\n  x: 1\n  x: 2\n",
		"m: &m\n  x: 1\n  n:\n    <<: *m\n    y: 2\n",
		"b: &b {y: 1}\nm:\n  y: 0\n  <<: *b\n",
	}
	for _, d := range docs {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(d), &doc); err != nil {
			t.Fatal(err)
		}
		var walk func(n *yaml.Node)
		walk = func(n *yaml.Node) {
			if n == nil || n.Kind == yaml.AliasNode {
				return
			}
			if n.Kind == yaml.MappingNode {
				ps := pairs(n)
				want := map[string][2]*yaml.Node{}
				for _, p := range ps {
					if _, ok := want[p[0].Value]; !ok {
						want[p[0].Value] = p
					}
				}
				for _, key := range []string{"a", "b", "x", "y", "z", "n", "m", "absent"} {
					k, v := lookup(n, key)
					w, ok := want[key]
					if !ok && k != nil || ok && (k != w[0] || v != w[1]) {
						t.Errorf("%q: lookup(%q) = line %v, want pairs' %v", d, key, k, w[0])
					}
				}
			}
			for _, c := range n.Content {
				walk(c)
			}
		}
		walk(&doc)
	}
}
