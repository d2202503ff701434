package declare

import (
	"path"
	"strings"
)

// NormalizeBind returns the canonical form of a bind key or compose bind
// source, so that "./data", "data/" and the text as written name the same
// source: absolute paths cleaned ("/a/b/" -> "/a/b"); "~" paths as "~/rest"
// cleaned ("~/" -> "~"); relative paths cleaned and prefixed "./" ("data/"
// -> "./data", "./a/../b" -> "./b", "." -> "."). A relative path that
// escapes upward stays as "../x" cleaned. "~user/x" is a relative path, as
// compose sees it. The empty string stays empty. It never touches the
// filesystem.
func NormalizeBind(key string) string {
	switch {
	case key == "":
		return ""
	case strings.HasPrefix(key, "/"):
		return path.Clean(key)
	case key == "~":
		return "~"
	case strings.HasPrefix(key, "~"):
		// compose-go joins the home with what follows ~, so ~foo is
		// ~/foo (not user foo's home) and ~root/y is ~/root/y.
		rest := path.Clean(strings.TrimLeft(key[1:], "/"))
		if rest == "." {
			return "~"
		}
		return "~/" + rest
	}
	c := path.Clean(key)
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return c
	}
	return "./" + c
}

// BindWithin returns the path of bind source inner below bind source
// outer, slash-separated, and whether it lies strictly below it: both
// relative (".", "./data", "../x") or both absolute.
func BindWithin(outer, inner string) (string, bool) {
	return BindWithinClean(path.Clean(outer), path.Clean(inner))
}

// BindWithinClean is BindWithin for keys already cleaned (path.Clean), so
// that a caller comparing many pairs cleans each key once.
func BindWithinClean(o, i string) (string, bool) {
	if o == i || path.IsAbs(o) != path.IsAbs(i) {
		return "", false
	}
	switch {
	case o == ".":
		if i == ".." || strings.HasPrefix(i, "../") {
			return "", false
		}
		return i, true
	case o == "/":
		return i[1:], true
	case len(i) > len(o) && i[len(o)] == '/' && strings.HasPrefix(i, o):
		return i[len(o)+1:], true
	}
	return "", false
}
