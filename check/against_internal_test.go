package check

import "testing"

// TestRelPath: a folder whose name starts with ".." lies below the base.
// The prefix test this replaced called "..cache" outside.
func TestRelPath(t *testing.T) {
	for _, tc := range []struct{ base, p, want string }{
		{"/r", "/r/a/b", "a/b"},
		{"/r", "/r", "."},
		{"/r", "/r/..cache/x", "..cache/x"},
		{"/r", "/other/x", "/other/x"},
		{"/r", "/", "/"},
	} {
		if got := relPath(tc.base, tc.p); got != tc.want {
			t.Errorf("relPath(%q, %q) = %q, want %q", tc.base, tc.p, got, tc.want)
		}
	}
}
