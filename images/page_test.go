package images

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

var updatePage = flag.Bool("update", false, "rewrite docs/images.md from the table")

// TestImagesPage: docs/images.md, the image table's coverage, is made
// from the table, so the two cannot drift (-update rewrites it).
func TestImagesPage(t *testing.T) {
	const file = "../docs/images.md"
	tab, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("# compose2manifest: the image table\n\nPart of the [reference](reference.md). Generated from `images/table.yaml` by\n`go test ./images -run TestImagesPage -update`; a test fails when it is stale.\n\n")
	b.WriteString("The facts convert produces from an image, each row citing the Dockerfile, entrypoint or\ndocumentation that states it. A path row gives the owner, mode, intent and kind of the data at a\ncontainer path; an image row the variables read from `VAR_FILE`, the `VOLUME`s the image\ndeclares, and the variables that change the user its process runs as.\n\n")
	repos := map[string]bool{}
	for _, r := range tab.Rows {
		repos[r.Repository] = true
	}
	for _, r := range tab.Images {
		repos[r.Repository] = true
	}
	fmt.Fprintf(&b, "%d path rows and %d image rows, for %d repositories (or families of them).\n\n", len(tab.Rows), len(tab.Images), len(repos))
	b.WriteString("## Paths\n\n| repository | variant | path | kind | owner | mode | intent | source |\n|---|---|---|---|---|---|---|---|\n")
	rows := append([]Row(nil), tab.Rows...)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Repository < rows[j].Repository })
	for _, r := range rows {
		fmt.Fprintf(&b, "| `%s` | %s | `%s` | %s | %s | %s | %s | [source](%s) (%s:%d) |\n", r.Repository, r.Variant, r.Path, r.Kind, r.Owner, r.Mode, r.Intent, r.Source, TableFile, r.Line)
	}
	b.WriteString("\n## Images\n\n| repository | variant | reads `VAR_FILE` | `VOLUME` | owner variables | steps down from root for | source |\n|---|---|---|---|---|---|---|\n")
	ims := append([]ImageRow(nil), tab.Images...)
	sort.SliceStable(ims, func(i, j int) bool { return ims[i].Repository < ims[j].Repository })
	for _, r := range ims {
		owner := ""
		if r.OwnerUID != "" {
			owner = r.OwnerUID + ", " + r.OwnerGID
			if r.OwnerDefault != "" {
				owner += " (default " + r.OwnerDefault + ")"
			}
		}
		variant := r.Variant
		if r.AnyVariant {
			variant = "any"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | [source](%s) (%s:%d) |\n", r.Repository, variant, strings.Join(r.FileEnv, ", "), strings.Join(r.Volumes, ", "), owner, strings.Join(r.StepsDownFor, ", "), r.Source, TableFile, r.Line)
	}
	want := []byte(b.String())
	got, err := os.ReadFile(file)
	if err == nil && bytes.Equal(got, want) {
		return
	}
	if !*updatePage {
		t.Fatalf("%s is stale or missing (%v); run go test ./images -run TestImagesPage -update", file, err)
	}
	if err := os.WriteFile(file, want, 0o644); err != nil {
		t.Fatal(err)
	}
}
