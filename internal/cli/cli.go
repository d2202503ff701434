// Package cli builds, from the commands compose2manifest defines with
// pflag, the cobra command tree that shell completion and the manual
// pages are generated from.
//
// The command still dispatches and parses its flags itself (one parser,
// one error format, exit 2 for bad usage); cobra is given the same
// FlagSets, never a copy, so completion and the manual cannot drift from
// what the commands accept. A completion script calls the command back
// with cobra's hidden __complete command, which Execute runs.
package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"

	"github.com/compose2manifest/compose2manifest/internal/atomicfile"
)

// Command is one subcommand as its definition gives it.
type Command struct {
	// Name is the word that runs it: "check".
	Name string
	// Short says in one line what it does.
	Short string
	// Synopsis is how it is called, after the program's name: "check
	// [flags] MANIFEST|DIR...". Empty means Name.
	Synopsis string
	// About is its longer description, as its --help prints it (a last
	// "flags:" line, which introduces the flags there, is dropped).
	About string
	// Flags are the flags it defines; nil for none.
	Flags *pflag.FlagSet
	// Files says its arguments are files or folders; Values, when not
	// nil, are the words its arguments are among. With neither it takes
	// no argument worth completing.
	Files  bool
	Values []string
	// Help marks the help command (cobra keeps it apart from the others).
	Help bool
	// FlagValues are the words the value of a flag is among, by flag
	// name, for completion (over Program.FlagValues).
	FlagValues map[string][]string
}

// Program is the whole command line: its name, what it does (in a line,
// and in a paragraph its manual page follows with the list of its
// commands), and its commands in the order the usage lists them.
type Program struct {
	Name, Short, About string
	Commands           []Command
	// FlagValues are the words the value of a flag is among, by flag
	// name, for every command with that flag.
	FlagValues map[string][]string
}

// Shells are the shells Completion writes a script for.
var Shells = []string{"bash", "zsh", "fish", "powershell"}

// Tree returns p as a cobra command tree, for completion. Its commands
// run nothing. Each flag is the one its command parses (the same Value),
// its usage without pflag's backquotes around the value's name.
func Tree(p Program) *cobra.Command {
	return tree(p, func(usage string) string { return strings.ReplaceAll(usage, "`", "") })
}

// tree is Tree with usage rewriting each flag's usage.
func tree(p Program, usage func(string) string) *cobra.Command {
	long := markdown(p.About) + "\nCommands:\n\n"
	for _, c := range p.Commands {
		long += "- **" + c.Name + "**: " + escape(c.Short) + "\n"
	}
	root := &cobra.Command{
		Use:                   p.Name + " COMMAND [flags]",
		Short:                 p.Short,
		Long:                  long,
		DisableFlagsInUseLine: true,
		SilenceErrors:         true,
		SilenceUsage:          true,
		DisableAutoGenTag:     true,
		CompletionOptions:     cobra.CompletionOptions{DisableDefaultCmd: true},
		ValidArgsFunction:     cobra.NoFileCompletions,
	}
	for _, c := range p.Commands {
		use := c.Synopsis
		if use == "" {
			use = c.Name
		}
		cc := &cobra.Command{
			Use:                   use,
			Short:                 c.Short,
			Long:                  markdown(c.About),
			DisableFlagsInUseLine: true,
			DisableAutoGenTag:     true,
			Run:                   func(*cobra.Command, []string) {},
		}
		switch {
		case c.Values != nil:
			cc.ValidArgsFunction = among(c.Values)
		case !c.Files:
			cc.ValidArgsFunction = cobra.NoFileCompletions
		}
		if c.Flags != nil {
			c.Flags.VisitAll(func(f *pflag.Flag) {
				g := *f
				g.Usage = usage(f.Usage)
				cc.Flags().AddFlag(&g)
				values, ok := c.FlagValues[f.Name]
				if !ok {
					values = p.FlagValues[f.Name]
				}
				if values != nil {
					// Only a flag registered twice is an error; each is once.
					_ = cc.RegisterFlagCompletionFunc(f.Name, among(values))
				}
			})
		}
		if c.Help {
			root.SetHelpCommand(cc)
			continue
		}
		root.AddCommand(cc)
	}
	return root
}

// among completes a word among values.
func among(values []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var out []cobra.Completion
		for _, v := range values {
			if strings.HasPrefix(v, prefix) {
				out = append(out, v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// Execute runs the cobra tree on args, as a completion script calls it
// back ("__complete check --fo"), writing to stdout and stderr.
func Execute(root *cobra.Command, args []string, stdout, stderr io.Writer) error {
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	return root.Execute()
}

// Completion writes root's completion script for shell, one of Shells;
// with descriptions, each candidate carries its one line of help where
// the shell shows it.
func Completion(w io.Writer, root *cobra.Command, shell string, descriptions bool) error {
	switch shell {
	case "bash":
		return root.GenBashCompletionV2(w, descriptions)
	case "zsh":
		if descriptions {
			return root.GenZshCompletion(w)
		}
		return root.GenZshCompletionNoDesc(w)
	case "fish":
		return root.GenFishCompletion(w, descriptions)
	case "powershell":
		if descriptions {
			return root.GenPowerShellCompletionWithDesc(w)
		}
		return root.GenPowerShellCompletion(w)
	}
	return fmt.Errorf("no completion for shell %q: want %s", shell, strings.Join(Shells, ", "))
}

// CompletionAbout is the help text of compose2manifest completion.
const CompletionAbout = `Print the shell completion script for SHELL, generated from the commands'
flags. Load it:

  source <(compose2manifest completion bash)          # bash, in ~/.bashrc
  compose2manifest completion zsh > "${fpath[1]}/_compose2manifest"
  compose2manifest completion fish > ~/.config/fish/completions/compose2manifest.fish

flags:
`

// ManAbout is the help text of compose2manifest man.
const ManAbout = `Print the manual page (roff) of compose2manifest, or of COMMAND, generated
from the commands' flags; with --dir, write every page into DIR:

  compose2manifest man | man -l -
  compose2manifest man --dir /usr/local/share/man/man1

flags:
`

// ManDate is the date the manual pages carry: SOURCE_DATE_EPOCH in
// environ when set, else vcsTime (RFC 3339: the time of the commit the
// binary was built from), else the Unix epoch; never the clock, so a
// page is the same every time.
func ManDate(environ []string, vcsTime string) time.Time {
	for _, kv := range environ {
		if s, ok := strings.CutPrefix(kv, "SOURCE_DATE_EPOCH="); ok {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return time.Unix(n, 0)
			}
		}
	}
	if t, err := time.Parse(time.RFC3339, vcsTime); err == nil {
		return t
	}
	return time.Unix(0, 0)
}

// ManHeader is what the title line of every manual page says.
type ManHeader struct {
	// Date is the date the pages carry (the month and year are shown).
	Date time.Time
	// Source names the build: "compose2manifest v1.2.0".
	Source string
}

func (h ManHeader) doc(program string) *doc.GenManHeader {
	d := h.Date.UTC()
	return &doc.GenManHeader{Section: "1", Date: &d, Source: h.Source, Manual: program + " manual"}
}

// manTree is p's tree for the manual: each help text and flag usage
// is markdown, which the pages are rendered from.
func manTree(p Program) *cobra.Command {
	return tree(p, func(usage string) string { return escape(strings.ReplaceAll(usage, "`", "")) })
}

// Man writes the manual page, in roff, of p's command named command:
// p's own page (NAME(1), whose SEE ALSO names a page for each command)
// for "", else NAME-COMMAND(1).
func Man(w io.Writer, p Program, command string, h ManHeader) error {
	return man(w, manTree(p), command, h)
}

func man(w io.Writer, root *cobra.Command, command string, h ManHeader) error {
	c := root
	if command != "" {
		i := slices.IndexFunc(root.Commands(), func(c *cobra.Command) bool { return c.Name() == command && c.IsAvailableCommand() })
		if i < 0 {
			return fmt.Errorf("no manual page for command %q", command)
		}
		c = root.Commands()[i]
	}
	return doc.GenMan(c, h.doc(root.Name()), w)
}

// ManPages returns the file name of each manual page of p, its own
// first: "compose2manifest.1", "compose2manifest-check.1", …
func ManPages(p Program) []string {
	return manPages(manTree(p))
}

func manPages(root *cobra.Command) []string {
	out := []string{root.Name() + ".1"}
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			out = append(out, root.Name()+"-"+c.Name()+".1")
		}
	}
	return out
}

// WriteManPages writes every page of ManPages(p) into dir (relative to
// base when not absolute), made when it does not exist, and returns the
// paths written. A file there that is not a manual page of p (its first
// lines name another program, or none) is a person's, replaced only with
// force.
func WriteManPages(base, dir string, p Program, h ManHeader, force bool) ([]string, error) {
	root := manTree(p)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(base, dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, errors.New(dir + " is not a directory")
	}
	var written []string
	for i, name := range manPages(root) {
		command := ""
		if i > 0 {
			command = strings.TrimSuffix(strings.TrimPrefix(name, root.Name()+"-"), ".1")
		}
		var b strings.Builder
		if err := man(&b, root, command, h); err != nil {
			return written, err
		}
		p := filepath.Join(dir, name)
		ours := func(old []byte) bool {
			return bytes.HasPrefix(old, []byte(".nh\n.TH \""+strings.ToUpper(root.Name())))
		}
		if err := atomicfile.WriteOwned(p, []byte(b.String()), 0o644, force, "a manual page", ours); err != nil {
			return written, err
		}
		written = append(written, p)
	}
	return written, nil
}

// markdown turns a command's plain help text into the markdown the
// manual pages are rendered from: what markdown would read as markup is
// escaped, an indented line (an example) is kept as written, and a
// last "flags:" line is dropped.
func markdown(text string) string {
	text = strings.TrimSuffix(strings.TrimRight(text, "\n"), "flags:")
	var b strings.Builder
	code := false
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if strings.HasPrefix(line, " ") {
			if !code {
				b.WriteByte('\n') // a code block cannot continue a paragraph
			}
			code = true
			b.WriteString("    " + line + "\n")
			continue
		}
		code = false
		b.WriteString(escape(line) + "\n")
	}
	return b.String()
}

// escape escapes in s what markdown would read as markup.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>#|~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
