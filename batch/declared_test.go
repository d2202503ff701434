package batch

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
)

func TestSpoolRoundTrip(t *testing.T) {
	recs := []declRec{
		{kind: manifest.KindDirectory, path: "/srv/a", file: "compose.yaml", line: 12, source: "./data", service: "web"},
		{kind: manifest.KindFile, path: "/srv/a/f", file: "", line: 0},
		{kind: manifest.KindDirectory, path: "/srv/a", file: "compose.override.yaml", line: 300},
	}
	sp := newSpool()
	defer sp.close()
	d := sp.store(recs)
	if !d.spool || d.blob != "" {
		t.Fatalf("not spooled: %+v", d)
	}
	// Two distinct paths, each used where it is (no legacy origin): a
	// key for each path and one for each in place (inPlaceKey).
	if len(d.keys) != 4 || len(d.above) != 3 {
		t.Errorf("hashes of distinct paths: %d, of their ancestors %d; want 4 and 3", len(d.keys), len(d.above))
	}
	d2 := sp.store(recs[:1])
	for _, x := range []struct {
		d    declSet
		want []declRec
	}{{d, recs}, {d2, recs[:1]}} {
		got, err := sp.load(x.d)
		if err != nil || !reflect.DeepEqual(got, x.want) {
			t.Errorf("load = %+v, %v; want %+v", got, err, x.want)
		}
	}
	// Without a spool file, the block is kept in memory.
	sp.close()
	d3 := sp.store(recs)
	if d3.spool || d3.blob == "" {
		t.Fatalf("closed spool: %+v", d3)
	}
	if got, err := sp.load(d3); err != nil || !reflect.DeepEqual(got, recs) {
		t.Errorf("load in memory = %+v, %v", got, err)
	}
	if _, err := decodeDecl([]byte{5, 1}); err == nil {
		t.Error("corrupt block decoded")
	}
}

func TestShared(t *testing.T) {
	sp := newSpool()
	defer sp.close()
	es := []Entry{
		{declared: sp.store([]declRec{{path: "/a"}, {path: "/a"}, {path: "/b"}})},
		{declared: sp.store([]declRec{{path: "/c"}})},
		{declared: sp.store([]declRec{{path: "/b"}})},
		{},
	}
	if got, want := shared(len(es), func(i int) declSet { return es[i].declared }), []bool{true, false, true, false}; !reflect.DeepEqual(got, want) {
		t.Errorf("shared = %v, want %v", got, want)
	}
}

// setEntries returns entries for modules of recs (module name, records),
// their records stored in sp, as a batch makes them.
func setEntries(sp *spool, mods []setMod) []Entry {
	es := make([]Entry, len(mods))
	for i, m := range mods {
		es[i] = Entry{Project: "p" + strconv.Itoa(i), Module: m.name, Status: convert.Converted, inSet: true, declared: sp.store(m.recs)}
	}
	return es
}

type setMod struct {
	name string
	recs []declRec
}

// fullCheck is crossCheck without the prefilter: every declared record
// of every module checked.
func fullCheck(es []Entry, mods []setMod) {
	recs, keep := map[int][]declRec{}, map[string]bool{}
	for i, m := range mods {
		recs[i] = m.recs
		for _, r := range m.recs {
			keep[r.path] = true
		}
	}
	var owners []int
	ds := runKept(rules.All(), len(es), recs, keep, func(i int) *manifest.Module { return entryHead(es, i, &owners) },
		func(i int, name string) string { return es[i].file(name) })
	assign(es, owners, ds)
}

// TestCrossCheckFindsAll: the set rules find, in what crossCheck keeps
// of the modules (shared, meeting), what they find in every declared
// path: owners of one path, a host path another owns, a path inside
// another module's, one Docker volume or absolute bind copied by two
// modules; and a relative bind or an anonymous volume, the same text in
// every project, makes no module meet another. The nesting case was
// missed before: neither path was declared twice.
func TestCrossCheckFindsAll(t *testing.T) {
	dir, host := manifest.KindDirectory, manifest.KindHost
	rec := func(kind manifest.Kind, path, legacy string, line int) declRec {
		return declRec{kind: kind, path: path, file: "compose.yaml", line: line, legacy: legacy}
	}
	cases := map[string][]setMod{
		"nested": {
			{"outer", []declRec{rec(dir, "/srv/shared", "", 1)}},
			{"inner", []declRec{rec(dir, "/srv/shared/x/y", "bind ./data", 2), rec(dir, "/srv/shared/x", "", 3)}},
		},
		"same path and host": {
			{"a", []declRec{rec(dir, "/opt/a", "bind ./data", 1), rec(host, "/var/run/docker.sock", "bind /var/run/docker.sock", 2)}},
			{"b", []declRec{rec(host, "/opt/a", "bind /opt/a", 4), rec(dir, "/opt/b", "bind ./data", 5)}},
			{"c", []declRec{rec(dir, "/opt/a", "anonymous Docker volume of service db", 6)}},
		},
		"shared origin": {
			{"a", []declRec{rec(dir, "/srv/a/pg", "Docker volume pg", 1), rec(dir, "/srv/a/bk", "bind /backup", 2)}},
			{"b", []declRec{rec(dir, "/srv/b/pg", "Docker volume pg", 3), rec(dir, "/srv/b/bk", "bind /backup", 4), rec(dir, "/srv/b/x", "bind ./data", 5)}},
		},
		// Missed before: no path and no origin was declared twice.
		"nested origin": {
			{"a", []declRec{rec(dir, "/srv/a/mnt-dl", "bind /mnt/dl", 1)}},
			{"b", []declRec{rec(dir, "/srv/b/mnt-dl-sub", "bind /mnt/dl/sub", 2)}},
			{"c", []declRec{rec(dir, "/srv/c/mnt", "bind /mnt/", 3)}},
		},
	}
	// And modules drawn from few paths and origins, that meet in every way.
	rnd := rand.New(rand.NewPCG(1, 2))
	paths := []string{"/", "/srv", "/srv/a", "/srv/a/b", "/srv/a/b/c", "/srv/d", "/opt/a", "/opt/a/data", "/opt/b"}
	legacies := []string{"", "bind ./data", "anonymous Docker volume of service db", "Docker volume v", "bind /srv/x", "bind /srv/x/y", "bind /srv", "bind /srv/x/"}
	for c := range 200 {
		var mods []setMod
		for m := range 2 + rnd.IntN(5) {
			var rs []declRec
			for range rnd.IntN(4) {
				kind := dir
				if rnd.IntN(4) == 0 {
					kind = host
				}
				rs = append(rs, rec(kind, paths[rnd.IntN(len(paths))], legacies[rnd.IntN(len(legacies))], rnd.IntN(50)))
			}
			mods = append(mods, setMod{"m" + strconv.Itoa(m%4), rs})
		}
		cases["random "+strconv.Itoa(c)] = mods
	}
	found := 0
	for name, mods := range cases {
		sp := newSpool()
		got, want := setEntries(sp, mods), setEntries(sp, mods)
		crossCheck(got, sp, func(s string) string { return s })
		fullCheck(want, mods)
		sp.close()
		for i := range want {
			found += len(want[i].Diagnostics)
			if !reflect.DeepEqual(got[i].Diagnostics, want[i].Diagnostics) || got[i].Status != want[i].Status {
				t.Errorf("%s: module %d: %s %+v, want %s %+v", name, i, got[i].Status, got[i].Diagnostics, want[i].Status, want[i].Diagnostics)
			}
		}
		if strings.HasPrefix(name, "random") {
			continue
		}
		n := 0
		for i := range want {
			n += len(want[i].Diagnostics)
		}
		if n == 0 {
			t.Errorf("%s: the set rules find nothing", name)
		}
	}
	if found < 200 {
		t.Errorf("only %d findings in all the cases", found)
	}
}

// TestRunSetFindsAll: RunSet, check's way to the rules across manifests,
// finds what rules.RunSet finds over the whole modules, positions and
// order included, in modules drawn from few paths and origins (some only
// in the comments a manifest read from disk records them in).
func TestRunSetFindsAll(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	paths := []string{"/", "/srv", "/srv/a", "/srv/a/b", "/srv/a/b/c", "/srv/d", "/opt/a", "/opt/a/data", "/opt/b"}
	comments := []string{"", "supplied: compose2manifest.yaml", "supplied: c.yaml; legacy: bind ./data", "legacy: Docker volume v",
		"produced: x; legacy: bind /mnt/dl; kind directory: /mnt/dl absent", "legacy: bind /mnt/dl/sub", "legacy: bind /mnt", "legacy: bind /srv/a"}
	kinds := []manifest.Kind{manifest.KindDirectory, manifest.KindDirectory, manifest.KindFile, manifest.KindHost}
	found := 0
	for c := range 300 {
		var mods []*manifest.Module
		for m := range 1 + rnd.IntN(5) {
			mod := &manifest.Module{Module: "m" + strconv.Itoa(m%4), Pos: manifest.Pos{File: "out/" + strconv.Itoa(m) + ".yaml", Line: 3}}
			for range rnd.IntN(5) {
				r := manifest.Resource{Kind: kinds[rnd.IntN(len(kinds))], Path: paths[rnd.IntN(len(paths))], Comment: comments[rnd.IntN(len(comments))],
					Pos: manifest.Pos{File: mod.Pos.File, Line: 4 + rnd.IntN(40)}}
				mod.Resources = append(mod.Resources, r)
			}
			mods = append(mods, mod)
		}
		got, want := RunSet(rules.All(), mods), rules.RunSet(rules.All(), mods)
		found += len(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("case %d: RunSet = %+v,\nwant %+v", c, got, want)
		}
	}
	if found < 300 {
		t.Errorf("only %d findings in all the cases", found)
	}
}

// TestSharedCommonLegacy: a relative bind and an anonymous volume, whose
// origins are the same text in every project, and the folders every
// project's paths and absolute origins lie below, make no entry a
// candidate for the set rules; a copy of such a folder makes each copy
// below it one.
func TestSharedCommonLegacy(t *testing.T) {
	sp := newSpool()
	defer sp.close()
	var es []Entry
	for _, m := range []string{"a", "b", "c"} {
		es = append(es, Entry{declared: sp.store([]declRec{
			{kind: manifest.KindDirectory, path: "/opt/" + m + "/data", legacy: "bind ./data"},
			{kind: manifest.KindDirectory, path: "/srv/" + m + "/db", legacy: "anonymous Docker volume of service db"},
			{kind: manifest.KindHost, path: "/opt/" + m + "/x", legacy: "bind /opt"},
			// Below one folder, nested in no other's: /mnt/pool above
			// each meets nothing.
			{kind: manifest.KindDirectory, path: "/srv/" + m + "/pool", legacy: "bind /mnt/pool/" + m},
		})})
	}
	set := func(i int) declSet { return es[i].declared }
	if got := shared(len(es), set); slices.Contains(got, true) {
		t.Errorf("shared = %v, want none", got)
	}
	// A copy of /mnt/pool itself holds every one of them.
	es = append(es, Entry{declared: sp.store([]declRec{{kind: manifest.KindDirectory, path: "/srv/d/pool", legacy: "bind /mnt/pool"}})})
	if got, want := shared(len(es), set), []bool{true, true, true, true}; !reflect.DeepEqual(got, want) {
		t.Errorf("with a copy of /mnt/pool, shared = %v, want %v", got, want)
	}
}
