package main

import (
	"fmt"
	"strings"

	"github.com/compose2manifest/compose2manifest/internal/version"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/compose2manifest/compose2manifest/schema"
	"github.com/spf13/pflag"
)

// runVersion prints the build's version line (see version.Info.String).
func runVersion(e *env, args []string) int {
	fl := pflag.NewFlagSet("version", pflag.ContinueOnError)
	u := cmdUsage{name: "version", synopsis: "version",
		about: "Print the module version and the VCS revision the binary was built from, as its build information says.\n",
		hint:  func(string) string { return "compose2manifest version takes no arguments" }}
	if code, ok := parseFlags(e, fl, u, args); !ok {
		return code
	}
	fmt.Fprintln(e.stdout, version.Get())
	return exitOK
}

// reportTool names this build in the JSON reports and SARIF.
func reportTool() *report.Tool {
	return &report.Tool{Name: "compose2manifest", Version: version.Get().Version, Revision: version.Get().Revision}
}

// runSchema prints one of the embedded JSON Schemas.
func runSchema(e *env, args []string) int {
	fl := pflag.NewFlagSet("schema", pflag.ContinueOnError)
	u := cmdUsage{name: "schema", synopsis: "schema declarations|manifest|report", positional: true, values: schema.Names(),
		about: `Print a JSON Schema (draft 2020-12): declarations (compose2manifest.yaml),
manifest (a module manifest) or report (what --format json prints). Editors
validate YAML against them: see docs/install.md, Schemas (yaml-language-server).
`}
	if code, ok := parseFlags(e, fl, u, args); !ok {
		return code
	}
	if fl.NArg() != 1 {
		errorf(e, "schema: want one of %s", strings.Join(schema.Names(), ", "))
		hintf(e, "compose2manifest schema declarations > compose2manifest.schema.json")
		return exitUsage
	}
	data, err := schema.Get(fl.Arg(0))
	if err != nil {
		errorf(e, "schema: %v", err)
		return exitUsage
	}
	e.stdout.Write(data)
	return exitOK
}
