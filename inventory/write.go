package inventory

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"github.com/compose2manifest/compose2manifest/internal/textsafe"
)

// WriteList writes paths as they are, byte for byte, each ended by a
// newline or a NUL. A declared path holds no control character
// (manifest.ValidPath), so a newline cannot split one.
func WriteList(w io.Writer, paths []string, nul bool) error {
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

// jsonReport is what inventory --format json prints.
type jsonReport struct {
	Version int     `json:"version"`
	Paths   []Entry `json:"paths"`
	// Backup and ExcludeCaches are what --backup (without --logs) and
	// --exclude-caches print.
	Backup        []string `json:"backup"`
	Exclude       []string `json:"exclude"`
	ExcludeCaches []string `json:"exclude_caches"`
}

// WriteJSON writes what inventory --format json prints: format version
// 1, every entry, and the paths --backup, --exclude and --exclude-caches
// print.
func WriteJSON(w io.Writer, entries []Entry) error {
	rep := jsonReport{Version: 1, Paths: entries, Backup: BackupPaths(entries, false), Exclude: ExcludePaths(entries, false), ExcludeCaches: CacheDirectories(entries)}
	if rep.Paths == nil {
		rep.Paths = []Entry{}
	}
	if rep.Backup == nil {
		rep.Backup = []string{}
	}
	if rep.Exclude == nil {
		rep.Exclude = []string{}
	}
	if rep.ExcludeCaches == nil {
		rep.ExcludeCaches = []string{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rep); err != nil {
		return err
	}
	// A CI log shows it raw: no "##[" and no bidirectional control.
	_, err := w.Write(textsafe.JSON(b.Bytes()))
	return err
}

// WriteText writes the table, the path last so that a path with
// spaces stays readable. No line of it is a workflow command of a CI
// runner (textsafe.GuardLines): a module named "::error::…" is shown
// "\x3a:error::…", and "##[" as "##\x5b".
func WriteText(w io.Writer, entries []Entry) error {
	var b strings.Builder
	if err := writeTable(&b, entries); err != nil {
		return err
	}
	_, err := io.WriteString(w, textsafe.GuardLines(b.String()))
	return err
}

func writeTable(w io.Writer, entries []Entry) error {
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
