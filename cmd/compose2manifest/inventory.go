package main

import (
	"fmt"
	"io"
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

// inventoryFlags are inventory's flags.
type inventoryFlags struct {
	format, client                  string
	backup, logs, caches, excl, nul bool
	fl                              *pflag.FlagSet
}

// usageError returns what is wrong with the flags together, or "".
func (f *inventoryFlags) usageError() string {
	lists := len(slices.DeleteFunc([]bool{f.backup, f.caches, f.excl}, func(b bool) bool { return !b }))
	switch {
	case !slices.Contains(inventoryFormats, f.format):
		return fmt.Sprintf("--format %q: want %s", f.format, strings.Join(inventoryFormats, ", "))
	case lists > 1:
		return "--backup, --exclude and --exclude-caches print different lists; give one"
	case lists > 0 && f.fl.Changed("format"):
		return "--format goes with the table, not with --backup, --exclude or --exclude-caches"
	case f.nul && lists == 0:
		return "-0 needs --backup, --exclude or --exclude-caches"
	case f.logs && !f.backup && !f.excl:
		return "--logs needs --backup or --exclude"
	case f.fl.Changed("for") && !slices.Contains(inventory.Clients, inventory.Client(f.client)):
		return fmt.Sprintf("--for %q: want %s", f.client, joinClients())
	case f.fl.Changed("for") && !f.backup && !f.excl:
		return "--for goes with --backup or --exclude"
	case f.excl && f.client == "":
		return "--exclude needs --for " + joinClients() + ": each reads its exclude list as patterns, in a syntax of its own"
	case f.excl && f.nul:
		return "--exclude has no -0: restic's --exclude-file, tar's -X (which ignores --null) and borg's --exclude-from read one pattern a line"
	case f.backup && f.nul && f.client == string(inventory.Borg):
		return "--backup --for borg prints a patterns file, one line each, for borg create --patterns-from; it has no -0"
	case f.fl.NArg() == 0:
		return "no manifests"
	}
	return ""
}

// joinClients returns the clients --for takes, for a message.
func joinClients() string {
	var s []string
	for _, c := range inventory.Clients {
		s = append(s, string(c))
	}
	return strings.Join(s, ", ")
}

func runInventory(e *env, args []string) int {
	fl := pflag.NewFlagSet("inventory", pflag.ContinueOnError)
	f := &inventoryFlags{fl: fl}
	fl.StringVar(&f.format, "format", "text", "output `FORMAT`: text or json")
	fl.BoolVar(&f.backup, "backup", false, "print only the paths to back up, one a line (with --for borg: a borg patterns file)")
	fl.BoolVar(&f.logs, "logs", false, "with --backup or --exclude: back up logs too (the site's policy)")
	fl.BoolVar(&f.caches, "exclude-caches", false, "print only the cache directories (for CACHEDIR.TAG)")
	fl.BoolVar(&f.excl, "exclude", false, "print only the declared paths inside the --backup paths not to back up (cache, runtime, config; logs without --logs), as --for's exclude list")
	fl.StringVar(&f.client, "for", "", "with --exclude (needed) or --backup: write the list for `CLIENT`: restic, tar or borg")
	fl.BoolVarP(&f.nul, "null", "0", false, "with --backup or --exclude-caches: end each path with NUL, not a newline")
	u := cmdUsage{name: "inventory", synopsis: "inventory [flags] MANIFEST|DIR...", about: inventory.About, positional: true}
	if code, ok := parseFlags(e, fl, u, args); !ok {
		return code
	}
	if msg := f.usageError(); msg != "" {
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
	if err := f.write(e.stdout, inventory.Of(res.Manifests)); err != nil {
		errorf(e, "inventory: %v", err)
		return exitUsage
	}
	return exitOK
}

// write prints what the flags ask for.
func (f *inventoryFlags) write(w io.Writer, entries []inventory.Entry) error {
	client := inventory.Client(f.client)
	switch {
	case f.backup && client == inventory.Borg:
		lines, err := inventory.BorgPatterns(entries, f.logs)
		if err != nil {
			return err
		}
		return inventory.WriteList(w, lines, false)
	case f.backup:
		return inventory.WriteList(w, inventory.BackupPaths(entries, f.logs), f.nul)
	case f.caches:
		return inventory.WriteList(w, inventory.CacheDirectories(entries), f.nul)
	case f.excl:
		lines, err := inventory.ExcludeList(client, entries, f.logs)
		if err != nil {
			return err
		}
		return inventory.WriteList(w, lines, false)
	case f.format == "json":
		return inventory.WriteJSON(w, entries)
	}
	return inventory.WriteText(w, entries)
}
