package project

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/compose-spec/compose-go/v2/dotenv"
	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose2manifest/compose2manifest/internal/fsread"
)

// NormalizeName returns s as compose normalises a project name: lower
// case, only letters, digits, '_' and '-', none of the last two first.
func NormalizeName(s string) string { return loader.NormalizeProjectName(s) }

// LiteralName reads the compose files (absolute paths) without loading
// them and returns the project name they give, "" for none, and ok; ok
// is false when a quick look cannot tell: a file cannot be read, is not
// one block-style document of plain top-level keys, writes
// x-compose2manifest or a merge key at the top, or names the project
// other than with a literal (a variable, say). A later file's name wins,
// as compose-go reads them. The name is not normalised.
func LiteralName(files []string) (name string, ok bool) {
	for _, f := range files {
		data, err := fsread.File("compose file", f, MaxInputSize)
		if err != nil {
			return "", false
		}
		n, ok := plainTopLevel(data)
		if !ok {
			return "", false
		}
		if n != "" {
			name = n
		}
	}
	return name, true
}

// plainTopLevel reports whether data is one block-style YAML document
// (started by a line "---" or not) whose top-level keys are plain words, none of them x-compose2manifest
// or a merge key, and a name: among them, if any, a literal without
// variables; name is that literal ("" when there is none).
func plainTopLevel(data []byte) (name string, ok bool) {
	first := true // no key or marker yet: a lone "---" may start the one document
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimRight(line, "\r")
		if len(line) == 0 || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
			continue
		}
		if first && string(line) == "---" {
			first = false
			continue
		}
		first = false
		if v, found := bytes.CutPrefix(line, []byte("name:")); found {
			if name, ok = literalName(string(v)); !ok {
				return "", false
			}
			continue
		}
		for _, bad := range []string{"name ", "x-compose2manifest", "<<", "---", "...", "%", "{", "[", "\"", "'", "?", "&", "*", "!", "|", ">", "\ufeff"} {
			if bytes.HasPrefix(line, []byte(bad)) {
				return "", false
			}
		}
	}
	return name, true
}

// literalName returns the value of a top-level name: line (after the
// colon) when it is a plain or quoted literal without variables.
func literalName(v string) (string, bool) {
	v = strings.TrimSpace(v)
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	if v == "" || strings.ContainsAny(v, "$\"'\\{}[]&*!|>#:,%@`") {
		return "", false
	}
	return v, true
}

// DotEnvName returns the COMPOSE_PROJECT_NAME dir's .env sets ("" when it
// sets none, or sets it empty), read by compose-go's dotenv parser, and
// ok; ok is false when the .env cannot be read or parsed, refers to a
// variable, or sets another COMPOSE_ variable than COMPOSE_PROJECT_NAME
// and COMPOSE_PROFILES: those may change which files are read.
func DotEnvName(dir string) (name string, ok bool) {
	data, err := os.ReadFile(filepath.Join(dir, ".env"))
	switch {
	case os.IsNotExist(err):
		return "", true
	case err != nil || len(data) > MaxInputSize:
		return "", false
	case !bytes.Contains(data, []byte("COMPOSE_")):
		return "", true
	}
	refers := false
	vals, err := dotenv.UnmarshalBytesWithLookup(data, func(string) (string, bool) {
		refers = true
		return "", false
	})
	if err != nil || refers {
		return "", false
	}
	for k := range vals {
		if strings.HasPrefix(k, "COMPOSE_") && k != "COMPOSE_PROJECT_NAME" && k != "COMPOSE_PROFILES" {
			return "", false
		}
	}
	return vals["COMPOSE_PROJECT_NAME"], true
}
