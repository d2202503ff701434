package manual

import (
	"os"
	"path/filepath"
	"testing"
)

// Every command's page exists, and so does the index.
func TestPagesExist(t *testing.T) {
	pages := []string{Page("no such command")}
	for _, p := range pageOf {
		pages = append(pages, p)
	}
	for _, p := range pages {
		if _, err := os.Stat(filepath.Join("../../docs", p)); err != nil {
			t.Errorf("page %s: %v", p, err)
		}
	}
	if Page("convert") != "convert.md" || URL("check") != "https://github.com/compose2manifest/compose2manifest/blob/main/docs/check.md" {
		t.Errorf("Page, URL: %q, %q", Page("convert"), URL("check"))
	}
}
