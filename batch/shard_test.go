package batch

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
)

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		ok   bool
	}{
		{"", Shard{}, true},
		{"1/1", Shard{1, 1}, true},
		{"2/8", Shard{2, 8}, true},
		{"8/8", Shard{8, 8}, true},
		{"0/8", Shard{}, false},
		{"9/8", Shard{}, false},
		{"1/0", Shard{}, false},
		{"-1/2", Shard{}, false},
		{"1", Shard{}, false},
		{"1/2/3", Shard{}, false},
		{"a/b", Shard{}, false},
		{" 1/2", Shard{}, false},
	} {
		got, err := ParseShard(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
		if err == nil && got.String() != tc.in {
			t.Errorf("ParseShard(%q).String() = %q", tc.in, got.String())
		}
		// As a flag's value (pflag.Value): the same, and a bad value
		// leaves the flag as it was.
		var sh Shard = Shard{K: 1, N: 3}
		if err := sh.Set(tc.in); (err == nil) != tc.ok || (tc.ok && sh != tc.want) || (!tc.ok && sh != Shard{K: 1, N: 3}) {
			t.Errorf("Set(%q): %v, %v", tc.in, sh, err)
		}
	}
}

// randomPaths returns n distinct project paths relative to a root, as
// discovery gives them: ".", or slash-separated folder names.
func randomPaths(r *rand.Rand, n int) []string {
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		p := "."
		if r.IntN(50) > 0 {
			parts := make([]string, 1+r.IntN(4))
			for i := range parts {
				parts[i] = fmt.Sprintf("%c%d", 'a'+rune(r.IntN(26)), r.IntN(1000))
			}
			p = filepath.ToSlash(filepath.Join(parts...))
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// TestShardProperties: for generated path sets and every N, the shards
// 1/N to N/N cover every path exactly once (their union is the set, and
// no two share a path), and adding paths to the set moves no path already
// in it to another shard.
func TestShardProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 1 + r.IntN(16)
		paths := randomPaths(r, 1+r.IntN(300))
		projects := make([]Project, len(paths))
		for i, p := range paths {
			projects[i] = Project{Dir: filepath.Join("/root", filepath.FromSlash(p)), Rel: p}
		}
		owner := map[string]int{}
		total := 0
		for k := 1; k <= n; k++ {
			s := Shard{K: k, N: n}
			mine, others := s.split("/root", projects)
			if len(mine)+len(others) != len(projects) {
				t.Fatalf("trial %d: shard %s splits %d projects into %d and %d", trial, s, len(projects), len(mine), len(others))
			}
			for _, p := range mine {
				if prev, dup := owner[p.Rel]; dup {
					t.Fatalf("trial %d: %q is in shard %d/%d and %s", trial, p.Rel, prev, n, s)
				}
				owner[p.Rel] = k
				total++
			}
		}
		if total != len(paths) || len(owner) != len(paths) {
			t.Fatalf("trial %d: %d shards hold %d of %d paths", trial, n, len(owner), len(paths))
		}
		// Stable under additions: the old paths keep their shards.
		more := append(slices.Clone(paths), randomPaths(r, 1+r.IntN(100))...)
		for k := 1; k <= n; k++ {
			s := Shard{K: k, N: n}
			for _, p := range more {
				if k0, old := owner[p]; old && s.Has(p) != (k0 == k) {
					t.Fatalf("trial %d: adding paths moved %q from shard %d/%d", trial, p, k0, n)
				}
			}
		}
	}
}

// TestShardSpread: the hash spreads paths evenly enough that no shard of
// 8 gets more than twice its share of 4,000 generated paths.
func TestShardSpread(t *testing.T) {
	paths := randomPaths(rand.New(rand.NewPCG(3, 4)), 4000)
	s := Shard{K: 1, N: 8}
	count := make([]int, 9)
	for _, p := range paths {
		count[s.Of(p)]++
	}
	for k := 1; k <= 8; k++ {
		if count[k] < 250 || count[k] > 1000 {
			t.Errorf("shard %d/8 holds %d of 4000 paths", k, count[k])
		}
	}
}

// shardOf returns a name among candidates (made by name(i)) in shard k
// of n, and one not in it.
func namesIn(t *testing.T, s Shard, name func(i int) string) (in, out string) {
	t.Helper()
	for i := 0; in == "" || out == ""; i++ {
		if i > 1000 {
			t.Fatal("no name found")
		}
		if n := name(i); s.Has(n) && in == "" {
			in = n
		} else if !s.Has(n) && out == "" {
			out = n
		}
	}
	return in, out
}

// TestRunSharded runs a batch once whole and once per shard of 3 (each
// into its own output folder, holding the same orphan and a foreign
// manifest), and compares: every project is converted by exactly one
// shard, and what is listed as not converted, and the orphans, are
// listed by exactly one shard, as the whole batch lists them. A compose
// file that only a project of another shard includes is not listed.
func TestRunSharded(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 12 {
		for k, v := range projectFiles(fmt.Sprintf("p%02d", i), fmt.Sprintf("mod%02d", i), fmt.Sprintf("/opt/mod%02d", i)) {
			files[k] = v
		}
	}
	s := Shard{K: 1, N: 3}
	// A project of shard 1 including a file whose path is in another
	// shard, and one of another shard including a file of shard 1.
	incIn, _ := namesIn(t, s, func(i int) string { return fmt.Sprintf("inc%d", i) })
	_, incOut := namesIn(t, s, func(i int) string { return fmt.Sprintf("inc%d", i) })
	_, fileOut := namesIn(t, s, func(i int) string { return fmt.Sprintf("%s/extra%d.yaml", incIn, i) })
	fileIn, _ := namesIn(t, s, func(i int) string { return fmt.Sprintf("%s/extra%d.yaml", incOut, i) })
	for dir, extra := range map[string]string{incIn: fileOut, incOut: fileIn} {
		for k, v := range projectFiles(dir, "m"+dir, "/opt/m"+dir) {
			files[k] = v
		}
		files[dir+"/compose.yaml"] = fmt.Sprintf("include:\n  - %s\nservices:\n  web:\n    image: nginx:1.27\n    volumes:\n      - ./html:/usr/share/nginx/html:ro\n", filepath.Base(extra))
		files[extra] = "services:\n  side:\n    image: busybox:1.36\n"
	}
	for i := range 6 {
		files[fmt.Sprintf("stray%d/notes/docker-compose.prod.yaml", i)] = "services:\n  web:\n    image: nginx:1.27\n"
	}
	writeTree(t, root, files)
	orphan := "# Module manifest generated by compose2manifest from gone/compose.yaml — edit the declarations, not this file.\nversion: 1\nmodule: %s\n"
	run := func(s Shard) *Report {
		out := t.TempDir()
		for i := range 6 {
			name := fmt.Sprintf("gone%d", i)
			if err := os.WriteFile(filepath.Join(out, name+".yaml"), fmt.Appendf(nil, orphan, name), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		rep, err := Run(context.Background(), Config{Root: root, Out: out, Shard: s, Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	whole := run(Shard{})
	type lists struct{ projects, skipped, orphans []string }
	of := func(rep *Report) lists {
		var l lists
		for _, e := range rep.Entries {
			l.projects = append(l.projects, e.Project+" "+string(e.Status))
		}
		for _, sk := range rep.Skipped {
			l.skipped = append(l.skipped, sk.Path[len(root):])
		}
		for _, o := range rep.Orphans {
			l.orphans = append(l.orphans, o.Module)
		}
		return l
	}
	want := of(whole)
	if len(want.skipped) != 6 || len(want.orphans) != 6 || len(want.projects) != 14 {
		t.Fatalf("whole batch: %+v", want)
	}
	var got lists
	for k := 1; k <= 3; k++ {
		rep := run(Shard{K: k, N: 3})
		if rep.OtherShards+len(rep.Entries) != len(whole.Entries) {
			t.Errorf("shard %d/3: %d projects and %d in other shards, of %d", k, len(rep.Entries), rep.OtherShards, len(whole.Entries))
		}
		l := of(rep)
		got.projects = append(got.projects, l.projects...)
		got.skipped = append(got.skipped, l.skipped...)
		got.orphans = append(got.orphans, l.orphans...)
	}
	for _, l := range []*lists{&want, &got} {
		sort.Strings(l.projects)
		sort.Strings(l.skipped)
		sort.Strings(l.orphans)
	}
	if !slices.Equal(got.projects, want.projects) || !slices.Equal(got.skipped, want.skipped) || !slices.Equal(got.orphans, want.orphans) {
		t.Errorf("shards together:\n got %+v\nwant %+v", got, want)
	}
}
