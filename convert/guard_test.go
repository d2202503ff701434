package convert

import (
	"path/filepath"
	"testing"
)

// TestSameProject: two headers name the same project when their compose
// files lie in the same folder from the manifest's folder, whatever the
// checkout's folder is called; x/app and y/app differ though their base
// names are one. A printed manifest's header tells nothing; an earlier
// version's FOLDER/FILE is held by the folder's base name.
func TestSameProject(t *testing.T) {
	for _, tc := range []struct {
		old, cur    string
		same, known bool
	}{
		{"../x/app/compose.yaml", "../x/app/compose.yaml", true, true},
		{"../x/app/compose.yml", "../x/app/compose.yaml", true, true},
		{"../y/app/compose.yaml", "../x/app/compose.yaml", false, true},
		{"../compose.yaml", "../compose.yaml", true, true},
		{"./sub/compose.yaml", "../compose.yaml", false, true},
		{"../f3/Immich/compose.yaml", "../f4/immich/compose.yaml", false, true},
		{"one/compose.yaml", "../one/compose.yaml", true, true},
		{"one/compose.yaml", "../two/compose.yaml", false, true},
		{"mail/compose.yaml", "../compose.yaml", true, true}, // written to /src/mail/man
		{"exs/compose.yaml", "../compose.yaml", false, true},
		{"compose.yaml", "../two/compose.yaml", false, false},
		{"", "../two/compose.yaml", false, false},
		{"../one/compose.yaml", "compose.yaml", false, false},
	} {
		same, known := SameProject(filepath.FromSlash("/src/mail/man"), tc.old, tc.cur)
		if same != tc.same || known != tc.known {
			t.Errorf("SameProject(%q, %q) = %v, %v; want %v, %v", tc.old, tc.cur, same, known, tc.same, tc.known)
		}
	}
}
