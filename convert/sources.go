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
	"github.com/compose2manifest/compose2manifest/manifest"
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
// Each declaration key is interpolated and normalised once, when the
// first lookup builds the index: a lookup is one map access, not a pass
// over every key (8,000 declared services took 56 s that way).
type matcher struct {
	decl *declare.File
	env  map[string]string
	used map[*declare.Entry]bool
	// index maps a section and a normalised key to the first entry of
	// that section whose key normalises to it; built on first use.
	index map[string]map[string]*declare.Entry
	// normal maps a section and a declaration key, as written, to its
	// normalised form; filled with the index.
	normal map[string]map[string]string
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

// sourceSections returns the declaration sections whose keys name sources.
func sourceSections() [3]string {
	return [...]string{declare.SectionBinds, declare.SectionVolumes, declare.SectionAnonymous}
}

// build fills the index and the normalised keys, once.
func (mt *matcher) build() {
	if mt.index != nil {
		return
	}
	mt.index = map[string]map[string]*declare.Entry{}
	mt.normal = map[string]map[string]string{}
	for _, section := range sourceSections() {
		es := mt.entries(section)
		idx, normal := make(map[string]*declare.Entry, len(es)), make(map[string]string, len(es))
		for i := range es {
			k, ok := normal[es[i].Key]
			if !ok {
				k = mt.normalize(section, es[i].Key)
				normal[es[i].Key] = k
			}
			if _, dup := idx[k]; !dup {
				idx[k] = &es[i]
			}
		}
		mt.index[section], mt.normal[section] = idx, normal
	}
}

// find returns the first supplied entry of section whose normalised key
// is key, or nil, without marking it used.
func (mt *matcher) find(section, key string) *declare.Entry {
	mt.build()
	return mt.index[section][key]
}

// normalized returns the normalised form of a declaration key of section
// as written, computed once per key.
func (mt *matcher) normalized(section, key string) string {
	mt.build()
	if k, ok := mt.normal[section][key]; ok {
		return k
	}
	return mt.normalize(section, key)
}

// lookup returns the supplied entry for key in section, or nil, and marks
// it used.
func (mt *matcher) lookup(section, key string) *declare.Entry {
	e := mt.find(section, key)
	if e != nil {
		mt.used[e] = true
	}
	return e
}

// unused returns every supplied entry that matched no source of the
// project, across all profiles.
func (mt *matcher) unused() []placement.Unmatched {
	var out []placement.Unmatched
	for _, section := range sourceSections() {
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
		if u.What == placement.UnmatchedKey && u.Section == declare.SectionVolumes && c.l.TmpfsVolume(c.match.normalized(u.Section, u.Item)) {
			us[i].What = placement.UnmatchedTmpfs
		}
	}
	return us
}

// bindVolumeKeys marks each unused volumes: key that names a volume whose
// driver_opts make it a local bind: it matches a volume, but one
// declared under binds: by its device path, and the report says so
// instead of "matches nothing".
func (c *converter) bindVolumeKeys(us []placement.Unmatched) []placement.Unmatched {
	for i, u := range us {
		if u.What != placement.UnmatchedKey || u.Section != declare.SectionVolumes {
			continue
		}
		if device, key, ok := c.l.BindVolume(c.match.normalized(u.Section, u.Item)); ok {
			us[i].What, us[i].Device, us[i].BindKey = placement.UnmatchedBindVolume, device, key
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
		if who := mounters[u.Section+"\x00"+c.match.normalized(u.Section, u.Item)]; len(who) > 0 {
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

// numeric reports whether s is a numeric uid or gid (manifest.ValidID).
func numeric(s string) bool { return manifest.ValidID(s) }
