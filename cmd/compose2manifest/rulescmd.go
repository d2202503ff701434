package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/compose2manifest/compose2manifest/rules"
	"github.com/spf13/pflag"
)

// runRules prints every rule, one per line: ID, severity and title.
func runRules(e *env, args []string) int {
	fl := pflag.NewFlagSet("rules", pflag.ContinueOnError)
	fl.SetOutput(e.stderr)
	fl.Usage = func() {
		fmt.Fprint(e.stderr, "usage: compose2manifest rules\n\nList every rule: ID, severity and title. Run compose2manifest explain ID for one rule's documentation.\n")
	}
	if code, ok := parseNoFlags(e, fl, "rules", args); !ok {
		return code
	}
	if fl.NArg() > 0 {
		errorf(e, "rules: unexpected argument %q", fl.Arg(0))
		hintf(e, "run compose2manifest explain %s for one rule's documentation", fl.Arg(0))
		return exitUsage
	}
	var b strings.Builder
	for _, r := range rules.All() {
		fmt.Fprintf(&b, "%s  %-7s  %s\n", r.ID, r.Severity, r.Title)
	}
	fmt.Fprint(e.stdout, b.String())
	return exitOK
}

// runExplain prints the ID, severity, title and documentation of each rule
// named.
func runExplain(e *env, args []string) int {
	fl := pflag.NewFlagSet("explain", pflag.ContinueOnError)
	fl.SetOutput(e.stderr)
	fl.Usage = func() {
		fmt.Fprint(e.stderr, "usage: compose2manifest explain ID...\n\nPrint a rule's documentation: what it finds, why it matters and how to fix it.\n")
	}
	if code, ok := parseNoFlags(e, fl, "explain", args); !ok {
		return code
	}
	if fl.NArg() == 0 {
		errorf(e, "explain: no rule named")
		hintf(e, "run compose2manifest rules to list the rules, then compose2manifest explain ID")
		return exitUsage
	}
	list := rules.All()
	var found []*rules.Rule
	for _, id := range fl.Args() {
		r := rules.Lookup(list, id)
		if r == nil {
			errorf(e, "explain: unknown rule %q", id)
			hintf(e, "run compose2manifest rules to list the rules")
			return exitUsage
		}
		found = append(found, r)
	}
	var b strings.Builder
	for i, r := range found {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s (%s): %s\n\n%s\n", r.ID, r.Severity, r.Title, strings.TrimSpace(r.Doc))
	}
	fmt.Fprint(e.stdout, b.String())
	return exitOK
}

// parseNoFlags parses the arguments of a command that takes no flags but
// --help. It reports false, with the exit code, when the command is done.
func parseNoFlags(e *env, fl *pflag.FlagSet, name string, args []string) (int, bool) {
	err := fl.Parse(args)
	switch {
	case err == nil:
		return 0, true
	case errors.Is(err, pflag.ErrHelp):
		return exitOK, false
	}
	errorf(e, "%s: %v", name, err)
	hintf(e, "run compose2manifest %s --help", name)
	return exitUsage, false
}
