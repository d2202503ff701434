package project

import (
	"context"
	"strings"
	"testing"
)

// TestInputSize: Options.InputSize is called once, before compose-go
// loads, with the bytes of every compose file read: the -f files and the
// files they include or extend.
func TestInputSize(t *testing.T) {
	files := map[string]string{
		"compose.yaml":          "include:\n  - inc.yaml\nservices:\n  web:\n    image: nginx:1\n    extends: {file: base.yaml, service: base}\n",
		"compose.override.yaml": "services:\n  web:\n    labels: {b: c}\n",
		"inc.yaml":              "services:\n  inc:\n    image: busybox:1\n",
		"base.yaml":             "services:\n  base:\n    labels: {a: b}\n",
		".env":                  "TAG=1\n",
	}
	dir := t.TempDir()
	writeFiles(t, dir, files)
	var want int64
	for name, content := range files {
		if name != ".env" {
			want += int64(len(content))
		}
	}
	var calls []int64
	var order []string
	_, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{},
		InputSize:     func(n int64) { calls, order = append(calls, n), append(order, "size") },
		beforeCompose: func() { order = append(order, "compose-go") },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0] != want {
		t.Errorf("InputSize calls %v, want one of %d", calls, want)
	}
	if strings.Join(order, " ") != "size compose-go" {
		t.Errorf("order %v, want InputSize before compose-go loads", order)
	}
}
