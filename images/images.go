// Package images is the built-in table of well-known container images of
// SPEC section 6: for an image repository, tag variant and in-container path
// (a mount target), the owner, mode and intent the data there needs, each row
// with the source of its facts.
//
// The table is the embedded data file table.yaml, not Go code. Load parses
// and validates it on every call and returns a fresh *Table; Default
// parses it once per process and shares that read-only table.
package images

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/compose2manifest/compose2manifest/manifest"
)

// tableYAML is the embedded table. A string, so it cannot be modified.
//
//go:embed table.yaml
var tableYAML string

// TableFile is the name Load gives the embedded table in error messages.
const TableFile = "table.yaml"

// Row is one row of the table: the facts for one repository, variant and
// in-container path.
type Row struct {
	// Repository is the normalised image repository (see ParseReference):
	// "postgres", "grafana/grafana", "ghcr.io/immich-app/immich-server".
	Repository string
	// Variant is "" for the repository's default variant, or one of
	// Variants, matched against the tag by Variant.
	Variant string
	// Path is the absolute, clean in-container path the row describes.
	Path string
	// Kind is "directory" or "file".
	Kind string
	// Owner is "UID:GID", numeric, as the process in the container writes;
	// "" when the source does not establish it.
	Owner string
	// Mode is 3 or 4 octal digits the software requires (it refuses to run
	// otherwise); "" when there is no known requirement.
	Mode string
	// ModeBasis says why Mode is what it is: ModeRequired (the software
	// refuses to run otherwise; the default when a mode is given) or
	// ModeRecommended (the research's mode for a directory the image's
	// process owns, from the row's source; the software does not check it).
	ModeBasis string
	// MaxMajor, when not 0, is the last major version of the image the row
	// holds for: a tag whose leading number is larger, or that names no
	// version ("latest", "alpine"), matches no such row.
	MaxMajor int
	// Intent is what the data is (SPEC section 4); "" when not established.
	Intent manifest.Intent
	// Source is the https URL of the Dockerfile or documentation that states
	// the row's facts.
	Source string
	// Note is free text: why, and caveats.
	Note string
	// Line is the row's line in the table file.
	Line int
}

// The values of Row.ModeBasis.
const (
	ModeRequired    = "required"
	ModeRecommended = "recommended"
)

// Table is the table of well-known images.
type Table struct {
	// Rows are the rows in file order. No two share repository, variant and
	// path.
	Rows []Row
	// Digest is the lowercase hex sha256 of the bytes the table was
	// parsed from: a manifest's fingerprint records it.
	Digest string
}

// Error is a problem with one place in a table file.
type Error struct {
	// File is the name given to Parse ("table.yaml" for Load).
	File string
	// Line is the 1-based line, 0 when unknown.
	Line int
	// Msg says what is wrong.
	Msg string
}

// Error formats the error as FILE:LINE: MSG.
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Load parses and validates the embedded table. Every call parses afresh and
// returns a new *Table the caller may keep or change.
func Load() (*Table, error) {
	return Parse(TableFile, []byte(tableYAML))
}

// Default returns the embedded table, parsed the first time it is asked
// for in the process and shared from then on (a sync.Once). The table is
// read-only: Match never changes it, and callers must not either (Load
// gives a table of one's own). A process that never needs it never
// parses it: parsing is about half of a small project's conversion.
func Default() (*Table, error) {
	defaultOnce.Do(func() { defaultTable, defaultErr = Load() })
	return defaultTable, defaultErr
}

var (
	defaultOnce  sync.Once
	defaultTable *Table
	defaultErr   error
)

// Digest returns the lowercase hex sha256 of the embedded table, the
// Digest of the table Load returns, without parsing it.
func Digest() string {
	sum := sha256.Sum256([]byte(tableYAML))
	return hex.EncodeToString(sum[:])
}

// Match returns the row for the image reference ref mounted at the
// in-container path target, and whether one matched.
//
// The reference is split with ParseReference and its tag's variant found
// with Variant. A row matches when its repository and variant equal those
// exactly (a row for the default variant does not match an alpine tag, nor
// the other way round) and its path equals target once cleaned. A relative
// target matches nothing.
//
// A reference pinned by digest without a tag ("postgres@sha256:…") matches
// no row: the digest may name any variant, and the table's rows are per
// variant even for a repository with rows for one variant only (its other
// variants, such as grafana's ubuntu, are simply not described), so no row
// can be known to apply. A digest after a tag ("postgres:16@sha256:…")
// keeps the tag's variant and matches as the tag does. Give the tag with
// the digest to get the row.
func (t *Table) Match(ref, target string) (Row, bool) {
	if t == nil || !path.IsAbs(target) || untaggedDigest(ref) {
		return Row{}, false
	}
	target = path.Clean(target)
	repo, tag := ParseReference(ref)
	variant := Variant(repo, tag)
	for _, r := range t.Rows {
		if r.Repository == repo && r.Variant == variant && path.Clean(r.Path) == target {
			if r.MaxMajor > 0 {
				if major, ok := leadingMajor(tag); !ok || major > r.MaxMajor {
					continue
				}
			}
			return r, true
		}
	}
	return Row{}, false
}

// leadingMajor returns the number a tag starts with ("16" in
// "16.4-alpine"), and whether it starts with one.
func leadingMajor(tag string) (int, bool) {
	tag = strings.TrimPrefix(tag, "v")
	end := 0
	for end < len(tag) && tag[end] >= '0' && tag[end] <= '9' {
		end++
	}
	if end == 0 || end > 6 {
		return 0, false
	}
	n, err := strconv.Atoi(tag[:end])
	return n, err == nil
}
