package batch

import (
	"path/filepath"
	"sort"

	"github.com/compose2manifest/compose2manifest/project"
)

// Skipped is something under a batch's root that was not converted.
type Skipped struct {
	// Path is where it is: Config.Root joined with its path relative to
	// the root, slash-separated.
	Path string `json:"path"`
	// Kind is SkippedComposeFile or SkippedLink.
	Kind string `json:"kind"`
	// Reason says why it was not converted.
	Reason string `json:"reason"`
}

// Kinds of Skipped.
const (
	// SkippedComposeFile: a file that looks like a compose file
	// (project.LooksLikeCompose) that no project of the batch reads.
	SkippedComposeFile = "compose_file"
	// SkippedLink: a symbolic link to a folder, which discovery never
	// follows.
	SkippedLink = "link"
)

// unused returns, in discovery order, the compose-like files of t that no
// project read (used, and the default files of each project) as projects
// of their own when a pattern of include matches them, and the rest, with
// t's links to folders, as Skipped: of each, only those whose path
// relative to the root is in shard.
func unused(root, rootAbs string, t *tree, used map[string]bool, include []string, shard Shard) ([]Project, []Skipped) {
	for _, p := range t.projects {
		for _, f := range project.DefaultFiles(p.Dir) {
			used[f] = true
		}
	}
	var projects []Project
	var skipped []Skipped
	for _, f := range t.yamlFiles {
		if used[f] || !project.LooksLikeCompose(f) {
			continue
		}
		rel := relSlash(rootAbs, f)
		if !shard.Has(rel) {
			continue
		}
		dir := filepath.Dir(f)
		if len(include) > 0 && Excluded(rel, include) {
			projects = append(projects, Project{Dir: dir, Rel: relSlash(rootAbs, dir), File: f, Size: fileSize(f)})
			continue
		}
		skipped = append(skipped, Skipped{Path: displayPath(root, rel), Kind: SkippedComposeFile, Reason: "a compose file no project reads"})
	}
	for _, f := range t.unsearched {
		if rel := relSlash(rootAbs, f); !used[f] && shard.Has(rel) {
			skipped = append(skipped, Skipped{Path: displayPath(root, rel), Kind: SkippedComposeFile, Reason: "a compose file below node_modules, which is never searched for projects"})
		}
	}
	for _, l := range t.links {
		if !shard.Has(relSlash(rootAbs, l)) {
			continue
		}
		skipped = append(skipped, Skipped{Path: displayPath(root, relSlash(rootAbs, l)), Kind: SkippedLink, Reason: "a symbolic link to a folder, not followed"})
	}
	return projects, skipped
}

func relSlash(base, p string) string {
	r, err := filepath.Rel(base, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}

// inDiscoveryOrder sorts projects and their entries (parallel slices)
// into discovery order: by folder as discovery met them, a folder's
// default project before the files converted alone, those by name.
func inDiscoveryOrder(order map[string]int, projects []Project, entries []Entry) ([]Project, []Entry) {
	idx := make([]int, len(projects))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		pa, pb := projects[idx[a]], projects[idx[b]]
		if oa, ob := order[pa.Rel], order[pb.Rel]; oa != ob {
			return oa < ob
		}
		return pa.File < pb.File
	})
	ps := make([]Project, len(projects))
	es := make([]Entry, len(entries))
	for i, j := range idx {
		ps[i], es[i] = projects[j], entries[j]
	}
	return ps, es
}
