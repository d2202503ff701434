package convert

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/internal/fsread"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/placement"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/rules"
	"github.com/compose2manifest/compose2manifest/survey"
)

// readSurvey sets opts.Survey from opts.SurveyFile (relative to the
// working directory) when it names one, and returns that file, which the
// manifest records among its sources (converted_with: survey), so that
// check --against converts with it too: it must lie inside the project
// (or a folder --allow-dir names). It refuses a survey of another
// project: its keys (./data) would match this one's sources. A project
// named after its folder may have run under another folder's name.
func readSurvey(opts *Options, res *Result, l *project.Project) (*inputFile, error) {
	var in *inputFile
	if opts.Survey == nil && opts.SurveyFile != "" {
		p := opts.abs(opts.SurveyFile)
		if !project.Within(l.Dir, p) && !slices.ContainsFunc(opts.AllowDirs, func(d string) bool { return project.Within(opts.abs(d), p) }) {
			return nil, fmt.Errorf("--survey: %s is outside the project directory %s: the manifest records the survey so that check --against converts with it too; keep it in the project (it holds paths, owners and modes, none of the data)", opts.SurveyFile, l.Dir)
		}
		if err := project.CheckContained("--survey", p, append([]string{l.Dir}, opts.AllowDirs...)...); err != nil {
			return nil, err
		}
		data, err := fsread.File("survey", p, survey.MaxSize)
		if err != nil {
			return nil, fmt.Errorf("--survey: %v", err)
		}
		s, err := survey.Read(p, data)
		if err != nil {
			return nil, fmt.Errorf("--survey: %v", err)
		}
		opts.Survey, in = s, &inputFile{p, data}
	}
	if s := opts.Survey; s != nil && s.Project != res.ProjectName && !res.FolderNamed {
		return nil, fmt.Errorf("--survey: the survey is of project %q (on %s), not of %q", s.Project, s.Host, res.ProjectName)
	}
	return in, nil
}

// unplacedSource records s, a source the project mounts that is not
// placed (its service is left out by profiles, or it is an image VOLUME
// no volume mounts), as one a survey's entry may name.
func (c *converter) unplacedSource(s *placement.Placement) {
	if c.unplaced == nil {
		c.unplaced = map[[2]string]bool{}
	}
	c.unplaced[[2]string{s.Section, s.Key}] = true
}

// unsurveyed returns each entry of the survey that names no source the
// project mounts, across all profiles (C2M009, as for a declaration key):
// a survey made for other compose files, or before they changed, whose
// facts would otherwise be ignored without a word, and with them the
// data it found where nothing of this project will look.
func (c *converter) unsurveyed() []placement.Unmatched {
	s := c.opts.Survey
	if s == nil {
		return nil
	}
	mounted := maps.Clone(c.unplaced)
	if mounted == nil {
		mounted = map[[2]string]bool{}
	}
	for _, p := range c.placements {
		mounted[[2]string{p.Section, p.Key}] = true
	}
	var out []placement.Unmatched
	for _, src := range s.Sources {
		if mounted[[2]string{src.Section, src.Key}] {
			continue
		}
		u := placement.Unmatched{What: placement.UnmatchedSurvey, Section: src.Section, Item: src.Key}
		if c.surveyFile != nil {
			u.Pos = manifest.Pos{File: c.l.Rel(c.surveyFile.path), Line: src.Line}
		}
		if src.Exists {
			u.Found = fmt.Sprintf("%s at %s on %s", surveyedType(src.Type), src.Path, s.Host)
		}
		out = append(out, u)
	}
	return out
}

// surveyedType names what a survey found: "a directory", "a file", or
// "something" (another kind of file: a socket, a device).
func surveyedType(t survey.Type) string {
	switch t {
	case survey.Directory:
		return "a directory"
	case survey.File:
		return "a file"
	}
	return "something"
}

// surveyed returns what the survey found of the source of s on the
// legacy host, nil when there is no survey, or it found nothing there.
func (c *converter) surveyed(s *placement.Placement) *survey.Source {
	if c.opts.Survey == nil {
		return nil
	}
	src := c.opts.Survey.Source(s.Section, s.Key)
	if src == nil || !src.Exists || src.Error != "" {
		return nil
	}
	return src
}

// surveyEvidence returns ev, what the checkout shows of the bind source
// of s, with the kind the survey found on the legacy host where the
// checkout tells none (nothing there, or an absolute or ~ source): a file
// or a directory, as docker mounts it there. A link out of the project
// keeps its evidence (C2M013): it names a place neither shows.
func (c *converter) surveyEvidence(s *placement.Placement, ev project.SourceEvidence) project.SourceEvidence {
	src := c.surveyed(s)
	if src == nil || ev.Kind != declare.KindNone || ev.Outside != "" {
		return ev
	}
	switch src.Type {
	case survey.File:
		ev.Kind = declare.KindFile
	case survey.Directory:
		ev.Kind = declare.KindDirectory
	default:
		return ev
	}
	ev.Absent, ev.Surveyed = false, c.opts.Survey.Provenance()
	return ev
}

// surveyValues fills the owner and mode r still lacks (neither supplied
// nor produced from other evidence) with what the data of s has on the
// legacy host today, and says so in provenance. Where the survey found
// another owner or mode than r has, provenance says that too: two
// sources of evidence that disagree are shown, not resolved. A mode
// nobody should choose (world-writable; a directory its owner cannot
// enter) is not carried, and provenance says why.
func (c *converter) surveyValues(s *placement.Placement, r *manifest.Resource, provenance *[]string) {
	src := c.surveyed(s)
	if src == nil || r.Kind == manifest.KindHost {
		return
	}
	c.fromEvidence(s, r, src.Owner, src.ManifestMode(), src.Type, c.opts.Survey.Provenance(), provenance)
}

// unchosen says why nobody should choose mode, which evidence found for
// the data of r (of type t there), "" when it is a mode to keep: the
// judge of declared modes (rules.UnsafeMode, C2M021) judges it, of the
// kind the data has where the evidence says (a file, a directory), else
// of r's kind.
func unchosen(r *manifest.Resource, mode string, t survey.Type) string {
	if !manifest.ValidMode(mode) {
		return "not an octal mode"
	}
	return rules.UnsafeMode(evidenceKind(r, t), mode)
}

// evidenceKind is the kind of resource the data of r is, of type t where
// evidence found it: a file or a directory, else r's own kind.
func evidenceKind(r *manifest.Resource, t survey.Type) manifest.Kind {
	switch t {
	case survey.File:
		return manifest.KindFile
	case survey.Directory:
		return manifest.KindDirectory
	}
	return r.Kind
}

// refuseMode records that evidence from found mode for s, which is not
// carried (why): the skeleton and ask offer rules.SaferMode of it, for
// kind.
func (c *converter) refuseMode(s *placement.Placement, mode, from, why string, kind manifest.Kind) {
	if c.refusedModes == nil {
		c.refusedModes = map[*placement.Placement]RefusedMode{}
	}
	if _, ok := c.refusedModes[s]; !ok {
		c.refusedModes[s] = RefusedMode{Found: mode, From: from, Why: why, Suggest: rules.SaferMode(kind, mode)}
	}
}

// sameMode reports whether two octal modes are one ("750" and "0750").
func sameMode(a, b string) bool {
	x, errA := strconv.ParseUint(a, 8, 32)
	y, errB := strconv.ParseUint(b, 8, 32)
	return errA == nil && errB == nil && x == y
}
