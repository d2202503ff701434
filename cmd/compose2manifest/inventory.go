package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/inventory"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
	"github.com/spf13/pflag"
)

const inventoryAbout = `List every path the manifests declare, across modules: module, kind,
intent, owner, mode, and whether it is backed up (state and content are;
config is not, the module's repo is its backup; cache, runtime and host
paths are not; logs by policy). A DIR stands for the *.yaml and *.yml
files directly in it, as for check. The manifests are read, not judged:
run check for that.

--backup prints the paths to back up, one a line (NUL-terminated with -0),
a path inside another left out, for restic backup --files-from-verbatim
FILE (--files-from-raw with -0) and borg create --paths-from-stdin.
--exclude-caches prints the cache
directories, where a CACHEDIR.TAG makes restic, borg and tar
(--exclude-caches) leave them out of the backup of their parent.

Exit status: 0, or 2 for bad usage or a manifest that cannot be read.

flags:
`

// inventoryFormats are the values of inventory --format.
var inventoryFormats = []string{"text", "json"}

func runInventory(e *env, args []string) int {
	fl := pflag.NewFlagSet("inventory", pflag.ContinueOnError)
	format := fl.String("format", "text", "output `FORMAT`: text or json")
	backup := fl.Bool("backup", false, "print only the paths to back up, one a line")
	logs := fl.Bool("logs", false, "with --backup: back up logs too (the site's policy)")
	caches := fl.Bool("exclude-caches", false, "print only the cache directories (for CACHEDIR.TAG)")
	nul := fl.BoolP("null", "0", false, "with --backup or --exclude-caches: end each path with NUL, not a newline")
	u := cmdUsage{name: "inventory", synopsis: "inventory [flags] MANIFEST|DIR...", about: inventoryAbout, positional: true}
	if code, ok := parseFlags(e, fl, u, args); !ok {
		return code
	}
	switch {
	case !isOneOf(inventoryFormats, *format):
		errorf(e, "inventory: --format %q: want %s", *format, strings.Join(inventoryFormats, ", "))
		return exitUsage
	case *backup && *caches:
		errorf(e, "inventory: --backup and --exclude-caches print different lists; give one")
		return exitUsage
	case (*backup || *caches) && fl.Changed("format"):
		errorf(e, "inventory: --format goes with the table, not with --backup or --exclude-caches")
		return exitUsage
	case *nul && !*backup && !*caches:
		errorf(e, "inventory: -0 needs --backup or --exclude-caches")
		return exitUsage
	case *logs && !*backup:
		errorf(e, "inventory: --logs needs --backup")
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
		err = writeList(e.stdout, inventory.BackupPaths(entries, *logs), *nul)
	case *caches:
		err = writeList(e.stdout, inventory.CacheDirectories(entries), *nul)
	case *format == "json":
		err = writeInventoryJSON(e.stdout, entries)
	default:
		err = writeInventoryText(e.stdout, entries)
	}
	if err != nil {
		errorf(e, "inventory: %v", err)
		return exitUsage
	}
	return exitOK
}

// writeList writes paths as they are, byte for byte, each ended by a
// newline or a NUL. A declared path holds no control character
// (manifest.ValidPath), so a newline cannot split one.
func writeList(w io.Writer, paths []string, nul bool) error {
	end := "\n"
	if nul {
		end = "\x00"
	}
	var b strings.Builder
	for _, p := range paths {
		b.WriteString(p)
		b.WriteString(end)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// inventoryReport is what inventory --format json prints.
type inventoryReport struct {
	Version int               `json:"version"`
	Paths   []inventory.Entry `json:"paths"`
	// Backup and ExcludeCaches are what --backup (without --logs) and
	// --exclude-caches print.
	Backup        []string `json:"backup"`
	ExcludeCaches []string `json:"exclude_caches"`
}

func writeInventoryJSON(w io.Writer, entries []inventory.Entry) error {
	rep := inventoryReport{Version: 1, Paths: entries, Backup: inventory.BackupPaths(entries, false), ExcludeCaches: inventory.CacheDirectories(entries)}
	if rep.Paths == nil {
		rep.Paths = []inventory.Entry{}
	}
	if rep.Backup == nil {
		rep.Backup = []string{}
	}
	if rep.ExcludeCaches == nil {
		rep.ExcludeCaches = []string{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(rep)
}

// writeInventoryText writes the table, the path last so that a path with
// spaces stays readable.
func writeInventoryText(w io.Writer, entries []inventory.Entry) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "MODULE\tKIND\tINTENT\tOWNER\tMODE\tBACKUP\tPATH")
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return shown(s)
	}
	for _, en := range entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", shown(en.Module), en.Kind, dash(string(en.Intent)), dash(en.Owner), dash(en.Mode), en.Backup, shown(en.Path))
	}
	return tw.Flush()
}

// shown returns s for a terminal: as it is when it is valid UTF-8 with
// nothing but graphic characters and spaces, else Go-quoted, so no byte of
// a manifest can move the cursor or reorder the line.
func shown(s string) string {
	if utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool {
		return r != ' ' && (!unicode.IsGraphic(r) || unicode.Is(unicode.Bidi_Control, r))
	}) < 0 {
		return s
	}
	return strconv.QuoteToGraphic(s)
}
