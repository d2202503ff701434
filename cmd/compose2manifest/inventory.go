package main

import (
	"slices"
	"strings"

	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/inventory"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
	"github.com/spf13/pflag"
)

// inventoryFormats are the values of inventory --format.
var inventoryFormats = []string{"text", "json"}

func runInventory(e *env, args []string) int {
	fl := pflag.NewFlagSet("inventory", pflag.ContinueOnError)
	format := fl.String("format", "text", "output `FORMAT`: text or json")
	backup := fl.Bool("backup", false, "print only the paths to back up, one a line")
	logs := fl.Bool("logs", false, "with --backup: back up logs too (the site's policy)")
	caches := fl.Bool("exclude-caches", false, "print only the cache directories (for CACHEDIR.TAG)")
	excl := fl.Bool("exclude", false, "print only the declared paths inside the --backup paths not to back up (cache, runtime, config; logs without --logs), for the tool's exclude list")
	nul := fl.BoolP("null", "0", false, "with --backup, --exclude or --exclude-caches: end each path with NUL, not a newline")
	u := cmdUsage{name: "inventory", synopsis: "inventory [flags] MANIFEST|DIR...", about: inventory.About, positional: true}
	if code, ok := parseFlags(e, fl, u, args); !ok {
		return code
	}
	switch {
	case !slices.Contains(inventoryFormats, *format):
		errorf(e, "inventory: --format %q: want %s", *format, strings.Join(inventoryFormats, ", "))
		return exitUsage
	case len(slices.DeleteFunc([]bool{*backup, *caches, *excl}, func(b bool) bool { return !b })) > 1:
		errorf(e, "inventory: --backup, --exclude and --exclude-caches print different lists; give one")
		return exitUsage
	case (*backup || *caches || *excl) && fl.Changed("format"):
		errorf(e, "inventory: --format goes with the table, not with --backup, --exclude or --exclude-caches")
		return exitUsage
	case *nul && !*backup && !*caches && !*excl:
		errorf(e, "inventory: -0 needs --backup, --exclude or --exclude-caches")
		return exitUsage
	case *logs && !*backup && !*excl:
		errorf(e, "inventory: --logs needs --backup or --exclude")
		return exitUsage
	case fl.NArg() == 0:
		errorf(e, "inventory: no manifests")
		hintf(e, "name manifest files or directories of them: compose2manifest inventory out/")
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
	entries := inventory.Of(res.Manifests)
	var err error
	switch {
	case *backup:
		err = inventory.WriteList(e.stdout, inventory.BackupPaths(entries, *logs), *nul)
	case *caches:
		err = inventory.WriteList(e.stdout, inventory.CacheDirectories(entries), *nul)
	case *excl:
		err = inventory.WriteList(e.stdout, inventory.ExcludePaths(entries, *logs), *nul)
	case *format == "json":
		err = inventory.WriteJSON(e.stdout, entries)
	default:
		err = inventory.WriteText(e.stdout, entries)
	}
	if err != nil {
		errorf(e, "inventory: %v", err)
		return exitUsage
	}
	return exitOK
}
