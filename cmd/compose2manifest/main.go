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
	"github.com/compose2manifest/compose2manifest/internal/suggest"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/sirupsen/logrus"
)

// Exit codes.
const (
	exitOK       = 0 // complete
	exitFindings = 1 // refused, or findings
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

// isTerminal reports whether f is a character device other than the null
// device (which is one, but no terminal: "ask </dev/null" must not ask).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}

const usage = `usage: compose2manifest COMMAND [flags]

commands:
  convert   convert a compose project (or --batch ROOT) into module manifests
  check     check manifests: the CI gate
  inventory list the declared paths of manifests and what to back up
  ask       prompt for missing declarations and write them
  plan      print the migration plan: a script that copies the data to its declared paths
  survey    write a read-only script that records on the legacy host what each source is
  rules     list the rules
  explain   print one rule's documentation (without an ID: list the rules)
  schema    print the JSON Schema of the declarations, a manifest or a report
  version   print the version and VCS revision of this build (also --version)
  help      print a command's help: compose2manifest help COMMAND

Run compose2manifest help COMMAND (or COMMAND --help) for a command's flags.
`

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

// internalError carries a panic recovered in another goroutine to run's
// recover.
type internalError struct{ value any }

func (e internalError) Error() string { return fmt.Sprintf("internal error: %v", e.value) }

// dispatch runs the subcommand args name.
func dispatch(e *env, args []string) int {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, usage)
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	if batch.Tunable(e.environ) {
		batch.TuneGC(0)         // a short run collects less often, under a soft limit; a batch and check --against set theirs
		defer batch.GuardGC()() // a limit below the live heap would collect without pause
	}
	switch cmd {
	case "convert":
		return runConvert(e, rest)
	case "check":
		return runCheck(e, rest)
	case "inventory":
		return runInventory(e, rest)
	case "ask":
		return runAsk(e, rest)
	case "plan":
		return runPlan(e, rest)
	case "survey":
		return runSurvey(e, rest)
	case "rules":
		return runRules(e, rest)
	case "explain":
		return runExplain(e, rest)
	case "schema":
		return runSchema(e, rest)
	case "version", "--version":
		return runVersion(e, rest)
	case "help", "-h", "--help":
		if cmd == "help" && len(rest) > 0 && !slices.Contains([]string{"help", "-h", "--help"}, rest[0]) {
			if len(rest) > 1 {
				errorf(e, "help: want one command, got %d arguments", len(rest))
				return exitUsage
			}
			if !slices.Contains(commands, rest[0]) {
				errorf(e, "help: unknown command %q", rest[0])
				hintf(e, "%scommands are %s", suggest.Hint(rest[0], commands), strings.Join(commands, ", "))
				return exitUsage
			}
			return run(e, []string{rest[0], "--help"})
		}
		fmt.Fprint(e.stdout, usage)
		return exitOK
	default:
		errorf(e, "unknown command %q", cmd)
		hintf(e, "%scommands are %s", suggest.Hint(cmd, commands), strings.Join(commands, ", "))
		return exitUsage
	}
}

// commands are the subcommands, as the usage lists them.
var commands = []string{"convert", "check", "inventory", "ask", "plan", "survey", "rules", "explain", "schema", "version", "help"}

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
