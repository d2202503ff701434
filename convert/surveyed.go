package convert

import (
	"cmp"
	"slices"
	"strings"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/project"
)

// Source is one source the project mounts that a declaration names: a
// bind, a named volume or an anonymous volume, with what tells where its
// data lives on the legacy host today (compose2manifest survey records
// the facts of each there).
type Source struct {
	// Section and Key name its declaration, as Missing's do.
	Section, Key string
	// Kind is how the mount was classified.
	Kind project.MountKind
	// Volume is, for a named volume, its Docker name (PROJECT_KEY, or its
	// name:); "" otherwise.
	Volume string
	// Service and Target are, for an anonymous volume, the service whose
	// container has it and where that container mounts it.
	Service, Target string
	// Images are the images of the services mounting it, sorted, without
	// repeats ("" left out: a service built from a Dockerfile).
	Images []string
	// Targets are, for a named or anonymous volume, where the containers
	// of each image mount it, sorted, without repeats: what docker fills
	// a new volume from (imageconfig.PathFact).
	Targets []ImageTarget
}

// ImageTarget is a container path a service running Image mounts a
// source on.
type ImageTarget struct {
	Image, Target string
}

// sourceList returns every source of c's placements, in the order
// found, but those named with a secret's value (C2M015 says so; none is
// written anywhere).
func (c *converter) sourceList() []Source {
	var out []Source
	for _, s := range c.placements {
		if c.carriesSecret(s.Key) {
			continue
		}
		first := s.First()
		x := Source{Section: s.Section, Key: s.Key, Kind: first.Kind}
		switch s.Section {
		case declare.SectionVolumes:
			x.Volume = c.maskSecrets(c.dockerVolumeName(first.Volume))
		case declare.SectionAnonymous:
			x.Service, x.Target = first.AnonymousService(), first.Target
		}
		for _, mt := range s.Mounts {
			if svc, ok := c.l.Compose.Services[mt.Service]; ok && svc.Image != "" {
				x.Images = append(x.Images, svc.Image)
				if s.Section != declare.SectionBinds {
					x.Targets = append(x.Targets, ImageTarget{Image: svc.Image, Target: mt.Target})
				}
			}
		}
		slices.Sort(x.Images)
		x.Images = slices.Compact(x.Images)
		slices.SortFunc(x.Targets, func(a, b ImageTarget) int {
			return cmp.Or(strings.Compare(a.Image, b.Image), strings.Compare(a.Target, b.Target))
		})
		x.Targets = slices.Compact(x.Targets)
		out = append(out, x)
	}
	return out
}
