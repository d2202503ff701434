package batch

import (
	"cmp"
	"encoding/binary"
	"errors"
	"hash/maphash"
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/rules"
)

// declSet is what a batch keeps of one module's declared paths until the
// rules that span modules run: the hashes of what another module can
// meet (keys: each distinct path, and each origin two projects can share,
// rules.SharableOrigin; above: each ancestor of a path it owns, which
// another module may own, and each folder above a bind origin's host
// path, which another module may copy), sorted, to find the modules that
// meet; and the
// records themselves, encoded in one pointer-free block that is spooled
// to a temporary file (at off, size bytes) or, when that cannot be
// written, kept in blob. So a batch's memory grows by a few hundred bytes
// per module, not by the module's declared paths, and only the modules
// that meet another are read back.
type declSet struct {
	keys  []uint64
	above []uint64
	blob  string
	off   int64
	size  int
	spool bool
}

// spool is the temporary file declared records are written to; created
// on first use, removed by close.
type spool struct {
	mu   sync.Mutex
	seed maphash.Seed
	f    *os.File
	off  int64
	err  error
}

func newSpool() *spool { return &spool{seed: maphash.MakeSeed()} }

// store encodes recs and keeps them, in the spool file when it can.
func (s *spool) store(recs []declRec) declSet {
	var d declSet
	if len(recs) == 0 {
		return d
	}
	d.keys, d.above = s.hashes(recs)
	b := encodeDecl(recs)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil && s.err == nil {
		s.f, s.err = os.CreateTemp("", "compose2manifest-batch-*.spool")
	}
	if s.err == nil {
		if _, err := s.f.WriteAt(b, s.off); err == nil {
			d.off, d.size, d.spool = s.off, len(b), true
			s.off += int64(len(b))
			return d
		}
	}
	d.blob = string(b)
	return d
}

// hashes returns the prefilter's hashes of recs (declSet's keys and
// above). A sharable origin is keyed as owned (it is only counted for a
// path the module owns), and a bind's host path has each of its
// ancestors above, keyed as origins: so a copy of /mnt/dl/sub meets a
// copy of /mnt/dl, and no module meets another for the relative origins
// every project has (bind ./data), which are not sharable.
func (s *spool) hashes(recs []declRec) (keys, above []uint64) {
	keys = make([]uint64, 0, len(recs))
	for _, r := range recs {
		keys = append(keys, s.hash(r.path, r.owns()))
		if r.inPlace() {
			// Used where it is: met by a copy of a directory below it
			// (checkMovedFromUnder), which has it above.
			keys = append(keys, s.hash(inPlaceKey(r.path), true))
		}
		if dir, ok := strings.CutPrefix(rules.OriginKey(r.legacy), "bind /"); ok && r.owns() {
			for a := rules.ParentOf("/" + dir); a != ""; a = rules.ParentOf(a) {
				above = append(above, s.hash(inPlaceKey(a), false))
			}
		}
		if r.owns() {
			if r.sharable() {
				o := rules.OriginKey(r.legacy)
				keys = append(keys, s.hash(legacyKey(o), true))
				if dir, ok := strings.CutPrefix(o, "bind "); ok {
					for a := rules.ParentOf(dir); a != ""; a = rules.ParentOf(a) {
						above = append(above, s.hash(legacyKey("bind "+a), false))
					}
				}
			}
			for a := rules.ParentOf(r.path); a != ""; a = rules.ParentOf(a) {
				above = append(above, s.hash(a, false))
			}
		} else if strings.HasPrefix(r.path, "/") {
			// A host path, and each folder above it, as the origin a
			// module may copy elsewhere (checkSharedOrigin): above, so
			// that it meets only a module that owns such a copy, never
			// the many modules using /etc/localtime as it is.
			for a := path.Clean(r.path); a != ""; a = rules.ParentOf(a) {
				above = append(above, s.hash(legacyKey("bind "+a), false))
			}
		}
	}
	return sortedSet(keys), sortedSet(above)
}

// hash returns the prefilter's hash of key: its lowest bit says whether
// the key is a path the module owns (declRec.owns), the others are the
// key's; shared compares keys without that bit.
func (s *spool) hash(key string, owned bool) uint64 {
	h := maphash.String(s.seed, key) &^ 1
	if owned {
		h |= 1
	}
	return h
}

// sortedSet returns hs sorted, without repeats, clipped.
func sortedSet(hs []uint64) []uint64 {
	if len(hs) == 0 {
		return nil
	}
	slices.Sort(hs)
	return slices.Clip(slices.Compact(hs))
}

// inPlaceKey is the prefilter's key of a host directory a module uses
// where it is, apart from paths and origins.
func inPlaceKey(p string) string { return "\x01" + path.Clean(p) }

// inPlace reports whether r is a host directory its module uses where it
// is, kind host or owned without a legacy origin elsewhere, that a copy
// of a directory below it would leave behind (rules'
// checkMovedFromUnder): not a system directory, nor a well-known host
// path such as /etc/localtime.
func (r declRec) inPlace() bool {
	if !strings.HasPrefix(r.path, "/") || r.owns() && r.legacy != "" {
		return false
	}
	c := path.Clean(r.path)
	return !slices.Contains(rules.SystemPaths(), c) && !project.WellKnownHost(c)
}

// owns reports whether r declares its path as the module's own (not a
// host path): what the set rules compare nesting and origins by.
func (r declRec) owns() bool { return r.kind != manifest.KindHost }

// sharable reports whether r's origin is data another project can share
// (rules.SharableOrigin).
func (r declRec) sharable() bool { return r.legacy != "" && rules.SharableOrigin(r.legacy) }

// load returns the records of d.
func (s *spool) load(d declSet) ([]declRec, error) {
	if !d.spool {
		return decodeDecl([]byte(d.blob))
	}
	b := make([]byte, d.size)
	if _, err := s.f.ReadAt(b, d.off); err != nil {
		return nil, err
	}
	return decodeDecl(b)
}

// close removes the spool file. It may be called more than once.
func (s *spool) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f != nil {
		s.f.Close()
		os.Remove(s.f.Name())
		s.f = nil
		s.err = errors.New("spool closed")
	}
}

func encodeDecl(recs []declRec) []byte {
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(recs)))
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	for _, r := range recs {
		str(string(r.kind))
		str(r.path)
		str(r.file)
		b = binary.AppendUvarint(b, uint64(r.line))
		str(r.source)
		str(r.service)
		str(r.legacy)
	}
	return b
}

// legacyKey is the key a declared record's origin is counted by, apart
// from every path.
func legacyKey(legacy string) string { return "\x00" + legacy }

var errBadDecl = errors.New("batch: corrupt spooled declarations")

func decodeDecl(b []byte) ([]declRec, error) {
	num := func() (uint64, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, false
		}
		b = b[n:]
		return v, true
	}
	str := func() (string, bool) {
		n, ok := num()
		if !ok || n > uint64(len(b)) {
			return "", false
		}
		s := string(b[:n])
		b = b[n:]
		return s, true
	}
	n, ok := num()
	if !ok || n > uint64(len(b)) {
		return nil, errBadDecl
	}
	recs := make([]declRec, 0, n)
	for range n {
		var r declRec
		kind, ok1 := str()
		r.path, ok = str()
		ok1 = ok1 && ok
		r.file, ok = str()
		ok1 = ok1 && ok
		line, ok := num()
		ok1 = ok1 && ok
		r.line = int(line)
		r.source, ok = str()
		ok1 = ok1 && ok
		r.service, ok = str()
		ok1 = ok1 && ok
		r.legacy, ok = str()
		if !ok1 || !ok {
			return nil, errBadDecl
		}
		r.kind = manifest.Kind(kind)
		recs = append(recs, r)
	}
	return recs, nil
}

// shared returns, for each of the entries (set gives each one's hashes), whether it may meet another entry in
// the set rules (by their hashes: a collision only makes an entry a
// candidate; crossCheck compares the paths themselves): a key (a path or
// a sharable origin) another entry has too, or an ancestor of a path it
// owns that another entry owns, or an owned path that is an ancestor of
// one another entry owns. An ancestor alone meets nothing: every project
// below /opt has /opt above its paths.
func shared(entries int, set func(i int) declSet) []bool {
	n := 0
	for i := range entries {
		n += len(set(i).keys) + len(set(i).above)
	}
	all := make([]prefilterKey, 0, n)
	for i := range entries {
		for _, h := range set(i).keys {
			all = append(all, prefilterKey{h, int32(i), false})
		}
		for _, h := range set(i).above {
			all = append(all, prefilterKey{h, int32(i), true})
		}
	}
	slices.SortFunc(all, func(a, b prefilterKey) int {
		if c := cmp.Compare(a.h>>1, b.h>>1); c != 0 {
			return c
		}
		return cmp.Compare(a.entry, b.entry)
	})
	out := make([]bool, entries)
	for len(all) > 0 {
		n := 1
		for n < len(all) && all[n].h>>1 == all[0].h>>1 {
			n++
		}
		if meets(all[:n]) {
			for _, k := range all[:n] {
				out[k.entry] = true
			}
		}
		all = all[n:]
	}
	return out
}

// prefilterKey is one hash of an entry's declSet: of its keys, or, when
// above, of an ancestor of a path it owns.
type prefilterKey struct {
	h     uint64 // spool.hash
	entry int32
	above bool
}

// meets reports whether, in a group of keys of one hash in entry order,
// two entries have the key, or one owns it and another has it above a
// path it owns.
func meets(group []prefilterKey) bool {
	keyed, last, owner := 0, int32(-1), int32(-1)
	for _, k := range group {
		if k.above {
			continue
		}
		if k.entry != last {
			keyed++
			last = k.entry
		}
		if k.h&1 == 1 && owner < 0 {
			owner = k.entry
		}
	}
	if keyed > 1 {
		return true
	}
	for _, k := range group {
		if owner >= 0 && k.above && k.entry != owner {
			return true
		}
	}
	return false
}
