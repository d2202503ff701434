package inventory

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Formats are the values of inventory --format.
var Formats = []string{"text", "json"}

// Request is what one run of compose2manifest inventory asks for: the
// table (Format) or one list, and for whom.
type Request struct {
	// Format is text or json, for the table; FormatSet says --format
	// was given.
	Format    string
	FormatSet bool
	// Client is the --for value, "" for none; ClientSet says --for was
	// given.
	Client    string
	ClientSet bool
	// Backup, Caches and Exclude ask for a list instead of the table;
	// Logs counts logs as data to keep; Null ends each path with NUL.
	Backup, Logs, Caches, Exclude, Null bool
	// Manifests is the number of manifests or folders named.
	Manifests int
}

// Problem returns what is wrong with r's flags together, or "".
func (r Request) Problem() string {
	lists := len(slices.DeleteFunc([]bool{r.Backup, r.Caches, r.Exclude}, func(b bool) bool { return !b }))
	switch {
	case !slices.Contains(Formats, r.Format):
		return fmt.Sprintf("--format %q: want %s", r.Format, strings.Join(Formats, ", "))
	case lists > 1:
		return "--backup, --exclude and --exclude-caches print different lists; give one"
	case lists > 0 && r.FormatSet:
		return "--format goes with the table, not with --backup, --exclude or --exclude-caches"
	case r.Null && lists == 0:
		return "-0 needs --backup, --exclude or --exclude-caches"
	case r.Logs && !r.Backup && !r.Exclude:
		return "--logs needs --backup or --exclude"
	case r.ClientSet && !slices.Contains(Clients, Client(r.Client)):
		return fmt.Sprintf("--for %q: want %s", r.Client, joinClients())
	case r.ClientSet && !r.Backup && !r.Exclude:
		return "--for goes with --backup or --exclude"
	case r.Exclude && r.Client == "":
		return "--exclude needs --for " + joinClients() + ": each reads its exclude list as patterns, in a syntax of its own"
	case r.Exclude && r.Null:
		return "--exclude has no -0: restic's --exclude-file, tar's -X (which ignores --null) and borg's --exclude-from read one pattern a line"
	case r.Backup && r.Null && r.Client == string(Borg):
		return "--backup --for borg prints a patterns file, one line each, for borg create --patterns-from; it has no -0"
	case r.Manifests == 0:
		return "no manifests"
	}
	return ""
}

// joinClients returns the clients --for takes, for a message.
func joinClients() string {
	var s []string
	for _, c := range Clients {
		s = append(s, string(c))
	}
	return strings.Join(s, ", ")
}

// Write prints what r asks for of entries.
func (r Request) Write(w io.Writer, entries []Entry) error {
	client := Client(r.Client)
	switch {
	case r.Backup && client == Borg:
		lines, err := BorgPatterns(entries, r.Logs)
		if err != nil {
			return err
		}
		return WriteList(w, lines, false)
	case r.Backup:
		return WriteList(w, BackupPaths(entries, r.Logs), r.Null)
	case r.Caches:
		return WriteList(w, CacheDirectories(entries), r.Null)
	case r.Exclude:
		lines, err := ExcludeList(client, entries, r.Logs)
		if err != nil {
			return err
		}
		return WriteList(w, lines, false)
	case r.Format == "json":
		return WriteJSON(w, entries)
	}
	return WriteText(w, entries)
}
