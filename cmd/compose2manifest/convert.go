package main

import (
	"context"
	"io"

	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/imageconfig/refresh"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/compose2manifest/compose2manifest/rules"
	"github.com/spf13/pflag"
)

// convertFlags are the flags convert and ask share.
type convertFlags struct {
	opts     convert.Options
	output   string
	format   string
	batch    string
	force    bool
	skeleton string // --skeleton's file (report.Refusal.WholeFile)
	// schemaComment is the schema a skeleton (and the file ask writes)
	// points yaml-language-server at.
	schemaComment string
	// text says how the text report is written.
	text report.TextOptions
}

func newConvertFlags(name string, e *env) (*pflag.FlagSet, *convertFlags) {
	cf := &convertFlags{}
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are printed by the caller; usage by --help

	fs.StringArrayVarP(&cf.opts.ConfigFiles, "file", "f", nil, "compose `FILE` (repeatable, merged in order)")
	fs.StringVar(&cf.opts.ProjectDirectory, "project-directory", "", "project `DIR` (default: the first compose file's folder)")
	fs.StringArrayVar(&cf.opts.EnvFiles, "env-file", nil, "env `FILE` used for interpolation instead of .env (repeatable)")
	fs.StringArrayVar(&cf.opts.Profiles, "profile", nil, "enable services of `PROFILE` (repeatable)")
	fs.StringVarP(&cf.opts.ProjectName, "project-name", "p", "", "project `NAME`")
	fs.StringVar(&cf.opts.DeclarationsFile, "declarations", "", "declarations `FILE` (default: compose2manifest.yaml in the project directory)")
	fs.StringVar(&cf.opts.DefaultsFile, "defaults", "", "defaults `FILE`: layout, volume_root, acknowledge: and mounts: for every project (default with --batch: ROOT/compose2manifest.defaults.yaml)")
	fs.StringVar(&cf.opts.HostProjectDirectory, "host-project-directory", "", "`DIR` where the project lives on the target host")
	fs.StringVar(&cf.opts.VolumeRoot, "volume-root", "", "`DIR` where named and anonymous volumes land on the target host")
	fs.StringVar(&cf.opts.Layout, "layout", "", "`LAYOUT` of declarations without a path: fhs places each by its intent (/var/lib/MODULE, /srv/MODULE, /etc/MODULE, …)")
	fs.BoolVar(&cf.opts.Strict, "strict", false, "only supplied declarations count: produce nothing from evidence")
	fs.StringVar(&cf.opts.SurveyFile, "survey", "", "the legacy host's survey `FILE` (what compose2manifest survey's script printed): it settles kind, owner and mode nothing supplied")
	fs.StringArrayVar(&cf.opts.AllowDirs, "allow-dir", nil, "`DIR` outside the project where files it refers to (env_file, include, …) may lie (repeatable)")
	fs.BoolVar(&cf.text.ShowAcknowledged, "show-acknowledged", false, "write each acknowledged finding, not only how many there are")
	fs.DurationVar(&cf.opts.Timeout, "project-timeout", defaultProjectTimeout, "a conversion still running after `DURATION` fails (with --batch: that project's, and the batch goes on) (0: no limit)")
	fs.StringVar(&cf.schemaComment, "schema-comment", "", "start the declarations skeleton (and the file ask writes) with # yaml-language-server: $schema=`PATH`")
	return fs, cf
}

func runConvert(e *env, args []string) int {
	fs, cf := newConvertFlags("convert", e)
	fs.StringVarP(&cf.output, "output", "o", "-", "write `DIR`/MODULE.yaml, or - for stdout")
	fs.StringVar(&cf.format, "format", "text", "report format: text or json")
	fs.StringVar(&cf.batch, "batch", "", "convert every compose project under `ROOT`")
	fs.StringVar(&cf.skeleton, "skeleton", "", "on a refusal, also write the whole declarations skeleton to `FILE`")
	fs.BoolVar(&cf.force, "force", false, "overwrite files in the output directory that compose2manifest did not write")
	bf, rf := addBatchFlags(fs), refresh.Flags(fs)
	if code, ok := parseFlags(e, fs, cmdUsage{name: "convert", synopsis: "convert [flags]", hint: composeFileHint}, args); !ok {
		return code
	}
	if err := rf.Run(context.Background(), cf.opts, e.environ, e.dir, cf.batch, cf.force); err != nil {
		errorf(e, "convert: %v", err)
		return exitUsage
	}
	if cf.format != "text" && cf.format != "json" {
		errorf(e, "convert: --format %q: want text or json", cf.format)
		return exitUsage
	}
	if cf.format == "json" && cf.output == "-" {
		errorf(e, "convert: --format json prints the report on stdout, so the manifest needs -o DIR")
		return exitUsage
	}
	if cf.output == "" {
		errorf(e, "convert: -o needs a directory, or - for stdout")
		return exitUsage
	}
	if cf.batch != "" {
		return runBatch(e, fs, cf, bf)
	}
	for _, name := range []string{"jobs", "exclude", "quiet"} {
		if fs.Changed(name) {
			errorf(e, "convert: --%s goes with --batch ROOT", name)
			return exitUsage
		}
	}
	cf.opts.Environ, cf.opts.WorkingDirectory = e.environ, e.dir
	cf.opts.Stdin = e.stdin // read only for -f -
	if cf.output != "-" {
		cf.opts.ManifestDir = cf.output // the header names the compose file from there
	}
	cf.opts.SkeletonFile = cf.skeleton // the skeleton shown names it
	if batch.Tunable(e.environ) {
		cf.opts.InputSize = batch.Untune // a large input runs as untuned
	}
	convertProject := e.hooks.convert
	if convertProject == nil {
		convertProject = convert.Convert
	}
	res, err := convertProject(context.Background(), cf.opts)
	if len(res.Skeleton) > 0 {
		res.Skeleton = declare.WithSchemaComment(res.Skeleton, cf.schemaComment)
	}
	mod := report.Module{Status: string(res.Status), Diagnostics: res.Diagnostics, Skeleton: string(res.Skeleton)}
	if res.Module != nil {
		mod.Module = res.Module.Module
	} else if res.Candidate != nil {
		mod.Module = res.Candidate.Module
	}
	if err != nil {
		mod.Diagnostics = append(mod.Diagnostics, rules.LoadError(err))
	}
	code := exitOK
	switch res.Status {
	case convert.Failed:
		code = exitUsage
	case convert.Refused:
		code = exitFindings
	case convert.Converted:
		out, werr := writeManifest(e, cf, res)
		if werr != nil {
			mod.Status = string(convert.Failed)
			mod.Diagnostics = append(mod.Diagnostics, rules.Diagnostic{Severity: rules.Error, Message: werr.Error()})
			code = exitUsage
			err = werr
		}
		mod.Output = out
	}
	rep := &report.Report{Tool: reportTool(), Modules: []report.Module{mod}}
	if cf.format == "json" {
		if werr := report.WriteJSON(e.stdout, rep); werr != nil {
			errorf(e, "%v", werr)
			return exitUsage
		}
		return code
	}
	rep.Modules[0].Diagnostics = res.Diagnostics // the error itself is printed below
	report.WriteTextWith(e.stderr, rep, cf.text)
	if err != nil {
		errorf(e, "%v", err)
		if len(res.Diagnostics) > 0 {
			hintf(e, "the diagnostics above may explain it")
		}
	}
	if res.Status == convert.Refused {
		r := report.Refusal{Module: mod.Module, Errors: report.CountErrors(res.Diagnostics), Inline: declare.WithSchemaComment(res.Inline, cf.schemaComment), Elided: res.Elided,
			Decisions: res.Decisions, File: convert.DeclarationsFile, Whole: res.Skeleton, WholeFile: cf.skeleton, Dir: e.dir, Force: cf.force}
		if werr := r.Write(e.stderr); werr != nil {
			errorf(e, "convert: --skeleton: %v", werr)
			return exitUsage
		}
	}
	defaultsHint(e, cf.opts)
	return code
}

// defaultsHint says that a defaults file in or above the project's
// folder (batch.UnreadDefaults), which a batch over that folder reads, is
// not read for one project.
func defaultsHint(e *env, opts convert.Options) {
	if p := batch.UnreadDefaults(opts); p != "" {
		hintf(e, "%s is not read for one project: give --defaults %s to convert it as a batch over its folder does", p, p)
	}
}

// writeManifest writes a converted manifest to stdout or DIR/MODULE.yaml
// (convert.WriteManifest) and returns where it went.
func writeManifest(e *env, cf *convertFlags, res *convert.Result) (string, error) {
	if cf.output == "-" {
		_, err := e.stdout.Write(res.Manifest)
		return "", err
	}
	return convert.WriteManifest(e.dir, cf.output, res, cf.force)
}

// composeFileHint is the hint for an argument given to a command that
// takes compose files only with -f.
func composeFileHint(string) string { return "name compose files with -f FILE" }
