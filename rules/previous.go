package rules

import (
	"fmt"
	"sort"

	"github.com/compose2manifest/compose2manifest/manifest"
)

// PreviousPass is what a rule's CheckPrevious receives: the manifests of a
// change, held against the manifests as they were before it (check
// --previous OLD_DIR, or --previous-rev REV). Modules are matched by name.
// Report fills in Rule and, when empty, Fix.
type PreviousPass struct {
	// Current are the manifests checked, as decoded; Previous the
	// manifests before the change, whose positions name the old files
	// (OLD_DIR/a.yaml, or REV:out/a.yaml).
	Current, Previous []*manifest.Module
	// Planned reports whether a migration plan moves the data of the
	// declared path from to the declared path to; nil plans nothing.
	Planned func(from, to string) bool
	// Report records a finding.
	Report func(Diagnostic)
}

// RunPrevious runs every rule of list with a CheckPrevious over the facts
// of pass (whose Report is not used) and returns the diagnostics in rule
// order, then in report order.
func RunPrevious(list []*Rule, pass *PreviousPass) []Diagnostic {
	if pass == nil {
		return nil
	}
	var out []Diagnostic
	for _, r := range list {
		if r.CheckPrevious == nil {
			continue
		}
		p := *pass
		p.Report = reporter(r, "", &out)
		r.CheckPrevious(&p)
	}
	return out
}

// keeps reports whether data of intent i is kept and backed up: state
// and content (SPEC section 4).
func keeps(i manifest.Intent) bool {
	return i == manifest.IntentState || i == manifest.IntentContent
}

// dropped reports whether a path of intent i is removed whole when its
// module goes away, or emptied on restart: cache and runtime.
func dropped(i manifest.Intent) bool {
	return i == manifest.IntentCache || i == manifest.IntentRuntime
}

// leavesBackup says why a path of intent i, once state or content, is no
// longer in inventory --backup: config is kept by the module's repository,
// not a backup; logs are backed up only by policy (--logs), which a
// backup of state does not ask for, so a path becoming logs leaves it too.
func leavesBackup(i manifest.Intent) string {
	switch i {
	case manifest.IntentConfig:
		return "config is not backed up: the module's repository is its backup, and the data in it is not there"
	case manifest.IntentLogs:
		return "logs are backed up only by policy, with --logs"
	}
	return "it is not backed up"
}

// mountKey names a container volume: the container and its target.
type mountKey struct{ container, target string }

// mounts returns, for each container volume of m whose source is a
// declared path, the source by container and target.
func mounts(m *manifest.Module) map[mountKey]string {
	out := map[mountKey]string{}
	for _, c := range m.Containers() {
		for _, v := range c.Container.Volumes {
			out[mountKey{c.Container.Name, v.Target}] = v.Source
		}
	}
	return out
}

// owned returns m's declared directories and files by path (the first of
// each path).
func owned(m *manifest.Module) map[string]*manifest.Resource {
	out := map[string]*manifest.Resource{}
	for _, r := range m.Declared() {
		if r.Kind != manifest.KindHost && out[r.Path] == nil {
			out[r.Path] = r
		}
	}
	return out
}

// checkDroppedState is C2M022: a change that would lose or strand data the
// module keeps. For each module of Previous:
//   - the module is gone while it declared state or content;
//   - a state or content path is no longer declared (a parent no
//     container mounted, with declared paths inside it, is judged by
//     them): where a container
//     mounted it at the same target another path is mounted now, it was
//     moved, which only a migration plan makes safe (Planned); otherwise
//     it was dropped;
//   - its intent went from state or content to cache or runtime (removed
//     whole), or to config or logs (no longer in inventory --backup; logs
//     only by policy, which counts as leaving);
//   - its owner or mode changed;
//   - a container that mounted volumes is gone.
func checkDroppedState(p *PreviousPass) {
	current := map[string]*manifest.Module{}
	for _, m := range p.Current {
		if m != nil && current[m.Module] == nil {
			current[m.Module] = m
		}
	}
	for _, old := range p.Previous {
		if old == nil {
			continue
		}
		cur := current[old.Module]
		if cur == nil {
			var kept []string
			for _, r := range old.Declared() {
				if r.Kind != manifest.KindHost && keeps(r.Intent) {
					kept = append(kept, r.Path)
				}
			}
			if len(kept) > 0 {
				d := Diagnostic{File: old.Pos.File, Line: old.Pos.Line, Module: old.Module,
					Message: fmt.Sprintf("module %q is gone from the manifests checked, with its %s %s", old.Module, countNoun(len(kept), "path"), abbreviate(kept, 3)+" of state or content")}
				p.Report(d)
			}
			continue
		}
		comparePrevious(p, old, cur)
	}
}

// comparePrevious reports what C2M022 finds between one module before and
// after.
func comparePrevious(p *PreviousPass, old, cur *manifest.Module) {
	now := owned(cur)
	oldMounts, curMounts := mounts(old), mounts(cur)
	at := func(r *manifest.Resource) manifest.Pos {
		if r == nil || r.Pos.File == "" {
			return cur.Pos
		}
		return r.Pos
	}
	report := func(pos manifest.Pos, before *manifest.Resource, msg string, args ...any) {
		d := Diagnostic{File: pos.File, Line: pos.Line, Module: cur.Module, Message: fmt.Sprintf(msg, args...)}
		if before != nil {
			d.Message += fmt.Sprintf(" (before: %s)", before.Pos)
			d.relate(before.Pos, "the declaration before the change")
		}
		p.Report(d)
	}
	for _, r := range old.Declared() {
		if r.Kind == manifest.KindHost || !keeps(r.Intent) {
			continue
		}
		n := now[r.Path]
		if n == nil {
			to := movedTo(r.Path, oldMounts, curMounts)
			switch {
			case to == "" && !mounted(r.Path, oldMounts) && hasDescendant(old, r.Path):
				// A parent only: its children's data is what is kept,
				// and each child is judged itself.
			case to != "" && p.Planned != nil && p.Planned(r.Path, to):
			case to != "":
				report(at(now[to]), r, "%s (%s) moved to %s without a migration plan: the host creates %s empty and leaves the data at %s", r.Path, r.Intent, to, to, r.Path)
			default:
				report(cur.Pos, r, "%s (%s) is no longer declared: nothing would mount its data, and it is no longer backed up", r.Path, r.Intent)
			}
			continue
		}
		switch {
		case dropped(n.Intent):
			report(at(n), r, "%s: intent %s became %s, which the host removes whole (and no backup keeps)", r.Path, r.Intent, n.Intent)
		case !keeps(n.Intent):
			report(at(n), r, "%s: intent %s became %s, which takes it out of inventory --backup (%s)", r.Path, r.Intent, n.Intent, leavesBackup(n.Intent))
		}
		if n.Owner != r.Owner {
			report(at(n), r, "%s (%s): owner %s became %s; the host changes the directory, not the data in it, which the software may no longer read", r.Path, r.Intent, r.Owner, n.Owner)
		}
		if n.Mode != r.Mode {
			report(at(n), r, "%s (%s): mode %s became %s; the host changes the directory, not the data in it", r.Path, r.Intent, r.Mode, n.Mode)
		}
	}
	names := map[string]bool{}
	for _, c := range cur.Containers() {
		names[c.Container.Name] = true
	}
	for _, c := range old.Containers() {
		if len(c.Container.Volumes) > 0 && !names[c.Container.Name] {
			report(cur.Pos, c, "container %q, which mounted %s, is no longer converted (left out by a profile, or removed)", c.Container.Name, countNoun(len(c.Container.Volumes), "volume"))
		}
	}
}

// A Moved is a declaration that moved between two manifests of one module:
// the path From, no longer declared, was mounted where a container now
// mounts the declared path To.
type Moved struct{ From, To string }

// MovedPaths returns the declared paths of old, of any intent, that cur
// no longer declares and that moved (C2M022's test: the same container
// mounts another declared path at the same target), in old's order.
// compose2manifest plan --previous plans their data from From to To (C2M022
// itself holds only state and content moves against a plan).
func MovedPaths(old, cur *manifest.Module) []Moved {
	now := owned(cur)
	oldMounts, curMounts := mounts(old), mounts(cur)
	var out []Moved
	for _, r := range old.Declared() {
		if r.Kind == manifest.KindHost || now[r.Path] != nil {
			continue
		}
		if to := movedTo(r.Path, oldMounts, curMounts); to != "" && now[to] != nil {
			out = append(out, Moved{From: r.Path, To: to})
		}
	}
	return out
}

// movedTo returns the declared path now mounted where a container mounted
// from before, or "".
func movedTo(from string, before, after map[mountKey]string) string {
	var found []string
	for k, src := range before {
		if to, ok := after[k]; ok && src == from && to != from {
			found = append(found, to)
		}
	}
	sort.Strings(found)
	if len(found) == 0 {
		return ""
	}
	return found[0]
}

// mounted reports whether some container volume has source p.
func mounted(p string, ms map[mountKey]string) bool {
	for _, src := range ms {
		if src == p {
			return true
		}
	}
	return false
}

// hasDescendant reports whether m declares a path inside p.
func hasDescendant(m *manifest.Module, p string) bool {
	for _, r := range m.Declared() {
		if manifest.IsAncestor(p, r.Path) {
			return true
		}
	}
	return false
}
