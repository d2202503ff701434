package convert

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/compose-spec/compose-go/v2/template"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/placement"
	"github.com/compose2manifest/compose2manifest/project"
)

// sourceKey returns the declarations section and key of a mount, or ok
// false for a mount that needs no declaration (tmpfs) or cannot have one.
func sourceKey(m project.Mount) (section, key string, ok bool) {
	switch m.Kind {
	case project.BindDirectory, project.NamedBind:
		return declare.SectionBinds, m.Key, true
	case project.NamedVolume, project.ExternalNamed:
		return declare.SectionVolumes, m.Volume, true
	case project.Anonymous:
		return declare.SectionAnonymous, declare.AnonymousKey(m.AnonymousService(), m.Target), true
	}
	return "", "", false
}

// groupSources groups mounts by their declaration key, in the order first
// seen (services sorted, then volumes in order).
func groupSources(mounts []project.Mount) []*placement.Placement {
	var out []*placement.Placement
	index := map[string]*placement.Placement{}
	for _, m := range mounts {
		section, key, ok := sourceKey(m)
		if !ok {
			continue
		}
		id := section + "\x00" + key
		s := index[id]
		if s == nil {
			s = &placement.Placement{Section: section, Key: key}
			index[id] = s
			out = append(out, s)
		}
		s.Mounts = append(s.Mounts, m)
	}
	return out
}

// matcher finds supplied declarations for sources, matching keys after
// interpolation and normalisation, and remembers which keys were used.
type matcher struct {
	decl *declare.File
	env  map[string]string
	used map[*declare.Entry]bool
}

func (mt *matcher) subst(s string) string {
	v, err := template.SubstituteWithOptions(s, func(k string) (string, bool) { v, ok := mt.env[k]; return v, ok }, template.WithoutLogging)
	if err != nil {
		return s
	}
	return v
}

func (mt *matcher) normalize(section, key string) string {
	key = mt.subst(key)
	switch section {
	case declare.SectionBinds:
		return declare.NormalizeBind(key)
	case declare.SectionAnonymous:
		if svc, target, ok := declare.SplitAnonymous(key); ok {
			return declare.AnonymousKey(svc, path.Clean(target))
		}
	}
	return key
}

func (mt *matcher) entries(section string) []declare.Entry {
	if mt.decl == nil {
		return nil
	}
	switch section {
	case declare.SectionBinds:
		return mt.decl.Binds
	case declare.SectionVolumes:
		return mt.decl.Volumes
	case declare.SectionAnonymous:
		return mt.decl.Anonymous
	}
	return nil
}

// lookup returns the supplied entry for key in section, or nil, and marks
// it used.
func (mt *matcher) lookup(section, key string) *declare.Entry {
	es := mt.entries(section)
	for i := range es {
		if mt.normalize(section, es[i].Key) == key {
			mt.used[&es[i]] = true
			return &es[i]
		}
	}
	return nil
}

// unused returns every supplied entry that matched no source of the
// project, across all profiles.
func (mt *matcher) unused() []placement.Unmatched {
	var out []placement.Unmatched
	for _, section := range []string{declare.SectionBinds, declare.SectionVolumes, declare.SectionAnonymous} {
		es := mt.entries(section)
		for i := range es {
			if mt.used[&es[i]] {
				continue
			}
			out = append(out, placement.Unmatched{What: placement.UnmatchedKey, Section: section, Item: es[i].Key, Pos: es[i].Pos})
		}
	}
	return out
}

// tmpfsKeys marks each unused volumes: key that names a volume the local
// driver makes a tmpfs: it matches a volume, but one that needs no
// declaration, and the report says so instead of "matches nothing".
func (c *converter) tmpfsKeys(us []placement.Unmatched) []placement.Unmatched {
	for i, u := range us {
		if u.What == placement.UnmatchedKey && u.Section == declare.SectionVolumes && c.l.TmpfsVolume(c.match.normalize(u.Section, u.Item)) {
			us[i].What = placement.UnmatchedTmpfs
		}
	}
	return us
}

// uncarriedKeys marks each unused binds: or volumes: key that names what
// only a job or a service's pre_start hooks mount: the manifest carries
// neither (C2M007), so the key declares nothing, and the report says so
// instead of "matches nothing".
func (c *converter) uncarriedKeys(us []placement.Unmatched) []placement.Unmatched {
	p := c.l.Compose
	mounters := map[string][]string{} // section + "\x00" + normalized key → who mounts it
	add := func(who string, vs []types.ServiceVolumeConfig) {
		for _, v := range vs {
			var k string
			switch v.Type {
			case types.VolumeTypeVolume:
				if v.Source == "" {
					continue
				}
				k = declare.SectionVolumes + "\x00" + v.Source
			case types.VolumeTypeBind:
				k = declare.SectionBinds + "\x00" + c.resolvedBindKey(v.Source)
			default:
				continue
			}
			if !slices.Contains(mounters[k], who) {
				mounters[k] = append(mounters[k], who)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(p.Jobs)) {
		add("job "+name, p.Jobs[name].Volumes)
	}
	for _, name := range slices.Sorted(maps.Keys(p.DisabledJobs)) {
		add("job "+name+" (left out by profiles)", p.DisabledJobs[name].Volumes)
	}
	for _, name := range slices.Sorted(maps.Keys(p.Services)) {
		for _, h := range p.Services[name].PreStart {
			add(fmt.Sprintf("the pre_start hooks of service %q", name), h.Volumes)
		}
	}
	for i, u := range us {
		if u.What != placement.UnmatchedKey {
			continue
		}
		if who := mounters[u.Section+"\x00"+c.match.normalize(u.Section, u.Item)]; len(who) > 0 {
			us[i].What, us[i].Mounters = placement.UnmatchedUncarried, who
		}
	}
	return us
}

// userOwner returns the owner the services mounting s agree on through a
// numeric user: UID:GID, with the evidence, or why there is none: every
// service must have one, and all must be the same.
func userOwner(s *placement.Placement, users map[string]string) (owner, evidence, conflict string) {
	services := s.Services()
	var without []string
	firstSvc := ""
	for _, svc := range services {
		u := users[svc]
		uid, gid, ok := strings.Cut(u, ":")
		switch {
		case !ok || !numeric(uid) || !numeric(gid):
			without = append(without, svc)
		case owner == "":
			owner, firstSvc = u, svc
		case u != owner:
			return "", "", fmt.Sprintf("services %q (user %s) and %q (user %s) disagree", firstSvc, owner, svc, u)
		}
	}
	switch {
	case owner == "":
		return "", "", "" // no evidence at all
	case len(without) > 0:
		return "", "", fmt.Sprintf("service %q has no numeric user: UID:GID", without[0])
	case len(services) == 1:
		return owner, fmt.Sprintf("service %q user: %s", firstSvc, owner), ""
	}
	return owner, fmt.Sprintf("services %s user: %s", quoteList(services), owner), ""
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

func numeric(s string) bool {
	if s == "" {
		return false
	}
	_, err := strconv.ParseUint(s, 10, 32)
	return err == nil
}
