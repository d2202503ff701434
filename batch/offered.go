package batch

import (
	"slices"
	"strings"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/images"
)

// A SharedItem is an acknowledge: item that several projects of a batch
// ask for, in the form a defaults file gives it for every project under
// the root (issue 20's "one answer for many projects"): a service's field
// as *.FIELD, whatever the service is called; a top-level entry's field
// as SECTION.NAME.FIELD when every project names the entry alike, else
// SECTION.*.FIELD.
type SharedItem struct {
	// Item is the acknowledge: item.
	Item string `json:"item"`
	// Projects counts the projects that ask for it.
	Projects int `json:"projects"`
	// Reason is why the manifest does not carry the field: what
	// acknowledging it leaves behind.
	Reason string `json:"reason"`

	// section, entry and field name a top-level entry's field, which
	// Shared groups by section and field; "" for a service's.
	section, entry, field string
}

// Asked returns the acknowledge: items res leaves to decide, in the
// forms SharedItem gives: one per field the manifest does not carry that
// no item acknowledges, the field of a service without its service
// (*.FIELD), a top-level entry's with its entry. A whole entry (jobs.NAME),
// a nested field (deploy.placement) and a file config's uid, gid or mode
// are left out: each is one project's own.
func Asked(res *convert.Result) []SharedItem {
	if res == nil {
		return nil
	}
	var out []SharedItem
	seen := map[string]bool{}
	for _, f := range res.Suggestions.Uncarried {
		if f.Acknowledged || f.Name == "" || f.Config != "" || strings.Contains(f.Name, ".") {
			continue
		}
		item := f.AckItem()
		if f.Service != "" {
			item = "*." + f.Name
		}
		if seen[item] {
			continue
		}
		seen[item] = true
		out = append(out, SharedItem{Item: item, Projects: 1, Reason: f.Reason, section: f.Section, entry: f.Entry, field: f.Name})
	}
	return out
}

// Shared returns the items that at least two of asks (each project's
// Asked) have, most asked first, then by item. A top-level entry's field
// that projects ask under different entry names is one SECTION.*.FIELD
// item; under one name it is that name's.
func Shared(asks [][]SharedItem) []SharedItem {
	type group struct {
		projects int
		names    map[string]bool // the entry names of a top-level field
		item     SharedItem
	}
	groups := map[string]*group{}
	for _, items := range asks {
		counted := map[string]bool{}
		for _, it := range items {
			key, name := it.Item, ""
			if it.section != "" {
				key, name = it.section+".*."+it.field, it.entry
			}
			g := groups[key]
			if g == nil {
				g = &group{names: map[string]bool{}, item: it}
				groups[key] = g
			}
			if name != "" {
				g.names[name] = true
			}
			if !counted[key] {
				counted[key] = true
				g.projects++
			}
		}
	}
	var out []SharedItem
	for key, g := range groups {
		if g.projects < 2 {
			continue
		}
		it := g.item
		it.Projects = g.projects
		if len(g.names) > 1 {
			// One item for entries of several names: the field's reason,
			// not the first entry's.
			it.Item = key
			for _, f := range convert.Fields() {
				if f.Section == it.section && f.Name == it.field {
					it.Reason = f.Reason
				}
			}
		}
		out = append(out, it)
	}
	slices.SortFunc(out, func(a, b SharedItem) int {
		if a.Projects != b.Projects {
			return b.Projects - a.Projects
		}
		return strings.Compare(a.Item, b.Item)
	})
	return out
}

// A SharedMount is a source that two or more projects of a batch leave to
// decide, each mounted by the same image at the same target (a platform's
// proxy in every app): one mounts: entry of a defaults file answers for
// all (declare.SectionMounts).
type SharedMount struct {
	// Key is the mounts: key, "REPOSITORY:/TARGET".
	Key string `json:"key"`
	// Projects counts the projects that leave it to decide.
	Projects int `json:"projects"`
	// Kind, Owner, Mode and Intent are what every one of them knows
	// alike (supplied nowhere, produced from evidence); "" for what a
	// person decides once. Kind is "" too where no project needs it.
	Kind   string `json:"kind,omitempty"`
	Owner  string `json:"owner"`
	Mode   string `json:"mode"`
	Intent string `json:"intent"`
	// NeedsKind reports that a project cannot tell a file from a
	// directory: the entry must give kind.
	NeedsKind bool `json:"needs_kind,omitempty"`
}

// AskedMounts returns the sources res leaves to decide that one image
// mounts at one target, as mounts: entries (Projects 1): nothing is
// supplied for them, and owner, mode or intent is not produced.
func AskedMounts(res *convert.Result) []SharedMount {
	if res == nil || res.Status != convert.Refused || res.Candidate == nil {
		return nil
	}
	var out []SharedMount
	for _, m := range res.Missing {
		decided := !m.NeedsKind && m.Known.Owner != "" && m.Known.Mode != "" && m.Known.Intent != ""
		if m.Supplied || m.Known.Kind == declare.KindHost || len(m.Mounts) == 0 || decided {
			continue
		}
		repo, _ := images.ParseReference(m.Mounts[0].Image)
		key := repo + ":" + m.Mounts[0].Target
		same := repo != ""
		for _, mt := range m.Mounts[1:] {
			if r, _ := images.ParseReference(mt.Image); r != repo || mt.Target != m.Mounts[0].Target {
				same = false
			}
		}
		if !same || slices.ContainsFunc(out, func(o SharedMount) bool { return o.Key == key }) {
			continue
		}
		out = append(out, SharedMount{Key: key, Projects: 1, Kind: string(m.Known.Kind), Owner: m.Known.Owner, Mode: m.Known.Mode, Intent: m.Known.Intent, NeedsKind: m.NeedsKind})
	}
	return out
}

// SharedMounts returns the mounts that at least two of asks (each
// project's AskedMounts) have, most asked first, then by key, each with
// the values all of them know alike.
func SharedMounts(asks [][]SharedMount) []SharedMount {
	byKey := map[string]*SharedMount{}
	for _, ms := range asks {
		for _, m := range ms {
			g := byKey[m.Key]
			if g == nil {
				c := m
				c.Projects = 0
				byKey[m.Key] = &c
				g = &c
			}
			g.Projects++
			g.NeedsKind = g.NeedsKind || m.NeedsKind
			for _, f := range []struct{ have, got *string }{{&g.Kind, &m.Kind}, {&g.Owner, &m.Owner}, {&g.Mode, &m.Mode}, {&g.Intent, &m.Intent}} {
				if *f.have != *f.got {
					*f.have = ""
				}
			}
		}
	}
	var out []SharedMount
	for _, g := range byKey {
		if g.Projects >= 2 {
			out = append(out, *g)
		}
	}
	slices.SortFunc(out, func(a, b SharedMount) int {
		if a.Projects != b.Projects {
			return b.Projects - a.Projects
		}
		return strings.Compare(a.Key, b.Key)
	})
	return out
}

// Decisions counts the values m leaves to a person: its empty owner, mode
// and intent, and kind where a project needs it.
func (m SharedMount) Decisions() int {
	n := 0
	for _, v := range []string{m.Owner, m.Mode, m.Intent} {
		if v == "" {
			n++
		}
	}
	if m.NeedsKind && m.Kind == "" {
		n++
	}
	return n
}
