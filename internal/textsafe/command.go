package textsafe

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Guard keeps one line of text without control characters from being read
// as a GitHub Actions workflow command, which the runner looks for at the
// start of a line, after white space ("::error …"), and in its older form
// anywhere in it ("##[error]…"): a leading "::" is written "\x3a:" and
// every "##[" is written "##\x5b".
func Guard(line string) string {
	text := strings.TrimLeft(line, " \t")
	if strings.HasPrefix(text, "::") {
		line = line[:len(line)-len(text)] + `\x3a` + text[1:]
	}
	return strings.ReplaceAll(line, "##[", `##\x5b`)
}

// GuardLines applies Guard to each line of s, keeping its line breaks.
func GuardLines(s string) string {
	if !Commands(s) {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		body, nl := strings.CutSuffix(l, "\n")
		lines[i] = Guard(body)
		if nl {
			lines[i] += "\n"
		}
	}
	return strings.Join(lines, "")
}

// Commands reports whether s, printed raw, would give the runner a
// workflow command: a line (ended by \n or \r) whose text starts with
// "::" after its indentation, or a "##[" anywhere.
func Commands(s string) bool {
	if strings.Contains(s, "##[") {
		return true
	}
	for l := range strings.FieldsFuncSeq(s, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.HasPrefix(strings.TrimLeft(l, " \t"), "::") {
			return true
		}
	}
	return false
}

// JSON returns the JSON document doc with what encoding/json leaves raw,
// and a terminal or a CI log must not get raw, written as \u escapes,
// which decode to the same text: DEL, the C1 controls (NEL, CSI), the
// bidirectional controls (as Unsafe lists them), and the "[" of every
// "##[" (GitHub's runner reads "##[" anywhere in a log line as its older
// workflow command). encoding/json already escapes the other control
// characters, and no line of a JSON document starts with "::" (a string's
// line breaks are escaped). All of these are found only inside JSON
// strings, where a \u escape means the same.
func JSON(doc []byte) []byte {
	if !bytes.ContainsFunc(doc, func(r rune) bool { return r >= 0x7f && Unsafe(r) }) && !bytes.Contains(doc, []byte("##[")) {
		return doc
	}
	var b bytes.Buffer
	for i := 0; i < len(doc); {
		r, size := utf8.DecodeRune(doc[i:])
		switch {
		case r >= 0x7f && Unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		case bytes.HasPrefix(doc[i:], []byte("##[")):
			b.WriteString(`##\u005b`)
			size = 3
		default:
			b.Write(doc[i : i+size])
		}
		i += size
	}
	return b.Bytes()
}
