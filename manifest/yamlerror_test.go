package manifest

import (
	"errors"
	"testing"
)

// TestYAMLErrorAt: a reader error's offset, or the first byte the reader
// refuses, gives the line; a parser's line is kept.
func TestYAMLErrorAt(t *testing.T) {
	for _, tc := range []struct {
		name, data, err string
		line            int
		msg             string
	}{
		{"parser line", "a: b\n", "yaml: line 4: did not find expected key", 4, "did not find expected key"},
		{"offset", "a:\n  b: c\x00\n", "yaml: offset 9: control characters are not allowed", 2, "control characters are not allowed"},
		{"no place, bad UTF-8", "a: b\nc: d\n\ne: \xff\n", "yaml: invalid leading UTF-8 octet", 4, "invalid leading UTF-8 octet"},
		{"no place, control", "a: b\n\x01\n", "yaml: control characters are not allowed", 2, "control characters are not allowed"},
		{"NEL and tab are readable", "a: \u0085\tb\n", "yaml: control characters are not allowed", 0, "control characters are not allowed"},
		{"offset past the data", "a\n", "yaml: offset 99: control characters are not allowed", 0, "offset 99: control characters are not allowed"},
		{"other", "a\n", "yaml: something else", 0, "something else"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line, msg := YAMLErrorAt([]byte(tc.data), errors.New(tc.err))
			if line != tc.line || msg != tc.msg {
				t.Errorf("YAMLErrorAt = %d, %q; want %d, %q", line, msg, tc.line, tc.msg)
			}
		})
	}
}
