package project

import (
	"bytes"
	"errors"
	"fmt"
	"index/suffixarray"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/compose2manifest/compose2manifest/internal/fsread"
	"github.com/compose2manifest/compose2manifest/manifest"
	"go.yaml.in/yaml/v3"
)

// rawFile is one compose file read a second time with yaml.v3, for what
// compose-go's typed model loses: line numbers, short-syntax volume options,
// "~" in a source, and which keys a service writes.
type rawFile struct {
	// extended is set for a file read only as the base of an extends:
	// its services are not the project's, only bases to merge.
	extended bool
	path     string // absolute path on this machine
	name     string // path relative to the project directory, for positions
	root     *yaml.Node
	data     []byte
	id       fsread.ID // the version data is of (see Project.Inputs)
	// env is the environment the file is interpolated with: the
	// project's, and for an included file also its include's env files
	// (compose-go's ApplyInclude); workDir is where its relative include
	// paths and env files resolve: the project directory, or the
	// included project's directory.
	env     map[string]string
	workDir string
	// depth is how many include or extends.file references lead to the
	// file from a -f file (0 for one).
	depth int
	// services indexes the services: mapping by name (merge keys
	// applied, as get reads it), built once: looking a service up is
	// done for every service, and a scan each time is quadratic.
	servicesOnce sync.Once
	services     map[string]*yaml.Node
	// text indexes data for substring search (Project.Written), built
	// once: a search of the whole file for every service's image is
	// quadratic.
	textOnce sync.Once
	text     *suffixarray.Index
	scans    atomic.Int64 // searches so far (see contains)
}

// contains reports whether s appears in the file's bytes, as
// bytes.Contains(f.data, s) does.
func (f *rawFile) contains(s []byte) bool {
	if len(s) == 0 {
		return true
	}
	// The index costs as much to build as some 150 scans of the file (a
	// corpus project searches each file once or twice per service,
	// sentry-self-hosted its 35 kB file some 140 times): it is built
	// only once the file has been scanned that often.
	if f.scans.Add(1) <= indexAfterScans {
		return bytes.Contains(f.data, s)
	}
	f.textOnce.Do(func() { f.text = suffixarray.New(f.data) })
	return len(f.text.Lookup(s, 1)) > 0
}

// indexAfterScans is how many searches of a file are scans before
// rawFile.contains indexes it.
const indexAfterScans = 256

// service returns the definition of service name in f, or nil.
func (f *rawFile) service(name string) *yaml.Node {
	f.servicesOnce.Do(func() {
		f.services = map[string]*yaml.Node{}
		for _, p := range pairs(get(f.root, "services")) {
			if _, ok := f.services[p[0].Value]; !ok {
				f.services[p[0].Value] = resolve(p[1])
			}
		}
	})
	return f.services[name]
}

// subst interpolates s with the file's environment, as compose-go does,
// or returns s as it is when that fails.
func (f *rawFile) subst(s string) string { return substitute(s, f.env) }

// rawIndex is every compose file of a project that could be read: the -f
// files in order, then files they include or extend.
type rawIndex struct {
	files []*rawFile
	// problem describes the first input found that compose-go would
	// mishandle: a merge key that merges a mapping into itself (chased to
	// its node limit), or a second YAML document in one file (whose
	// options, "~" and lines this index would miss).
	problem string
	// parseErr names the first file that is not valid YAML, so a load
	// error that does not name its file can; parseData is its bytes.
	parseErr  string
	parseData []byte
	// partial reports that a compose file could not be read or parsed
	// (compose-go reports it with its own error): the index may lack
	// keys compose-go reads, and castsFor prunes nothing.
	partial bool
	// envFiles are the env files of include: entries read, in order.
	envFiles []string
	// probes are the files that would feed the conversion had they
	// existed: the .env of an included project's directory, when the
	// include names no env_file.
	probes []string
	// roots are the directories a referenced file must lie in: the
	// project directory, the -f files' folders, and the allowed ones.
	roots []string
	// reads holds the env files read during this load, each once.
	reads envReads
	// seen holds the version of each include env file as found, before
	// it was read (see Project.Inputs).
	seen versions
	// read holds the bytes of each compose file read, parsed or not, by
	// absolute path: loadCompose hands those of the -f files to
	// compose-go.
	read map[string][]byte
	// missing are the files an include: or extends.file names that do
	// not exist, by absolute path, with where they are named: compose-go's
	// error for one names no line.
	missing map[string]reference
}

// missed records that ref names the file at p, which does not exist.
func (ix *rawIndex) missed(p string, ref reference) {
	if ix.missing == nil {
		ix.missing = map[string]reference{}
	}
	if _, ok := ix.missing[p]; !ok {
		ix.missing[p] = ref
	}
}

// readRaw parses the compose files and, recursively, files named by
// include and extends.file. A file that cannot be read or parsed is left
// out: compose-go reports it with its own error. env is the project's
// environment and dir its directory.
func readRaw(paths []string, rel func(string) string, env map[string]string, dir string, roots []string, reads envReads) *rawIndex {
	ix := &rawIndex{roots: roots, seen: versions{}, read: map[string][]byte{}, reads: reads}
	seen := map[string]bool{}
	// chain are the files being read, each with the reference that named
	// it: compose-go refuses an include of one of them.
	var chain []link
	var add func(p string, extended bool, env map[string]string, workDir string, ref *reference)
	add = func(p string, extended bool, env map[string]string, workDir string, ref *reference) {
		if ref != nil && ref.what == "include" && ix.problem == "" {
			ix.problem = includeCycle(chain, p, ref, rel)
		}
		if seen[p] {
			return
		}
		seen[p] = true
		chain = append(chain, link{p, ref})
		defer func() { chain = chain[:len(chain)-1] }()
		if ref != nil && !exists(p) {
			ix.missed(p, *ref)
		}
		if ref != nil {
			// A file the project refers to, not one named with -f.
			err := ix.checkReference(ref.what, p)
			if err == nil {
				err = referenceLimits(ref, rel(p), len(seen))
			}
			if err != nil {
				if ix.problem == "" {
					ix.problem = fmt.Sprintf("%s:%d: %v", ref.file, ref.line, err)
				}
				return
			}
		}
		data, id, err := fsread.FileID("compose file", p, MaxInputSize)
		var changed *fsread.ChangedError
		if errors.As(err, &changed) && ix.problem == "" {
			ix.problem = err.Error()
		}
		if err != nil {
			ix.partial = true
			return
		}
		ix.read[p] = data
		var doc yaml.Node
		dec := yaml.NewDecoder(bytes.NewReader(data))
		if err := dec.Decode(&doc); err != nil || len(doc.Content) == 0 {
			if err != nil && ix.parseErr == "" {
				ix.parseErr, ix.parseData = rel(p), data
			}
			ix.partial = ix.partial || err != nil
			return
		}
		f := &rawFile{path: p, name: rel(p), root: doc.Content[0], data: data, id: id, extended: extended, env: env, workDir: workDir}
		if ref != nil {
			f.depth = ref.depth
		}
		if msg := shapeProblem(f); msg != "" {
			if ix.problem == "" {
				ix.problem = msg
			}
			return // nothing more is read of a file beyond the limits
		}
		ix.files = append(ix.files, f)
		var next yaml.Node
		if err := dec.Decode(&next); err == nil && ix.problem == "" {
			ix.problem = fmt.Sprintf("%s:%d: a second YAML document in one compose file; put each in a file of its own and name them with -f", f.name, next.Line)
		}
		if line := mergeCycle(f.root); line > 0 && ix.problem == "" {
			ix.problem = fmt.Sprintf("%s:%d: a merge key (<<) merges a mapping into itself", f.name, line)
		}
		if k := resetBesideMerge(f.root); k != nil && ix.problem == "" {
			ix.problem = fmt.Sprintf("%s:%d: volumes: !reset beside a merge key (<<) that brings volumes in: compose-go resets before it merges, so docker compose still mounts the merged volumes the !reset was written to take away; write the mapping without the merge key, or list the volumes it should mount (!override) instead of !reset", f.name, k.Line)
		}
		if msg := serviceShape(f); msg != "" && ix.problem == "" {
			ix.problem = msg
		}
		if msg := ix.checkServiceFiles(f); msg != "" && ix.problem == "" {
			ix.problem = msg
		}
		for _, inc := range includes(get(f.root, "include")) {
			ix.include(f, inc, extended, add)
		}
		services := get(f.root, "services")
		for _, svc := range mapValues(services) {
			if n := get(get(svc, "extends"), "file"); scalar(n) != "" {
				add(resolveRef(filepath.Dir(p), f.subst(n.Value)), true, f.env, f.workDir, &reference{"extends.file", f.name, n.Line, f.depth + 1})
			}
		}
	}
	for _, p := range paths {
		add(p, false, env, dir, nil)
	}
	if msg := ix.extendsProblem(); msg != "" && ix.problem == "" {
		ix.problem = msg
	}
	return ix
}

// link is a file being read, and the reference that named it (nil for
// a compose file named with -f or found by default).
type link struct {
	path string
	ref  *reference
}

// includeCycle returns, for an include: (ref) of the file p, the cycle it
// makes when p is a file being read (chain) and each file from it on was
// named by an include: (docker compose refuses it, "include cycle
// detected", naming no line); "" otherwise.
func includeCycle(chain []link, p string, ref *reference, rel func(string) string) string {
	i := slices.IndexFunc(chain, func(l link) bool { return l.path == p })
	if i < 0 {
		return ""
	}
	var steps []string
	for _, l := range chain[i+1:] {
		if l.ref == nil || l.ref.what != "include" {
			return "" // through an extends.file: compose-go reads it on its own
		}
		steps = append(steps, fmt.Sprintf("%s:%d includes %s", l.ref.file, l.ref.line, rel(l.path)))
	}
	steps = append(steps, fmt.Sprintf("%s:%d includes %s", ref.file, ref.line, rel(p)))
	fix := "remove one of these entries"
	if len(steps) == 1 {
		fix = "remove the entry"
	}
	return fmt.Sprintf("%s:%d: include %s makes a cycle (%s), which docker compose refuses; %s", ref.file, ref.line, rel(p), strings.Join(steps, ", "), fix)
}

// reference is where a compose file names another file: what it is, the
// file and line that name it, and the depth of the file named (one more
// than the naming file's).
type reference struct {
	what  string
	file  string
	line  int
	depth int
}

// include is one entry of a file's include: list.
type include struct {
	paths      []string
	envFiles   []string
	projectDir string
	line       int
}

// includes returns the entries an include: node lists, short or long
// syntax, as written.
func includes(n *yaml.Node) []include {
	var out []include
	for _, item := range seqItems(n) {
		if item.Kind == yaml.ScalarNode {
			out = append(out, include{paths: []string{item.Value}, line: item.Line})
			continue
		}
		out = append(out, include{paths: stringList(get(item, "path")), envFiles: stringList(get(item, "env_file")),
			projectDir: scalar(get(item, "project_directory")), line: item.Line})
	}
	return out
}

// stringList returns a scalar or a list of scalars as strings.
func stringList(n *yaml.Node) []string {
	if n != nil && n.Kind == yaml.ScalarNode {
		return []string{n.Value}
	}
	var out []string
	for _, s := range seqItems(n) {
		out = append(out, scalar(s))
	}
	return out
}

// include reads the files of one include entry of f, as compose-go's
// ApplyInclude loads them: paths (interpolated with f's environment)
// relative to f's working directory; the included project's directory is
// project_directory, or the first file's folder; its environment is f's,
// with the variables its env_file entries (relative to f's working
// directory; /dev/null skipped), or else its directory's .env, add.
func (ix *rawIndex) include(f *rawFile, inc include, extended bool, add func(string, bool, map[string]string, string, *reference)) {
	if len(inc.paths) == 0 {
		return
	}
	paths := make([]string, len(inc.paths))
	for i, p := range inc.paths {
		paths[i] = resolveRef(f.workDir, f.subst(p))
	}
	dir := filepath.Dir(paths[0])
	if pd := f.subst(inc.projectDir); pd != "" {
		dir = resolveRef(f.workDir, pd)
	}
	var envFiles []string
	if len(inc.envFiles) == 0 {
		if dot := filepath.Join(dir, ".env"); regular(dot) {
			envFiles = []string{dot}
		} else if !slices.Contains(ix.probes, dot) {
			ix.probes = append(ix.probes, dot)
		}
	}
	for _, e := range inc.envFiles {
		if e = f.subst(e); e != "/dev/null" && e != "" {
			envFiles = append(envFiles, resolveRef(f.workDir, e))
		}
	}
	env := f.env
	if len(envFiles) > 0 {
		for _, e := range envFiles {
			if !exists(e) {
				ix.missed(e, reference{what: "include env_file", file: f.name, line: inc.line})
				return // compose-go reports it
			}
			if err := ix.checkReference("include env file", e); err != nil {
				if ix.problem == "" {
					ix.problem = fmt.Sprintf("%s:%d: %v", f.name, inc.line, err)
				}
				return
			}
			ix.seen.add(e) // before this read and compose-go's
		}
		vals, err := ix.reads.getEnv(f.env, envFiles)
		if err != nil {
			return
		}
		env = make(map[string]string, len(f.env)+len(vals))
		for k, v := range f.env {
			env[k] = v
		}
		for k, v := range vals {
			if _, set := env[k]; !set {
				env[k] = v
			}
		}
		for _, e := range envFiles {
			if !slices.Contains(ix.envFiles, e) {
				ix.envFiles = append(ix.envFiles, e)
			}
		}
	}
	for _, p := range paths {
		add(p, extended, env, dir, &reference{"include", f.name, inc.line, f.depth + 1})
	}
}

// service returns every definition of service name, in file order.
func (ix *rawIndex) service(name string) []rawService {
	var out []rawService
	for _, f := range ix.files {
		if f.extended {
			continue // a base file's services are not the project's
		}
		if n := f.service(name); n != nil {
			out = append(out, rawService{file: f, node: n})
		}
	}
	return out
}

// rawService is one definition of a service in one file.
type rawService struct {
	file *rawFile
	node *yaml.Node
}

// pos returns the position of key's value in the definition, or of the
// definition itself when key is empty or absent.
func (s rawService) pos(key string) manifest.Pos {
	line := s.node.Line
	if key != "" {
		if k := keyNode(s.node, key); k != nil {
			line = k.Line
		}
	}
	return manifest.Pos{File: s.file.name, Line: line}
}

// topLevel returns the position of a top-level section entry, such as
// volumes.NAME, from the last file that defines it.
func (ix *rawIndex) topLevel(section, name string) (manifest.Pos, bool) {
	for i := len(ix.files) - 1; i >= 0; i-- {
		f := ix.files[i]
		if k := keyNode(get(f.root, section), name); k != nil {
			return manifest.Pos{File: f.name, Line: k.Line}, true
		}
	}
	return manifest.Pos{}, false
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode; i++ {
		if i > 100 {
			return nil // an alias chain this long is a cycle
		}
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		return resolve(n.Content[0])
	}
	return n
}

// pairs returns the key/value pairs of a mapping with merge keys (<<)
// applied: keys written in the mapping win over merged ones. A merge that
// refers back to a mapping being merged is ignored (compose-go reports the
// cycle).
func pairs(n *yaml.Node) [][2]*yaml.Node {
	return pairsSeen(n, map[*yaml.Node]bool{})
}

func pairsSeen(n *yaml.Node, seen map[*yaml.Node]bool) [][2]*yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode || seen[n] {
		return nil
	}
	seen[n] = true
	defer delete(seen, n)
	var own, merged [][2]*yaml.Node
	have := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value == "<<" && k.Tag == "!!merge" {
			srcs := []*yaml.Node{v}
			if rv := resolve(v); rv != nil && rv.Kind == yaml.SequenceNode {
				srcs = rv.Content
			}
			for _, src := range srcs {
				merged = append(merged, pairsSeen(src, seen)...)
			}
			continue
		}
		own = append(own, [2]*yaml.Node{k, v})
		have[k.Value] = true
	}
	out := own
	for _, p := range merged {
		if !have[p[0].Value] {
			have[p[0].Value] = true
			out = append(out, p)
		}
	}
	return out
}

// keyNode returns the key node of key in mapping n, merge keys applied.
func keyNode(n *yaml.Node, key string) *yaml.Node {
	k, _ := lookup(n, key)
	return k
}

// get returns the value of key in mapping n, merge keys applied.
func get(n *yaml.Node, key string) *yaml.Node {
	_, v := lookup(n, key)
	return resolve(v)
}

// lookup returns the key and value nodes of key in mapping n, merge keys
// applied, as pairs orders them: a key written in the mapping wins. It
// scans the mapping in place, and the sources of its merge keys
// (lookupMerged) only when a key is not written there.
func lookup(n *yaml.Node, key string) (k, v *yaml.Node) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	merges := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		c := n.Content[i]
		if c.Value == "<<" && c.Tag == "!!merge" {
			merges = true
			continue
		}
		if c.Value == key {
			return c, n.Content[i+1]
		}
	}
	if !merges {
		return nil, nil
	}
	return lookupMerged(n, key, map[*yaml.Node]bool{})
}

// lookupMerged returns the pair of key among what the merge keys of the
// mapping n bring, as pairs(n) orders them (each merge key in turn, each
// of its sources in order, a source's own keys before what it merges),
// without building them: the first source that has key wins. seen holds
// the mappings being searched, as pairsSeen's does (a merge cycle).
func lookupMerged(n *yaml.Node, key string, seen map[*yaml.Node]bool) (k, v *yaml.Node) {
	seen[n] = true
	defer delete(seen, n)
	for i := 0; i+1 < len(n.Content); i += 2 {
		c := n.Content[i]
		if c.Value != "<<" || c.Tag != "!!merge" {
			continue
		}
		srcs := []*yaml.Node{n.Content[i+1]}
		if rv := resolve(n.Content[i+1]); rv != nil && rv.Kind == yaml.SequenceNode {
			srcs = rv.Content
		}
		for _, src := range srcs {
			src = resolve(src)
			if src == nil || src.Kind != yaml.MappingNode || seen[src] {
				continue
			}
			merges := false
			for j := 0; j+1 < len(src.Content); j += 2 {
				sc := src.Content[j]
				if sc.Value == "<<" && sc.Tag == "!!merge" {
					merges = true
				} else if sc.Value == key {
					return sc, src.Content[j+1]
				}
			}
			if merges {
				if k, v := lookupMerged(src, key, seen); k != nil {
					return k, v
				}
			}
		}
	}
	return nil, nil
}

func mapValues(n *yaml.Node) []*yaml.Node {
	var out []*yaml.Node
	for _, p := range pairs(n) {
		out = append(out, resolve(p[1]))
	}
	return out
}

func seqItems(n *yaml.Node) []*yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	out := make([]*yaml.Node, len(n.Content))
	for i, c := range n.Content {
		out[i] = resolve(c)
	}
	return out
}

func scalar(n *yaml.Node) string {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// mergeCycle returns the line of a merge key (<<) under n that merges a
// mapping into itself, directly or through other merges, or 0. Each node is
// visited once.
func mergeCycle(n *yaml.Node) int {
	done := map[*yaml.Node]bool{}
	onPath := map[*yaml.Node]bool{}
	var visit func(n *yaml.Node) int
	visit = func(n *yaml.Node) int {
		if n == nil {
			return 0
		}
		if n.Kind == yaml.AliasNode {
			n = n.Alias
		}
		if n == nil || onPath[n] {
			return -1
		}
		if done[n] {
			return 0
		}
		onPath[n] = true
		defer func() { delete(onPath, n); done[n] = true }()
		for i, c := range n.Content {
			isMerge := n.Kind == yaml.MappingNode && i%2 == 1 && n.Content[i-1].Value == "<<" && n.Content[i-1].Tag == "!!merge"
			if !isMerge && c.Kind == yaml.AliasNode {
				continue // a plain alias is expanded where its anchor is
			}
			switch line := visit(c); {
			case line > 0:
				return line
			case line < 0 && isMerge:
				return n.Content[i-1].Line
			case line < 0:
				return -1
			}
		}
		return 0
	}
	if line := visit(n); line > 0 {
		return line
	}
	return 0
}

// resetBesideMerge returns the key node of the first volumes: key tagged
// !reset in a mapping that also merges (<<) a mapping holding volumes:, or
// nil. compose-go applies !reset before YAML merge keys are expanded, so
// the merged value comes back: docker compose mounts the volumes the
// !reset was written to take away, and the second reading, which follows
// YAML (the mapping's own key wins), would place mounts that are not
// there. Other keys are read from compose-go's model, as docker compose
// reads them. Each mapping is visited once, aliases not followed (an
// anchor's mapping is visited where it is written).
func resetBesideMerge(n *yaml.Node) *yaml.Node {
	seen := map[*yaml.Node]bool{}
	var visit func(n *yaml.Node) *yaml.Node
	visit = func(n *yaml.Node) *yaml.Node {
		if n == nil || n.Kind == yaml.AliasNode || seen[n] {
			return nil
		}
		seen[n] = true
		if n.Kind == yaml.MappingNode {
			merged := map[string]bool{}
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := n.Content[i]; k.Value == "<<" && k.Tag == "!!merge" {
					for _, src := range mergeSources(n.Content[i+1]) {
						for j := 0; j+1 < len(src.Content); j += 2 {
							merged[src.Content[j].Value] = true
						}
					}
				}
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k, v := n.Content[i], n.Content[i+1]; k.Value == "volumes" && v.Tag == "!reset" && merged[k.Value] {
					return k
				}
			}
		}
		for _, c := range n.Content {
			if k := visit(c); k != nil {
				return k
			}
		}
		return nil
	}
	return visit(n)
}

// mergeSources returns the mappings a merge key's value merges: an alias
// of a mapping, a mapping, or a sequence of those.
func mergeSources(v *yaml.Node) []*yaml.Node {
	var out []*yaml.Node
	one := func(n *yaml.Node) {
		if n != nil && n.Kind == yaml.AliasNode {
			n = n.Alias
		}
		if n != nil && n.Kind == yaml.MappingNode {
			out = append(out, n)
		}
	}
	if v.Kind == yaml.SequenceNode {
		for _, c := range v.Content {
			one(c)
		}
	} else {
		one(v)
	}
	return out
}

// resolveRef returns the path an include or extends.file entry names,
// relative to the folder of the file that writes it.
func resolveRef(dir, ref string) string {
	if filepath.IsAbs(ref) {
		return filepath.Clean(ref)
	}
	return filepath.Join(dir, ref)
}

// file returns the indexed file at path, or nil.
func (ix *rawIndex) file(path string) *rawFile {
	for _, f := range ix.files {
		if f.path == path {
			return f
		}
	}
	return nil
}

// serviceShape returns what compose-go's extends step would reject in f,
// in file order: services: that is not a mapping, or a service that is
// neither a mapping nor null. compose-go checks them in map order, so
// which one it names would vary from run to run; "" when all are fine.
func serviceShape(f *rawFile) string {
	if root := resolve(f.root); root == nil || root.Kind != yaml.MappingNode {
		line := 1
		if root != nil {
			line = root.Line
		}
		return fmt.Sprintf("%s:%d: a compose file must be a mapping (services:, volumes:, …) at its top level", f.name, line)
	}
	k, v := lookup(f.root, "services")
	if k == nil {
		return ""
	}
	v = resolve(v)
	if v == nil || v.Kind != yaml.MappingNode {
		return fmt.Sprintf("%s:%d: services must be a mapping", f.name, k.Line)
	}
	for _, p := range pairs(v) {
		svc := resolve(p[1])
		if svc != nil && svc.Kind != yaml.MappingNode && !(svc.Kind == yaml.ScalarNode && svc.Tag == "!!null") {
			return fmt.Sprintf("%s:%d: services.%s must be a mapping", f.name, p[0].Line, p[0].Value)
		}
	}
	return ""
}

// base returns the definition service node n of file f extends, and the
// file it is in (extends.file, or f), or nil when it extends none that
// was read.
func (ix *rawIndex) base(f *rawFile, n *yaml.Node) (*rawFile, *yaml.Node) {
	name, file := "", f
	switch ext := get(n, "extends"); {
	case ext == nil:
	case ext.Kind == yaml.ScalarNode:
		name = ext.Value
	default:
		name = scalar(get(ext, "service"))
		if p := scalar(get(ext, "file")); p != "" {
			file = ix.file(resolveRef(filepath.Dir(f.path), f.subst(p)))
		}
	}
	if name == "" || file == nil {
		return nil, nil
	}
	if b := file.service(name); b != nil {
		return file, b
	}
	return nil, nil
}
