package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/compose2manifest/compose2manifest/rules"
	"github.com/spf13/pflag"
)

const checkUsage = `usage: compose2manifest check [flags] MANIFEST|DIR...

Check module manifests: decode each strictly, run every rule over each, and
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
	fl.SetOutput(e.stderr)
	format := fl.String("format", "text", "output `FORMAT`: text (on stderr), json, sarif or github (on stdout)")
	warningsAsErrors := fl.Bool("warnings-as-errors", false, "exit 1 on warnings too")
	againstRoot := fl.String("against", "", "also convert each manifest's compose project under `ROOT` again and compare")
	var conv convert.Options
	fl.StringVar(&conv.VolumeRoot, "volume-root", "", "with --against: convert's --volume-root `DIR`")
	fl.StringVar(&conv.HostProjectDirectory, "host-project-directory", "", "with --against: convert's --host-project-directory `DIR`")
	fl.BoolVar(&conv.Strict, "strict", false, "with --against: convert's --strict")
	fl.StringArrayVar(&conv.Profiles, "profile", nil, "with --against: convert's --profile `PROFILE` (repeatable)")
	fl.StringArrayVar(&conv.EnvFiles, "env-file", nil, "with --against: convert's --env-file `FILE` (repeatable)")
	fl.Usage = func() { fmt.Fprintf(e.stderr, "%s%s", checkUsage, fl.FlagUsages()) }
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		errorf(e, "check: %v", err)
		hintf(e, "run compose2manifest check --help for its flags")
		return exitUsage
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
	if *againstRoot != "" {
		if fi, err := os.Stat(e.resolve(*againstRoot)); err != nil || !fi.IsDir() {
			if err == nil {
				err = fmt.Errorf("%s is not a directory", *againstRoot)
			}
			errorf(e, "check: --against: %v", err)
			return exitUsage
		}
	} else if conv.VolumeRoot != "" || conv.HostProjectDirectory != "" || conv.Strict || len(conv.Profiles) > 0 || len(conv.EnvFiles) > 0 {
		errorf(e, "check: conversion flags need --against ROOT")
		return exitUsage
	}
	list := rules.All()
	rep, decoded, readFailed := checkManifests(e, fl.Args(), list)
	if *againstRoot != "" {
		wanted := map[string]bool{}
		for _, m := range decoded {
			if m != nil {
				wanted[m.Module] = true
			}
		}
		ag, err := newAgainst(e, *againstRoot, conv, wanted)
		if err != nil {
			errorf(e, "check: --against: %v", err)
			return exitUsage
		}
		for i, m := range decoded {
			if m == nil {
				continue
			}
			mod := &rep.Modules[i]
			mod.Diagnostics = append(mod.Diagnostics, ag.check(e, mod.File, m)...)
			rules.FillFixes(list, mod.Diagnostics)
			sortDiagnostics(mod.Diagnostics)
		}
	}
	errs, warns := 0, 0
	for i := range rep.Modules {
		m := &rep.Modules[i]
		if m.Status == report.Failed {
			continue
		}
		ne, nw := report.Count(&report.Report{Modules: []report.Module{*m}})
		errs, warns = errs+ne, warns+nw
		m.Status = report.Checked
		if ne > 0 || (*warningsAsErrors && nw > 0) {
			m.Status = report.Findings
		}
	}

	var err error
	switch *format {
	case "text":
		// Decode errors were printed as they were found.
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
		err = report.WriteSARIF(e.stdout, rep, list)
	case "github":
		err = report.WriteGitHub(e.stdout, rep)
	}
	if err != nil {
		errorf(e, "check: writing the report: %v", err)
		return exitUsage
	}

	findings := errs > 0 || (*warningsAsErrors && warns > 0)
	switch {
	case readFailed:
		return exitUsage
	case findings:
		if *format == "text" {
			errorf(e, "check: %s in %s", findingCount(errs, warns), countNoun(len(rep.Modules), "manifest"))
			if errs == 0 {
				hintf(e, "warnings count as errors because of --warnings-as-errors")
			}
		}
		return exitFindings
	}
	return exitOK
}

// checkManifests reads, decodes and checks every manifest args name. It
// returns the decoded modules beside the report's, nil where one failed.
// prints each read or decode error as it finds it and reports whether there
// were any; the report holds every manifest, in the order named.
func checkManifests(e *env, args []string, list []*rules.Rule) (rep *report.Report, decoded []*manifest.Module, failed bool) {
	rep = &report.Report{Modules: []report.Module{}}
	files, ok := manifestFiles(e, args)
	failed = !ok
	var modules []*manifest.Module
	index := map[string]int{} // file -> rep.Modules index
	for _, file := range files {
		mod := report.Module{Module: file, File: file}
		data, err := os.ReadFile(e.resolve(file))
		var m *manifest.Module
		if err == nil {
			m, err = manifest.Decode(file, data)
		} else {
			err = &manifest.Error{Pos: manifest.Pos{File: file}, Msg: "cannot read: " + pathErr(err)}
		}
		if err != nil {
			failed = true
			mod.Status = report.Failed
			var errs manifest.Errors
			var one *manifest.Error
			switch {
			case errors.As(err, &errs):
			case errors.As(err, &one):
				errs = manifest.Errors{one}
			default:
				errs = manifest.Errors{{Pos: manifest.Pos{File: file}, Msg: err.Error()}}
			}
			for _, de := range errs {
				d := rules.Diagnostic{Rule: de.Rule, Severity: rules.Error, File: de.Pos.File, Line: de.Pos.Line, Message: de.Msg}
				if de.Rule != "" {
					errorf(e, "%s", d)
				} else {
					errorf(e, "%v", de)
				}
				mod.Diagnostics = append(mod.Diagnostics, d)
			}
			rep.Modules = append(rep.Modules, mod)
			decoded = append(decoded, nil)
			continue
		}
		mod.Module = m.Module
		mod.Diagnostics = rules.Run(list, m)
		index[file] = len(rep.Modules)
		rep.Modules = append(rep.Modules, mod)
		decoded = append(decoded, m)
		modules = append(modules, m)
	}
	for _, d := range rules.RunSet(list, modules) {
		i, ok := index[d.File]
		if !ok {
			i = moduleIndex(rep, d.Module)
		}
		rep.Modules[i].Diagnostics = append(rep.Modules[i].Diagnostics, d)
	}
	for _, m := range rep.Modules {
		sort.SliceStable(m.Diagnostics, func(i, j int) bool {
			a, b := m.Diagnostics[i], m.Diagnostics[j]
			if a.Line != b.Line {
				return a.Line < b.Line
			}
			return a.Rule < b.Rule
		})
	}
	return rep, decoded, failed
}

// moduleIndex returns the index of the first module of rep named name that
// was checked, or of the first checked module.
func moduleIndex(rep *report.Report, name string) int {
	first := -1
	for i, m := range rep.Modules {
		if m.Status == report.Failed {
			continue
		}
		if m.Module == name {
			return i
		}
		if first < 0 {
			first = i
		}
	}
	return first
}

// manifestFiles expands args into manifest files, as named on the command
// line: a file stands for itself, a directory for the *.yaml and *.yml files
// directly in it, sorted, leaving out names that start with ".". A file
// named twice is checked once. It prints an error for each argument it
// cannot use and reports whether there were none.
func manifestFiles(e *env, args []string) ([]string, bool) {
	var files []string
	seen := map[string]bool{}
	add := func(name string) {
		if key := filepath.Clean(e.resolve(name)); !seen[key] {
			seen[key] = true
			files = append(files, name)
		}
	}
	ok := true
	for _, arg := range args {
		fi, err := os.Stat(e.resolve(arg))
		if err != nil {
			errorf(e, "%s: %s", arg, pathErr(err))
			ok = false
			continue
		}
		if !fi.IsDir() {
			add(arg)
			continue
		}
		entries, err := os.ReadDir(e.resolve(arg))
		if err != nil {
			errorf(e, "%s: %s", arg, pathErr(err))
			ok = false
			continue
		}
		n := 0
		for _, ent := range entries {
			name := ent.Name()
			ext := filepath.Ext(name)
			if ent.IsDir() || strings.HasPrefix(name, ".") || (ext != ".yaml" && ext != ".yml") {
				continue
			}
			add(filepath.Join(arg, name))
			n++
		}
		if n == 0 {
			errorf(e, "%s: no manifests (*.yaml or *.yml files) in this directory", arg)
			ok = false
		}
	}
	return files, ok
}

// resolve returns name resolved against the command's working directory.
func (e *env) resolve(name string) string {
	if filepath.IsAbs(name) || e.dir == "" {
		return name
	}
	return filepath.Join(e.dir, name)
}

// pathErr returns the reason of a file system error without the path,
// which the caller names as the user wrote it.
func pathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
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
