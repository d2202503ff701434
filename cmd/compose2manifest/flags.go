package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/compose2manifest/compose2manifest/internal/manual"
	"github.com/compose2manifest/compose2manifest/internal/suggest"
	"github.com/spf13/pflag"
)

// cmdUsage says how a command is called, for --help: its synopsis after
// "compose2manifest ", and what it does (may be empty).
type cmdUsage struct {
	name, synopsis, about string
	// positional says whether the command takes arguments; for one that
	// does not, hint says what to do about an argument given anyway.
	positional bool
	hint       func(arg string) string
	// values are the words its arguments are among, for completion.
	values []string
}

// parseFlags is every command's one flag parser. --help prints the usage
// on stdout and reports done with exit 0; a bad flag, or an argument for a
// command that takes none, is an error with a hint and exit 2. It reports
// false, with the exit code, when the command is done.
func parseFlags(e *env, fs *pflag.FlagSet, u cmdUsage, args []string) (code int, ok bool) {
	if e.describe != nil {
		e.describe(u, fs)
		return exitOK, false
	}
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprintf(e.stdout, "usage: compose2manifest %s\n", u.synopsis)
			if u.about != "" {
				fmt.Fprintf(e.stdout, "\n%s", u.about)
			}
			if flags := fs.FlagUsages(); flags != "" {
				fmt.Fprintf(e.stdout, "\n%s", flags)
			}
			fmt.Fprintf(e.stdout, "\nmanual: docs/%s (%s)\n", manual.Page(u.name), manual.URL(u.name))
			return exitOK, false
		}
		errorf(e, "%s: %v", u.name, err)
		if near := suggest.Flag(fs, err); near != "" {
			hintf(e, "did you mean %s?", near)
		}
		hintf(e, "run compose2manifest %s --help for its flags", u.name)
		return exitUsage, false
	}
	if !u.positional && fs.NArg() > 0 {
		errorf(e, "%s: unexpected argument %q", u.name, fs.Arg(0))
		hintf(e, "%s", u.hint(fs.Arg(0)))
		return exitUsage, false
	}
	return exitOK, true
}
