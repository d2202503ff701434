package convert

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/convert")

// TestGolden converts each project under ../testdata/convert and compares
// the status, diagnostics, skeleton and manifest with want.txt in the same
// folder. A file named flags holds extra command-line-style options, one a
// line. Run with -update to rewrite want.txt after checking the change.
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob("../testdata/convert/*")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no golden cases found")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			opts := Options{WorkingDirectory: dir, Environ: []string{"HOME=/home/converter"}}
			if data, err := os.ReadFile(filepath.Join(dir, "flags")); err == nil {
				applyFlags(t, &opts, string(data))
			}
			got := render(Convert(context.Background(), opts))
			golden := filepath.Join(dir, "want.txt")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./convert -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (run with -update after checking):\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}

// applyFlags sets options from lines such as "--strict" or
// "--volume-root=/srv".
func applyFlags(t *testing.T, o *Options, text string) {
	for _, line := range strings.Fields(text) {
		name, value, _ := strings.Cut(strings.TrimPrefix(line, "--"), "=")
		switch name {
		case "strict":
			o.Strict = true
		case "volume-root":
			o.VolumeRoot = value
		case "host-project-directory":
			o.HostProjectDirectory = value
		case "layout":
			o.Layout = value
		case "profile":
			o.Profiles = append(o.Profiles, value)
		case "env":
			o.Environ = append(o.Environ, value)
		case "file":
			o.ConfigFiles = append(o.ConfigFiles, value)
		default:
			t.Fatalf("flags: unknown option %q", line)
		}
	}
}

// render prints a conversion's outcome in the form the golden files hold.
func render(res *Result, err error) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "status: %s\n", res.Status)
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	for _, d := range res.Diagnostics {
		fmt.Fprintf(&b, "%s\n", d)
		if d.Target != "" {
			fmt.Fprintf(&b, "    target: %s\n", d.Target)
		}
	}
	if len(res.Skeleton) > 0 {
		fmt.Fprintf(&b, "--- skeleton\n%s", res.Skeleton)
	}
	if len(res.Manifest) > 0 {
		fmt.Fprintf(&b, "--- manifest\n%s", res.Manifest)
	}
	return b.Bytes()
}
