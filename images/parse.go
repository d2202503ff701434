package images

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"path"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/compose2manifest/compose2manifest/manifest"
)

// Parse parses and validates a table file; name is used in error messages
// ("table.yaml" for the embedded table). The file is a YAML sequence of
// mappings with the keys repository, variant, path, kind, owner, mode,
// intent, source and note, every value a string.
//
// A row is rejected, with an *Error naming name:LINE, when: a key is unknown,
// repeated or missing (repository, path, kind, source are required); a value
// is not a string (an unquoted mode such as 0700 is an integer and is
// rejected); repository is empty or not written as ParseReference normalises
// it; variant is not "" or one of Variants; path is not absolute and clean;
// kind is not "directory" or "file"; owner is not "" or numeric "UID:GID";
// mode is not "" or 3 or 4 octal digits; intent is not "" or a valid intent;
// source is not an https URL; owner, mode and intent are all empty; or
// another row of the same repository, variant and path holds for one of
// its major versions (min_major, max_major).
func Parse(name string, data []byte) (*Table, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{File: name, Msg: "empty table"}
		}
		return nil, &Error{File: name, Msg: err.Error()}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		line := extra.Line
		if err != nil {
			return nil, &Error{File: name, Msg: err.Error()}
		}
		return nil, &Error{File: name, Line: line, Msg: "more than one YAML document"}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, &Error{File: name, Msg: "empty table"}
	}
	root := doc.Content[0]
	if root.Kind != yaml.SequenceNode {
		return nil, &Error{File: name, Line: root.Line, Msg: "the table must be a YAML sequence of rows"}
	}

	sum := sha256.Sum256(data)
	t := &Table{Rows: make([]Row, 0, len(root.Content)), Digest: hex.EncodeToString(sum[:])}
	seen := make(map[rowKey][]int, len(root.Content)) // indexes into t.Rows
	for _, item := range root.Content {
		if isImageRow(item) {
			ir, err := parseImageRow(name, item)
			if err != nil {
				return nil, err
			}
			t.Images = append(t.Images, ir)
			continue
		}
		r, err := parseRow(name, item)
		if err != nil {
			return nil, err
		}
		k := rowKey{r.Repository, r.Variant, r.Path}
		for _, i := range seen[k] {
			prev := &t.Rows[i]
			if prev.MinMajor == r.MinMajor && prev.MaxMajor == r.MaxMajor {
				return nil, &Error{File: name, Line: r.Line, Msg: fmt.Sprintf(
					"row for %s variant %q path %s repeats the row at line %d",
					r.Repository, r.Variant, r.Path, prev.Line)}
			}
			if overlap(prev, &r) {
				return nil, &Error{File: name, Line: r.Line, Msg: fmt.Sprintf(
					"row for %s variant %q path %s holds for major versions the row at line %d holds for too: give the two rows min_major and max_major that split the versions",
					r.Repository, r.Variant, r.Path, prev.Line)}
			}
		}
		seen[k] = append(seen[k], len(t.Rows))
		t.Rows = append(t.Rows, r)
	}
	t.index = newRowIndex(t.Rows)
	return t, nil
}

// rowKey is what two rows of the table that may hold for the same mount
// share; such rows must split the major versions between them.
type rowKey struct{ repository, variant, path string }

// overlap reports whether some major version is within the bounds of
// both a and b (MinMajor and MaxMajor; 0 leaves a side open).
func overlap(a, b *Row) bool {
	lo := func(r *Row) int { return r.MinMajor }
	hi := func(r *Row) int {
		if r.MaxMajor == 0 {
			return math.MaxInt
		}
		return r.MaxMajor
	}
	return max(lo(a), lo(b)) <= min(hi(a), hi(b))
}

// parseRow decodes and validates one row's mapping node.
func parseRow(name string, n *yaml.Node) (Row, error) {
	fail := func(line int, format string, args ...any) (Row, error) {
		return Row{}, &Error{File: name, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if n.Kind != yaml.MappingNode {
		return fail(n.Line, "a row must be a mapping")
	}
	r := Row{Line: n.Line}
	fields := map[string]*string{
		"repository": &r.Repository,
		"variant":    &r.Variant,
		"path":       &r.Path,
		"kind":       &r.Kind,
		"owner":      &r.Owner,
		"mode":       &r.Mode,
		"mode_basis": &r.ModeBasis,
		"source":     &r.Source,
		"note":       &r.Note,
		"path_from":  &r.PathFrom,
	}
	var intent string
	fields["intent"] = &intent
	lines := make(map[string]int, len(fields))

	// Lists of strings, each item checked.
	lists := map[string]struct {
		dst   *[]string
		valid func(string) bool
		want  string
	}{
		"accepted_modes": {&r.AcceptedModes, validMode, `must be 3 or 4 octal digits, such as "0750"`},
		"owner_unless":   {&r.OwnerUnless, envName, "is not a variable name (letters, digits and _, not first a digit)"},
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return fail(k.Line, "a row's keys must be plain names")
		}
		if k.Value == "max_major" || k.Value == "min_major" {
			if prev, dup := lines[k.Value]; dup {
				return fail(k.Line, "key %q repeats the one at line %d", k.Value, prev)
			}
			lines[k.Value] = k.Line
			n, err := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!int" || err != nil || n < 1 {
				return fail(v.Line, "%s must be a positive integer", k.Value)
			}
			if k.Value == "min_major" {
				r.MinMajor = n
			} else {
				r.MaxMajor = n
			}
			continue
		}
		if k.Value == "owner_every_version" {
			if prev, dup := lines[k.Value]; dup {
				return fail(k.Line, "key %q repeats the one at line %d", k.Value, prev)
			}
			lines[k.Value] = k.Line
			if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!bool" || v.Value != "true" {
				return fail(v.Line, "owner_every_version must be true, or left out")
			}
			r.OwnerEveryVersion = true
			continue
		}
		if l, ok := lists[k.Value]; ok {
			if prev, dup := lines[k.Value]; dup {
				return fail(k.Line, "key %q repeats the one at line %d", k.Value, prev)
			}
			lines[k.Value] = k.Line
			list, err := stringList(name, k.Value, v)
			if err != nil {
				return Row{}, err
			}
			for _, item := range list {
				if !l.valid(item) {
					return fail(v.Line, "%s: %q %s", k.Value, item, l.want)
				}
			}
			*l.dst = list
			continue
		}
		dst, ok := fields[k.Value]
		if !ok {
			return fail(k.Line, "unknown key %q", k.Value)
		}
		if prev, dup := lines[k.Value]; dup {
			return fail(k.Line, "key %q repeats the one at line %d", k.Value, prev)
		}
		lines[k.Value] = k.Line
		if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
			if k.Value == "mode" && v.Kind == yaml.ScalarNode && v.ShortTag() == "!!int" {
				return fail(v.Line, "mode %s is an integer: write it as a quoted string of 3 or 4 octal digits, such as \"0750\"", v.Value)
			}
			return fail(v.Line, "%s must be a string", k.Value)
		}
		*dst = v.Value
	}
	r.Intent = manifest.Intent(intent)

	at := func(key string) int {
		if l, ok := lines[key]; ok {
			return l
		}
		return r.Line
	}
	for _, key := range []string{"repository", "path", "kind", "source"} {
		if _, ok := lines[key]; !ok {
			return fail(r.Line, "row has no %s", key)
		}
	}

	if r.Repository == "" {
		return fail(at("repository"), "repository is empty")
	}
	if !validRepository(r.Repository) {
		repo, _ := ParseReference(r.Repository)
		return fail(at("repository"), "repository %q is not a normalised repository without tag, nor a family PREFIX/* (ParseReference gives %q)", r.Repository, repo)
	}
	if r.Variant != "" && !isVariant(r.Variant) {
		return fail(at("variant"), "unknown variant %q (want \"\" or one of %s)", r.Variant, strings.Join(Variants(), ", "))
	}
	if !path.IsAbs(r.Path) || path.Clean(r.Path) != r.Path {
		return fail(at("path"), "path %q must be absolute and clean", r.Path)
	}
	if r.Kind != string(manifest.KindDirectory) && r.Kind != string(manifest.KindFile) {
		return fail(at("kind"), "kind %q must be directory or file", r.Kind)
	}
	if r.Owner != "" {
		uid, gid, ok := strings.Cut(r.Owner, ":")
		if !ok || !allDigits(uid) || !allDigits(gid) {
			return fail(at("owner"), "owner %q must be numeric UID:GID", r.Owner)
		}
		for _, id := range []string{uid, gid} {
			if !manifest.ValidID(id) {
				return fail(at("owner"), "owner %q: id %s out of range (at most %d)", r.Owner, id, manifest.MaxID)
			}
		}
	}
	if r.Mode != "" && !validMode(r.Mode) {
		return fail(at("mode"), "mode %q must be 3 or 4 octal digits, such as \"0750\"", r.Mode)
	}
	switch {
	case r.ModeBasis != "" && r.Mode == "":
		return fail(at("mode_basis"), "mode_basis without a mode")
	case r.Mode != "" && r.ModeBasis == "":
		r.ModeBasis = ModeRequired
	case r.ModeBasis != "" && r.ModeBasis != ModeRequired && r.ModeBasis != ModeRecommended:
		return fail(at("mode_basis"), "mode_basis %q must be %s or %s", r.ModeBasis, ModeRequired, ModeRecommended)
	}
	if r.Intent != "" && !r.Intent.Valid() {
		return fail(at("intent"), "unknown intent %q", r.Intent)
	}
	if r.Source == "" {
		return fail(at("source"), "row for %s %s has no source", r.Repository, r.Path)
	}
	if u, err := url.Parse(r.Source); err != nil || u.Scheme != "https" || u.Host == "" || strings.ContainsAny(r.Source, " \t\n") {
		return fail(at("source"), "source %q must be an https URL", r.Source)
	}
	if len(r.AcceptedModes) > 0 && r.ModeBasis != ModeRequired {
		return fail(at("accepted_modes"), "accepted_modes needs a required mode")
	}
	if r.Owner == "" && r.Mode == "" && r.Intent == "" {
		return fail(r.Line, "row for %s %s gives no owner, mode or intent", r.Repository, r.Path)
	}
	if r.MinMajor > 0 && r.MaxMajor > 0 && r.MinMajor > r.MaxMajor {
		return fail(at("min_major"), "min_major %d is after max_major %d", r.MinMajor, r.MaxMajor)
	}
	if r.PathFrom != "" && !envName(r.PathFrom) {
		return fail(at("path_from"), "path_from: %q is not a variable name (letters, digits and _, not first a digit)", r.PathFrom)
	}
	if len(r.OwnerUnless) > 0 && r.Owner == "" {
		return fail(at("owner_unless"), "owner_unless needs an owner it holds unless the variables are set")
	}
	if r.OwnerEveryVersion && (r.Owner == "" || r.MaxMajor == 0) {
		return fail(at("owner_every_version"), "owner_every_version needs an owner and a max_major it reaches beyond")
	}
	return r, nil
}

// numericOwner reports whether s is "UID:GID", both decimal ids in range.
func numericOwner(s string) bool {
	uid, gid, ok := strings.Cut(s, ":")
	if !ok || !allDigits(uid) || !allDigits(gid) {
		return false
	}
	return manifest.ValidID(uid) && manifest.ValidID(gid)
}

// allDigits reports whether s is a non-empty run of ASCII digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// validMode reports whether s is 3 or 4 octal digits.
func validMode(s string) bool {
	if len(s) != 3 && len(s) != 4 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '7' {
			return false
		}
	}
	return true
}

// isImageRow reports whether a row's mapping states facts of the image as
// a whole (file_env:, volumes:) rather than of one in-container path.
func isImageRow(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i].Value; k == "file_env" || k == "volumes" || k == "owner_uid" || k == "owner_gid" || k == "owner_default" || k == "steps_down_for" {
			return true
		}
	}
	return false
}

// stringList decodes a YAML sequence of non-empty strings.
func stringList(name, key string, v *yaml.Node) ([]string, error) {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return nil, &Error{File: name, Line: v.Line, Msg: key + " must be a non-empty list of strings"}
	}
	var out []string
	for _, item := range v.Content {
		if item.Kind != yaml.ScalarNode || item.ShortTag() != "!!str" || item.Value == "" {
			return nil, &Error{File: name, Line: item.Line, Msg: key + " must be a non-empty list of strings"}
		}
		for _, prev := range out {
			if prev == item.Value {
				return nil, &Error{File: name, Line: item.Line, Msg: fmt.Sprintf("%s lists %q twice", key, item.Value)}
			}
		}
		out = append(out, item.Value)
	}
	return out, nil
}

// parseImageRow decodes and validates an image row: repository, an
// optional variant (left out: every variant), optional min_major and
// max_major, file_env (the variables whose VAR_FILE the image's entrypoint
// reads) or volumes (the VOLUME paths of its Dockerfile), one of the two,
// source and note.
func parseImageRow(name string, n *yaml.Node) (ImageRow, error) {
	fail := func(line int, format string, args ...any) (ImageRow, error) {
		return ImageRow{}, &Error{File: name, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	r := ImageRow{Line: n.Line, AnyVariant: true}
	lines := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if prev, dup := lines[k.Value]; dup {
			return fail(k.Line, "key %q repeats the one at line %d", k.Value, prev)
		}
		lines[k.Value] = k.Line
		switch k.Value {
		case "repository", "variant", "source", "note", "owner_uid", "owner_gid", "owner_default":
			if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
				return fail(v.Line, "%s must be a string", k.Value)
			}
			switch k.Value {
			case "repository":
				r.Repository = v.Value
			case "variant":
				r.Variant, r.AnyVariant = v.Value, false
			case "source":
				r.Source = v.Value
			case "owner_uid", "owner_gid":
				if !envName(v.Value) {
					return fail(v.Line, "%s: %q is not an environment variable name", k.Value, v.Value)
				}
				if k.Value == "owner_uid" {
					r.OwnerUID = v.Value
				} else {
					r.OwnerGID = v.Value
				}
			case "owner_default":
				if !numericOwner(v.Value) {
					return fail(v.Line, "owner_default %q must be numeric UID:GID", v.Value)
				}
				r.OwnerDefault = v.Value
			default:
				r.Note = v.Value
			}
		case "min_major", "max_major":
			n, err := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!int" || err != nil || n < 1 {
				return fail(v.Line, "%s must be a positive integer", k.Value)
			}
			if k.Value == "min_major" {
				r.MinMajor = n
			} else {
				r.MaxMajor = n
			}
		case "file_env", "volumes", "steps_down_for":
			list, err := stringList(name, k.Value, v)
			if err != nil {
				return ImageRow{}, err
			}
			if k.Value == "steps_down_for" {
				for _, a := range list {
					if a != "-" && (strings.HasPrefix(a, "-") || strings.ContainsAny(a, " \t\n")) {
						return fail(v.Line, "steps_down_for: %q is not a program name or \"-\"", a)
					}
				}
				r.StepsDownFor = list
			} else if k.Value == "file_env" {
				for _, e := range list {
					if !envName(e) {
						return fail(v.Line, "file_env: %q is not an environment variable name", e)
					}
				}
				r.FileEnv = list
			} else {
				for _, p := range list {
					if !path.IsAbs(p) || path.Clean(p) != p {
						return fail(v.Line, "volumes: %q must be absolute and clean", p)
					}
				}
				r.Volumes = list
			}
		default:
			return fail(k.Line, "unknown key %q in an image row (repository, variant, min_major, max_major, file_env, volumes, owner_uid and owner_gid, or steps_down_for, source, note)", k.Value)
		}
	}
	facts := 0
	for _, given := range []bool{r.FileEnv != nil, r.Volumes != nil, r.OwnerUID != "" || r.OwnerGID != "" || r.OwnerDefault != "", r.StepsDownFor != nil} {
		if given {
			facts++
		}
	}
	if facts != 1 {
		return fail(r.Line, "an image row gives one of file_env, volumes, owner_uid and owner_gid, or steps_down_for, not two: each has its own source")
	}
	if (r.OwnerUID == "") != (r.OwnerGID == "") || (r.OwnerDefault != "" && r.OwnerUID == "") {
		return fail(r.Line, "an image row with owner-changing variables gives both owner_uid and owner_gid (owner_default optional)")
	}
	if !validRepository(r.Repository) {
		return fail(r.Line, "repository %q is not a normalised repository without tag", r.Repository)
	}
	if !r.AnyVariant && r.Variant != "" && !isVariant(r.Variant) {
		return fail(lines["variant"], "unknown variant %q (want \"\" or one of %s)", r.Variant, strings.Join(Variants(), ", "))
	}
	if u, err := url.Parse(r.Source); err != nil || u.Scheme != "https" || u.Host == "" || strings.ContainsAny(r.Source, " \t\n") {
		return fail(r.Line, "row for %s: source %q must be an https URL", r.Repository, r.Source)
	}
	return r, nil
}

// validRepository reports whether a row's repository is written as
// ParseReference normalises it, without tag or digest, or is a family of
// such repositories: a normalised prefix followed by "/*" (Family).
func validRepository(repository string) bool {
	name := repository
	if prefix, ok := strings.CutSuffix(repository, "/*"); ok {
		if prefix == "" || strings.Contains(prefix, "*") {
			return false
		}
		name = prefix + "/x"
	}
	repo, tag := ParseReference(name)
	return repository != "" && repo == name && tag == "latest" && !strings.ContainsAny(name, "@ \t*")
}

// envName reports whether s is an environment variable name.
func envName(s string) bool {
	for i, c := range s {
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}
