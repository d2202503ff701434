package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusalNamesFile: once --skeleton FILE wrote the whole skeleton,
// every hint that says where the skeleton to fill in is names FILE, and
// the one shown is called the whole skeleton only when it is: with
// credentials left out, or escaped, FILE is what to fill in.
func TestRefusalNamesFile(t *testing.T) {
	inline := []byte("version: 1\nvolume_root: \"\"\nvolumes:\n  data: {owner: \"\", mode: \"\", intent: \"\"}\n")
	whole := append(append([]byte{}, inline...), "credentials:\n  app.A_PASSWORD: app_a_password\n"...)
	for _, tc := range []struct {
		name            string
		file            string
		elided, decided int
		inline          []byte
		want, not       []string
	}{
		{"shown whole, no file", "", 0, 3, inline,
			[]string{"this skeleton is ready to fill in and paste into compose2manifest.yaml:", "3 decisions left: fill in the skeleton above and save it as compose2manifest.yaml"},
			[]string{"skel.yaml"}},
		{"shown whole, file", "skel.yaml", 0, 3, inline,
			[]string{"hint: the whole skeleton is in skel.yaml\n", "3 decisions left: fill in skel.yaml (the skeleton above) and save it as compose2manifest.yaml"},
			[]string{"--skeleton FILE"}},
		{"credentials left out, no file", "", 9, 3, inline,
			[]string{"9 credentials left out above, each prefilled: write the whole skeleton with --skeleton FILE", "fill in the skeleton above"},
			nil},
		{"credentials left out, file", "skel.yaml", 9, 3, inline,
			[]string{"this is the skeleton in skel.yaml without its credentials:", "the whole skeleton, with the 9 credentials left out above, is in skel.yaml", "3 decisions left: fill in skel.yaml and save it as compose2manifest.yaml"},
			[]string{"--skeleton FILE", "the skeleton above", "ready to fill in and paste"}},
		{"escaped, file", "skel.yaml", 0, 3, []byte("version: 1\nbinds:\n  ./a\u202eb: {owner: \"\"}\n"),
			[]string{"with characters escaped for the terminal", "the whole skeleton is in skel.yaml", "fill in skel.yaml and save it as compose2manifest.yaml"},
			[]string{"--skeleton FILE writes", "the skeleton above"}},
		{"nothing to decide, file", "skel.yaml", 9, 0, inline,
			[]string{"nothing left to fill in: review skel.yaml and save it as compose2manifest.yaml"},
			[]string{"the skeleton above"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var b bytes.Buffer
			r := Refusal{Module: "app", Errors: "2 errors", Inline: tc.inline, Elided: tc.elided, Decisions: tc.decided,
				File: "compose2manifest.yaml", Whole: whole, WholeFile: tc.file, Dir: dir}
			if err := r.Write(&b); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(out, w) {
					t.Errorf("says %q:\n%s", w, out)
				}
			}
			if n := strings.Count(out, "volume_root:"); n > 1 {
				t.Errorf("%d volume_root: lines:\n%s", n, out)
			}
			if tc.file != "" {
				data, err := os.ReadFile(filepath.Join(dir, tc.file))
				if err != nil || !bytes.Equal(data, whole) {
					t.Errorf("%s = %q, %v; want the whole skeleton", tc.file, data, err)
				}
			}
		})
	}
}
