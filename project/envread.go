package project

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/compose-spec/compose-go/v2/dotenv"
	"github.com/compose2manifest/compose2manifest/internal/fsread"
	"github.com/compose2manifest/compose2manifest/manifest"
)

// envRead is an env file as read once: its bytes, and the version of
// the file they were read from.
type envRead struct {
	data []byte
	id   fsread.ID
}

// envReads holds the env files this package read during one Load, by
// absolute path, so that each is read once: by the first pass, the
// second, an include's environment and Inputs alike. (The ones compose-go
// reads itself, an include's env files and a service's env_file, it reads
// by path again: it has no way to be handed them.)
type envReads map[string]envRead

// getEnv is compose-go's dotenv.GetEnvFromFile(current, files), with its
// errors, but a file this load read before is parsed from the bytes read
// then instead of being read again. Each file's variables may refer to
// current's and to those of the files before it.
func (r envReads) getEnv(current map[string]string, files []string) (map[string]string, error) {
	env := make(map[string]string)
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return env, err
		}
		data, err := r.read(abs)
		if err != nil {
			return env, err
		}
		err = dotenv.ParseWithFormat(bytes.NewReader(data), abs, env, func(k string) (string, bool) {
			if v, ok := current[k]; ok {
				return v, true
			}
			v, ok := env[k]
			return v, ok
		}, "")
		if err != nil {
			return env, err
		}
	}
	return env, nil
}

// read returns the bytes of the env file at abs, read the first time it
// is asked for, with GetEnvFromFile's errors. The version recorded is the
// one found before the read: a write during the read leaves a version
// Inputs' check (fsread.Same) refuses.
func (r envReads) read(abs string) ([]byte, error) {
	if e, ok := r[abs]; ok {
		return e.data, nil
	}
	fi, err := os.Stat(abs)
	if os.IsNotExist(err) {
		return nil, fmt.Errorf("couldn't find env file: %s", abs)
	}
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory", abs)
	}
	data, err := os.ReadFile(abs)
	if os.IsNotExist(err) {
		return nil, fmt.Errorf("couldn't read env file: %s", abs)
	}
	if err != nil {
		return nil, err
	}
	r[abs] = envRead{data: data, id: fsread.IDOf(fi)}
	return data, nil
}

// unset returns the uses of variables, in the env files compose-go reads
// for interpolation (files, read before by getEnv), that neither current
// nor an earlier variable of those files sets: dotenv expands $VAR in a
// value from them and makes an unset one empty, as docker compose warns
// ("The "B" variable is not set"), whether or not the compose file uses
// the variable the value is of. rel names a file as diagnostics do. Each
// use is at the first line of its file that refers to the variable
// (envUnset), with Path the variable that line sets. A file that does
// not parse gives none: the load reports it.
func (r envReads) unset(current map[string]string, files []string, rel func(string) string) []VariableUse {
	var out []VariableUse
	env := make(map[string]string)
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return out
		}
		data, err := r.read(abs)
		if err != nil {
			return out
		}
		uses, err := envUnset(data, abs, "", env, func(k string) (string, bool) {
			if v, ok := current[k]; ok {
				return v, true
			}
			v, ok := env[k]
			return v, ok
		})
		if err != nil {
			return out
		}
		for _, u := range uses {
			key, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(u.text), "export "), "=")
			out = append(out, VariableUse{Name: u.name, Pos: manifest.Pos{File: rel(abs), Line: u.line}, Path: []string{strings.TrimSpace(key)}})
		}
	}
	return out
}

// envLineUse is a variable an env file's value uses that nothing sets,
// at the first line (1-based) that uses it bare, with that line's text.
type envLineUse struct {
	name string
	line int
	text string
}

// envUnset parses the env file data (at path, in format, its variables
// set into into) with lookup for the variables its values refer to, as
// dotenv does, and returns each variable lookup does not find, in the
// order dotenv asked, at the first line that uses it bare: ${K:-default}
// and ${K:+alt} are no unset use, and ${K:?message} stops the load itself.
// A variable no line uses bare is left out. The error is dotenv's.
func envUnset(data []byte, path, format string, into map[string]string, lookup func(string) (string, bool)) ([]envLineUse, error) {
	var missed []string
	err := dotenv.ParseWithFormat(bytes.NewReader(data), path, into, func(k string) (string, bool) {
		v, ok := lookup(k)
		if !ok && !slices.Contains(missed, k) {
			missed = append(missed, k)
		}
		return v, ok
	}, format)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(data), "\n")
	var out []envLineUse
	for _, k := range missed {
		for i, line := range lines {
			if usedBare(line, k) {
				out = append(out, envLineUse{name: k, line: i + 1, text: line})
				break
			}
		}
	}
	return out, nil
}
