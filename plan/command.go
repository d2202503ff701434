package plan

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/textsafe"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/compose2manifest/compose2manifest/rules"
	"github.com/compose2manifest/compose2manifest/survey"
)

// About is compose2manifest plan's help text.
const About = `Convert the project as convert does and print the migration plan: every
declared path whose data lives elsewhere today (a relative bind, under
--legacy-project-directory; a named volume, under DOCKER_ROOT/volumes;
an anonymous volume, found when the script runs with docker container
inspect of the stopped legacy container, or named with --anonymous) and
the declared path it goes to. A refused project is an error: the plan needs the whole manifest.

--format sh (the default) prints a POSIX shell script to review and run
as root on the legacy host: it checks every step before it changes
anything (running containers, Docker volume drivers, symbolic links on
the way to any path it changes, setuid files and devices in a source,
targets that differ), then creates each target with its declared owner
and mode, copies with rsync
-aHAXS --numeric-ids, verifies with rsync --dry-run --checksum, never
changes a source, refuses a non-empty target that differs, and logs to
$C2M_PLAN_LOG (default ./compose2manifest-plan.log). --format json prints
the plan check --plan reads.

Exit status: 0, 1 refused, 2 bad usage or a project that does not load.

flags:
`

// Config is one run of compose2manifest plan.
type Config struct {
	Convert convert.Options
	Options Options
	// Anonymous are the --anonymous SERVICE:TARGET=VOLUME_ID values.
	Anonymous []string
	// Format is sh or json.
	Format string
	// Previous names the manifests the host applies today (--previous, a
	// file or a directory, relative to Dir), read with ReadPrevious
	// (check.ReadPreviousDir) into Options.Previous; "" for none.
	Previous, Dir string
	ReadPrevious  func(dir, previous string) ([]*manifest.Module, error)
}

// Failure is why a plan was not printed: a message, hints, and the exit
// status (1 refused, 2 bad usage or unreadable input).
type Failure struct {
	Msg   string
	Hints []string
	Code  int
}

func (f *Failure) Error() string { return f.Msg }

// Command converts the project of c and writes its plan to w.
func Command(c Config, w io.Writer) *Failure {
	if c.Format != "sh" && c.Format != "json" {
		return &Failure{Msg: fmt.Sprintf("plan: --format %q: want sh or json", c.Format), Code: 2}
	}
	c.Options.Anonymous = map[string]string{}
	for _, a := range c.Anonymous {
		k, id, err := ParseAnonymous(a)
		if err != nil {
			return &Failure{Msg: "plan: " + err.Error(), Code: 2}
		}
		if prev, ok := c.Options.Anonymous[k]; ok && prev != id {
			return &Failure{Msg: fmt.Sprintf("plan: --anonymous %s given twice (%s and %s): which volume it is must be one", k, prev, id), Code: 2}
		}
		c.Options.Anonymous[k] = id
	}
	if c.Previous != "" {
		if c.ReadPrevious == nil {
			return &Failure{Msg: "plan: --previous: no reader of manifests given", Code: 2}
		}
		prev, err := c.ReadPrevious(c.Dir, c.Previous)
		if err != nil {
			return &Failure{Msg: "plan: --previous: " + err.Error(), Code: 2}
		}
		if f := judgePrevious(prev); f != nil {
			return f
		}
		c.Options.Previous = prev
	}
	res, err := convert.Convert(context.Background(), c.Convert)
	if res == nil || res.Status != convert.Converted {
		f := &Failure{Msg: "plan: the project does not load", Code: 2,
			Hints: []string{"run compose2manifest convert with the same flags to see why"}}
		if err != nil {
			f.Msg = "plan: " + err.Error()
		}
		if res != nil && res.Status == convert.Refused {
			f.Msg, f.Code = fmt.Sprintf("plan: the project is refused (%s): a plan needs the whole manifest", report.CountErrors(res.Diagnostics)), 1
			errs, _ := firstErrors(res.Diagnostics)
			f.Hints = append(errs, f.Hints...)
		}
		return f
	}
	c.Options.Project = res.ProjectName
	givenDir := c.Options.LegacyProjectDirectory != ""
	if d := c.Options.LegacyProjectDirectory; d != "" && !manifest.ValidPath(d) {
		return &Failure{Msg: fmt.Sprintf("plan: --legacy-project-directory %q: want an absolute, clean path", d), Code: 2}
	}
	if c.Options.LegacyProjectDirectory == "" {
		c.Options.LegacyProjectDirectory = res.ProjectDirectory
	} else if legacy := project.NormalizeName(path.Base(c.Options.LegacyProjectDirectory)); res.FolderNamed && legacy == "" {
		return &Failure{Msg: fmt.Sprintf("plan: --legacy-project-directory %s: docker compose names a project without a name after its folder, and that folder's name gives none (docker compose refuses it there); give the name it ran under with -p", c.Options.LegacyProjectDirectory), Code: 2}
	} else if res.FolderNamed && legacy != res.ProjectName {
		// Named after its folder: on the legacy host, docker compose
		// named the project, its volumes and its containers' labels
		// after the folder there.
		c.Options.Project = legacy
		c.Options.Volumes = map[string]string{}
		for _, v := range res.FolderVolumes {
			c.Options.Volumes[v] = legacy + strings.TrimPrefix(v, res.ProjectName)
		}
	}
	if c.Convert.SurveyFile != "" {
		// Read as convert read it (it refused it otherwise).
		sv, err := survey.ReadFile(convertPath(c.Convert, c.Convert.SurveyFile))
		if err != nil {
			return &Failure{Msg: "plan: --survey: " + err.Error(), Code: 2}
		}
		c.Options.fromSurvey(sv, res.Module, givenDir)
	}
	p, err := Of([]*manifest.Module{res.Module}, c.Options)
	if err != nil {
		return &Failure{Msg: "plan: " + err.Error(), Code: 2}
	}
	if c.Format == "json" {
		err = WriteJSON(w, p)
	} else {
		err = WriteScript(w, p)
	}
	if err != nil {
		return &Failure{Msg: "plan: " + err.Error(), Code: 2}
	}
	return nil
}

// convertPath is p, a path convert's options name, as convert reads it:
// relative to their working directory.
func convertPath(o convert.Options, p string) string {
	if filepath.IsAbs(p) || o.WorkingDirectory == "" {
		return p
	}
	return filepath.Join(o.WorkingDirectory, p)
}

// maxErrorHints is how many errors a refusal names in its hints.
const maxErrorHints = 5

// firstErrors returns the first maxErrorHints errors of ds, each as its
// String, then "and N more" when there are more, and how many there are:
// what a refusal names, so that an error about what plan was given (a
// stale --survey) is seen where it was given.
func firstErrors(ds []rules.Diagnostic) (errs []string, n int) {
	for _, d := range ds {
		if d.Severity != rules.Error {
			continue
		}
		if n++; n <= maxErrorHints {
			errs = append(errs, d.String())
		}
	}
	if n > len(errs) {
		errs = append(errs, fmt.Sprintf("and %d more", n-len(errs)))
	}
	return errs, n
}

// judgePrevious runs check's module rules over the manifests --previous
// names: the plan copies from the paths they declare into paths the new
// manifest owns, so a previous manifest check refuses (one that owns
// /etc, say) is refused here too, with its findings, before any plan is
// made. Nil when none has an error.
func judgePrevious(prev []*manifest.Module) *Failure {
	var ds []rules.Diagnostic
	for _, m := range prev {
		ds = append(ds, rules.Run(rules.All(), m)...)
	}
	errs, n := firstErrors(ds)
	if n == 0 {
		return nil
	}
	return &Failure{Msg: fmt.Sprintf("plan: --previous: %s in the manifests the host applies today, which check refuses: the plan would copy from what they declare", report.Plural(n, "error")),
		Hints: append(errs, "run compose2manifest check on them"), Code: 1}
}

// WriteJSON writes p as check --plan reads it, with what a CI log must
// not get raw (a "##[", a bidirectional control) written as \u escapes
// (textsafe.JSON), the same document to a JSON reader.
func WriteJSON(w io.Writer, p *Plan) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(p); err != nil {
		return err
	}
	_, err := w.Write(textsafe.JSON(b.Bytes()))
	return err
}
