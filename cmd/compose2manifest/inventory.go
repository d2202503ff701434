package main

import (
	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/inventory"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
	"github.com/spf13/pflag"
)

func runInventory(e *env, args []string) int {
	fl := pflag.NewFlagSet("inventory", pflag.ContinueOnError)
	var f inventory.Request
	fl.StringVar(&f.Format, "format", "text", "output `FORMAT`: text or json")
	fl.BoolVar(&f.Backup, "backup", false, "print only the paths to back up, one a line (with --for borg: a borg patterns file)")
	fl.BoolVar(&f.Logs, "logs", false, "with --backup or --exclude: back up logs too (the site's policy)")
	fl.BoolVar(&f.Caches, "exclude-caches", false, "print only the cache directories (for CACHEDIR.TAG)")
	fl.BoolVar(&f.Exclude, "exclude", false, "print only the declared paths inside the --backup paths not to back up (cache, runtime, config; logs without --logs), as --for's exclude list")
	fl.StringVar(&f.Client, "for", "", "with --exclude (needed) or --backup: write the list for `CLIENT`: restic, tar or borg")
	fl.BoolVarP(&f.Null, "null", "0", false, "with --backup or --exclude-caches: end each path with NUL, not a newline")
	u := cmdUsage{name: "inventory", synopsis: "inventory [flags] MANIFEST|DIR...", about: inventory.About, positional: true}
	if code, ok := parseFlags(e, fl, u, args); !ok {
		return code
	}
	f.FormatSet, f.ClientSet, f.Manifests = fl.Changed("format"), fl.Changed("for"), fl.NArg()
	if msg := f.Problem(); msg != "" {
		errorf(e, "inventory: %s", msg)
		if fl.NArg() == 0 && msg == "no manifests" {
			hintf(e, "name manifest files or directories of them: compose2manifest inventory out/")
		}
		return exitUsage
	}
	// check's reading, with no rules: bounded, strict, and the same
	// expansion of directories.
	res := check.Manifests(check.Config{Dir: e.dir, Rules: []*rules.Rule{}}, fl.Args())
	for _, err := range res.Errors {
		errorf(e, "inventory: %v", err)
	}
	for _, m := range res.Report.Modules {
		for _, d := range m.Diagnostics {
			errorf(e, "inventory: %v", &manifest.Error{Pos: d.Pos(), Msg: d.Message})
		}
	}
	if res.Unreadable() {
		hintf(e, "run compose2manifest check on the manifests")
		return exitUsage
	}
	if err := f.Write(e.stdout, inventory.Of(res.Manifests)); err != nil {
		errorf(e, "inventory: %v", err)
		return exitUsage
	}
	return exitOK
}
