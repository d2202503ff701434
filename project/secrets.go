package project

import (
	"strings"
	"unicode"
)

// LooksLikeSecret reports whether an environment variable looks like a
// plaintext secret (C2M015): its name has password, passwd, secret, token,
// key or apikey as a word part (DB_PASSWORD, API_KEY, SECRET_KEY_BASE,
// dbPassword; not KEYBOARD_LAYOUT), its last word part does not say it
// names something else (…_FILE, …_PATH, …_DIR, …_ID, …_TTL, …), and its
// value is a literal: not empty, not a path (such as a *_FILE reference
// under /run/secrets), not a number or a boolean, and not a variable
// reference the container expands itself.
func LooksLikeSecret(name, value string) bool {
	parts := wordParts(name)
	if len(parts) == 0 {
		return false
	}
	secret := false
	for _, p := range parts {
		switch p {
		case "password", "passwd", "secret", "token", "key", "apikey":
			secret = true
		}
	}
	if !secret {
		return false
	}
	switch parts[len(parts)-1] {
	case "file", "path", "dir", "id", "name", "ttl", "expiry", "expires", "timeout", "length", "size", "type", "enabled", "enable", "url", "host", "port":
		return false
	}
	v := strings.TrimSpace(value)
	if v == "" || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "$") {
		return false
	}
	switch strings.ToLower(v) {
	case "true", "false", "yes", "no", "on", "off", "null", "none":
		return false
	}
	numeric := true
	for _, r := range v {
		if !unicode.IsDigit(r) {
			numeric = false
			break
		}
	}
	return !numeric
}

// wordParts splits a variable name into lower-case words at non-letters
// and digits and at a lower-to-upper case change.
func wordParts(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return out
}

// Mask returns the masked form of a secret value for reports: never any of
// its characters.
func Mask(string) string { return "********" }
