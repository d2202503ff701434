package project

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"testing"
)

// referenceRE is what referenceSpans scans for, as a regexp.
var referenceRE = regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)`)

// TestReferenceSpans holds referenceSpans to referenceRE's matches: on
// the edges of the pattern, and on random texts of the characters it
// looks at.
func TestReferenceSpans(t *testing.T) {
	texts := []string{
		"", "$", "${", "${}", "$1", "${1}", "$$A", "$${A}", "$$$A", "$A$B", "${A}${B}",
		"$_", "${_a1}", "${A:-x}", "x$", "x${", "$A", "${A", "a $B1c-d ${C_2:?e} $$", "${{A}", "$ {A}",
	}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "${}aZ_9-$$ \n"
	for range 2000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	for _, text := range texts {
		var want, got [][]int
		for _, loc := range referenceRE.FindAllSubmatchIndex([]byte(text), -1) {
			want = append(want, []int{loc[0], loc[2], loc[3]})
		}
		for at, name := range referenceSpans([]byte(text)) {
			got = append(got, []int{at, name[0], name[1]})
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("referenceSpans(%q) = %v, want %v", text, got, want)
		}
	}
}
