package batch

import (
	"encoding/binary"
	"errors"
	"hash/maphash"
	"os"
	"slices"
	"sync"

	"github.com/compose2manifest/compose2manifest/manifest"
)

// declSet is what a batch keeps of one module's declared paths until the
// rules that span modules run: a hash of each distinct path (sorted), to
// find the paths more than one module declares, and the records
// themselves, encoded in one pointer-free block that is spooled to a
// temporary file (at off, size bytes) or, when that cannot be written,
// kept in blob. So a batch's memory grows by a few hundred bytes per
// module, not by the module's declared paths.
type declSet struct {
	hashes []uint64
	blob   string
	off    int64
	size   int
	spool  bool
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
	d.hashes = make([]uint64, 0, len(recs))
	for _, r := range recs {
		d.hashes = append(d.hashes, maphash.String(s.seed, r.path))
		if r.legacy != "" {
			d.hashes = append(d.hashes, maphash.String(s.seed, legacyKey(r.legacy)))
		}
	}
	slices.Sort(d.hashes)
	d.hashes = slices.Clip(slices.Compact(d.hashes))
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

// shared returns, for each entry, whether one of its declared paths may
// be declared by another entry too (by their hashes: a collision only
// makes an entry a candidate; crossCheck compares the paths themselves).
func shared(entries []Entry) []bool {
	var all []uint64
	for i := range entries {
		all = append(all, entries[i].declared.hashes...)
	}
	slices.Sort(all)
	dup := map[uint64]bool{}
	for i := 1; i < len(all); i++ {
		if all[i] == all[i-1] {
			dup[all[i]] = true
		}
	}
	all = nil
	out := make([]bool, len(entries))
	if len(dup) == 0 {
		return out
	}
	for i := range entries {
		for _, h := range entries[i].declared.hashes {
			if dup[h] {
				out[i] = true
				break
			}
		}
	}
	return out
}
