package project

import (
	"regexp"
	"strings"
	"unicode"
)

// LooksLikeSecret reports whether an environment variable looks like a
// plaintext secret (C2M015). Its value must be a literal: not empty, not a
// path (such as a *_FILE reference under /run/secrets), not a number or a
// boolean, and not exactly ${NAME}, a template the software expands
// itself. Any other value that starts with $ is no exception: compose has
// interpolated already, the container gets the text as it is (no shell
// expands it), so $ecret from $$ecret or a single-quoted .env value is
// the secret itself, and so is ${X:-hunter22}.
// Then either the value is a URL with a password in it
// (postgres://app:hunter2@db/app, whatever the variable's name), or the
// name says secret: one of its word parts (split at non-letters and at a
// lower-to-upper case change) is password, passwd, pass, pwd, pw, secret,
// token, key, apikey, credential(s) or salt, contains password, passwd or
// secret (WEBPASSWORD, CLIENTSECRET), or ends in token, pass, pwd, apikey,
// accesskey or privatekey (AUTHTOKEN, DBPASS); and its last word part
// does not say it names something else (…_FILE, …_PATH, …_ID, …_TTL,
// …_URL, …_USER, …_SCHEME, …). KEYBOARD_LAYOUT, BYPASS_CACHE and
// MAILCOW_PASS_SCHEME are not secrets.
func LooksLikeSecret(name, value string) bool {
	v := strings.TrimSpace(value)
	if v == "" || strings.HasPrefix(v, "/") || bracedReferenceRE.MatchString(v) {
		return false
	}
	switch strings.ToLower(v) {
	case "true", "false", "yes", "no", "on", "off", "null", "none":
		return false
	}
	if strings.IndexFunc(v, func(r rune) bool { return !unicode.IsDigit(r) }) < 0 {
		return false
	}
	if URLPassword(v) != "" || authValueRE.MatchString(v) {
		return true
	}
	parts := wordParts(name)
	if len(parts) == 0 {
		return false
	}
	secret := false
	for _, p := range parts {
		secret = secret || secretWord(p)
	}
	if !secret {
		return false
	}
	switch parts[len(parts)-1] {
	case "file", "path", "dir", "id", "name", "ttl", "expiry", "expires", "timeout", "length", "size", "type", "enabled", "enable", "url", "host", "port",
		"user", "username", "min", "max", "policy", "algorithm", "method", "mode", "format", "header", "version", "count", "rounds", "strategy", "provider", "backend", "required", "reset", "lifetime",
		"scheme", "hint", "expiration", "complexity":
		return false
	}
	return true
}

// bracedReferenceRE matches a value that is exactly ${NAME}.
var bracedReferenceRE = regexp.MustCompile(`^\$\{[A-Za-z_][A-Za-z0-9_]*\}$`)

// secretWord reports whether a lower-case word part of a variable name
// says its value is secret.
func secretWord(p string) bool {
	switch p {
	case "password", "passwd", "pass", "pwd", "pw", "secret", "secrets", "token", "key", "apikey", "credential", "credentials", "salt", "passphrase":
		return true
	case "bypass", "compass", "overpass", "passthrough":
		return false
	}
	for _, s := range []string{"password", "passwd", "passphrase", "secret"} {
		if strings.Contains(p, s) {
			return true
		}
	}
	for _, s := range []string{"token", "pass", "pwd", "apikey", "accesskey", "privatekey"} {
		if strings.HasSuffix(p, s) {
			return true
		}
	}
	return false
}

// urlPasswordRE finds a password in a URL's user information:
// scheme://user:PASSWORD@…, the host part any text (a Go MySQL DSN's
// tcp(db:3306) too).
var urlPasswordRE = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*:([^@\s/]+)@`)

// authValueRE matches an HTTP Authorization value: Bearer or Basic and a
// token.
var authValueRE = regexp.MustCompile(`^(?i:bearer|basic) [A-Za-z0-9._~+/=-]{8,}$`)

// URLPassword returns the first password s holds in a URL's user
// information (scheme://user:PASSWORD@host), "" when none does (or it is
// a ${VARIABLE} reference).
func URLPassword(s string) string {
	for _, m := range urlPasswordRE.FindAllStringSubmatch(s, -1) {
		if p := m[1]; !strings.HasPrefix(p, "$") {
			return p
		}
	}
	return ""
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
