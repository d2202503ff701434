// Package suggest finds the valid word nearest to a mistyped one, for a
// "did you mean" in an error.
package suggest

import (
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// Nearest returns the candidate nearest to word by edit distance
// (insertions, deletions, substitutions and transpositions of adjacent
// characters, each counting one), when it is close enough to be a typo:
// at most 1 edit for a word of up to 4 characters, 2 up to 8, else 3, and
// fewer than half as many edits as the word has characters (-o is no typo
// of -f). Ties go to the candidate
// listed first; "" when none is close or word is a candidate itself.
func Nearest(word string, candidates []string) string {
	limit := 3
	switch n := len([]rune(word)); {
	case n <= 4:
		limit = 1
	case n <= 8:
		limit = 2
	}
	best, bestDist := "", limit+1
	for _, c := range candidates {
		if c == word {
			return ""
		}
		if d := distance(word, c); d < bestDist && 2*d < len([]rune(word)) {
			best, bestDist = c, d
		}
	}
	return best
}

// Hint returns "did you mean NEAREST? " for a hint that goes on, when a
// candidate is near word (Nearest), else "".
func Hint(word string, candidates []string) string {
	if near := Nearest(word, candidates); near != "" {
		return "did you mean " + near + "? "
	}
	return ""
}

// distance is the optimal string alignment distance between a and b:
// Levenshtein's, with a transposition of two adjacent characters as one
// edit.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// unknownFlagRE matches pflag's errors for a flag it does not know:
// "unknown flag: --volum-root", "unknown shorthand flag: 'x' in -xyz".
var unknownFlagRE = regexp.MustCompile(`^unknown (?:flag: (--\S+)|shorthand flag: '.' in (-\S+))`)

// Flag returns the flag of fs nearest to the one a parse error of fs says
// it does not know, as written on the command line ("--volume-root"), or
// "". A long flag written with one dash (-volume-root, which pflag reads
// as shorthands) is matched as the long flag it likely means.
func Flag(fs *pflag.FlagSet, err error) string {
	if err == nil {
		return ""
	}
	m := unknownFlagRE.FindStringSubmatch(err.Error())
	if m == nil {
		return ""
	}
	word, _, _ := strings.Cut(m[1]+m[2], "=")
	var names []string
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, "--"+f.Name)
			if f.Shorthand != "" {
				names = append(names, "-"+f.Shorthand)
			}
		}
	})
	if !strings.HasPrefix(word, "--") && len(word) > 2 {
		word = "-" + word // -volume-root
		if slices.Contains(names, word) {
			return word
		}
	}
	return Nearest(word, names)
}
