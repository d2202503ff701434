package main

import (
	"bytes"
	"context"
	"fmt"

	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/compose2manifest/compose2manifest/rules"
	"github.com/spf13/pflag"
)

func runCheck(e *env, args []string) int {
	fl := pflag.NewFlagSet("check", pflag.ContinueOnError)
	r := check.Flags(fl, defaultProjectTimeout)
	if code, ok := parseFlags(e, fl, cmdUsage{name: "check", synopsis: "check [flags] MANIFEST|DIR...", about: check.About, positional: true}, args); !ok {
		return code
	}
	if msg, hint := r.Problem(); msg != "" {
		errorf(e, "check: %s", msg)
		if hint != "" {
			hintf(e, "%s", hint)
		}
		return exitUsage
	}
	var prev *check.Previous
	if r.Previous != "" || r.PreviousRev != "" || r.Plan != "" {
		var err error
		if prev, err = check.ReadPrevious(e.dir, r.Previous, r.PreviousRev, r.Plan, fl.Args()); err != nil {
			errorf(e, "check: %v", err)
			return exitUsage
		}
	}
	cfg, format, text := r.Config, &r.Format, r.Text
	cfg.Dir, cfg.Rules, cfg.WarningsAsErrors, cfg.Cache = e.dir, rules.All(), r.WarningsAsErrors, check.CacheDir(e.environ)
	cfg.Convert.Environ = e.environ
	var res *check.Result
	if r.Against != "" {
		// As a batch: check --against keeps little live data (each
		// manifest without its containers), and a soft limit keeps the
		// heap's garbage from doubling the peak.
		cfg.TuneGC = batch.Tunable(e.environ)
		prog := progressLine(e, "checking %d/%d manifests")
		if prog != nil {
			cfg.Progress = prog.Update
		}
		var err error
		res, err = check.Against(context.Background(), cfg, r.Against, fl.Args())
		if prog.Clear(); err != nil {
			errorf(e, "check: --against: %v", err)
			return exitUsage
		}
	} else {
		res = check.Manifests(cfg, fl.Args())
	}
	if prev != nil {
		check.AddPrevious(cfg, res, *prev)
	}
	// What could not be read goes first, on stderr, in every format.
	for _, err := range res.Errors {
		errorf(e, "%v", err)
	}
	rep := res.Report
	rep.Tool = reportTool()
	for _, m := range rep.Modules {
		if m.Status != report.Failed {
			continue
		}
		for _, d := range m.Diagnostics {
			if d.Rule != "" {
				errorf(e, "%s", d)
			} else {
				errorf(e, "%v", &manifest.Error{Pos: d.Pos(), Msg: d.Message})
			}
		}
	}

	var err error
	ws := report.Workspace(e.dir, e.environ) // GitHub's file names are the repository's
	switch *format {
	case "text":
		// Decode errors were printed above.
		readable := &report.Report{}
		for _, m := range rep.Modules {
			if m.Status != report.Failed {
				readable.Modules = append(readable.Modules, m)
			}
		}
		text.Counts = e.stderr // the findings on stdout, for a pipe; what sums them up on stderr
		err = report.WriteTextWith(e.stdout, readable, text)
	case "json":
		err = report.WriteJSON(e.stdout, res.ReportWithErrors())
	case "sarif":
		var b bytes.Buffer
		if err = report.WriteSARIF(&b, report.Rebase(res.ReportWithErrors(), e.dir, ws), cfg.Rules, report.SARIFOptions{BaseDir: ws}); err == nil {
			_, err = e.stdout.Write(report.SafeJSON(b.Bytes()))
		}
	case "github":
		err = report.WriteGitHub(e.stdout, report.Rebase(res.ReportWithErrors(), e.dir, ws))
	}
	if err == nil { // in every format: a CI log shows stderr
		err = check.WriteNotConverted(e.stderr, res)
	}
	if err != nil {
		errorf(e, "check: writing the report: %v", err)
		return exitUsage
	}

	// Plain check ends with one line that sums it up.
	v := res.Verdict(r.WarningsAsErrors)
	switch {
	case *format != "text":
	case v.Code == exitOK:
		fmt.Fprintf(e.stderr, "compose2manifest: %s\n", v.Line)
	default:
		errorf(e, "%s", v.Line)
		if v.Hint != "" {
			hintf(e, "%s", v.Hint)
		}
	}
	return v.Code
}
