// Package inventory lists the paths a set of module manifests declares,
// with what each holds and whether it is backed up (SPEC section 4): the
// table a person reads, and the lists a backup client reads, each in the
// syntax it reads literally (clients.go), and CACHEDIR.TAG's places for
// --exclude-caches.
//
// It judges nothing: the rules do (check). It only reads manifests that
// decoded.
package inventory

import (
	"slices"
	"sort"

	"github.com/compose2manifest/compose2manifest/manifest"
)

// Backup says whether a declared path is backed up.
type Backup string

// The answers of SPEC section 4's "backed up" column.
const (
	// Yes: state and content, data nothing else can rebuild.
	Yes Backup = "yes"
	// No: config (the module's repo is the backup), cache, runtime, and
	// host paths (the host's, never the module's).
	No Backup = "no"
	// Policy: logs, backed up where the site's policy says so.
	Policy Backup = "by policy"
)

// BackedUp returns whether data of intent i is backed up.
func BackedUp(i manifest.Intent) Backup {
	switch i {
	case manifest.IntentState, manifest.IntentContent:
		return Yes
	case manifest.IntentLogs:
		return Policy
	}
	return No
}

// Entry is one declared path of one module.
type Entry struct {
	Module string `json:"module"`
	// Kind is directory, file or host.
	Kind manifest.Kind `json:"kind"`
	Path string        `json:"path"`
	// Intent, Owner and Mode are empty for a host path.
	Intent manifest.Intent `json:"intent,omitempty"`
	Owner  string          `json:"owner,omitempty"`
	Mode   string          `json:"mode,omitempty"`
	Backup Backup          `json:"backup"`
	Note   string          `json:"note,omitempty"`
	// File and Line are where the manifest declares it.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}

// Of returns every declared path of mods (nil modules are skipped),
// ordered by path (parent first), then module.
func Of(mods []*manifest.Module) []Entry {
	var out []Entry
	for _, m := range mods {
		if m == nil {
			continue
		}
		for _, r := range m.Declared() {
			e := Entry{Module: m.Module, Kind: r.Kind, Path: r.Path, Note: r.Note, File: r.Pos.File, Line: r.Pos.Line, Backup: No}
			if r.Kind != manifest.KindHost {
				e.Intent, e.Owner, e.Mode, e.Backup = r.Intent, r.Owner, r.Mode, BackedUp(r.Intent)
			}
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if c := manifest.ComparePaths(out[i].Path, out[j].Path); c != 0 {
			return c < 0
		}
		return out[i].Module < out[j].Module
	})
	return out
}

// BackupPaths returns the paths to back up: every owned path whose
// backup is Yes (and Policy too, when logs is true), leaving out a path
// that lies inside another one already listed (the tool reads it with its
// parent) and a path listed twice. Parent first.
//
// A path inside a declared directory that is not backed up (cache,
// runtime, config), itself inside a listed path, is listed on its own:
// with a CACHEDIR.TAG in a cache directory (--exclude-caches) the tool
// skips the directory whole, with what the parent's listing would have
// carried inside it.
func BackupPaths(entries []Entry, logs bool) []string {
	var out, skipped []string
	for _, e := range entries {
		if e.Kind == manifest.KindDirectory && e.Backup == No {
			skipped = append(skipped, e.Path)
		}
	}
	for _, e := range entries {
		if e.Kind == manifest.KindHost || (e.Backup != Yes && (!logs || e.Backup != Policy)) {
			continue
		}
		if covered(out, skipped, e.Path) {
			continue
		}
		out = append(out, e.Path)
	}
	return out
}

// ExcludePaths returns the declared paths that lie inside a path
// BackupPaths lists (with the same logs) but are not to be backed up
// themselves: cache and runtime, config, and logs unless logs is set.
// The backup tool reads them with their parent otherwise; given to it as
// excludes (ExcludeList: restic --exclude-file, tar -X, borg
// --exclude-from, each escaped for it), the backup holds exactly the state and content
// paths. Each once, parent first; one inside another excluded path is
// left out, and so is one that holds a path to back up (the tools skip
// all below an excluded path, even a path they were told to back up): its
// other contents are then backed up with the parent.
func ExcludePaths(entries []Entry, logs bool) []string {
	listed := BackupPaths(entries, logs)
	var out []string
	for _, e := range entries {
		if e.Kind == manifest.KindHost || e.Backup == Yes || (logs && e.Backup == Policy) {
			continue
		}
		inside := slices.ContainsFunc(listed, func(q string) bool { return manifest.IsAncestor(q, e.Path) })
		again := slices.ContainsFunc(out, func(q string) bool { return q == e.Path || manifest.IsAncestor(q, e.Path) })
		// Never a path that holds one to back up: restic, borg and tar
		// skip everything below an excluded path, a listed one too.
		holds := slices.ContainsFunc(listed, func(q string) bool { return manifest.IsAncestor(e.Path, q) })
		if inside && !again && !holds {
			out = append(out, e.Path)
		}
	}
	return out
}

// CacheDirectories returns the directories whose intent is cache, each
// once, parent first: where a CACHEDIR.TAG lets restic, borg and tar
// (--exclude-caches) leave them out of a backup that holds their parent.
func CacheDirectories(entries []Entry) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range entries {
		if e.Kind == manifest.KindDirectory && e.Intent == manifest.IntentCache && !seen[e.Path] {
			seen[e.Path] = true
			out = append(out, e.Path)
		}
	}
	return out
}

// covered reports whether p is one of list or lies inside one of them
// with none of skipped between them (inside the listed path and holding
// p, or p itself).
func covered(list, skipped []string, p string) bool {
	for _, q := range list {
		if q == p {
			return true
		}
		if !manifest.IsAncestor(q, p) {
			continue
		}
		between := false
		for _, s := range skipped {
			if manifest.IsAncestor(q, s) && (s == p || manifest.IsAncestor(s, p)) {
				between = true
				break
			}
		}
		if !between {
			return true
		}
	}
	return false
}
