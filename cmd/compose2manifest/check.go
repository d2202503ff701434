package main

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/compose2manifest/compose2manifest/rules"
	"github.com/spf13/pflag"
)

// checkFormats are the values of check --format.
var checkFormats = []string{"text", "json", "sarif", "github"}

func runCheck(e *env, args []string) int {
	fl := pflag.NewFlagSet("check", pflag.ContinueOnError)
	format := fl.String("format", "text", "output `FORMAT` on stdout: text (the summary on stderr), json, sarif or github")
	warningsAsErrors := fl.Bool("warnings-as-errors", false, "exit 1 on warnings too")
	var text report.TextOptions
	fl.BoolVar(&text.ShowAcknowledged, "show-acknowledged", false, "write each acknowledged finding, not only how many there are")
	againstRoot := fl.String("against", "", "also convert each manifest's compose project under `ROOT` again and compare")
	jobs := fl.Int("jobs", 0, "with --against: convert and check `N` projects at once, 1 or more (default: GOMAXPROCS)")
	reconvert := fl.Bool("reconvert", false, "with --against: convert every project again, even one whose manifest's fingerprint says it is current")
	exclude := fl.StringArray("exclude", nil, "with --against: leave out project folders under ROOT matching `GLOB`, as convert --batch does (repeatable)")
	var shard batch.Shard
	fl.Var(&shard, "shard", "with --against: check only part K/N of the projects under ROOT (1 <= K <= N; a stable split by path)")
	projectTimeout := fl.Duration("project-timeout", defaultProjectTimeout, "with --against: a project still converting after `DURATION` fails and the check goes on; without: a check still running after DURATION fails (0: no limit)")
	var conv convert.Options
	fl.StringVar(&conv.VolumeRoot, "volume-root", "", "with --against: convert's --volume-root `DIR` (wins over converted_with)")
	fl.StringVar(&conv.HostProjectDirectory, "host-project-directory", "", "with --against: convert's --host-project-directory `DIR`")
	fl.StringVar(&conv.Layout, "layout", "", "with --against: convert's --layout `LAYOUT`")
	fl.BoolVar(&conv.Strict, "strict", false, "with --against: convert's --strict (else converted_with decides)")
	fl.StringArrayVar(&conv.Profiles, "profile", nil, "with --against: convert's --profile `PROFILE` (repeatable)")
	fl.StringVar(&conv.DefaultsFile, "defaults", "", "with --against: convert's --defaults `FILE` (default: ROOT/compose2manifest.defaults.yaml)")
	fl.StringArrayVar(&conv.EnvFiles, "env-file", nil, "with --against: convert's --env-file `FILE` (repeatable)")
	previousDir := fl.String("previous", "", "also hold the manifests against the manifests in `OLD_DIR` (a file or directory): a change that drops state is C2M022")
	previousRev := fl.String("previous-rev", "", "as --previous, with the manifests as they were at git revision `REV` (git show REV:PATH)")
	planFile := fl.String("plan", "", "with --previous or --previous-rev: the migration plan `FILE` (compose2manifest plan --format json) whose moves are meant")
	if code, ok := parseFlags(e, fl, cmdUsage{name: "check", synopsis: "check [flags] MANIFEST|DIR...", about: check.About, positional: true}, args); !ok {
		return code
	}
	if !slices.Contains(checkFormats, *format) {
		errorf(e, "check: --format %q: want %s", *format, strings.Join(checkFormats, ", "))
		return exitUsage
	}
	if fl.NArg() == 0 {
		errorf(e, "check: no manifests to check")
		hintf(e, "name manifest files or directories of them: compose2manifest check out/")
		return exitUsage
	}
	if *projectTimeout < 0 || (fl.Changed("jobs") && *jobs < 1) {
		errorf(e, "check: --project-timeout %s, --jobs %d: want 0 (no limit) or more, and 1 or more", *projectTimeout, *jobs)
		return exitUsage
	}
	if *againstRoot == "" && (*reconvert || fl.Changed("jobs") || shard.On() || len(*exclude) > 0 || conv.VolumeRoot != "" || conv.HostProjectDirectory != "" || conv.Layout != "" || conv.Strict || len(conv.Profiles) > 0 || len(conv.EnvFiles) > 0 || conv.DefaultsFile != "") {
		errorf(e, "check: conversion flags need --against ROOT")
		return exitUsage
	}
	var prev *check.Previous
	if *previousDir != "" || *previousRev != "" || *planFile != "" {
		var err error
		if prev, err = check.ReadPrevious(e.dir, *previousDir, *previousRev, *planFile, fl.Args()); err != nil {
			errorf(e, "check: %v", err)
			return exitUsage
		}
	}
	cfg := check.Config{Dir: e.dir, Rules: rules.All(), WarningsAsErrors: *warningsAsErrors, Convert: conv, Reconvert: *reconvert, Exclude: *exclude, Cache: check.CacheDir(e.environ), ProjectTimeout: *projectTimeout, Shard: shard, Jobs: *jobs}
	cfg.Convert.Environ = e.environ
	var res *check.Result
	if *againstRoot != "" {
		// As a batch: check --against keeps little live data (each
		// manifest without its containers), and a soft limit keeps the
		// heap's garbage from doubling the peak.
		cfg.TuneGC = batch.Tunable(e.environ)
		var err error
		if res, err = check.Against(context.Background(), cfg, *againstRoot, fl.Args()); err != nil {
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
	errs, warns := res.Count()
	unread := 0
	for _, m := range rep.Modules {
		if m.Status == report.Failed {
			unread++
		}
	}
	unread += len(res.Errors)
	checked := report.Plural(len(rep.Modules)-res.Unmanifested, "manifest")
	if res.Unmanifested > 0 {
		checked += " and " + report.Plural(res.Unmanifested, "project") + " without one"
	}
	switch {
	case res.Unreadable():
		if *format == "text" {
			errorf(e, "check: %s not read; %s in the others", report.Plural(unread, "manifest"), report.FindingSum(errs, warns))
		}
		return exitUsage
	case errs > 0 || (*warningsAsErrors && (warns > 0 || len(res.NotConverted) > 0)):
		if *format == "text" {
			errorf(e, "check: %s in %s%s", report.FindingCount(errs, warns), checked, check.NotConvertedSum(res))
			if errs == 0 {
				hintf(e, "warnings count as errors because of --warnings-as-errors")
			}
		}
		return exitFindings
	}
	if *format == "text" {
		fmt.Fprintf(e.stderr, "compose2manifest: checked %s: %s%s\n", checked, report.FindingSum(errs, warns), check.NotConvertedSum(res))
	}
	return exitOK
}
