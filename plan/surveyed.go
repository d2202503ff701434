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
// volume's Docker volume, and where each bind's data is (a ~ bind's in
// the surveyed user's home). givenDir reports that --legacy-project-directory was given: it
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
		case strings.HasPrefix(legacy, "bind ~"), strings.HasPrefix(legacy, "bind ."):
			// Where the survey found the data, not where a checkout would
			// hold it; a link is copied where it leads, which the survey
			// names only as written, so it is left to the checkout.
			key := strings.TrimPrefix(legacy, "bind ")
			if strings.HasPrefix(key, ".") && givenDir {
				break // --legacy-project-directory says where the checkout is
			}
			if src := s.Source(declare.SectionBinds, key); src != nil && src.Exists && src.Link == "" && manifest.ValidPath(src.Path) {
				if o.Located == nil {
					o.Located = map[string]string{}
				}
				o.Located[key] = src.Path
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
