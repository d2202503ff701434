// Package shell holds what the generated POSIX shell scripts (plan's move
// script, survey's legacy-host script) share: quoting a word, and the
// Docker volume names they may pass to docker or join into a path.
package shell

import "strings"

// Quote is s as one POSIX shell word: single-quoted, each single quote
// closed, escaped and reopened. Any byte but NUL stands for itself inside
// single quotes, a newline too. So that a script, printed in a CI log,
// gives the runner no workflow command, the word is also closed and
// reopened (”) inside every "##[" and inside a "::" that starts a line
// of it: the same word to the shell.
func Quote(s string) string {
	s = strings.ReplaceAll(s, "'", `'\''`)
	s = strings.ReplaceAll(s, "##[", "##''[")
	lines := strings.Split(s, "\n")
	for i := 1; i < len(lines); i++ {
		text := strings.TrimLeft(lines[i], " \t")
		if strings.HasPrefix(text, "::") {
			lines[i] = lines[i][:len(lines[i])-len(text)] + ":''" + text[1:]
		}
	}
	return "'" + strings.Join(lines, "\n") + "'"
}

// ValidVolumeName reports whether name can be a Docker volume's name as
// docker volume create accepts it ([a-zA-Z0-9][a-zA-Z0-9_.-]+): a script
// joins it into a path under the Docker root or passes it to docker, so a
// name with /, .. or a NUL byte would lead out of it.
func ValidVolumeName(name string) bool {
	if len(name) < 2 || !alnum(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		if c := name[i]; !alnum(c) && c != '_' && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

func alnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
