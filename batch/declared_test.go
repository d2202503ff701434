package batch

import (
	"reflect"
	"testing"

	"github.com/compose2manifest/compose2manifest/manifest"
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
	if len(d.hashes) != 2 {
		t.Errorf("hashes of distinct paths: %d, want 2", len(d.hashes))
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
	if got, want := shared(es), []bool{true, false, true, false}; !reflect.DeepEqual(got, want) {
		t.Errorf("shared = %v, want %v", got, want)
	}
}
