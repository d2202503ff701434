package main

import (
	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/plan"
)

// runPlan implements "plan": convert's flags, and plan.Command does the work.
func runPlan(e *env, args []string) int {
	fs, cf := newConvertFlags("plan", e)
	c := plan.Config{}
	fs.StringVar(&c.Format, "format", "sh", "`FORMAT`: sh (a script to review and run) or json (what check --plan reads)")
	fs.StringVar(&c.Options.LegacyProjectDirectory, "legacy-project-directory", "", "the project's checkout `DIR` on the legacy host (default: the project directory)")
	fs.StringVar(&c.Options.DockerRoot, "docker-root", plan.DefaultDockerRoot, "the legacy host's Docker data root `DIR`")
	fs.StringArrayVar(&c.Anonymous, "anonymous", nil, "an anonymous volume's Docker volume: `SERVICE:TARGET=VOLUME_ID` (repeatable)")
	fs.StringVar(&c.Previous, "previous", "", "the manifests the host applies today, a `FILE` or DIR: a state or content path that moved is copied from where they declare it")
	if code, ok := parseFlags(e, fs, cmdUsage{name: "plan", synopsis: "plan [convert's flags] [--format sh|json] [--legacy-project-directory DIR] [--docker-root DIR] [--anonymous SERVICE:TARGET=ID]... [--previous OLD]", about: plan.About, hint: composeFileHint}, args); !ok {
		return code
	}
	cf.opts.Environ, cf.opts.WorkingDirectory = e.environ, e.dir
	c.Convert, c.Dir, c.ReadPrevious = cf.opts, e.dir, check.ReadPreviousDir
	defer defaultsHint(e, cf.opts)
	if f := plan.Command(c, e.stdout); f != nil {
		errorf(e, "%s", f.Msg)
		for _, h := range f.Hints {
			hintf(e, "%s", h)
		}
		return f.Code
	}
	return exitOK
}
