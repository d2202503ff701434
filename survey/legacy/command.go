// Package legacy writes the survey script of a compose project: it reads
// the project as convert does and hands its sources and images to
// survey.WriteScript, as compose2manifest survey does.
package legacy

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/internal/atomicfile"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/survey"
)

// About is compose2manifest survey's help text.
const About = `Read the project as convert does and write a POSIX shell script to run on
the legacy host, where the project runs today. It changes nothing there: it
records, for every source the project mounts (a bind, under
--legacy-project-directory when relative; a named volume, through docker
volume inspect; an anonymous volume, through docker container inspect of
the container docker compose labelled for its service; a ~ bind, in the
home of --user, else $SUDO_USER, else $USER), whether it exists, file or
directory, its numeric owner and mode, size and file count, and where a
link points; the project's containers as docker compose labelled them and
every compose project there; and each image's User and Volumes (docker
image inspect). It prints that as JSON (compose2manifest schema survey).
A refused project is surveyed too: the survey is evidence for what it
lacks.

  compose2manifest survey -o survey.sh
  scp survey.sh legacy: && ssh legacy sudo sh survey.sh >survey.json

Exit status: 0, 2 bad usage or a project that does not load.

flags:
`

// Command reads the project of r and writes its survey script to
// r.Output, or to w for "-".
func Command(r Request, w io.Writer) *Failure {
	if msg := r.Problem(); msg != "" {
		return &Failure{Msg: "survey: " + msg, Code: 2}
	}
	res, err := convert.Convert(context.Background(), r.Convert)
	if res == nil || res.Status == convert.Failed {
		f := &Failure{Msg: "survey: the project does not load", Code: 2,
			Hints: []string{"run compose2manifest convert with the same flags to see why"}}
		if err != nil {
			f.Msg = "survey: " + err.Error()
		}
		return f
	}
	spec, f := Spec(res, r)
	if f != nil {
		return f
	}
	var b bytes.Buffer
	if err := survey.WriteScript(&b, spec); err != nil {
		return &Failure{Msg: "survey: " + err.Error(), Code: 2}
	}
	if r.Output == "-" {
		if _, err := w.Write(b.Bytes()); err != nil {
			return &Failure{Msg: "survey: " + err.Error(), Code: 2}
		}
		return nil
	}
	out := r.Output
	if !filepath.IsAbs(out) && r.Convert.WorkingDirectory != "" {
		out = filepath.Join(r.Convert.WorkingDirectory, out)
	}
	isScript := func(old []byte) bool { return bytes.HasPrefix(old, []byte(survey.ScriptHeader)) }
	if err := atomicfile.WriteOwned(out, b.Bytes(), 0o755, r.Force, "a survey script", isScript); err != nil {
		return &Failure{Msg: "survey: " + err.Error(), Code: 2}
	}
	return nil
}

// Spec is what the survey of the converted (or refused) project res
// looks at. A project named after its folder (no -p, name: or
// COMPOSE_PROJECT_NAME) whose legacy checkout is in a folder of another
// name ran there under that folder's name, and its volumes with it, as
// plan takes them.
func Spec(res *convert.Result, r Request) (survey.Spec, *Failure) {
	s := survey.Spec{Project: res.ProjectName, ProjectDirectory: r.LegacyProjectDirectory, User: r.User}
	for _, src := range res.Sources {
		t := survey.Target{Section: src.Section, Key: src.Key, Volume: src.Volume, Service: src.Service, Target: src.Target}
		if src.Section == declare.SectionBinds {
			// The source as written: a link in it is looked at on the
			// legacy host, where docker followed it.
			t.Real = src.Key
		}
		s.Sources = append(s.Sources, t)
	}
	if s.ProjectDirectory == "" {
		s.ProjectDirectory = res.ProjectDirectory
	} else if legacy := project.NormalizeName(path.Base(s.ProjectDirectory)); res.FolderNamed && legacy == "" {
		return s, &Failure{Msg: fmt.Sprintf("survey: --legacy-project-directory %s: docker compose names a project without a name after its folder, and that folder's name gives none; give the name it ran under with -p", s.ProjectDirectory), Code: 2}
	} else if res.FolderNamed && legacy != res.ProjectName {
		s.Project = legacy
		for i, src := range s.Sources {
			if slices.Contains(res.FolderVolumes, src.Volume) {
				s.Sources[i].Volume = legacy + strings.TrimPrefix(src.Volume, res.ProjectName)
			}
		}
	}
	mod := res.Module
	if mod == nil {
		mod = res.Candidate
	}
	var imgs []string
	if mod != nil {
		for _, r := range mod.Resources {
			if r.Container != nil && r.Container.Image != "" {
				imgs = append(imgs, r.Container.Image)
			}
		}
	}
	for _, src := range res.Sources {
		imgs = append(imgs, src.Images...)
	}
	slices.Sort(imgs)
	s.Images = slices.Compact(imgs)
	return s, nil
}
