package inventory

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Client names a backup program whose lists inventory writes in the
// syntax that program reads.
type Client string

// The clients --for names. Each reads an exclude list as patterns, in a
// syntax of its own, so each gets its own list; a backup list of plain
// paths is read literally by restic (--files-from-verbatim, or
// --files-from-raw for NUL-ended paths) and tar (--verbatim-files-from
// -T, --null for NUL-ended paths), while borg's --paths-from-stdin does
// not recurse into a directory, so borg gets a patterns file.
const (
	// Restic is restic backup: --exclude-file reads one pattern a line
	// (filepath.Match in each path component), trims white space around
	// it and expands $NAME from the environment.
	Restic Client = "restic"
	// Tar is GNU tar: -X reads one fnmatch pattern a line (newline only:
	// it ignores --null) and trims the white space that ends it.
	Tar Client = "tar"
	// Borg is borg create: --patterns-from and --exclude-from read one
	// line each with the white space around it removed; a pp: pattern is
	// a literal path prefix, an R line a path to back up.
	Borg Client = "borg"
)

// Clients are the values of --for.
var Clients = []Client{Restic, Tar, Borg}

// ClientNames returns the names of Clients, in their order.
func ClientNames() []string {
	var out []string
	for _, c := range Clients {
		out = append(out, string(c))
	}
	return out
}

// ResticPattern returns the restic --exclude-file line that matches p
// and nothing else: each of * ? [ \ escaped with a backslash, $ as [$]
// (restic expands $NAME, and a bracket keeps the dollar in every version),
// and a white-space rune that ends p in brackets, which restic's trimming
// would otherwise remove.
func ResticPattern(p string) string {
	return globPattern(p, true, unicode.IsSpace)
}

// TarPattern returns the GNU tar -X line that matches p and nothing else:
// each of * ? [ \ escaped with a backslash, and a space that ends p in
// brackets (tar trims ASCII white space at the end of a line; the other
// ASCII white space is control characters, which no declared path has).
func TarPattern(p string) string {
	return globPattern(p, false, func(r rune) bool { return r == ' ' })
}

// globPattern escapes p for a glob that reads \c as c; dollar says
// whether $ needs brackets, trimmed which rune would be trimmed at the end.
func globPattern(p string, dollar bool, trimmed func(rune) bool) string {
	last, size := utf8.DecodeLastRuneInString(p)
	body := p
	if trimmed(last) {
		body = p[:len(p)-size]
	}
	var b strings.Builder
	for _, r := range body {
		switch {
		case r == '*' || r == '?' || r == '[' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '$' && dollar:
			b.WriteString("[$]")
		default:
			b.WriteRune(r)
		}
	}
	if body != p {
		b.WriteByte('[')
		b.WriteRune(last)
		b.WriteByte(']')
	}
	return b.String()
}

// borgLines returns prefix+p for each of paths, or an error naming
// where the manifest declares a path that borg cannot read back from a
// line of a patterns or exclude file: borg removes the white space
// (Python's, that is Unicode's) that ends a line, and no escape keeps it.
func borgLines(entries []Entry, prefix string, paths []string) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		last, _ := utf8.DecodeLastRuneInString(p)
		if unicode.IsSpace(last) || unicode.Is(unicode.Zs, last) {
			return nil, fmt.Errorf("%s%q ends in white space, which borg removes from every line of a patterns file: name it on borg create's command line instead", where(entries, p), p)
		}
		out = append(out, prefix+p)
	}
	return out, nil
}

// where returns "FILE:LINE: " of the first entry declaring p, or "".
func where(entries []Entry, p string) string {
	for _, e := range entries {
		if e.Path == p && e.File != "" {
			return fmt.Sprintf("%s:%d: ", e.File, e.Line)
		}
	}
	return ""
}

// BorgPatterns returns a borg --patterns-from file that backs up
// BackupPaths (R PATH: borg recurses into each) less ExcludePaths (!
// pp:PATH: a literal path prefix, not entered at all), with the same logs,
// for borg create --patterns-from FILE REPO::NAME with no path on the
// command line.
func BorgPatterns(entries []Entry, logs bool) ([]string, error) {
	roots, err := borgLines(entries, "R ", BackupPaths(entries, logs))
	if err != nil {
		return nil, err
	}
	excl, err := borgLines(entries, "! pp:", ExcludePaths(entries, logs))
	if err != nil {
		return nil, err
	}
	return append(roots, excl...), nil
}

// ExcludeList returns ExcludePaths(entries, logs) in the syntax c reads.
func ExcludeList(c Client, entries []Entry, logs bool) ([]string, error) {
	paths := ExcludePaths(entries, logs)
	switch c {
	case Borg:
		// pp:PATH is a literal path prefix: PATH and all below it.
		return borgLines(entries, "pp:", paths)
	case Restic, Tar:
		esc := ResticPattern
		if c == Tar {
			esc = TarPattern
		}
		out := make([]string, len(paths))
		for i, p := range paths {
			out[i] = esc(p)
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown client %q", c)
}
