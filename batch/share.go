package batch

import (
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/rules"
)

// shareIndex records, for each project of a batch, the absolute host
// paths it mounts with a bind (declared or still missing), so that a
// source several projects share can be offered as kind: host
// (convert.Result.OfferShared). Safe for concurrent use.
type shareIndex struct {
	mu    sync.Mutex
	paths map[string][]int // clean host path → the projects mounting it
	// volumes maps a Docker volume's name to the converted modules that
	// own a copy of it, in the order added.
	volumes map[string][]volumeCopy
	names   []string // each project's name for people: its folder under the root
	keys    []string // the paths, sorted; nil until sharers first needs them
}

// volumeCopy is a converted module's copy of a Docker volume: project i
// owns it at path.
type volumeCopy struct {
	i    int
	path string
}

func newShareIndex(projects []Project) *shareIndex {
	x := &shareIndex{paths: map[string][]int{}, volumes: map[string][]volumeCopy{}, names: make([]string, len(projects))}
	for i, p := range projects {
		x.names[i] = p.Rel
		if p.File != "" {
			x.names[i] = path.Join(p.Rel, path.Base(p.File))
		}
		if x.names[i] == "" || x.names[i] == "." {
			x.names[i] = "."
		}
	}
	return x
}

// add records the absolute bind sources of project i's result and the
// Docker volumes its converted module owns copies of, and reports
// whether res is a refusal with a bind source or a named volume nothing
// declares: one whose offer the other projects can change.
func (x *shareIndex) add(i int, res *convert.Result) (open bool) {
	if res == nil {
		return false
	}
	var ps []string
	for _, m := range res.Missing {
		if m.Section == declare.SectionBinds && strings.HasPrefix(m.Key, "/") {
			ps = append(ps, path.Clean(m.Key))
			open = open || !m.Supplied
		}
		if m.Section == declare.SectionVolumes && m.Legacy != "" && (m.Kind == project.ExternalNamed || !strings.HasSuffix(m.Legacy, "_"+m.Key)) {
			// External, or named by name:: another module may own a copy.
			// A volume named after its project is its own, and is not
			// held back for the whole batch.
			open = open || !m.Supplied
		}
	}
	mod := res.Module
	if mod == nil {
		mod = res.Candidate
	}
	var copies []volumeCopy
	var volumes []string
	if mod != nil {
		for _, r := range mod.Declared() {
			if name, ok := strings.CutPrefix(r.Legacy(), "Docker volume "); ok && res.Status == convert.Converted && r.Kind != manifest.KindHost {
				volumes, copies = append(volumes, name), append(copies, volumeCopy{i, r.Path})
			}
			switch p, ok := strings.CutPrefix(r.Legacy(), "bind /"); {
			case ok:
				ps = append(ps, path.Clean("/"+p))
			case r.Kind == manifest.KindHost && strings.HasPrefix(r.Path, "/") && !project.WellKnownHost(r.Path):
				ps = append(ps, path.Clean(r.Path)) // used where it is
			}
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, p := range ps {
		if js := x.paths[p]; !slices.Contains(js, i) {
			x.paths[p] = append(js, i)
		}
	}
	for k, name := range volumes {
		x.volumes[name] = append(x.volumes[name], copies[k])
	}
	x.keys = nil
	return open && res.Status == convert.Refused
}

// sharers returns, for project i, what convert.Result.OfferShared asks: the other
// projects mounting a host path or a path inside it, by name, sorted;
// and those mounting a path above it, as "NAME (PATH)", nearest first.
func (x *shareIndex) sharers(i int) func(string) ([]string, []string) {
	return func(p string) (shared, holders []string) {
		x.mu.Lock()
		defer x.mu.Unlock()
		if x.keys == nil {
			x.keys = make([]string, 0, len(x.paths))
			for k := range x.paths {
				x.keys = append(x.keys, k)
			}
			sort.Strings(x.keys)
		}
		var out []string
		for k := sort.SearchStrings(x.keys, p); k < len(x.keys); k++ {
			q := x.keys[k]
			if q != p && !strings.HasPrefix(q, strings.TrimSuffix(p, "/")+"/") {
				if !strings.HasPrefix(q, p) {
					break // past every path that starts with p
				}
				continue // a sibling such as /srv/media2 of /srv/media
			}
			for _, j := range x.paths[q] {
				if j != i && !slices.Contains(out, x.names[j]) {
					out = append(out, x.names[j])
				}
			}
		}
		sort.Strings(out)
		for q := path.Dir(p); q != p; p, q = q, path.Dir(q) {
			if slices.Contains(rules.SystemPaths(), q) {
				continue // a monitor of the whole host sees a moved copy too (rules' checkMovedFromUnder)
			}
			for _, j := range x.paths[q] {
				if j != i {
					holders = append(holders, x.names[j]+" ("+q+")")
				}
			}
		}
		return out, holders
	}
}

// owners returns, for project i, what convert.Result.OfferShared asks of
// a Docker volume: the project, other than i, first in discovery order
// whose converted module owns a copy of it, and that copy's path.
func (x *shareIndex) owners(i int) func(string) (string, string) {
	return func(name string) (string, string) {
		x.mu.Lock()
		defer x.mu.Unlock()
		best := volumeCopy{i: -1}
		for _, c := range x.volumes[name] {
			if c.i != i && (best.i < 0 || c.i < best.i) {
				best = c
			}
		}
		if best.i < 0 {
			return "", ""
		}
		return x.names[best.i], best.path
	}
}

// held is a refusal whose offer waits for the whole batch (Runner.Share).
type held struct {
	i   int
	res *convert.Result
}

// offer sets in each held refusal what the other projects of the batch
// mount (convert.Result.OfferShared), and calls fn with each, in project
// order.
func (x *shareIndex) offer(hs []held, fn func(int, *convert.Result, error)) {
	slices.SortFunc(hs, func(a, b held) int { return a.i - b.i })
	for _, h := range hs {
		h.res.OfferShared(x.sharers(h.i), x.owners(h.i))
		fn(h.i, h.res, nil)
	}
}
