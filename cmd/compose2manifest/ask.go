package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/compose2manifest/compose2manifest/ask"
	"github.com/compose2manifest/compose2manifest/report"
)

// runAsk implements "ask": on a terminal it asks for what convert is
// missing and writes the declarations file; elsewhere it prints the
// questions (a skeleton, or GitHub annotations) and exits 1. The work is
// ask.Run's; this is its face.
func runAsk(e *env, args []string) int {
	fs, cf := newConvertFlags("ask", e)
	write := fs.Bool("write", false, "write the declarations file without asking for a final confirmation")
	fs.StringVar(&cf.format, "format", "text", "off a terminal: text (a skeleton) or github (workflow annotations)")
	if code, ok := parseFlags(e, fs, cmdUsage{name: "ask", synopsis: "ask [convert's flags] [--write] [--format text|github]", hint: composeFileHint}, args); !ok {
		return code
	}
	if cf.format != "text" && cf.format != "github" {
		errorf(e, "ask: --format %q: want text or github", cf.format)
		return exitUsage
	}
	cf.opts.Environ = e.environ
	cf.opts.WorkingDirectory = e.dir
	defaultsHint(e, cf.opts)

	// Ctrl-C stops the session without writing anything: the read in
	// progress is abandoned, and the process exits.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	out := ask.Run(ctx, ask.Config{
		Options:  cf.opts,
		GitHub:   cf.format == "github",
		Terminal: e.isTerminal,
		Write:    *write,
		In:       e.stdin,
		Out:      e.stderr,
		Stdout:   e.stdout,

		SchemaComment: cf.schemaComment,
	})

	if out.Report != nil {
		report.WriteTextWith(e.stderr, &report.Report{Modules: []report.Module{*out.Report}}, cf.text)
	}
	if out.Message != "" {
		fmt.Fprintf(e.stderr, "compose2manifest: %s\n", report.Line(out.Message))
	}
	if out.Err != nil {
		errorf(e, "%v", out.Err)
	}
	for _, h := range out.Hints {
		hintf(e, "%s", h)
	}
	switch out.Status {
	case ask.Done:
		return exitOK
	case ask.Unanswered:
		return exitFindings
	}
	return exitUsage
}
