package batch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/fsread"
	"github.com/compose2manifest/compose2manifest/project"
)

// Shard is part K of N of the projects under a root (--shard K/N): the
// projects whose path relative to the root hashes to it. The split is
// stable: a project's shard depends on its path alone, so adding or
// removing a project never moves another, and the N shards together hold
// every path exactly once. The zero Shard is the whole set.
type Shard struct {
	// K is the part, 1 to N; N the number of parts (0: no sharding).
	K, N int
}

// ParseShard parses "K/N" with 1 <= K <= N; "" is the zero Shard.
func ParseShard(s string) (Shard, error) {
	var sh Shard
	if err := sh.Set(s); err != nil {
		return Shard{}, fmt.Errorf("--shard %q: %w", s, err)
	}
	return sh, nil
}

// Set sets s from "K/N" (1 <= K <= N; "" for the zero Shard), as the
// flag --shard takes it (a pflag.Value, with String and Type).
func (s *Shard) Set(v string) error {
	if v == "" {
		*s = Shard{}
		return nil
	}
	ks, ns, ok := strings.Cut(v, "/")
	k, kerr := strconv.Atoi(ks)
	n, nerr := strconv.Atoi(ns)
	if !ok || kerr != nil || nerr != nil || n < 1 || k < 1 || k > n {
		return errors.New("want K/N with 1 <= K <= N, such as 2/8")
	}
	*s = Shard{K: k, N: n}
	return nil
}

// Type names the flag's value in usage messages.
func (s *Shard) Type() string { return "K/N" }

// On reports whether s is a part, not the whole set.
func (s Shard) On() bool { return s.N > 0 }

// String returns "K/N", or "" for the zero Shard.
func (s Shard) String() string {
	if !s.On() {
		return ""
	}
	return strconv.Itoa(s.K) + "/" + strconv.Itoa(s.N)
}

// Has reports whether the path rel (relative to the root, slash- or
// OS-separated; "." is the root itself) is in s: FNV-1a of the cleaned
// slash path, modulo N, is K-1. The zero Shard has every path.
func (s Shard) Has(rel string) bool {
	if !s.On() {
		return true
	}
	return s.Of(rel) == s.K
}

// Of returns the part, 1 to N, that rel is in (1 for the zero Shard).
func (s Shard) Of(rel string) int {
	if !s.On() {
		return 1
	}
	h := fnv.New64a()
	h.Write([]byte(path.Clean(strings.ReplaceAll(rel, `\`, "/"))))
	return int(h.Sum64()%uint64(s.N)) + 1
}

// key is the path a project is sharded by: its folder relative to the
// root, or, for a compose file converted alone (--include-file), that
// file's path relative to the root.
func (p Project) key(rootAbs string) string {
	if p.File != "" {
		return relSlash(rootAbs, p.File)
	}
	return p.Rel
}

// split returns the projects of s and those of the other shards.
func (s Shard) split(rootAbs string, ps []Project) (mine, others []Project) {
	if !s.On() {
		return ps, nil
	}
	for _, p := range ps {
		if s.Has(p.key(rootAbs)) {
			mine = append(mine, p)
		} else {
			others = append(others, p)
		}
	}
	return mine, others
}

// readElsewhere adds to used, for a sharded batch, the files read by the
// projects of other shards (others) that may read a compose file of this
// shard no project of it reads: those whose default compose files, .env
// or declarations file mention that file's name are converted (nothing
// is staged) to learn what they read. Without it such a file would be
// listed as not converted, or converted alone, by this shard though a
// project of another reads it. A file reached only through another
// included file that does not lie in the project's folder is not seen.
func readElsewhere(ctx context.Context, r Runner, jobs int, opts convert.Options, rootAbs string, t *tree, used map[string]bool, others []Project, s Shard) error {
	if !s.On() || len(others) == 0 {
		return nil
	}
	for _, p := range t.projects {
		for _, f := range project.DefaultFiles(p.Dir) {
			used[f] = true
		}
	}
	var names []string
	for _, f := range append(slices.Clone(t.yamlFiles), t.unsearched...) {
		if !used[f] && project.LooksLikeCompose(f) && s.Has(relSlash(rootAbs, f)) {
			names = append(names, filepath.Base(f))
		}
	}
	if len(names) == 0 {
		return nil
	}
	var sel []Project
	for _, p := range others {
		if p.Err == nil && mentions(p.Dir, names) {
			sel = append(sel, p)
		}
	}
	var mu sync.Mutex
	return r.Each(ctx, sel, jobs, opts, func(_ int, res *convert.Result, _ error) {
		mu.Lock()
		defer mu.Unlock()
		for _, f := range res.Files {
			used[f] = true
		}
	})
}

// mentions reports whether a file of the project in dir that can name
// other compose files (its default compose files, .env, its declarations
// file) holds one of names.
func mentions(dir string, names []string) bool {
	files := append(project.DefaultFiles(dir), filepath.Join(dir, ".env"), filepath.Join(dir, convert.DeclarationsFile))
	for _, f := range files {
		data, err := fsread.File("compose file", f, 16<<20)
		if err != nil {
			continue
		}
		for _, n := range names {
			if bytes.Contains(data, []byte(n)) {
				return true
			}
		}
	}
	return false
}

// elsewhere returns the module names the projects of other shards give
// without loading (convert.QuickModule), and the folder base names of
// those it cannot name: a manifest of one of them is no orphan (see
// orphans).
func elsewhere(others []Project, opts convert.Options) (names, unknown map[string]bool) {
	names, unknown = map[string]bool{}, map[string]bool{}
	for _, p := range others {
		if name, ok := convert.QuickModule(p.Dir, opts); ok && p.Err == nil && p.File == "" {
			names[name] = true
		} else {
			unknown[filepath.Base(p.Dir)] = true
		}
	}
	return names, unknown
}
