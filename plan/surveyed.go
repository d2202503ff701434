package plan

import (
	"strings"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/survey"
)

// fromSurvey fills in o, for the module m, what the legacy host's survey
// s found and no flag gave: the project name docker compose labelled the
// containers with, the checkout they ran from (their working_dir label,
// when all agree), each named volume's Docker volume (which -p or another
// folder name may have made other than this checkout's), each anonymous
// volume's Docker volume, and where a ~ bind is in the surveyed user's
// home. givenDir reports that --legacy-project-directory was given: it
// wins, as --anonymous and -p do.
func (o *Options) fromSurvey(s *survey.Survey, m *manifest.Module, givenDir bool) {
	if s == nil {
		return
	}
	if s.Project != "" {
		o.Project = s.Project
	}
	if !givenDir {
		dir := ""
		for _, c := range s.Containers {
			switch {
			case c.WorkingDir == "" || !manifest.ValidPath(c.WorkingDir):
			case dir == "":
				dir = c.WorkingDir
			case dir != c.WorkingDir:
				dir = "-" // containers of two checkouts: no answer
			}
		}
		if dir != "" && dir != "-" {
			o.LegacyProjectDirectory = dir
		}
	}
	for _, r := range m.Resources {
		if r.Origin == nil {
			continue
		}
		legacy := r.Origin.Legacy
		switch {
		case strings.HasPrefix(legacy, "Docker volume "):
			src := s.Source(declare.SectionVolumes, r.Origin.Source)
			if name := strings.TrimPrefix(legacy, "Docker volume "); src != nil && src.Volume != "" && src.Volume != name && o.Volumes[name] == "" {
				if o.Volumes == nil {
					o.Volumes = map[string]string{}
				}
				o.Volumes[name] = src.Volume
			}
		case strings.HasPrefix(legacy, "bind ~"):
			key := strings.TrimPrefix(legacy, "bind ")
			if src := s.Source(declare.SectionBinds, key); src != nil && src.Exists && manifest.ValidPath(src.Path) {
				if o.Homes == nil {
					o.Homes = map[string]string{}
				}
				o.Homes[key] = src.Path
			}
		}
	}
	for _, src := range s.Sources {
		if src.Section == declare.SectionAnonymous && src.Volume != "" && src.Exists {
			if _, ok := o.Anonymous[src.Key]; !ok {
				if o.Anonymous == nil {
					o.Anonymous = map[string]string{}
				}
				o.Anonymous[src.Key] = src.Volume
			}
		}
	}
}
