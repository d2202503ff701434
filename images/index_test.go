package images

import (
	"strconv"
	"strings"
	"testing"
)

// TestIndexLikeScan holds Match and OutOfVersion with the index Parse
// builds to the same lookups over every row (a table without an index):
// for each row's repository (a family's with a member), at each row's
// path and a path no row has, with tags naming no version, each row's
// bounds and each variant.
func TestIndexLikeScan(t *testing.T) {
	table, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if table.index == nil {
		t.Fatal("Load built no index")
	}
	scan := &Table{Rows: table.Rows, Images: table.Images, Digest: table.Digest}
	// targets are each repository's paths, the families' and two no row has.
	repos, tags := map[string]map[string]bool{}, map[string]bool{"latest": true, "alpine": true, "1": true, "99-alpine": true}
	common := map[string]bool{"/nowhere": true, "/data/": true}
	for _, r := range table.Rows {
		if Family(r.Repository) {
			common[r.Path] = true
		}
	}
	for _, r := range table.Rows {
		repo := r.Repository
		if prefix, ok := strings.CutSuffix(repo, "/*"); ok {
			repo = prefix + "/member"
		}
		if repos[repo] == nil {
			repos[repo] = map[string]bool{}
		}
		repos[repo][r.Path] = true
		for _, n := range []int{r.MaxMajor, r.MaxMajor + 1, r.MinMajor - 1, r.MinMajor} {
			if n > 0 {
				tags[strconv.Itoa(n)] = true
				if r.Variant != "" {
					tags[strconv.Itoa(n)+"-"+r.Variant] = true
				}
			}
		}
		if r.Variant != "" {
			tags[r.Variant] = true
		}
	}
	n := 0
	for repo, targets := range repos {
		for target := range common {
			targets[target] = true
		}
		for tag := range tags {
			ref := repo + ":" + tag
			for target := range targets {
				gotRow, got := table.Match(ref, target)
				wantRow, want := scan.Match(ref, target)
				if got != want || gotRow.Line != wantRow.Line {
					t.Errorf("Match(%q, %q) = line %d, %v; the scan gives line %d, %v", ref, target, gotRow.Line, got, wantRow.Line, want)
				}
				gotRow, got = table.OutOfVersion(ref, target)
				wantRow, want = scan.OutOfVersion(ref, target)
				if got != want || gotRow.Line != wantRow.Line {
					t.Errorf("OutOfVersion(%q, %q) = line %d, %v; the scan gives line %d, %v", ref, target, gotRow.Line, got, wantRow.Line, want)
				}
				if got {
					n++
				}
			}
		}
	}
	if n == 0 {
		t.Error("no lookup was out of version: the test looks at nothing")
	}
}
