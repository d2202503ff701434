package main

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/compose2manifest/compose2manifest/rules"
	"github.com/spf13/pflag"
)

const checkAbout = `Check module manifests: decode each strictly, run every rule over each, and
run the rules that compare modules over all of them together. A DIR stands
for every *.yaml and *.yml file directly in it (not in its subdirectories,
and not files whose name starts with "."); each must be a manifest.

Exit status: 0 clean (warnings allowed), 1 findings, 2 bad usage or a
manifest that cannot be read or decoded.

flags:
`

// checkFormats are the values of check --format.
var checkFormats = []string{"text", "json", "sarif", "github"}

func runCheck(e *env, args []string) int {
	fl := pflag.NewFlagSet("check", pflag.ContinueOnError)
	format := fl.String("format", "text", "output `FORMAT`: text (on stderr), json, sarif or github (on stdout)")
	warningsAsErrors := fl.Bool("warnings-as-errors", false, "exit 1 on warnings too")
	againstRoot := fl.String("against", "", "also convert each manifest's compose project under `ROOT` again and compare")
	reconvert := fl.Bool("reconvert", false, "with --against: convert every project again, even one whose manifest's fingerprint says it is current")
	var conv convert.Options
	fl.StringVar(&conv.VolumeRoot, "volume-root", "", "with --against: convert's --volume-root `DIR` (wins over converted_with)")
	fl.StringVar(&conv.HostProjectDirectory, "host-project-directory", "", "with --against: convert's --host-project-directory `DIR`")
	fl.BoolVar(&conv.Strict, "strict", false, "with --against: convert's --strict (else converted_with decides)")
	fl.StringArrayVar(&conv.Profiles, "profile", nil, "with --against: convert's --profile `PROFILE` (repeatable)")
	fl.StringArrayVar(&conv.EnvFiles, "env-file", nil, "with --against: convert's --env-file `FILE` (repeatable)")
	if code, ok := parseFlags(e, fl, cmdUsage{name: "check", synopsis: "check [flags] MANIFEST|DIR...", about: checkAbout, positional: true}, args); !ok {
		return code
	}
	if !isOneOf(checkFormats, *format) {
		errorf(e, "check: --format %q: want %s", *format, strings.Join(checkFormats, ", "))
		return exitUsage
	}
	if fl.NArg() == 0 {
		errorf(e, "check: no manifests to check")
		hintf(e, "name manifest files or directories of them: compose2manifest check out/")
		return exitUsage
	}
	if *againstRoot == "" && (*reconvert || conv.VolumeRoot != "" || conv.HostProjectDirectory != "" || conv.Strict || len(conv.Profiles) > 0 || len(conv.EnvFiles) > 0) {
		errorf(e, "check: conversion flags need --against ROOT")
		return exitUsage
	}
	cfg := check.Config{Dir: e.dir, Rules: rules.All(), WarningsAsErrors: *warningsAsErrors, Convert: conv, Reconvert: *reconvert}
	cfg.Convert.Environ = e.environ
	var res *check.Result
	if *againstRoot != "" {
		if !hasEnv(e.environ, "GOGC") && !hasEnv(e.environ, "GOMEMLIMIT") {
			// As a batch: check --against keeps little live data (each
			// manifest without its containers), and a soft limit keeps
			// the heap's garbage from doubling the peak.
			debug.SetMemoryLimit(batchMemoryLimit)
		}
		var err error
		if res, err = check.Against(context.Background(), cfg, *againstRoot, fl.Args()); err != nil {
			errorf(e, "check: --against: %v", err)
			return exitUsage
		}
	} else {
		res = check.Manifests(cfg, fl.Args())
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
	switch *format {
	case "text":
		// Decode errors were printed above.
		text := &report.Report{}
		for _, m := range rep.Modules {
			if m.Status != report.Failed {
				text.Modules = append(text.Modules, m)
			}
		}
		err = report.WriteText(e.stderr, text)
	case "json":
		err = report.WriteJSON(e.stdout, rep)
	case "sarif":
		err = report.WriteSARIF(e.stdout, rep, cfg.Rules, report.SARIFOptions{BaseDir: e.dir})
	case "github":
		err = report.WriteGitHub(e.stdout, rep)
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
	switch {
	case res.Unreadable():
		if *format == "text" {
			errorf(e, "check: %s not read; %s in the others", countNoun(unread, "manifest"), findingSum(errs, warns))
		}
		return exitUsage
	case errs > 0 || (*warningsAsErrors && warns > 0):
		if *format == "text" {
			errorf(e, "check: %s in %s", findingCount(errs, warns), countNoun(len(rep.Modules), "manifest"))
			if errs == 0 {
				hintf(e, "warnings count as errors because of --warnings-as-errors")
			}
		}
		return exitFindings
	}
	if *format == "text" {
		fmt.Fprintf(e.stderr, "compose2manifest: checked %s: %s\n", countNoun(len(rep.Modules), "manifest"), findingSum(errs, warns))
	}
	return exitOK
}

// findingSum says how many errors and warnings there are, both always:
// "0 errors, 1 warning".
func findingSum(errs, warns int) string {
	return countNoun(errs, "error") + ", " + countNoun(warns, "warning")
}

// findingCount says how many errors and warnings there are.
func findingCount(errs, warns int) string {
	switch {
	case warns == 0:
		return countNoun(errs, "error")
	case errs == 0:
		return countNoun(warns, "warning")
	}
	return countNoun(errs, "error") + " and " + countNoun(warns, "warning")
}

func countNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func isOneOf(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
