package main

import (
	"fmt"
	"strings"

	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/internal/cli"
	"github.com/compose2manifest/compose2manifest/internal/version"
	"github.com/compose2manifest/compose2manifest/inventory"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/spf13/pflag"
)

// program is the command line as cli.Tree takes it: each command's usage
// and FlagSet are the ones it parses with, handed over by running it with
// env.describe set, so completion and the manual cannot drift from it.
func program() cli.Program {
	p := cli.Program{Name: "compose2manifest", Short: "convert Docker Compose projects into module manifests, and check them",
		About: "compose2manifest converts Docker Compose projects into module manifests for a mesh host, and refuses to emit a volume line unless a declaration with owner, mode and intent is produced from evidence or supplied by the module's author. Run compose2manifest help COMMAND for a command's flags."}
	p.FlagValues = map[string][]string{"layout": declare.Layouts, "for": inventory.ClientNames()}
	formats := map[string][]string{"convert": {"text", "json"}, "check": check.Formats, "inventory": {"text", "json"}, "ask": {"text", "github"}, "plan": {"sh", "json"}}
	for _, c := range commandList() {
		d := cli.Command{Name: c.name, Short: c.short, Help: c.run == nil, Synopsis: "help [COMMAND]", Values: commandNames(), FlagValues: map[string][]string{"format": formats[c.name]}}
		if c.run != nil {
			c.run(&env{describe: func(u cmdUsage, fs *pflag.FlagSet) {
				d.Synopsis, d.About, d.Flags, d.Files, d.Values = u.synopsis, u.about, fs, u.positional && u.values == nil, u.values
			}}, nil)
		}
		p.Commands = append(p.Commands, d)
	}
	return p
}

// runCompletion prints the completion script for a shell.
func runCompletion(e *env, args []string) int {
	fl := pflag.NewFlagSet("completion", pflag.ContinueOnError)
	noDesc := fl.Bool("no-descriptions", false, "complete without a line of help for each candidate")
	u := cmdUsage{name: "completion", synopsis: "completion [--no-descriptions] " + strings.Join(cli.Shells, "|"), about: cli.CompletionAbout, positional: true, values: cli.Shells}
	if code, ok := parseFlags(e, fl, u, args); !ok {
		return code
	}
	if fl.NArg() != 1 {
		errorf(e, "completion: want one shell: %s", strings.Join(cli.Shells, ", "))
		hintf(e, "source <(compose2manifest completion bash)")
		return exitUsage
	} else if err := cli.Completion(e.stdout, cli.Tree(program()), fl.Arg(0), !*noDesc); err != nil {
		errorf(e, "completion: %v", err)
		return exitUsage
	}
	return exitOK
}

// runMan prints a manual page, or writes them all with --dir.
func runMan(e *env, args []string) int {
	fl := pflag.NewFlagSet("man", pflag.ContinueOnError)
	dir, force := fl.String("dir", "", "write every page, compose2manifest.1 and compose2manifest-COMMAND.1, into the folder `DIR`"), fl.Bool("force", false, "with --dir: replace files there that are not compose2manifest's manual pages")
	u := cmdUsage{name: "man", synopsis: "man [COMMAND] | man --dir DIR [--force]", about: cli.ManAbout, positional: true, values: commandNames()}
	if code, ok := parseFlags(e, fl, u, args); !ok {
		return code
	}
	p, h := program(), cli.ManHeader{Date: cli.ManDate(e.environ, version.Get().Time), Source: "compose2manifest " + version.Get().Version}
	switch {
	case fl.NArg() > 1 || (*dir != "" && fl.NArg() > 0):
		errorf(e, "man: want at most one command, or --dir DIR alone")
		return exitUsage
	case *dir != "":
		written, err := cli.WriteManPages(e.dir, *dir, p, h, *force)
		if err != nil {
			errorf(e, "man: --dir: %v", err)
			return exitUsage
		}
		fmt.Fprintf(e.stderr, "compose2manifest: wrote %s into %s\n", report.Plural(len(written), "manual page"), report.Line(*dir))
	default:
		if err := cli.Man(e.stdout, p, fl.Arg(0), h); err != nil {
			errorf(e, "man: %v", err)
			hintf(e, "commands are %s", strings.Join(commandNames(), ", "))
			return exitUsage
		}
	}
	return exitOK
}
