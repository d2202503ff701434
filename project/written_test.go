package project

import (
	"bytes"
	"testing"
)

// TestWritten: Project.Written, through each file's scans and then its
// substring index, answers as bytes.Contains over the files' bytes does, for text at the
// start, the end, across lines, absent, empty, and in an empty file.
func TestWritten(t *testing.T) {
	files := [][]byte{
		[]byte("services:\n  app:\n    image: registry.example.org/app:1.2\n    hostname: h${TOKEN}\n"),
		{},
		[]byte("include:\n  - other.yaml\n"),
	}
	p := &Project{raw: &rawIndex{}}
	for _, d := range files {
		p.raw.files = append(p.raw.files, &rawFile{data: d})
	}
	for _, s := range []string{"services:", "registry.example.org/app:1.2", "app:1.2\n    host", "h${TOKEN}", "hTOKEN", "other.yaml\n", "yaml\n\n", "", "x", "services:\n  app:\n    image: registry.example.org/app:1.2\n    hostname: h${TOKEN}\nz"} {
		want := false
		for _, d := range files {
			want = want || bytes.Contains(d, []byte(s))
		}
		for range indexAfterScans { // scans at first, the index once built
			if got := p.Written(s); got != want {
				t.Errorf("Written(%q) = %v, want %v", s, got, want)
			}
		}
	}
	if (&Project{}).Written("x") {
		t.Error("Written on a project without raw files = true, want false")
	}
}
