package batch

import (
	"slices"
	"strings"

	"github.com/compose2manifest/compose2manifest/convert"
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
			it.Item = key
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
