package project

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/format"
	"github.com/compose-spec/compose-go/v2/template"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose-spec/compose-go/v2/utils"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/internal/fsread"
	"github.com/compose2manifest/compose2manifest/manifest"
	"go.yaml.in/yaml/v3"
)

// Subst interpolates s with the project's environment, as compose does,
// or returns it as it is when that fails.
func (p *Project) Subst(s string) string { return substitute(s, p.Environment) }

// Written reports whether s appears, as written before interpolation, in
// a compose file the project was read from (the -f files and those they
// include or extend): text a value interpolated from a variable has, and
// the file does not.
func (p *Project) Written(s string) bool {
	if p.raw == nil {
		return false
	}
	for _, f := range p.raw.files {
		if f.contains([]byte(s)) {
			return true
		}
	}
	return false
}

// substitute interpolates s with env as compose-go does, or returns s as
// it is when that fails.
func substitute(s string, env map[string]string) string {
	v, err := template.SubstituteWithOptions(s, func(k string) (string, bool) { v, ok := env[k]; return v, ok }, template.WithoutLogging)
	if err != nil {
		return s
	}
	return v
}

// ServiceDef is one definition of a service in one compose file, as
// written: a project's service may be defined in several files (an
// override, the base of an extends), each a ServiceDef.
type ServiceDef struct {
	file *rawFile
	node *yaml.Node
}

// ServiceDefs returns the definitions of a service in file order, each
// preceded by the definitions it extends (from the file extends.file
// names, or its own). Later definitions override earlier ones.
func (p *Project) ServiceDefs(service string) []ServiceDef {
	defs := p.serviceDefs(service)
	out := make([]ServiceDef, len(defs))
	for i, d := range defs {
		out[i] = ServiceDef(d)
	}
	return out
}

// File returns the compose file of the definition, relative to the
// project directory.
func (d ServiceDef) File() string { return d.file.name }

// Pos returns the position of key in the definition, or of the
// definition itself when key is empty or not written there.
func (d ServiceDef) Pos(key string) manifest.Pos { return rawService(d).pos(key) }

// Writes reports whether the definition writes key (merge keys applied).
func (d ServiceDef) Writes(key string) bool { return keyNode(d.node, key) != nil }

// EnvPos returns the line that sets variable name in the definition's
// environment:, in its mapping or list form.
func (d ServiceDef) EnvPos(name string) (manifest.Pos, bool) {
	env := get(d.node, "environment")
	if env == nil {
		return manifest.Pos{}, false
	}
	if k := keyNode(env, name); k != nil {
		return manifest.Pos{File: d.file.name, Line: k.Line}, true
	}
	for _, item := range seqItems(env) {
		if k, _, _ := strings.Cut(scalar(item), "="); k == name {
			return manifest.Pos{File: d.file.name, Line: item.Line}, true
		}
	}
	return manifest.Pos{}, false
}

// EnvSource returns the variable of the project environment that the
// definition's environment: entry for name is written as: exactly one
// reference, $VAR or ${VAR} with or without a default or an error
// (${VAR:-x}, ${VAR?err}); ok is false for a literal, for text around the
// reference, and when the definition does not set name. An entry with no
// value (- VAR, or VAR: with nothing after it) takes the variable of the
// same name, as compose does, and returns name.
func (d ServiceDef) EnvSource(name string) (string, bool) {
	env := get(d.node, "environment")
	if env == nil {
		return "", false
	}
	raw, found := "", false
	if _, v := lookup(env, name); v != nil {
		if v = resolve(v); v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return name, true
		}
		raw, found = scalar(v), true
	}
	for _, item := range seqItems(env) {
		k, v, ok := strings.Cut(scalar(item), "=")
		if k != name {
			continue
		}
		if !ok {
			return name, true
		}
		raw, found = v, true
	}
	if !found {
		return "", false
	}
	return singleReference(strings.TrimSpace(raw))
}

// singleReference returns VAR when s is $VAR or ${VAR…} and nothing else.
func singleReference(s string) (string, bool) {
	body, ok := strings.CutPrefix(s, "$")
	if !ok {
		return "", false
	}
	braced := strings.HasPrefix(body, "{")
	if braced {
		if !strings.HasSuffix(body, "}") || strings.Count(body, "{") != 1 || strings.Count(body, "}") != 1 {
			return "", false
		}
		body = body[1 : len(body)-1]
	}
	end := 0
	for end < len(body) && (body[end] == '_' || body[end] >= 'A' && body[end] <= 'Z' || body[end] >= 'a' && body[end] <= 'z' || end > 0 && body[end] >= '0' && body[end] <= '9') {
		end++
	}
	if end == 0 {
		return "", false
	}
	rest := body[end:]
	if !braced && rest != "" {
		return "", false
	}
	if rest != "" && !strings.HasPrefix(rest, ":-") && !strings.HasPrefix(rest, "-") && !strings.HasPrefix(rest, ":?") && !strings.HasPrefix(rest, "?") {
		return "", false
	}
	return body[:end], true
}

// FieldUse is a key a definition writes, named by its dotted path
// ("deploy.placement"), with its position.
type FieldUse struct {
	Name string
	Pos  manifest.Pos
}

// Fields returns the keys the definition writes, in the order written,
// merge keys applied; x- extension keys are left out. For a key where
// descend returns true, the keys below it are returned instead, named
// KEY.SUBKEY.
func (d ServiceDef) Fields(descend func(name string) bool) []FieldUse {
	return fieldsOf(d.file, d.node, "", descend)
}

func fieldsOf(f *rawFile, n *yaml.Node, prefix string, descend func(string) bool) []FieldUse {
	var out []FieldUse
	for _, p := range pairs(n) {
		k := p[0].Value
		if strings.HasPrefix(k, "x-") {
			continue
		}
		name := prefix + k
		if descend != nil && descend(name) {
			out = append(out, fieldsOf(f, resolve(p[1]), name+".", descend)...)
			continue
		}
		out = append(out, FieldUse{Name: name, Pos: manifest.Pos{File: f.name, Line: p[0].Line}})
	}
	return out
}

// TopLevelFields returns, for each entry of a top-level section
// (volumes, secrets, configs) in each compose file, last file first, the
// keys the entry writes; x- entries and keys are left out.
func (p *Project) TopLevelFields(section string) []TopLevelField {
	var out []TopLevelField
	for i := len(p.raw.files) - 1; i >= 0; i-- {
		f := p.raw.files[i]
		for _, entry := range pairs(get(f.root, section)) {
			name := entry[0].Value
			if strings.HasPrefix(name, "x-") {
				continue
			}
			for _, kv := range pairs(entry[1]) {
				if k := kv[0].Value; !strings.HasPrefix(k, "x-") {
					out = append(out, TopLevelField{Entry: name, FieldUse: FieldUse{Name: k, Pos: manifest.Pos{File: f.name, Line: kv[0].Line}}})
				}
			}
		}
	}
	return out
}

// TopLevelField is a key that an entry of a top-level section writes.
type TopLevelField struct {
	// Entry is the entry's name: the volume, secret or config.
	Entry string
	FieldUse
}

// TopLevel returns the position of a top-level section entry, such as
// volumes.NAME, from the last file that defines it.
func (p *Project) TopLevel(section, name string) (manifest.Pos, bool) {
	return p.raw.topLevel(section, name)
}

// TopLevelValue returns the interpolated scalar a top-level entry writes
// under key (configs.NAME.file), from the last file that defines the
// entry, or "".
func (p *Project) TopLevelValue(section, name, key string) string {
	n, _ := p.raw.topLevelNode(section, name)
	if v := scalar(get(n, key)); v != "" {
		return p.Subst(v)
	}
	return ""
}

// topLevelNode returns the value node of a top-level section entry, such as
// configs.NAME, from the last file that defines it.
func (ix *rawIndex) topLevelNode(section, name string) (*yaml.Node, *rawFile) {
	for i := len(ix.files) - 1; i >= 0; i-- {
		f := ix.files[i]
		if n := get(get(f.root, section), name); n != nil {
			return n, f
		}
	}
	return nil, nil
}

// Extension is a top-level x- extension of one of the -f compose files.
type Extension struct {
	// File is the compose file, relative to the project directory.
	File string
	// Node is its value as written.
	Node *yaml.Node
}

// Extensions returns the top-level extension key of each -f compose file
// that writes it, in file order.
func (p *Project) Extensions(key string) []Extension {
	var out []Extension
	for _, f := range p.raw.files {
		if !slices.Contains(p.ConfigFiles, f.path) {
			continue
		}
		if n := get(f.root, key); n != nil {
			out = append(out, Extension{File: f.name, Node: n})
		}
	}
	return out
}

// IgnoredExtensions returns the position of each top-level key in a
// compose file the project reads that is not one of its -f files (an
// included file, the base of an extends.file): docker compose merges no
// top-level x- extension of such a file into the project, and convert
// reads declarations only from the -f files' x-compose2manifest.
func (p *Project) IgnoredExtensions(key string) []manifest.Pos {
	var out []manifest.Pos
	for _, f := range p.raw.files {
		if slices.Contains(p.ConfigFiles, f.path) {
			continue
		}
		for _, kv := range pairs(f.root) {
			if kv[0].Value == key {
				out = append(out, manifest.Pos{File: f.name, Line: kv[0].Line})
			}
		}
	}
	return out
}

// Input is a file the project was read from.
type Input struct {
	// Path is its absolute path on this machine.
	Path string
	// SHA256 is the hex sha256 of its bytes as read.
	SHA256 string
}

// Inputs returns every file the project was read from, with its sha256:
// the compose files read (the -f files, then files they include or
// extend), the env files, and each service's env_file and label_file
// that exists, services in name order. Compose files are hashed as read;
// the others are read on the first call, bounded (MaxInputSize) and only
// as regular files, and kept for the later ones. The error names a file
// that could not be read.
//
// compose-go reads every one of these files again, by path: a digest is
// of the bytes converted only if the file stayed one version throughout.
// So a compose file must still be the version read before compose-go
// read it, an env file the version found before anything read it, and a
// service's env_file or label_file (named only once the project is
// loaded) unchanged since Load began; else the error is an
// *fsread.ChangedError naming the file.
func (p *Project) Inputs() ([]Input, error) {
	if p.inputs != nil {
		return slices.Clone(p.inputs), nil
	}
	var paths []string
	for _, f := range p.raw.files {
		paths = append(paths, f.path)
	}
	for _, f := range p.ConfigFiles {
		if !slices.Contains(paths, f) {
			paths = append(paths, f)
		}
	}
	for _, f := range append(append([]string{}, p.EnvFiles...), p.raw.envFiles...) {
		if !slices.Contains(paths, f) {
			paths = append(paths, f)
		}
	}
	// Files a service reads its environment or labels from feed the
	// conversion too: a change to one changes what it reads.
	if p.Compose != nil {
		names := make([]string, 0, len(p.Compose.Services))
		for name := range p.Compose.Services {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			svc := p.Compose.Services[name]
			var files []string
			for _, ef := range svc.EnvFiles {
				files = append(files, ef.Path)
			}
			files = append(files, svc.LabelFiles...)
			for _, f := range files {
				if _, err := os.Stat(f); err == nil && !slices.Contains(paths, f) {
					paths = append(paths, f)
				}
			}
		}
	}
	// The compose files were read once already, before compose-go read
	// them: each must still be that version, so that the bytes hashed are
	// those converted. The other files compose-go read during the load.
	read := map[string][]byte{}
	for _, f := range p.raw.files {
		// Standard input's file (-f -) is gone once read: its bytes are
		// the ones given, written to a folder of the process's own.
		if f.path != p.stdin {
			if err := fsread.Same("compose file", f.path, f.id); err != nil {
				return nil, err
			}
		}
		read[f.path] = f.data
	}
	out := make([]Input, 0, len(paths))
	for _, path := range paths {
		data, ok := read[path]
		if e, held := p.envRead[path]; !ok && held {
			// An env file Load read itself: its bytes are those it
			// used, if the file is still the version they were read from.
			if err := fsread.Same("input file", path, e.id); err != nil {
				return nil, err
			}
			if err := checkVersion(path, e.id, p.seen, p.start); err != nil {
				return nil, err
			}
			data, ok = e.data, true
			read[path] = data
		}
		if !ok {
			var id fsread.ID
			var err error
			if data, id, err = fsread.FileID("input file", path, MaxInputSize); err != nil {
				return nil, err
			}
			if err := checkVersion(path, id, p.seen, p.start); err != nil {
				return nil, err
			}
			read[path] = data
		}
		sum := sha256.Sum256(data)
		out = append(out, Input{Path: path, SHA256: hex.EncodeToString(sum[:])})
	}
	p.inputs, p.inputData = out, read
	return slices.Clone(out), nil
}

// envFileBytes returns the bytes of the env file at path (a service's
// env_file), read once for every use of this Project: compose-go read it
// by path itself, and Inputs hashes what this returned.
func (p *Project) envFileBytes(path string) ([]byte, error) {
	if p.envRead == nil {
		p.envRead = envReads{}
	}
	return p.envRead.read(path)
}

// inputBytes returns the bytes Inputs read of the file at path, if it
// read it.
func (p *Project) inputBytes(path string) ([]byte, bool) {
	data, ok := p.inputData[path]
	return data, ok
}

// ConfigMounts returns a read-only bind mount for each config of svc that
// has a file:, so that it is declared like any bind file. configTarget
// gives the path a config lands at in the container.
func (p *Project) ConfigMounts(svc types.ServiceConfig, configTarget func(types.ServiceConfigObjConfig) string) []Mount {
	var out []Mount
	defPos := manifest.Pos{}
	if defs := p.serviceDefs(svc.Name); len(defs) > 0 {
		defPos = defs[len(defs)-1].pos("configs")
	}
	for _, ref := range svc.Configs {
		cfg, ok := p.Compose.Configs[ref.Source]
		if !ok || cfg.File == "" || bool(cfg.External) {
			continue
		}
		raw := rawVolume{}
		have := false
		if f := p.TopLevelValue("configs", ref.Source, "file"); f != "" {
			raw.source, have = f, true
		}
		m := Mount{Service: svc.Name, Kind: BindDirectory, Target: path.Clean(configTarget(ref)), ReadOnly: true, Pos: defPos, Config: ref.Source}
		m.Source, m.Key, m.Local = p.bindSource(cfg.File, raw, have)
		out = append(out, m)
	}
	return out
}

// SourceEvidence is what a relative bind source is in the checkout on
// this machine: the one file evidence convert and ask take a kind from
// (Evidence).
type SourceEvidence struct {
	// Kind is declare.KindFile for a regular file and KindDirectory for a
	// directory, symbolic links inside the project followed; KindNone for
	// anything else (a socket, a link loop, a path through a file), for a
	// source not in the checkout, and for a link out of the project.
	Kind declare.Kind
	// Absent reports that the checkout has nothing at the source: no
	// file there (a link inside the project to nothing counts), or a
	// relative source outside the project directory (../x).
	Absent bool
	// Link is, when the source or a folder on its way is a symbolic link,
	// the first link followed, relative to the project with its target
	// as written: "./link.cf -> real.cf". "" when none is.
	Link string
	// Outside says, when a link leads out of the project or is absolute,
	// which link and where; "" otherwise. It is no evidence of anything:
	// on the target host the link names a path this checkout does not
	// show.
	Outside string
	// Resolved is, when Link is set and the source is in the checkout,
	// its path in the project after the links: "./data" for "./current"
	// of "./current -> data". "" otherwise.
	Resolved string
	// Surveyed is, when Kind is not the checkout's but what the legacy
	// host's survey found (convert --survey), where that came from:
	// "survey HOST DATE". "" otherwise.
	Surveyed string
	// Executable is, for a file of the checkout, whether its owner may
	// run it (u+x: git records 0755, not 0644). Of a mode, only this bit
	// is the same in every checkout of a repo; the others follow the
	// umask of whoever checked it out.
	Executable bool
}

// maxLinks is how many symbolic links Evidence follows for one source, as
// Linux's limit (ELOOP) for one path.
const maxLinks = 40

// Evidence says what the relative bind source key (a declaration key:
// "./nginx.conf", "./sub/data", "../shared") is in the checkout in
// projectDir. Symbolic links are followed within the project, each
// resolved against the folder holding it as the kernel does: a link to a
// regular file inside the project is evidence of a file, to a directory
// of a directory. A link that is absolute, or whose target (after ..)
// leaves the project, sets Outside: on the target host it names a place
// the checkout does not show. An absolute or ~ key, or an empty
// projectDir, gives the zero SourceEvidence. Convert and ask both take
// file evidence from here.
func Evidence(projectDir, key string) SourceEvidence {
	if projectDir == "" || key == "" || strings.HasPrefix(key, "/") || strings.HasPrefix(key, "~") {
		return SourceEvidence{}
	}
	rel := path.Clean(key)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return SourceEvidence{Absent: true}
	}
	var ev SourceEvidence
	todo := strings.Split(rel, "/")
	cur := ""  // resolved so far, relative to projectDir, slash-separated
	last := "" // the link being followed, for Outside
	links := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if cur == "" {
				ev.Outside = last + ", which leads out of the project"
				return ev
			}
			if cur = path.Dir(cur); cur == "." {
				cur = ""
			}
			continue
		}
		next := path.Join(cur, c)
		local := filepath.Join(projectDir, filepath.FromSlash(next))
		fi, err := os.Lstat(local)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			ev.Absent = true
			return ev
		case err != nil:
			return ev
		case fi.Mode()&fs.ModeSymlink != 0:
			links++
			target, err := os.Readlink(local)
			if err != nil || links > maxLinks {
				return ev
			}
			last = fmt.Sprintf("./%s is a symbolic link to %s", next, target)
			if ev.Link == "" {
				ev.Link = "./" + next + " -> " + target
			}
			t := filepath.ToSlash(target)
			if filepath.IsAbs(target) || strings.HasPrefix(t, "/") {
				ev.Outside = last + ", an absolute path, which names another place on the target host"
				return ev
			}
			todo = append(strings.Split(t, "/"), todo...)
			continue
		case !fi.IsDir() && len(todo) > 0:
			return ev // a path through a file: docker fails
		}
		cur = next
	}
	if ev.Link != "" {
		ev.Resolved = "./" + cur
		if cur == "" {
			ev.Resolved = "."
		}
	}
	fi, err := os.Lstat(filepath.Join(projectDir, filepath.FromSlash(cur)))
	switch {
	case err != nil:
	case fi.Mode().IsRegular():
		ev.Kind = declare.KindFile
		ev.Executable = fi.Mode()&0o100 != 0
	case fi.IsDir():
		ev.Kind = declare.KindDirectory
	}
	return ev
}

// LooksLikeFile reports whether a path's last element looks like a file
// name: it has an extension, a dot that is neither its first nor its last
// character followed by 1 to 8 ASCII letters and digits, at least one of
// them a letter, other than "d" (nginx.conf, config.yml, db.sqlite3,
// .env.local). A leading dot starts no extension, so .env, .htpasswd and
// .ssh do not look like files, nor do conf.d, cron.d (the .d of a folder
// of drop-in files), mysql-8.0 or data.1. A trailing slash says directory.
func LooksLikeFile(p string) bool {
	if strings.HasSuffix(p, "/") {
		return false
	}
	name := path.Base(p)
	i := strings.LastIndex(name, ".")
	if i <= 0 {
		return false
	}
	ext := name[i+1:]
	if len(ext) < 1 || len(ext) > 8 || ext == "d" {
		return false
	}
	letter := false
	for _, r := range ext {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
			letter = true
		case r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return letter
}

// WellKnownHost reports whether p is on the built-in list of host paths a
// module uses but never owns (SPEC section 6): /etc/localtime,
// /etc/timezone, the Docker socket, /lib/modules, and paths under /proc,
// /sys and /dev.
func WellKnownHost(p string) bool {
	switch p {
	case "/etc/localtime", "/etc/timezone", "/var/run/docker.sock", "/run/docker.sock", "/lib/modules":
		return true
	}
	for _, root := range []string{"/proc", "/sys", "/dev"} {
		if p == root || strings.HasPrefix(p, root+"/") {
			return true
		}
	}
	return false
}

// EnvFilePos returns where an env_file of svc sets the variable name (the
// last file that does, as compose reads them), or def.
func (p *Project) EnvFilePos(svc types.ServiceConfig, name string, def manifest.Pos) manifest.Pos {
	found := def
	for _, ef := range svc.EnvFiles {
		data, err := p.envFileBytes(ef.Path)
		if err != nil {
			continue
		}
		for i, line := range strings.Split(string(data), "\n") {
			line = strings.TrimPrefix(strings.TrimSpace(line), "export ")
			if k, _, ok := strings.Cut(line, "="); ok && strings.TrimSpace(k) == name {
				found = manifest.Pos{File: p.Rel(ef.Path), Line: i + 1}
			}
		}
	}
	return found
}

// Name returns the top-level name: of the -f compose files as written,
// before interpolation (the last file's wins), or "" when none writes
// one. The project's name as compose decides it is Compose.Name.
func (p *Project) Name() string {
	name := ""
	for _, f := range p.raw.files {
		if !slices.Contains(p.ConfigFiles, f.path) {
			continue
		}
		if n := scalar(get(f.root, "name")); n != "" {
			name = n
		}
	}
	return name
}

// DefaultFiles returns the compose files docker compose reads in dir when
// no -f names any: the first of compose-go's cli.DefaultFileNames there,
// then the first of its cli.DefaultOverrideFileNames, as
// cli.WithDefaultConfigPath finds them (without climbing to dir's
// parents). Nil when dir has none.
func DefaultFiles(dir string) []string {
	first := func(names []string) string {
		for _, n := range names {
			if p := filepath.Join(dir, n); regular(p) {
				return p
			}
		}
		return ""
	}
	f := first(cli.DefaultFileNames)
	if f == "" {
		return nil
	}
	out := []string{f}
	if o := first(cli.DefaultOverrideFileNames); o != "" {
		out = append(out, o)
	}
	return out
}

// FilesWithoutFlag returns the compose files docker compose reads when
// run in dir without -f, with environ (KEY=VALUE) as its environment:
// COMPOSE_FILE from environ or dir's .env, else the default files
// (DefaultFiles); absolute, in order. Nil when it would find none or
// cannot tell.
func FilesWithoutFlag(dir string, environ []string) []string {
	return ReadWithoutFlags(dir, environ).Files
}

// WithoutFlags is what docker compose reads in a folder when no -f,
// --env-file or --profile says otherwise.
type WithoutFlags struct {
	// Files are the compose files (FilesWithoutFlag), EnvFiles the env
	// files (COMPOSE_ENV_FILES, else .env), absolute, and Profiles the
	// profiles enabled (COMPOSE_PROFILES), in order.
	Files, EnvFiles, Profiles []string
	// EnvDisabled is COMPOSE_DISABLE_ENV_FILE: docker compose reads no
	// .env.
	EnvDisabled bool
}

// ReadWithoutFlags returns what docker compose reads when run in dir
// without -f, --env-file or --profile, with environ (KEY=VALUE) as its
// environment; the zero value when it cannot tell.
func ReadWithoutFlags(dir string, environ []string) WithoutFlags {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return WithoutFlags{}
	}
	in, err := resolveInputs(Options{WorkingDirectory: dir, Environ: environ}, "")
	if err != nil {
		return WithoutFlags{}
	}
	w := WithoutFlags{Files: in.files, EnvFiles: in.envFiles, EnvDisabled: in.envDisabled}
	for _, pr := range strings.Split(utils.GetAsEqualsMap(in.environ)["COMPOSE_PROFILES"], ",") {
		if pr = strings.TrimSpace(pr); pr != "" {
			w.Profiles = append(w.Profiles, pr)
		}
	}
	return w
}

// FilesAgainst holds the project's -f files against read, the files
// docker compose reads in the project directory without -f
// (ReadWithoutFlags), when the -f files name one of those or a default or
// override file of that directory (the project's own compose file, so
// the choice is not of another project kept beside it). It returns the
// files of read the -f files leave out, absolute (compose.override.yaml
// when -f names only compose.yaml, compose.yaml when -f names
// docker-compose.yml beside it, db.yaml when .env's COMPOSE_FILE adds it),
// and whether the -f files are exactly read in another order: later
// files override earlier ones, so the merge differs. Nothing when the
// files were not named with -f, are not the project's own, or are read.
// With declared set, the files were chosen by the folder's own
// declarations (compose_files:), which makes them the folder's project
// whatever their names: a decoy.yaml they name leaves out the
// compose.yaml docker compose reads.
func (p *Project) FilesAgainst(read []string, declared bool) (leftOut []string, reordered bool) {
	if p.FilesFrom != FilesFlag {
		return nil, false
	}
	dir, _ := filepath.Abs(p.Dir)
	given := make([]string, 0, len(p.ConfigFiles))
	own := declared
	for _, f := range p.ConfigFiles {
		f, _ = filepath.Abs(f)
		given = append(given, f)
		base := filepath.Base(f)
		own = own || slices.Contains(read, f) || (filepath.Dir(f) == dir && (IsDefaultFileName(base) || IsOverrideFileName(base)))
	}
	if !own || slices.Equal(given, read) {
		return nil, false
	}
	for _, f := range read {
		if !slices.Contains(given, f) {
			leftOut = append(leftOut, f)
		}
	}
	return leftOut, len(leftOut) == 0 && len(given) == len(read)
}

// IsDefaultFileName reports whether name is one of compose-go's default
// compose file names (cli.DefaultFileNames), and IsOverrideFileName
// whether it is one of its override file names.
func IsDefaultFileName(name string) bool { return slices.Contains(cli.DefaultFileNames, name) }

// IsOverrideFileName reports whether name is one of compose-go's override
// file names (cli.DefaultOverrideFileNames).
func IsOverrideFileName(name string) bool { return slices.Contains(cli.DefaultOverrideFileNames, name) }

// regular reports whether p is a regular file, after symbolic links.
func regular(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// envFileUnset returns the uses of variables, in the env_file files of
// the project's services (services in name order, left-out ones too),
// that nothing sets: compose-go expands $VAR in an env_file value from
// the project's environment, then the service's own environment, and
// makes an unset one empty, as docker compose warns. A key written
// without a value is not a use. Each use is at the first line of the
// file that refers to the variable.
func (p *Project) envFileUnset() []VariableUse {
	var out []VariableUse
	services := map[string]types.ServiceConfig{}
	for name, svc := range p.Compose.Services {
		services[name] = svc
	}
	for name, svc := range p.Compose.DisabledServices {
		services[name] = svc
	}
	for _, name := range slices.Sorted(maps.Keys(services)) {
		svc := services[name]
		for _, ef := range svc.EnvFiles {
			if ef.Format != "" && ef.Format != "dotenv" {
				continue // raw values are taken as written
			}
			data, err := p.envFileBytes(ef.Path)
			if err != nil {
				continue
			}
			uses, err := envUnset(data, ef.Path, ef.Format, map[string]string{}, func(k string) (string, bool) {
				if v, ok := p.Environment[k]; ok {
					return v, true
				}
				if v, ok := svc.Environment[k]; ok && v != nil {
					return *v, true
				}
				return "", false
			})
			if err != nil {
				continue
			}
			for _, u := range uses {
				out = append(out, VariableUse{Name: u.name, Pos: manifest.Pos{File: p.Rel(ef.Path), Line: u.line},
					Path: []string{"services", name, "env_file"}, Service: name})
			}
		}
	}
	return out
}

// namePos returns where a service's definitions refer to name under key
// (a volume's source, a network, a depends_on service, a secret's or
// config's source), the last definition that does first; else where the
// last definition writes key, else the service itself. key "" is the
// service's definition. The zero Pos when the service is not read.
func (p *Project) namePos(service, key, name string) manifest.Pos {
	defs := p.serviceDefs(service)
	for i := len(defs) - 1; i >= 0 && key != ""; i-- {
		d := defs[i]
		list := get(d.node, key)
		if list != nil && list.Kind == yaml.MappingNode {
			for _, kv := range pairs(list) {
				if d.file.subst(kv[0].Value) == name {
					return manifest.Pos{File: d.file.name, Line: kv[0].Line}
				}
			}
		}
		for _, item := range seqItems(list) {
			if refersTo(d.file.subst, key, item, name) {
				return manifest.Pos{File: d.file.name, Line: item.Line}
			}
		}
	}
	for i := len(defs) - 1; i >= 0 && key != ""; i-- {
		if keyNode(defs[i].node, key) != nil {
			return defs[i].pos(key)
		}
	}
	if len(defs) == 0 {
		return manifest.Pos{}
	}
	return defs[len(defs)-1].pos("")
}

// refersTo reports whether a list item under key names name: a scalar
// that is name (for volumes, the source of its short syntax), or a
// mapping whose source: is.
func refersTo(subst func(string) string, key string, item *yaml.Node, name string) bool {
	switch {
	case item == nil:
		return false
	case item.Kind == yaml.MappingNode:
		return subst(scalar(get(item, "source"))) == name
	case item.Kind != yaml.ScalarNode:
		return false
	case key == "volumes":
		v, err := format.ParseVolume(subst(item.Value))
		return err == nil && v.Source == name
	}
	return subst(item.Value) == name
}
