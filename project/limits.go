package project

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Limits on the shape of a compose file, checked on the raw reading before
// compose-go sees the file. Real compose files nest about 10 levels and
// hold a few thousand nodes (the largest of the shared corpus: 10 levels,
// about 5,300 nodes); compose-go's path matching is quadratic in depth, so
// a 20 KB file nested 10,000 levels would hold a core for most of a
// minute, and aliases can make a small file expand to millions of nodes.
const (
	// MaxDepth is the deepest nesting of mappings and lists admitted.
	MaxDepth = 64
	// MaxNodes is the most nodes a file may hold with its aliases
	// expanded, as compose-go sees it.
	MaxNodes = 200_000
	// MaxShellCommand is the longest command, entrypoint or healthcheck
	// test written as one string, in bytes: compose-go splits such a
	// string into words with go-shellwords, in time quadratic in its
	// length (64 KiB take seconds, 256 KiB most of a minute); real ones
	// are under a kilobyte.
	MaxShellCommand = 8 << 10
	// MaxReferenceDepth is the longest chain of compose files each named
	// by the one before (include, extends.file) from a -f file, and
	// MaxFiles the most compose files a project may read: compose-go
	// loads each included file as a project of its own and merges it, in
	// time that grows with the square of the chain (a chain of 1,000
	// files took over a minute, docker compose's own reading as long);
	// real projects include or extend a few files, one or two deep.
	MaxReferenceDepth = 16
	MaxFiles          = 256
	// MaxExtendsDepth is the longest chain of services each extending the
	// next, across files or in one: the merged definitions of each
	// service are read along its chain (a chain of 1,000 services took
	// 10 s); real ones are one or two deep.
	MaxExtendsDepth = 16
)

// referenceLimits returns why file name, which ref names and which is the
// files-th the project reads, is past MaxReferenceDepth or MaxFiles; nil
// when it is not.
func referenceLimits(ref *reference, name string, files int) error {
	switch {
	case ref.depth > MaxReferenceDepth:
		return fmt.Errorf("%s %s: a chain of more than %d compose files, each named by the one before with include or extends.file; refused before loading", ref.what, name, MaxReferenceDepth)
	case files > MaxFiles:
		return fmt.Errorf("%s %s: the project reads more than %d compose files (with include and extends.file); refused before loading", ref.what, name, MaxFiles)
	}
	return nil
}

// extendsProblem returns where a service starts a chain of extends longer
// than MaxExtendsDepth, "" when none does. A cycle compose-go reports
// itself.
func (ix *rawIndex) extendsProblem() string {
	depth := map[*yaml.Node]int{}
	var path []extension // the services being followed, in order
	cycle := ""
	var chain func(f *rawFile, n *yaml.Node) int
	chain = func(f *rawFile, n *yaml.Node) int {
		if d, ok := depth[n]; ok {
			return d
		}
		if i := slices.IndexFunc(path, func(e extension) bool { return e.node == n }); i >= 0 {
			if cycle == "" {
				cycle = extendsCycle(path[i:])
			}
			return 0
		}
		path = append(path, extension{f, n})
		d := 0
		if bf, bn := ix.base(f, n); bn != nil {
			d = 1 + chain(bf, bn)
		}
		path = path[:len(path)-1]
		depth[n] = d
		return d
	}
	for _, f := range ix.files {
		for _, p := range pairs(get(f.root, "services")) {
			if d := chain(f, resolve(p[1])); d > MaxExtendsDepth {
				return fmt.Sprintf("%s:%d: service %q: a chain of %d services each extending the next, more than the %d a compose file needs; refused before loading", f.name, p[0].Line, p[0].Value, d+1, MaxExtendsDepth)
			}
			if cycle != "" {
				return cycle
			}
		}
	}
	return ""
}

// extension is a service definition that extends: node, in f.
type extension struct {
	f    *rawFile
	node *yaml.Node
}

// extendsCycle says where the services of cycle, each extending the
// next and the last the first, write it: docker compose refuses them
// ("Circular reference", naming no line).
func extendsCycle(cycle []extension) string {
	var steps []string
	first := ""
	for i, e := range cycle {
		name := serviceName(e.f, e.node)
		next := cycle[(i+1)%len(cycle)]
		line := e.node.Line
		if k := keyNode(e.node, "extends"); k != nil {
			line = k.Line
		}
		where := fmt.Sprintf("%s:%d", e.f.name, line)
		if i == 0 {
			first = where
		}
		steps = append(steps, fmt.Sprintf("%q extends %q (%s)", name, serviceName(next.f, next.node), where))
	}
	if len(cycle) == 1 {
		return fmt.Sprintf("%s: service %q extends itself, which docker compose refuses; remove the extends", first, serviceName(cycle[0].f, cycle[0].node))
	}
	return fmt.Sprintf("%s: services extend each other in a cycle (%s), which docker compose refuses; remove one of these extends", first, strings.Join(steps, ", "))
}

// serviceName returns the name f's services: gives the definition n.
func serviceName(f *rawFile, n *yaml.Node) string {
	for _, kv := range pairs(get(f.root, "services")) {
		if resolve(kv[1]) == n {
			return kv[0].Value
		}
	}
	return "?"
}

// measure returns how deep n nests and how many nodes it holds with
// aliases expanded (each alias as the size of what it names), stopping
// early once a limit is passed. An alias that names one of its own
// ancestors counts once: compose-go reports the cycle.
func measure(n *yaml.Node) (depth, nodes int) {
	sizes := map[*yaml.Node]int{}
	onPath := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node, d int) int
	walk = func(n *yaml.Node, d int) int {
		if n == nil {
			return 0
		}
		if d > depth {
			depth = d
		}
		if depth > MaxDepth || nodes > MaxNodes {
			return 0
		}
		if n.Kind == yaml.AliasNode {
			target := n.Alias
			if target == nil || onPath[target] {
				return 1
			}
			if s, ok := sizes[target]; ok {
				nodes += s
				return s
			}
			return walk(target, d)
		}
		if s, ok := sizes[n]; ok {
			nodes += s
			return s
		}
		onPath[n] = true
		size := 1
		nodes++
		for _, c := range n.Content {
			size += walk(c, d+1)
		}
		delete(onPath, n)
		sizes[n] = size
		return size
	}
	walk(n, 0)
	return depth, nodes
}

// shapeProblem returns why f is beyond the limits, "" when it is not.
func shapeProblem(f *rawFile) string {
	depth, nodes := measure(f.root)
	if depth <= MaxDepth && nodes <= MaxNodes {
		if msg := longCommand(f); msg != "" {
			return msg
		}
	}
	switch {
	case depth > MaxDepth:
		return fmt.Sprintf("%s: nests deeper than %d levels, more than a compose file needs; refused before loading", f.name, MaxDepth)
	case nodes > MaxNodes:
		return fmt.Sprintf("%s: holds more than %d YAML nodes with its aliases expanded; refused before loading", f.name, MaxNodes)
	}
	return ""
}

// longCommand returns where a service of f writes a shell-form command
// longer than MaxShellCommand, "" when none does.
func longCommand(f *rawFile) string {
	for _, p := range pairs(get(f.root, "services")) {
		svc := resolve(p[1])
		for _, key := range []string{"command", "entrypoint"} {
			if n := get(svc, key); n != nil && n.Kind == yaml.ScalarNode && len(n.Value) > MaxShellCommand {
				return fmt.Sprintf("%s:%d: service %q: %s is a string of %d bytes, more than the %d a shell command may have; write it as a list", f.name, n.Line, p[0].Value, key, len(n.Value), MaxShellCommand)
			}
		}
		if n := get(get(svc, "healthcheck"), "test"); n != nil && n.Kind == yaml.ScalarNode && len(n.Value) > MaxShellCommand {
			return fmt.Sprintf("%s:%d: service %q: healthcheck.test is a string of %d bytes, more than the %d a shell command may have; write it as a list", f.name, n.Line, p[0].Value, len(n.Value), MaxShellCommand)
		}
	}
	return ""
}
