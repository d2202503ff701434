package convert

import (
	"maps"
	"slices"
	"sort"

	"github.com/compose-spec/compose-go/v2/types"
)

// startOrder returns the names of the services of p in the order docker
// compose starts them: each after every service it depends on, ties by
// name, so the same project always gives the same order (a stable
// topological sort). compose-go has already folded links, volumes_from
// and network_mode, ipc, pid, uts and cgroup service:NAME into
// depends_on, and refused a cycle at load; a dependency on a service that
// does not run (left out by its profiles) does not order anything.
func startOrder(p *types.Project) []string {
	names := slices.Sorted(maps.Keys(p.Services))
	waits := map[string]int{}           // service -> dependencies not yet written
	dependents := map[string][]string{} // service -> services that depend on it
	for _, name := range names {
		for dep := range p.Services[name].DependsOn {
			if _, runs := p.Services[dep]; !runs || dep == name {
				continue
			}
			waits[name]++
			dependents[dep] = append(dependents[dep], name)
		}
	}
	var ready, out []string
	for _, name := range names {
		if waits[name] == 0 {
			ready = append(ready, name)
		}
	}
	for len(ready) > 0 {
		sort.Strings(ready)
		name := ready[0]
		ready = ready[1:]
		out = append(out, name)
		for _, d := range dependents[name] {
			if waits[d]--; waits[d] == 0 {
				ready = append(ready, d)
			}
		}
	}
	if len(out) < len(names) {
		// A cycle, which compose-go refuses at load: keep the rest in
		// name order rather than drop a service.
		written := map[string]bool{}
		for _, n := range out {
			written[n] = true
		}
		for _, n := range names {
			if !written[n] {
				out = append(out, n)
			}
		}
	}
	return out
}
