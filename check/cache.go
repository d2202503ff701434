package check

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/compose2manifest/compose2manifest/internal/atomicfile"
	"github.com/compose2manifest/compose2manifest/internal/fsread"
	"github.com/compose2manifest/compose2manifest/internal/version"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
)

// CacheDir returns the folder check --against keeps its cache in, as
// environ (NAME=VALUE entries) gives it: C2M_CHECK_CACHE, "off" (or
// empty but set) for none; else compose2manifest/check in the user's
// cache folder ($XDG_CACHE_HOME, else $HOME/.cache); "" when neither is
// set.
func CacheDir(environ []string) string {
	env := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	if v, ok := env["C2M_CHECK_CACHE"]; ok {
		if v == "off" || v == "" {
			return ""
		}
		return v
	}
	base := env["XDG_CACHE_HOME"]
	if !filepath.IsAbs(base) {
		if home := env["HOME"]; filepath.IsAbs(home) {
			base = filepath.Join(home, ".cache")
		} else {
			return ""
		}
	}
	return filepath.Join(base, "compose2manifest", "check")
}

// cache keeps, for each manifest file Against reads, what reading it
// alone gave: the manifest decoded, without its containers, and the
// module rules' findings. An entry holds only for the same bytes, the
// same name and path, the same rules and the same build of
// compose2manifest (version.Identity), so it is what decoding and judging
// the file again would give; anything else is a miss, and the file is
// decoded. The entries of one run are one index file, named by the build,
// the rules and the manifest paths given (so the cache grows with the
// sets of manifests checked, not with the runs), read whole at the start
// and written again, atomically, when a file missed or is gone. It is
// never required: a folder that cannot be read or written is no cache.
type cache struct {
	path    string                // the index file
	tool    string                // the build and the rules
	entries map[string]cacheEntry // by file as given, read at the start
	mu      sync.Mutex
	seen    map[string]cacheEntry // this run's, for the next index
	changed bool                  // an entry missed: write the index again
}

// maxCacheIndex bounds the bytes of an index read back.
const maxCacheIndex = 256 << 20

// newCache returns the cache in dir for the rules list and the manifest
// paths as given (resolved against wd), of a plain check (Manifests) or
// of Against, with the index read, or nil when dir is "" or the build
// cannot be named.
func newCache(dir, wd string, list []*rules.Rule, paths []string, plain bool) *cache {
	id := version.Identity()
	if dir == "" || id == "" {
		return nil
	}
	ids := make([]string, 0, len(list))
	for _, r := range list {
		ids = append(ids, r.ID)
	}
	c := &cache{tool: id + "\x00" + strings.Join(ids, ","), seen: map[string]cacheEntry{}}
	if plain {
		c.tool += "\x00plain"
	}
	name := c.tool
	for _, p := range paths {
		abs, _ := filepath.Abs(resolve(wd, p))
		name += "\x00" + p + "\x00" + abs
	}
	sum := sha256.Sum256([]byte(name))
	c.path = filepath.Join(dir, hex.EncodeToString(sum[:16])+".gob")
	if !trusted(c.path) {
		return c // read nothing; this run's entries replace it
	}
	if b, err := fsread.File("cache index", c.path, maxCacheIndex); err == nil {
		var idx cacheIndex
		if gob.NewDecoder(bytes.NewReader(b)).Decode(&idx) == nil && idx.Tool == c.tool {
			c.entries = idx.Entries
		}
	}
	return c
}

// trusted reports whether the index file at path may be read: a regular
// file (not a symbolic link) owned by this user and writable by no one
// else, in a folder that others cannot write to, unless its sticky bit
// keeps them from replacing what they do not own. The index says what
// check --against found in each manifest without decoding it again, so
// one planted by another user would pass a manifest the rules refuse.
func trusted(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o022 != 0 || !ownedByMe(fi) {
		return false
	}
	di, err := os.Stat(filepath.Dir(path))
	return err == nil && di.IsDir() && (di.Mode().Perm()&0o022 == 0 || di.Mode()&fs.ModeSticky != 0)
}

// cacheIndex is an index file, gob-encoded.
type cacheIndex struct {
	Tool    string
	Entries map[string]cacheEntry
}

// cacheEntry is one manifest file's entry.
type cacheEntry struct {
	// Abs is the file's absolute path and SHA256 the sha256 of its bytes.
	Abs, SHA256 string
	// Module is the manifest without its resources, which Resources hold.
	Module      *manifest.Module
	Resources   []cachedResource
	Diagnostics []rules.Diagnostic
	// Body and Generated are what textOf tells of the bytes.
	Body      string
	Generated bool
}

// cachedResource is a resource other than a container: what the rules
// beyond one manifest read (its provenance comment is not, but for the
// legacy origin it records, manifest.Resource.Legacy, which C2M005
// compares across manifests; the module rules that read the rest ran
// before). File "" is the manifest file's.
type cachedResource struct {
	Kind                            manifest.Kind
	Path, Name, Owner, Mode         string
	Intent                          manifest.Intent
	Note, ContentFrom, Target, File string
	Line                            int
	Legacy                          string
}

// get returns the entry for the file's bytes, and whether there is one.
func (c *cache) get(file, abs string, data []byte) (*manifest.Module, []rules.Diagnostic, text, bool) {
	e, ok := c.entries[file]
	if sum := sha256.Sum256(data); !ok || e.Abs != abs || e.SHA256 != hex.EncodeToString(sum[:]) || e.Module == nil {
		return nil, nil, text{}, false
	}
	c.mu.Lock()
	c.seen[file] = e
	c.mu.Unlock()
	m := *e.Module
	m.Resources = make([]manifest.Resource, 0, len(e.Resources))
	for _, r := range e.Resources {
		res := manifest.Resource{Kind: r.Kind, Path: r.Path, Name: r.Name, Owner: r.Owner, Mode: r.Mode,
			Intent: r.Intent, Note: r.Note, ContentFrom: r.ContentFrom, Target: r.Target, Pos: manifest.Pos{File: cmp.Or(r.File, file), Line: r.Line}}
		if r.Legacy != "" {
			res.Origin = &manifest.Origin{Legacy: r.Legacy}
		}
		m.Resources = append(m.Resources, res)
	}
	return &m, slices.Clone(e.Diagnostics), text{body: e.Body, generated: e.Generated}, true
}

// put records the entry for the file's bytes: m without its containers
// (nor comments), the findings and what its bytes are.
func (c *cache) put(file, abs string, data []byte, m *manifest.Module, diags []rules.Diagnostic, t text) {
	sum := sha256.Sum256(data)
	head := *m
	head.Resources = nil
	e := cacheEntry{Abs: abs, SHA256: hex.EncodeToString(sum[:]), Module: &head, Diagnostics: slices.Clone(diags), Body: t.body, Generated: t.generated}
	for _, r := range m.Resources {
		if r.Kind == manifest.KindContainer {
			continue
		}
		cr := cachedResource{Kind: r.Kind, Path: r.Path, Name: r.Name, Owner: r.Owner, Mode: r.Mode,
			Intent: r.Intent, Note: r.Note, ContentFrom: r.ContentFrom, Target: r.Target, File: r.Pos.File, Line: r.Pos.Line, Legacy: r.Legacy()}
		if cr.File == file {
			cr.File = ""
		}
		e.Resources = append(e.Resources, cr)
	}
	c.mu.Lock()
	c.seen[file], c.changed = e, true
	c.mu.Unlock()
}

// save writes the index of this run's entries when one missed or an entry
// of the last is gone. A failure to write leaves the cache as it was.
func (c *cache) save() {
	if !c.changed && len(c.seen) == len(c.entries) {
		return
	}
	var b bytes.Buffer
	if gob.NewEncoder(&b).Encode(cacheIndex{Tool: c.tool, Entries: c.seen}) != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(c.path), 0o700) != nil {
		return
	}
	_ = atomicfile.WriteFile(c.path, b.Bytes(), 0o600)
}
