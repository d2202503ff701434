package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLooksLikeCompose(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"yes.yml":      "services:\n  web: {image: nginx}\n",
		"yes.yaml":     "x-a: &a {image: nginx}\nservices:\n  web: *a\n",
		"empty.yml":    "services: {}\n",
		"null.yml":     "services:\n",
		"list.yml":     "services: [web]\n",
		"config.yml":   "log_level: debug\n",
		"broken.yml":   "services: [\n",
		"services.txt": "services:\n  web: {image: nginx}\n",
		"nested.yml":   "x:\n  services:\n    web: {}\n",
		"document.yml": "---\nservices:\n  web: {}\n",
		"big.yml":      "services:\n  web: {}\n#" + strings.Repeat("x", MaxInputSize) + "\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "dir.yml"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"yes.yml": true, "yes.yaml": true, "empty.yml": true, "document.yml": true}
	for _, name := range []string{"yes.yml", "yes.yaml", "empty.yml", "null.yml", "list.yml", "config.yml", "broken.yml", "services.txt", "nested.yml", "document.yml", "big.yml", "dir.yml", "missing.yml"} {
		if got := LooksLikeCompose(filepath.Join(dir, name)); got != want[name] {
			t.Errorf("LooksLikeCompose(%s) = %v, want %v", name, got, want[name])
		}
	}
}
