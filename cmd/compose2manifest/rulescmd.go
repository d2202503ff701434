package main

import (
	"fmt"

	"github.com/compose2manifest/compose2manifest/rules"
	"github.com/spf13/pflag"
)

// runRules prints every rule: a line with its ID, severity and title, and
// an indented line with the scopes it runs in (project, module, modules,
// against: see rules.Scope).
func runRules(e *env, args []string) int {
	fl := pflag.NewFlagSet("rules", pflag.ContinueOnError)
	u := cmdUsage{name: "rules", synopsis: "rules",
		about: "List every rule: ID, severity and title, then the scopes it runs in. Run compose2manifest explain ID for one rule's documentation.\n",
		hint: func(arg string) string {
			return fmt.Sprintf("run compose2manifest explain %s for one rule's documentation", arg)
		}}
	if code, ok := parseFlags(e, fl, u, args); !ok {
		return code
	}
	fmt.Fprint(e.stdout, rules.ListText())
	return exitOK
}

// runExplain prints the ID, severity, title and documentation of each rule
// named.
func runExplain(e *env, args []string) int {
	fl := pflag.NewFlagSet("explain", pflag.ContinueOnError)
	u := cmdUsage{name: "explain", synopsis: "explain [ID...]", positional: true, values: rules.IDs(),
		about: "Print a rule's documentation: what it finds, why it matters and how to fix it. Without an ID, list the rules, as compose2manifest rules does.\n"}
	if code, ok := parseFlags(e, fl, u, args); !ok {
		return code
	}
	if fl.NArg() == 0 {
		fmt.Fprint(e.stdout, rules.ListText()+"\nRun compose2manifest explain ID for one rule's documentation.\n")
		return exitOK
	}
	text, err := rules.ExplainText(fl.Args())
	if err != nil {
		errorf(e, "explain: %v", err)
		hintf(e, "run compose2manifest rules to list the rules")
		return exitUsage
	}
	fmt.Fprint(e.stdout, text)
	return exitOK
}
