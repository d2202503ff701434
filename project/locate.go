package project

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/compose2manifest/compose2manifest/manifest"
)

// missingFileRE matches compose-go's error for a service's env_file or
// label_file that does not exist: the kind and the absolute path.
var missingFileRE = regexp.MustCompile(`^(env|label) file (\S+) not found: `)

// noFileRE matches the error of a file compose-go opens that does not
// exist (an include, its env_file, an extends.file): the absolute path.
var noFileRE = regexp.MustCompile(`^(?:open|stat) (\S+): no such file or directory`)

// composePathRE matches a key path of compose-go's errors
// (services.app.volumes.[0], volumes.data.driver_opts).
var composePathRE = regexp.MustCompile(`\b(?:services|volumes|networks|secrets|configs|models|include)\.[A-Za-z0-9_.\[\]-]*[A-Za-z0-9_\]]`)

// positionRE matches a message that starts with a position already.
var positionRE = regexp.MustCompile(`^[^\s:]+:\d+: `)

// locate returns a load error of compose-go with the position in the
// compose files that it is about, when the raw reading can tell and the
// message has none: a missing env_file or label_file at the entry that
// names it ("FILE:LINE: service "S": env file …"), any other message at
// the key path it names. err's message still holds this machine's paths
// (relativeError takes them out later).
func (l *Project) locate(err error) error {
	msg := err.Error()
	if positionRE.MatchString(msg) {
		return err
	}
	if m := missingFileRE.FindStringSubmatch(msg); m != nil {
		if pos, service, ok := l.fileRefPos(m[1]+"_file", m[2]); ok {
			msg = fmt.Sprintf("%s: service %q: %s", pos, service, msg)
			if m[1] == "env" {
				msg += " (docker compose refuses a missing env_file unless its entry says required: false)"
			}
			return &stableErr{msg: msg, err: err}
		}
		return err
	}
	if m := noFileRE.FindStringSubmatch(msg); m != nil {
		if ref, ok := l.raw.missing[m[1]]; ok {
			return &stableErr{msg: fmt.Sprintf("%s:%d: %s: %s", ref.file, ref.line, ref.what, msg), err: err}
		}
	}
	for _, p := range composePathRE.FindAllString(msg, -1) {
		if pos, ok := l.pathPos(p); ok {
			return &stableErr{msg: pos.String() + ": " + msg, err: err}
		}
	}
	return err
}

// fileRefPos returns the entry of a service's key (env_file, label_file)
// that names the file at abs, in the first compose file that has one.
func (l *Project) fileRefPos(key, abs string) (manifest.Pos, string, bool) {
	for _, f := range l.raw.files {
		base := f.workDir
		if f.extended {
			base = filepath.Dir(f.path)
		}
		for _, kv := range pairs(get(f.root, "services")) {
			for _, ref := range fileRefs(get(resolve(kv[1]), key)) {
				if resolveRef(base, f.subst(ref.Value)) == abs {
					return manifest.Pos{File: f.name, Line: ref.Line}, kv[0].Value, true
				}
			}
		}
	}
	return manifest.Pos{}, "", false
}

// pathPos returns the line of a compose-go key path (services.app.
// volumes.[0]) in the last compose file that writes it.
func (l *Project) pathPos(p string) (manifest.Pos, bool) {
	parts := strings.Split(p, ".")
	for i, part := range parts {
		parts[i] = strings.TrimSuffix(strings.TrimPrefix(part, "["), "]")
	}
	for i := len(l.raw.files) - 1; i >= 0; i-- {
		f := l.raw.files[i]
		if f.extended {
			continue
		}
		if line := nodeLine(f, parts); line > 0 {
			return manifest.Pos{File: f.name, Line: line}, true
		}
	}
	return manifest.Pos{}, false
}
