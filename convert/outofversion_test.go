package convert

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/images"
)

// TestOutOfVersionBounds: a refusal whose image has a row for the mount
// but outside the row's major versions says which bound the tag misses,
// below (min_major), above (max_major) or either.
func TestOutOfVersionBounds(t *testing.T) {
	const row = `- repository: example/pi
  path: /etc/pi
  kind: directory
%s  owner: "1000:1000"
  mode: "0750"
  mode_basis: recommended
  intent: state
  source: https://example.org/Dockerfile
`
	for _, tc := range []struct{ bounds, image, want string }{
		{"  min_major: 2025\n", "example/pi:2024.07.0", "knows example/pi /etc/pi (table.yaml:1) from major version 2025 on only, and image example/pi:2024.07.0 names an earlier one or none: declare the source, or pin a major version from 2025 on in the tag"},
		{"  max_major: 5\n", "example/pi:latest", "knows example/pi /etc/pi (table.yaml:1) up to major version 5 only, and image example/pi:latest names a later one or none: declare the source, or pin a major version up to 5 in the tag"},
		{"  min_major: 2025\n  max_major: 2026\n", "example/pi:2027.01.0", "knows example/pi /etc/pi (table.yaml:1) for major versions 2025 to 2026 only, and image example/pi:2027.01.0 names another or none: declare the source, or pin a major version from 2025 to 2026 in the tag"},
	} {
		table, err := images.Parse("table.yaml", []byte(strings.Replace(row, "%s", tc.bounds, 1)))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "compose.yaml"), "name: pi\nservices:\n  pi:\n    image: "+tc.image+"\n    volumes:\n      - conf:/etc/pi\nvolumes:\n  conf: {}\n")
		res, err := Convert(context.Background(), Options{ProjectDirectory: dir, WorkingDirectory: dir, Environ: []string{}, VolumeRoot: "/srv", Images: table})
		if err != nil || res.Status != Refused {
			t.Fatalf("%s: convert: %v, %v", tc.image, res.Status, err)
		}
		found := false
		for _, d := range res.Diagnostics {
			found = found || strings.Contains(d.Message, tc.want)
		}
		if !found {
			t.Errorf("%s: no diagnostic says %q; got %v", tc.image, tc.want, res.Diagnostics)
		}
	}
}
