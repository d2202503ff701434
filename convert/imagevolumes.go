package convert

import (
	"fmt"
	"slices"
	"time"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/imageconfig"
	"github.com/compose2manifest/compose2manifest/images"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/placement"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/rules"
)

// imageVolume is a VOLUME path of a service's image: a row of the image
// table's, or (entry not nil) its config's in the image lock.
type imageVolume struct {
	images.Volume
	entry *imageconfig.Entry
}

// uncoveredVolumes returns the VOLUME paths the image of svc declares (the
// image table's volumes: rows, which hold with --strict too, and the
// config's the image lock holds) that no mount of ms covers: none at
// exactly that path. The runtime creates an anonymous volume at each
// VOLUME path no mount names exactly, even below a mount of its parent
// (postgres:16 with a volume at /var/lib/postgresql still keeps its data
// in an anonymous volume at /var/lib/postgresql/data). The table's
// paths stay even where the locked config lacks one (a tag that names no
// major version): check of a manifest, which has no lock, finds them
// from the table as convert does.
func (c *converter) uncoveredVolumes(svc types.ServiceConfig, ms []project.Mount) []imageVolume {
	ref := svc.Image
	if ref == "" {
		ref, _ = c.decl.ImageFor(svc.Name)
	}
	if ref == "" {
		return nil
	}
	entry := c.imageEntry(ref)
	var all []imageVolume
	for _, v := range c.facts.Volumes(ref) {
		all = append(all, imageVolume{Volume: v})
	}
	if entry != nil {
		for _, p := range entry.Volumes {
			if !slices.ContainsFunc(all, func(v imageVolume) bool { return v.Path == p }) {
				all = append(all, imageVolume{Volume: images.Volume{Path: p}, entry: entry})
			}
		}
	}
	var out []imageVolume
	for _, v := range all {
		covered := false
		for _, m := range ms {
			if m.Target == v.Path {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, v)
		}
	}
	return out
}

// imagePos returns the position of the service's image: (or of its
// definition).
func (c *converter) imagePos(service string) manifest.Pos {
	defs := c.l.ServiceDefs(service)
	for i := len(defs) - 1; i >= 0; i-- {
		if defs[i].Writes("image") {
			return defs[i].Pos("image")
		}
	}
	if len(defs) > 0 {
		return defs[len(defs)-1].Pos("")
	}
	return manifest.Pos{}
}

// declaresAnonymous reports whether anonymous: has an entry for key.
func (c *converter) declaresAnonymous(key string) bool {
	return c.match.find(declare.SectionAnonymous, key) != nil
}

// disposable reports whether acknowledge names service.volumes.target.disposable,
// and records the item as used.
func (c *converter) disposable(service, target string) bool {
	return c.acknowledgedOption(service, target, declare.AckDisposable)
}

// acknowledgedOption reports whether acknowledge names
// SERVICE.volumes.TARGET.OPTION (or a wildcard form) for the mount, and
// records each matching item as used.
func (c *converter) acknowledgedOption(service, target, option string) bool {
	if c.decl == nil {
		return false
	}
	found := false
	for j, a := range c.decl.Acknowledge {
		if a.MatchesOption(service, target, option) {
			if c.usedAcks == nil {
				c.usedAcks = map[int]bool{}
			}
			c.usedAcks[j] = true
			found = true
		}
	}
	return found
}

// imageVolumes returns the mounts convert adds to svc for the VOLUME paths
// of its image that no mount of ms covers: an anonymous volume where
// anonymous: declares "SERVICE:PATH" (placed and produced like any other),
// a tmpfs where acknowledge says SERVICE.volumes.PATH.disposable. The
// others it returns as undeclared, for C2M024 and the skeleton.
func (c *converter) imageVolumes(svc types.ServiceConfig, ms []project.Mount) (added, undeclared []project.Mount) {
	pos := c.imagePos(svc.Name)
	for _, v := range c.uncoveredVolumes(svc, ms) {
		m := project.Mount{Service: svc.Name, Kind: project.Anonymous, Target: v.Path, Pos: pos}
		switch {
		case c.declaresAnonymous(declare.AnonymousKey(svc.Name, v.Path)):
			added = append(added, m)
		case c.disposable(svc.Name, v.Path):
			m.Kind, m.Tmpfs = project.Tmpfs, &manifest.Tmpfs{Target: v.Path}
			added = append(added, m)
			if c.disposed == nil {
				c.disposed = map[string][]string{}
			}
			c.disposed[svc.Name] = append(c.disposed[svc.Name], rules.AckDisposableNote(v.Path))
		default:
			undeclared = append(undeclared, m)
			ref := svc.Image
			if ref == "" {
				ref, _ = c.decl.ImageFor(svc.Name)
			}
			fact := rules.ImageVolume{Service: svc.Name, Image: ref, Path: v.Path,
				Row: fmt.Sprintf("%s %s:%d", v.Row.Repository, images.TableFile, v.Row.Line), Source: v.Row.Source, Pos: pos, Unversioned: v.Unversioned}
			if v.entry != nil {
				fact.Row = v.entry.Provenance(c.lockName())
				fact.Source = "read from " + v.entry.Source.String() + " " + v.entry.ReadAt.UTC().Format(time.RFC3339)
				if v.entry.Line == 0 && v.entry.Origin != "" {
					fact.Row, fact.Source = "image config "+v.entry.ID, "recorded by "+v.entry.Origin
				}
			}
			c.imageVolumeFacts = append(c.imageVolumeFacts, fact)
		}
	}
	return added, undeclared
}

// offerImageVolume adds to the skeleton the anonymous declaration that
// would settle an undeclared image VOLUME (C2M024), with what evidence
// gives of its owner, mode and intent.
func (c *converter) offerImageVolume(s *placement.Placement, users map[string]string) {
	r := &manifest.Resource{Kind: manifest.KindDirectory}
	var provenance []string
	if !c.opts.Strict {
		c.produce(s, r, nil, users, &provenance)
	}
	m := c.addMissingResource(s, r, fmt.Sprintf("image VOLUME %s that no volume mounts: declare it, or acknowledge %s.volumes.%s.disposable", s.First().Target, s.First().Service, s.First().Target))
	m.imageVolume, m.evidence = true, producedOnly(provenance)
}

// acknowledgedOptions records as used each acknowledge item that drops a
// volume option of ms (C2M012 then warns instead of refusing).
func (c *converter) acknowledgedOptions(ms []project.Mount) {
	for _, m := range ms {
		for _, o := range m.Options {
			if name := declare.OptionName(o); name != "" {
				c.acknowledgedOption(m.Service, m.Target, name)
			}
		}
	}
}
