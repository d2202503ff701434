// Package textsafe escapes text for places a person reads it raw: a
// terminal, a log, a comment in a file under review.
package textsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape shows each control character of s escaped (\x1b, \u202e; \n,
// \r and \t as such), and each byte that is not UTF-8 as \xNN. With
// keepBreaks, \n and \r are left as they are, for a caller that escapes
// them in its own way (GitHub's %0A). Other text, a backslash included,
// is unchanged.
func Escape(s string, keepBreaks bool) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r == utf8.RuneError || Unsafe(r) })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for len(s[i:]) > 0 {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keepBreaks && (r == '\n' || r == '\r'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && Unsafe(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case Unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Unsafe reports whether r must not reach a terminal or a log raw:
// the C0 and C1 controls and DEL, and the format characters that reorder
// text or break lines (U+2028, U+2029, the bidirectional controls).
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
