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
	"iter"
	"path"
	"slices"
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
	// "postgres", "grafana/grafana", "ghcr.io/immich-app/immich-server";
	// or a family of them, "lscr.io/linuxserver/*" (Family).
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
	// MinMajor, when not 0, is the first major version of the image the
	// row holds for: a tag whose leading number is smaller, or that names
	// no version, matches no such row (Pi-hole's date tags, whose v6
	// images from 2025 on run as another user than the v5 ones).
	MinMajor int
	// Intent is what the data is (SPEC section 4); "" when not established.
	Intent manifest.Intent
	// Source is the https URL of the Dockerfile or documentation that states
	// the row's facts.
	Source string
	// Note is free text: why, and caveats.
	Note string
	// OwnerEveryVersion reports that Owner holds for every version of
	// the image, beyond MaxMajor and for a tag that names none: the
	// Dockerfile of each creates the user with that uid and gid
	// (postgres's 999:999, 70:70 on Alpine), though the mode or the
	// path's use changes (OutOfVersion, OwnerOutOfVersion).
	OwnerEveryVersion bool
	// AcceptedModes are, for a required mode, the other modes the
	// software accepts (PostgreSQL's 0750 beside 0700).
	AcceptedModes []string
	// OwnerUnless names variables that change Owner for this path alone
	// (docker-mailserver's DMS_VMAIL_UID for /var/mail): where a service
	// mounting it sets one to a value (empty is unset), Owner is no
	// evidence. Variables that change
	// the user of every path of the image are an image row's OwnerUID.
	OwnerUnless []string
	// PathFrom names a variable whose value, where the service sets it,
	// is the in-container path the row describes instead of Path
	// (postgres's PGDATA): MatchFor matches the row there.
	PathFrom string
	// At is set on a row MatchFor matched through PathFrom: the variable
	// and its value ("PGDATA=/var/lib/postgresql/data/pgdata"); "" for a
	// row of the table as read.
	At string
	// Line is the row's line in the table file.
	Line int
}

// Accepts reports whether the row's software accepts mode: its Mode or
// one of its AcceptedModes, compared as numbers ("700" is "0700").
func (r Row) Accepts(mode string) bool {
	want, err := strconv.ParseUint(mode, 8, 32)
	if err != nil {
		return false
	}
	for _, m := range append([]string{r.Mode}, r.AcceptedModes...) {
		if n, err := strconv.ParseUint(m, 8, 32); err == nil && n == want {
			return true
		}
	}
	return false
}

// ImageRow states facts of an image as a whole, not of one path: the
// variables whose VAR_FILE its entrypoint reads (FileEnv), or the VOLUME
// paths its Dockerfile declares (Volumes), with the source.
type ImageRow struct {
	Repository string
	// Variant is the tag variant the row holds for, unless AnyVariant.
	Variant    string
	AnyVariant bool
	// MinMajor and MaxMajor, when not 0, bound the major versions the
	// row holds for; a tag without a leading number matches neither.
	MinMajor, MaxMajor int
	// FileEnv are the variables VAR whose value the image's entrypoint
	// reads from the file VAR_FILE names (docker-library's file_env).
	FileEnv []string
	// Volumes are the paths the image's Dockerfile declares VOLUME.
	Volumes []string
	// OwnerUID and OwnerGID name the owner-changing variables the
	// image's entrypoint documents: it runs its process as the uid and
	// gid they give (linuxserver.io's PUID and PGID, gitea's USER_UID and
	// USER_GID), OwnerDefault ("UID:GID") where they are unset.
	OwnerUID, OwnerGID, OwnerDefault string
	// StepsDownFor are the first arguments of the container's command
	// for which the image's entrypoint, started as root (user: root or
	// 0:0), makes its data directories its own user's and runs the
	// software as that user (docker-library's "find ... ! -user postgres
	// -exec chown" then "exec gosu postgres"): the owner its path rows
	// give then holds under user: root too. "-" stands for any first
	// argument that is a flag, which the entrypoint prefixes with the
	// server's name. Not when the service sets entrypoint:.
	StepsDownFor []string
	Source       string
	Note         string
	Line         int
}

// Family reports whether a row's repository names a family of
// repositories: "lscr.io/linuxserver/*" holds for every repository
// directly under lscr.io/linuxserver.
func Family(repository string) bool { return strings.HasSuffix(repository, "/*") }

// repoMatches reports whether a row's repository, a repository or a
// family (Family), holds for the normalised repository repo.
func repoMatches(row, repo string) bool {
	if prefix, ok := strings.CutSuffix(row, "/*"); ok {
		rest, ok := strings.CutPrefix(repo, prefix)
		if !ok || !strings.HasPrefix(rest, "/") {
			return false
		}
		rest = rest[1:]
		return rest != "" && !strings.Contains(rest, "/")
	}
	return row == repo
}

// imageRef is an image reference as the image rows are matched against
// it, parsed once for all of them.
type imageRef struct {
	// digestOnly is set for a reference pinned by digest without a tag,
	// which no image row holds for.
	digestOnly               bool
	repository, tag, variant string
}

// parseImageRef parses ref for ImageRow.matches.
func parseImageRef(ref string) imageRef {
	if untaggedDigest(ref) {
		return imageRef{digestOnly: true}
	}
	repo, tag := ParseReference(ref)
	return imageRef{repository: repo, tag: tag, variant: Variant(repo, tag)}
}

// matches reports whether the row holds for the image reference ref.
func (r ImageRow) matches(ref imageRef) bool {
	if ref.digestOnly {
		return false
	}
	if !repoMatches(r.Repository, ref.repository) || (!r.AnyVariant && ref.variant != r.Variant) {
		return false
	}
	if r.MinMajor > 0 || r.MaxMajor > 0 {
		major, ok := leadingMajor(ref.tag)
		if !ok || (r.MinMajor > 0 && major < r.MinMajor) || (r.MaxMajor > 0 && major > r.MaxMajor) {
			return false
		}
	}
	return true
}

// FileEnv returns the image row saying the image ref reads variable from
// the file variable_FILE names, and whether there is one.
func (t *Table) FileEnv(ref, variable string) (ImageRow, bool) {
	if t == nil {
		return ImageRow{}, false
	}
	x := parseImageRef(ref)
	for _, r := range t.Images {
		if r.matches(x) {
			for _, v := range r.FileEnv {
				if v == variable {
					return r, true
				}
			}
		}
	}
	return ImageRow{}, false
}

// RunAs returns the owner ("UID:GID") the process of the image ref runs
// as by the owner-changing variables (ImageRow.OwnerUID, OwnerGID) that
// lookup finds set, with the row naming them and the variables set, as
// NAME=VALUE; a variable left unset takes its part of the row's
// OwnerDefault. ok is false when no row names such variables for ref,
// or lookup finds none of them set. A value set that is not a decimal
// uid or gid, or an unset one without a default, is an error: the owner
// is not known.
func (t *Table) RunAs(ref string, lookup func(string) (string, bool)) (owner string, row ImageRow, set []string, ok bool, err error) {
	if t == nil {
		return "", ImageRow{}, nil, false, nil
	}
	x := parseImageRef(ref)
	for _, r := range t.Images {
		if r.OwnerUID == "" || !r.matches(x) {
			continue
		}
		duid, dgid, _ := strings.Cut(r.OwnerDefault, ":")
		ids := [2]string{duid, dgid}
		for i, name := range []string{r.OwnerUID, r.OwnerGID} {
			v, has := lookup(name)
			if !has {
				continue
			}
			set = append(set, name+"="+v)
			if !allDigits(v) {
				return "", r, set, true, fmt.Errorf("%s=%s is not a numeric id", name, v)
			}
			if !manifest.ValidID(v) {
				return "", r, set, true, fmt.Errorf("%s=%s is out of range (at most %d)", name, v, manifest.MaxID)
			}
			ids[i] = v
		}
		if len(set) == 0 {
			return "", r, nil, false, nil
		}
		if ids[0] == "" || ids[1] == "" {
			return "", r, set, true, fmt.Errorf("%s leaves the other id unset, and the image table gives no default", strings.Join(set, ", "))
		}
		return ids[0] + ":" + ids[1], r, set, true, nil
	}
	return "", ImageRow{}, nil, false, nil
}

// StepsDown returns the image row saying that the entrypoint of the
// image ref, started as root with command (the service's command:, nil
// for the image's own), runs the software as the image's own user after
// making its data directories that user's (ImageRow.StepsDownFor), and
// whether there is one. A service that sets entrypoint: runs no such
// entrypoint: pass entrypointSet, and StepsDown reports false.
func (t *Table) StepsDown(ref string, command []string, entrypointSet bool) (ImageRow, bool) {
	if t == nil || entrypointSet {
		return ImageRow{}, false
	}
	x := parseImageRef(ref)
	for _, r := range t.Images {
		if r.StepsDownFor == nil || !r.matches(x) {
			continue
		}
		if len(command) == 0 {
			return r, true
		}
		for _, first := range r.StepsDownFor {
			if command[0] == first || first == "-" && strings.HasPrefix(command[0], "-") {
				return r, true
			}
		}
	}
	return ImageRow{}, false
}

// Volume is a VOLUME path of an image, with the row that states it.
type Volume struct {
	Path string
	Row  ImageRow
	// Unversioned is set when the tag names no major version and the
	// rows of the repository are bounded by one: the path is the VOLUME
	// of some versions, and which one runs is not known.
	Unversioned bool
}

// Volumes returns the VOLUME paths the image ref declares, as the table
// knows them, in table order. When no row matches because the tag names
// no major version (postgres, postgres:latest, postgres:alpine) while the
// repository's rows are bounded by one (postgres ≤17 /var/lib/postgresql/
// data, ≥18 /var/lib/postgresql), it returns the paths of every such row,
// each Unversioned: docker makes an anonymous volume at one of them. A
// reference pinned by digest alone (postgres@sha256:…) names no version
// nor variant: it returns the paths of every row of the repository, each
// Unversioned.
func (t *Table) Volumes(ref string) []Volume {
	if t == nil {
		return nil
	}
	var out []Volume
	x := parseImageRef(ref)
	for _, r := range t.Images {
		if r.matches(x) {
			for _, p := range r.Volumes {
				out = append(out, Volume{Path: p, Row: r})
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	repo, tag := ParseReference(ref)
	digest := untaggedDigest(ref)
	if _, versioned := leadingMajor(tag); versioned && !digest {
		return nil
	}
	for _, r := range t.Images {
		if len(r.Volumes) == 0 || !repoMatches(r.Repository, repo) {
			continue
		}
		// A digest alone may name any version and any variant: every
		// row's VOLUME may be the one.
		if !digest && ((r.MinMajor == 0 && r.MaxMajor == 0) || (!r.AnyVariant && Variant(repo, tag) != r.Variant)) {
			continue
		}
		for _, p := range r.Volumes {
			if !slices.ContainsFunc(out, func(v Volume) bool { return v.Path == p }) {
				out = append(out, Volume{Path: p, Row: r, Unversioned: true})
			}
		}
	}
	return out
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
	// Images are the image rows (file_env:, volumes:) in file order.
	Images []ImageRow
	// Digest is the lowercase hex sha256 of the bytes the table was
	// parsed from: a manifest's fingerprint records it.
	Digest string

	// index finds the rows for a repository and path without a scan of
	// them all; Parse builds it, a table built otherwise has none.
	index *rowIndex
}

// rowIndex lists, in file order, the indexes into Table.Rows of the
// rows of each repository and path, and of each family row by path: a
// superset of the rows that may hold for an image at a target. It was
// built over the first n rows, and is not used once Rows has another
// length.
type rowIndex struct {
	n        int
	exact    map[[2]string][]int
	family   map[string][]int
	pathFrom []int
}

// newRowIndex indexes rows, whose paths Parse has checked are clean.
func newRowIndex(rows []Row) *rowIndex {
	ix := &rowIndex{n: len(rows), exact: map[[2]string][]int{}, family: map[string][]int{}}
	for i, r := range rows {
		if r.PathFrom != "" {
			ix.pathFrom = append(ix.pathFrom, i)
		}
		if Family(r.Repository) {
			ix.family[r.Path] = append(ix.family[r.Path], i)
		} else {
			ix.exact[[2]string{r.Repository, r.Path}] = append(ix.exact[[2]string{r.Repository, r.Path}], i)
		}
	}
	return ix
}

// candidates yields, in file order, the index of every row that may hold
// for repository repo at the clean path target: those the index lists,
// or every row when the table has no index (or Rows changed since).
func (t *Table) candidates(repo, target string) iter.Seq[int] {
	return func(yield func(int) bool) {
		ix := t.index
		if ix == nil || ix.n != len(t.Rows) {
			for i := range t.Rows {
				if !yield(i) {
					return
				}
			}
			return
		}
		a, b := ix.exact[[2]string{repo, target}], ix.family[target]
		for len(a) > 0 || len(b) > 0 {
			var i int
			if len(b) == 0 || len(a) > 0 && a[0] < b[0] {
				i, a = a[0], a[1:]
			} else {
				i, b = b[0], b[1:]
			}
			if !yield(i) {
				return
			}
		}
	}
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

// Default returns the embedded table, made the first time it is asked
// for in the process and shared from then on (a sync.Once). The table is
// read-only: Match never changes it, and callers must not either (Load
// gives a table of one's own). Its rows are the Go values table_gen.go
// holds, generated from table.yaml (TestGeneratedTable holds them to
// what Load parses), so a process does not parse the YAML, 20 ms and
// more, most of a small project's conversion; where table.yaml was
// changed and table_gen.go not made again, Default parses it.
func Default() (*Table, error) {
	defaultOnce.Do(func() { defaultTable, defaultErr = defaultTableOf() })
	return defaultTable, defaultErr
}

// defaultTableOf returns a table of the generated rows, or the parsed
// table.yaml when they were made from another one.
func defaultTableOf() (*Table, error) { return generatedOr(generatedDigest) }

// generatedOr returns a table of the generated rows when made is the
// digest of the embedded table they were made from, else Load's.
func generatedOr(made string) (*Table, error) {
	if made != Digest() {
		return Load()
	}
	return &Table{Rows: generatedRows, Images: generatedImages, Digest: generatedDigest, index: newRowIndex(generatedRows)}, nil
}

var (
	defaultOnce  sync.Once
	defaultTable *Table
	defaultErr   error
)

// Digest returns the lowercase hex sha256 of the embedded table, the
// Digest of the table Load returns, without parsing it; computed once per
// process (every manifest a re-check holds compares it).
func Digest() string { return tableDigest() }

var tableDigest = sync.OnceValue(func() string {
	sum := sha256.Sum256([]byte(tableYAML))
	return hex.EncodeToString(sum[:])
})

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
	// A row for the repository itself wins over a family's row: the
	// first family row that holds is kept until no row of the repository
	// itself does.
	family := -1
	for i := range t.candidates(repo, target) {
		r := &t.Rows[i]
		if r.Variant != variant || !repoMatches(r.Repository, repo) || path.Clean(r.Path) != target {
			continue
		}
		if !r.holdsFor(tag) {
			continue
		}
		if !Family(r.Repository) {
			return *r, true
		}
		if family < 0 {
			family = i
		}
	}
	if family >= 0 {
		return t.Rows[family], true
	}
	return Row{}, false
}

// MatchFor is Match for a service whose environment lookup reads: where
// no row matches target, a row of the image whose PathFrom variable the
// service sets to target matches, with At saying so. lookup may be nil.
func (t *Table) MatchFor(ref, target string, lookup func(string) (string, bool)) (Row, bool) {
	if r, ok := t.Match(ref, target); ok || lookup == nil || !path.IsAbs(target) {
		return r, ok
	}
	target = path.Clean(target)
	for _, i := range t.pathFrom() {
		r := &t.Rows[i]
		v, set := lookup(r.PathFrom)
		if !set || !path.IsAbs(v) || path.Clean(v) != target {
			continue
		}
		// The row Match gives the image at the row's own path: the same
		// row, so its repository, variant and versions hold for ref.
		if m, ok := t.Match(ref, r.Path); ok && m.Line == r.Line {
			m.At = r.PathFrom + "=" + v
			return m, true
		}
	}
	return Row{}, false
}

// pathFrom returns the indexes of the rows with a PathFrom, in file order.
func (t *Table) pathFrom() []int {
	if t.index != nil && t.index.n == len(t.Rows) {
		return t.index.pathFrom
	}
	var out []int
	for i := range t.Rows {
		if t.Rows[i].PathFrom != "" {
			out = append(out, i)
		}
	}
	return out
}

// OwnerChangedBy returns the first of the row's OwnerUnless variables
// that lookup finds set to a value, with the value, and whether there is
// one: the row's Owner then does not hold. An empty value is unset, as
// ${VAR:=default} reads it.
func (r Row) OwnerChangedBy(lookup func(string) (string, bool)) (name, value string, ok bool) {
	for _, v := range r.OwnerUnless {
		if val, set := lookup(v); set && val != "" {
			return v, val, true
		}
	}
	return "", "", false
}

// Named returns the row as messages cite it: its repository and path,
// and where MatchFor matched it through PathFrom, the variable
// ("postgres /var/lib/postgresql/data at PGDATA=/srv/pg").
func (r Row) Named() string {
	if r.At != "" {
		return r.Repository + " " + r.Path + " at " + r.At
	}
	return r.Repository + " " + r.Path
}

// holdsFor reports whether the row's major-version bounds (MinMajor,
// MaxMajor) admit tag: a bounded row needs a tag with a leading number
// within them.
func (r *Row) holdsFor(tag string) bool {
	if r.MinMajor == 0 && r.MaxMajor == 0 {
		return true
	}
	major, ok := leadingMajor(tag)
	return ok && (r.MinMajor == 0 || major >= r.MinMajor) && (r.MaxMajor == 0 || major <= r.MaxMajor)
}

// OutOfVersion returns the row Match would return for ref at target but
// for the row's major-version bounds (MinMajor, MaxMajor): the tag names no major
// version ("alpine", "latest"), or one outside them. It is how a refusal says
// why an image's row gave no evidence; ok is false when no such row
// exists or Match matches.
func (t *Table) OutOfVersion(ref, target string) (Row, bool) {
	if t == nil || !path.IsAbs(target) || untaggedDigest(ref) {
		return Row{}, false
	}
	if _, ok := t.Match(ref, target); ok {
		return Row{}, false
	}
	target = path.Clean(target)
	repo, tag := ParseReference(ref)
	variant := Variant(repo, tag)
	for i := range t.candidates(repo, target) {
		if r := &t.Rows[i]; (r.MinMajor > 0 || r.MaxMajor > 0) && r.Variant == variant && repoMatches(r.Repository, repo) && path.Clean(r.Path) == target {
			return *r, true
		}
	}
	return Row{}, false
}

// OwnerOutOfVersion returns the row OutOfVersion returns for ref at
// target when that row's owner holds for every version
// (Row.OwnerEveryVersion): its Owner is the owner there whatever version
// runs, though its mode and intent are not known to be.
func (t *Table) OwnerOutOfVersion(ref, target string) (Row, bool) {
	row, ok := t.OutOfVersion(ref, target)
	if !ok || !row.OwnerEveryVersion || row.Owner == "" {
		return Row{}, false
	}
	return row, true
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
