package main

import (
	"context"
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
	prog := progressLine(e, "converting %d/%d projects")
	if prog != nil {
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
	res, finished := interrupt.Wait(ctx, interruptGrace, func() outcome {
		rep, err := batch.Run(ctx, cfg)
		return outcome{rep, err}
	})
	prog.Clear()
	if !finished {
		fmt.Fprintf(e.stderr, "compose2manifest: interrupted; the batch did not stop within %s, so it was left unfinished (the next run into %s reports a commit it left halfway)\n", interruptGrace, report.Escape(cf.output, false))
		return interrupt.Exit(signalled())
	}
	rep, err := res.rep, res.err
	if rep != nil && rep.Interrupted {
		return writeBatchInterrupted(e, cf.format, rep, interrupt.Exit(signalled()))
	}
	if err != nil {
		errorf(e, "convert --batch: %v", err)
		return exitUsage
	}
	code := rep.ExitCode()
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

// progressLine returns the progress line (batch.NewProgressLine) drawn
// on stderr when it is a terminal, except one that says TERM=dumb (that
// cannot erase a line); else nil, which draws nothing.
func progressLine(e *env, line string) *batch.Progress {
	if f, ok := e.stderr.(*os.File); ok && isTerminal(f) && !slices.Contains(e.environ, "TERM=dumb") {
		return batch.NewProgressLine(e.stderr, line)
	}
	return nil
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
	rep.WriteInterrupted(e.stderr)
	return code
}
