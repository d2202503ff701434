package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/interrupt"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/spf13/pflag"
)

// batchFlags are the flags only convert --batch uses.
type batchFlags struct {
	quiet        bool
	jobs         int
	excludes     []string
	includeFiles []string
	shard        batch.Shard
}

// defaultProjectTimeout is --project-timeout's default: far more than the
// largest project of the corpus takes (about 0.1 s), and short enough
// that a batch in CI does not hang on one stuck project.
const defaultProjectTimeout = 60 * time.Second

func addBatchFlags(fs *pflag.FlagSet) *batchFlags {
	bf := &batchFlags{}
	fs.IntVar(&bf.jobs, "jobs", 0, "with --batch: convert `N` projects at once, 1 or more (default: GOMAXPROCS)")
	fs.BoolVarP(&bf.quiet, "quiet", "q", false, "with --batch: print only problems (diagnostics, refused and failed projects, orphans) and the summary")
	fs.StringArrayVar(&bf.excludes, "exclude", nil, "with --batch: skip folders matching `GLOB` (relative path or base name; repeatable)")
	fs.StringArrayVar(&bf.includeFiles, "include-file", nil, "with --batch: convert each compose file matching `GLOB` that no project reads as a project of its own (repeatable)")
	fs.Var(&bf.shard, "shard", "with --batch: convert only part K/N of the projects under ROOT (1 <= K <= N; a stable split by path)")
	return bf
}

// perProjectFlags are convert's flags that name one project's files, its
// place on the target host or its legacy host's survey; in a batch each
// project's own folder and declarations say these.
func perProjectFlags() []string {
	return []string{"file", "project-directory", "env-file", "project-name", "declarations", "host-project-directory", "survey"}
}

// runBatch converts every compose project under --batch ROOT into -o DIR.
// The batch tunes the garbage collector to its size (batch.TuneGC) unless
// GOGC or GOMEMLIMIT is set.
func runBatch(e *env, fs *pflag.FlagSet, cf *convertFlags, bf *batchFlags) int {
	for _, name := range perProjectFlags() {
		if fs.Changed(name) {
			errorf(e, "convert: --%s cannot be used with --batch", name)
			hintf(e, "each project of a batch is converted from its own folder; put host_project_directory, module and the rest in its %s", convert.DeclarationsFile)
			return exitUsage
		}
	}
	if !fs.Changed("output") || cf.output == "-" {
		errorf(e, "convert: --batch writes one manifest per module, so it needs -o DIR")
		return exitUsage
	}
	if fs.Changed("jobs") && bf.jobs < 1 {
		errorf(e, "convert: --jobs %d: want 1 or more", bf.jobs)
		hintf(e, "leave --jobs out to convert GOMAXPROCS (%d) projects at once", runtime.GOMAXPROCS(0))
		return exitUsage
	}
	opts := cf.opts
	opts.Environ, opts.Timeout = e.environ, 0 // the batch bounds each project (ProjectTimeout)
	cfg := batch.Config{
		Root:             cf.batch,
		Excludes:         bf.excludes,
		IncludeFiles:     bf.includeFiles,
		Out:              cf.output,
		WorkingDirectory: e.dir,
		Force:            cf.force,
		Jobs:             bf.jobs,
		Convert:          opts,
		ProjectTimeout:   cf.opts.Timeout,
		ConvertFunc:      e.hooks.batchConvert,
		TuneGC:           batch.Tunable(e.environ),
		Shard:            bf.shard,
	}
	if err := cfg.Check(); err != nil {
		errorf(e, "convert: %v", err)
		return exitUsage
	}
	var prog *batch.Progress
	// No progress line on a terminal that says TERM=dumb.
	if f, ok := e.stderr.(*os.File); ok && isTerminal(f) && !slices.Contains(e.environ, "TERM=dumb") {
		prog = batch.NewProgress(e.stderr)
		cfg.Progress = prog.Update
	}
	// SIGINT or SIGTERM stops the batch: no new project starts, the
	// running ones are abandoned, the staging folder is removed and
	// nothing is written. A second signal, once the first has been seen,
	// kills as usual. Should the batch not stop within interruptGrace
	// (stuck outside a project), the command exits without it.
	ctx, signalled, stop := interrupt.Context(context.Background(), e.hooks.afterListen)
	defer stop()
	type outcome struct {
		rep *batch.Report
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- outcome{err: internalError{v}}
			}
		}()
		rep, err := batch.Run(ctx, cfg)
		done <- outcome{rep, err}
	}()
	var res outcome
	select {
	case res = <-done:
	case <-ctx.Done():
		select {
		case res = <-done:
		case <-time.After(interruptGrace):
			prog.Clear()
			fmt.Fprintf(e.stderr, "compose2manifest: interrupted; the batch did not stop within %s, so it was left unfinished (the next run into %s reports a commit it left halfway)\n", interruptGrace, report.Escape(cf.output, false))
			return interrupt.Exit(signalled())
		}
	}
	rep, err := res.rep, res.err
	prog.Clear()
	var ie internalError
	if errors.As(err, &ie) {
		panic(ie.value) // to run's recover: one line, exit 3
	}
	if rep != nil && rep.Interrupted {
		return writeBatchInterrupted(e, cf.format, rep, interrupt.Exit(signalled()))
	}
	if err != nil {
		errorf(e, "convert --batch: %v", err)
		return exitUsage
	}
	code := batchExitCode(rep)
	if len(rep.Entries) == 0 && rep.OtherShards == 0 {
		// A root with no project is most likely a wrong path.
		errorf(e, "convert --batch: no compose project under %s", cf.batch)
		hintf(e, "a project is a folder with compose.yaml, compose.yml, docker-compose.yaml or docker-compose.yml")
		code = exitUsage
	}
	if cf.format == "json" {
		if err := rep.WriteJSON(e.stdout, reportTool(), cf.schemaComment); err != nil {
			errorf(e, "%v", err)
			return exitUsage
		}
		return code
	}
	// Every line made safe (report.Block): folder and file names are
	// anyone's.
	var text strings.Builder
	rep.WriteText(&text, bf.quiet, cf.text)
	io.WriteString(e.stderr, report.Block(text.String()))
	return code
}

// interruptGrace bounds how long an interrupted batch may take to stop.
const interruptGrace = 5 * time.Second

// writeBatchInterrupted reports a batch that was stopped before writing
// anything, and returns code.
func writeBatchInterrupted(e *env, format string, rep *batch.Report, code int) int {
	if format == "json" {
		if err := rep.WriteJSON(e.stdout, reportTool(), ""); err != nil {
			errorf(e, "%v", err)
		}
		return code
	}
	var text strings.Builder
	batch.WriteUnfinished(&text, rep.Unfinished)
	s := rep.Summary()
	fmt.Fprintf(&text, "compose2manifest: %s found: interrupted after %d converted; nothing written\n", report.Plural(s.Projects, "project"), s.Finished)
	io.WriteString(e.stderr, report.Block(text.String()))
	return code
}

// batchExitCode is the worst outcome of the batch: 3 when a project
// failed with an internal error (a bug to report), else 2 when a project
// failed, 1 when one was refused, else 0. Orphans do not change it.
func batchExitCode(rep *batch.Report) int {
	code := exitOK
	for _, en := range rep.Entries {
		switch {
		case en.Internal:
			return exitInternal
		case en.Status == convert.Failed:
			code = exitUsage
		case en.Status == convert.Refused && code == exitOK:
			code = exitFindings
		}
	}
	return code
}
