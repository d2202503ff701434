// Command compose2manifest converts Docker Compose projects into module
// manifests and checks manifests in CI. See the README for usage.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/cli"
	"github.com/compose2manifest/compose2manifest/internal/suggest"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/sirupsen/logrus"
	"github.com/spf13/pflag"
	xterm "golang.org/x/term"
)

// Exit codes.
const (
	exitOK       = 0 // complete
	exitFindings = 1 // refused, or check found an error (warnings count only with --warnings-as-errors)
	exitUsage    = 2 // bad usage or unreadable input
	exitInternal = 3 // an internal error: a bug of ours, never bad input
)

// env is what a subcommand may use of the process: its streams, arguments,
// environment and working directory. Tests run main in-process through it.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	environ        []string
	dir            string
	// isTerminal reports whether stdin and stderr are terminals.
	isTerminal bool
	// hooks are what tests replace; the zero value is the real thing.
	hooks hooks
	// describe, when set, makes a command hand its usage and flags to it
	// instead of parsing arguments (see definitions).
	describe func(cmdUsage, *pflag.FlagSet)
}

// hooks are the seams tests use, per command run (no package state).
type hooks struct {
	// convert converts a single project; nil is convert.Convert.
	convert func(context.Context, convert.Options) (*convert.Result, error)
	// batchConvert converts each project of a batch; nil is
	// convert.Convert.
	batchConvert func(context.Context, convert.Options) (*convert.Result, error)
	// afterListen runs once the command watches SIGINT and SIGTERM.
	afterListen func()
}

func main() {
	// compose-go logs warnings through logrus, such as "The X variable is
	// not set"; convert reports those itself, with file and line.
	logrus.SetOutput(io.Discard)
	e, err := processEnv()
	if err != nil {
		fmt.Fprintf(os.Stderr, "compose2manifest: error: %v\n", err)
		os.Exit(exitUsage)
	}
	os.Exit(run(e, os.Args[1:]))
}

// processEnv is the env of this process.
func processEnv() (*env, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	return &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, environ: os.Environ(), dir: wd, isTerminal: isTerminal(os.Stdin) && isTerminal(os.Stderr)}, nil
}

// isTerminal reports whether f is a terminal (the null device, a
// character device too, is none: "ask </dev/null" must not ask).
func isTerminal(f *os.File) bool { return xterm.IsTerminal(int(f.Fd())) }

// command is a subcommand: its name, what it does in one line (the usage
// lists it), and what runs it; nil for help, which dispatch runs.
type command struct {
	name, short string
	run         func(*env, []string) int
}

// commandList returns the subcommands, in the order the usage lists them.
func commandList() []command {
	return []command{
		{"convert", "convert a compose project (or --batch ROOT) into module manifests", runConvert},
		{"check", "check manifests: the CI gate", runCheck},
		{"inventory", "list the declared paths of manifests and what to back up", runInventory},
		{"ask", "prompt for missing declarations and write them", runAsk},
		{"plan", "print the migration plan: a script that copies the data to its declared paths", runPlan},
		{"survey", "write a read-only script that records on the legacy host what each source is", runSurvey},
		{"rules", "list the rules", runRules},
		{"explain", "print one rule's documentation (without an ID: list the rules)", runExplain},
		{"schema", "print the JSON Schema of the declarations, a manifest or a report", runSchema},
		{"version", "print the version and VCS revision of this build (also --version)", runVersion},
		{"completion", "print a shell completion script: bash, zsh, fish or powershell", runCompletion},
		{"man", "print the manual page of compose2manifest or of one command, in roff", runMan},
		{"help", "print a command's help: compose2manifest help COMMAND", nil},
	}
}

// commandNames returns the name of each command of commandList.
func commandNames() []string {
	var out []string
	for _, c := range commandList() {
		out = append(out, c.name)
	}
	return out
}

// usage is what compose2manifest prints without a command.
func usage() string {
	var b strings.Builder
	b.WriteString("usage: compose2manifest COMMAND [flags]\n\ncommands:\n")
	for _, c := range commandList() {
		fmt.Fprintf(&b, "  %-10s %s\n", c.name, c.short)
	}
	b.WriteString("\nRun compose2manifest help COMMAND (or COMMAND --help) for a command's flags.\n")
	return b.String()
}

// run dispatches to a subcommand and returns the exit code. A panic is an
// internal error, never bad input: one line saying so, and exit 3.
func run(e *env, args []string) (code int) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(e.stderr, "compose2manifest: internal error: %s; please report it\n", report.Line(fmt.Sprint(v)))
			code = exitInternal
		}
	}()
	return dispatch(e, args)
}

// dispatch runs the subcommand args name.
func dispatch(e *env, args []string) int {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, usage())
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	if batch.Tunable(e.environ) {
		batch.TuneGC(0)         // a short run collects less often, under a soft limit; a batch and check --against set theirs
		defer batch.GuardGC()() // a limit below the live heap would collect without pause
	}
	commands, helps, what := commandNames(), []string{"help", "-h", "--help"}, "unknown command"
	if i := slices.Index(commands, cmd); i >= 0 && commandList()[i].run != nil {
		return commandList()[i].run(e, rest)
	}
	switch {
	case cmd == "--version":
		return runVersion(e, rest)
	case cmd == "__complete" || cmd == "__completeNoDesc": // a completion script calling back
		if err := cli.Execute(cli.Tree(program()), args, e.stdout, e.stderr); err != nil {
			errorf(e, "%v", err)
			return exitUsage
		}
		return exitOK
	case slices.Contains(helps, cmd) && (cmd != "help" || len(rest) == 0 || slices.Contains(helps, rest[0])):
		fmt.Fprint(e.stdout, usage())
		return exitOK
	case cmd == "help" && len(rest) > 1:
		errorf(e, "help: want one command, got %d arguments", len(rest))
		return exitUsage
	case cmd == "help" && slices.Contains(commands, rest[0]):
		return run(e, []string{rest[0], "--help"})
	case cmd == "help":
		cmd, what = rest[0], "help: unknown command"
	}
	errorf(e, "%s %q", what, cmd)
	hintf(e, "%scommands are %s", suggest.Hint(cmd, commands), strings.Join(commands, ", "))
	return exitUsage
}

// errorf prints "compose2manifest: error: …" to stderr. The error may
// quote what anyone can write into a compose file, so each of its lines
// is made safe (report.Lines), and the lines after the first, such as
// compose-go's one line per problem, are indented below it.
func errorf(e *env, format string, args ...any) {
	lines := report.Lines(fmt.Sprintf(format, args...))
	if len(lines) == 0 {
		lines = []string{""}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "compose2manifest: error: %s\n", lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	io.WriteString(e.stderr, b.String())
}

// hintf prints "compose2manifest: hint: …" to stderr, as errorf does.
func hintf(e *env, format string, args ...any) {
	fmt.Fprintf(e.stderr, "compose2manifest: hint: %s\n", report.Line(fmt.Sprintf(format, args...)))
}
