package project

import (
	"path"
	"regexp"
	"slices"
	"strconv"
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
	if v == "" || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "${") && bracedReferenceRE.MatchString(v) {
		return false
	}
	if noSecretWord(v) || isNumber(v) {
		return false
	}
	if URLPassword(v) != "" || (v[0] == 'b' || v[0] == 'B') && authValueRE.MatchString(v) {
		return true
	}
	// The name is judged before plainSetting's regexps: most names say
	// nothing of a secret, and then whether the value is a setting
	// does not matter.
	return secretName(name) && !plainSetting(v)
}

// secretName reports whether the variable name says it holds a secret:
// a secret word (PASSWORD, TOKEN, KEY, …) not followed by a word that
// says it holds something else.
func secretName(name string) bool {
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
	// A word after the last secret word that says the name holds
	// something else (API_KEY_RATE_LIMIT, JWT_SECRET_TTL_HOURS).
	last := 0
	for i, p := range parts {
		if secretWord(p) {
			last = i
		}
	}
	for _, p := range parts[last+1:] {
		// A webhook's URL is its secret (WEBHOOK_URL).
		if otherWord(p) && (p != "url" || parts[last] != "webhook") {
			return false
		}
	}
	return true
}

// otherWord reports whether a lower-case word part of a variable name,
// after its secret word, says the value is something else: a file, a
// name, a size, a duration, a count, a rate, a switch.
func otherWord(p string) bool {
	switch p {
	case "file", "path", "dir", "id", "name", "ttl", "expiry", "expires", "timeout", "length", "size", "type", "enabled", "enable", "url", "host", "port",
		"user", "username", "min", "max", "policy", "algorithm", "method", "mode", "format", "header", "version", "count", "rounds", "strategy", "provider", "backend", "required", "reset", "lifetime",
		"scheme", "hint", "expiration", "complexity",
		"limit", "limits", "rate", "ratelimit", "interval", "duration", "period", "delay", "retries", "attempts", "window", "age", "level", "threshold", "quota", "bits", "cost", "seconds", "minutes", "hours", "days":
		return true
	}
	return false
}

// noSecretWord reports whether v is a word that says there is no secret
// (a switch, an empty marker): true, none, disabled, ….
func noSecretWord(v string) bool {
	switch strings.ToLower(v) {
	case "true", "false", "yes", "no", "on", "off", "null", "nil", "none", "disabled", "enabled", "disable", "enable", "unset", "empty", "n/a", "-":
		return true
	}
	return false
}

// isNumber reports whether v is a decimal number (12, 3.5, -1).
func isNumber(v string) bool {
	_, err := strconv.ParseFloat(v, 64)
	return err == nil && strings.IndexFunc(v, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' && r != '-' && r != '+' }) < 0
}

// plainSettingRE matches a value that is plainly a setting, not a
// secret: a rate (60/minute, 10r/s), a size (512M, 10 MiB), a duration
// (30s, 1h30m, 7 days).
var plainSettingRE = regexp.MustCompile(`^(?i:` +
	`\d+(\.\d+)?\s*r?\s*/\s*(s|sec|second|m|min|minute|h|hr|hour|d|day|w|week)s?` + // a rate
	`|\d+(\.\d+)?\s*([kmgtp]i?b?|b|bytes?)` + // a size
	`|(\d+(\.\d+)?(ns|us|µs|ms|s|m|h|d|w))+` + // a duration
	`|\d+\s*(seconds?|minutes?|hours?|days?|weeks?|months?|years?)` +
	`)$`)

// plainSetting reports whether v is plainly a setting and no secret: a
// rate, a size or a duration (plainSettingRE), or a URL with no password
// and no query (https://auth.example.org/callback).
func plainSetting(v string) bool {
	if plainSettingRE.MatchString(v) {
		return true
	}
	if m := urlRE.FindStringSubmatch(v); m != nil {
		// No user information, no query, and a path of plain words: a
		// webhook's path (/services/T0/B0/XXXX) may be its secret.
		return !strings.ContainsAny(v, "?#") && !strings.Contains(m[1], "@") && plainPathRE.MatchString(m[2])
	}
	return false
}

// urlRE matches a whole URL, its authority the first group.
var urlRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://([^/\s]*)(/\S*)?$`)

// plainPathRE matches a URL path of words without digits.
var plainPathRE = regexp.MustCompile(`^[/a-z._-]*$`)

// MinSecretLen is the shortest value CouldBeSecret takes for a secret:
// shorter ones would match unrelated text.
const MinSecretLen = 8

// CouldBeSecret reports whether value, the value of a secret-looking
// variable, could be a secret worth keeping out of every other field:
// it spreads "secret" to them only then. Not a value shorter than
// MinSecretLen bytes, a number, a word that says there is none (true,
// none, disabled: noSecretWord), a setting (plainSetting), a
// placeholder (changeme, replace-me, your-password-here, <secret>,
// xxxxxxxx), or text of at most three plain words (password,
// changePassword, not-set): a value that short and that plain is a
// default nobody keeps, and would match unrelated text.
func CouldBeSecret(value string) bool {
	v := strings.TrimSpace(value)
	if len(v) < MinSecretLen || noSecretWord(v) || isNumber(v) || plainSetting(v) {
		return false
	}
	return !placeholder(v) && !plainWordsRE.MatchString(v)
}

// plainWordsRE matches at most three words of letters (each at most 12),
// joined by a separator or a change of case.
var plainWordsRE = regexp.MustCompile(`^[A-Za-z][a-z]{0,11}([-_. ]?[A-Za-z][a-z]{0,11}){0,2}$|^[A-Z]{1,12}([-_. ][A-Z]{1,12}){0,2}$`)

// Placeholder reports whether value, spaces trimmed, is a placeholder for
// a value to come (placeholder): a person fills in each such value
// alone, so two equal placeholders are two secrets that only read alike.
func Placeholder(value string) bool {
	v := strings.TrimSpace(value)
	return v != "" && placeholder(v)
}

// placeholder reports whether v is a placeholder for a value to come:
// one character repeated, text in angle brackets, or a phrase asking to
// change it (changeme, replace_me, your-secret-here, please-change…).
func placeholder(v string) bool {
	if strings.Trim(v, v[:1]) == "" || (strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">")) {
		return true
	}
	l := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, v)
	for _, p := range []string{"change", "replace", "your", "please", "todo", "fixme", "placeholder", "example", "redacted", "dummy"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	for _, s := range []string{"changeme", "changethis", "replaceme", "changeit", "goeshere", "secrethere", "passwordhere", "keyhere", "tokenhere"} {
		if strings.HasSuffix(l, s) {
			return true
		}
	}
	return false
}

// bracedReferenceRE matches a value that is exactly ${NAME}.
var bracedReferenceRE = regexp.MustCompile(`^\$\{[A-Za-z_][A-Za-z0-9_]*\}$`)

// SecretFileName reports whether a file's path names what it holds as a
// secret (default-password.xml, secrets/db.txt, tls.key, id_rsa): a word
// of any of its elements is one LooksLikeSecret takes for a secret's,
// or its extension is a private key's.
func SecretFileName(p string) bool {
	for _, el := range strings.Split(p, "/") {
		for _, w := range wordParts(el) {
			if secretWord(w) {
				return true
			}
		}
	}
	for _, el := range strings.Split(p, "/") {
		// Folders that hold keys by their nature: ssh's, gpg's,
		// kubectl's, wireguard's, a TLS private directory.
		if slices.Contains([]string{".ssh", "ssh", ".gnupg", "gnupg", ".kube", "wireguard", "private"}, el) {
			return true
		}
	}
	base := path.Base(p)
	// Files that hold credentials by their nature, whatever their
	// words: a kubeconfig, rclone's and docker's auth, a cloud service
	// account, traefik's ACME store (certificates' private keys; traefik
	// refuses it unless 0600), a netrc.
	if slices.Contains([]string{"kubeconfig", "rclone.conf", "auth.json", "acme.json", ".netrc", ".pgpass", ".my.cnf", "htpasswd"}, base) ||
		strings.HasPrefix(base, "service-account") || strings.HasPrefix(base, "kubeconfig") || strings.HasPrefix(base, ".env.") {
		return true
	}
	// path.Ext of ".env" and ".htpasswd" is the whole name.
	return strings.HasPrefix(base, "id_") || slices.Contains([]string{".key", ".pem", ".p12", ".pfx", ".jks", ".keystore", ".htpasswd", ".env", ".kdbx", ".gpg", ".asc"}, path.Ext(base))
}

// secretWord reports whether a lower-case word part of a variable name
// says its value is secret: a password, a key or token, and what holds
// one by its nature (a DSN's credentials, a webhook's URL, a signing
// key, a one-time password, a bearer token).
func secretWord(p string) bool {
	switch p {
	case "password", "passwd", "pass", "pwd", "pw", "secret", "secrets", "token", "key", "apikey", "credential", "credentials", "salt", "passphrase",
		"dsn", "webhook", "signing", "otp", "bearer":
		return true
	case "bypass", "compass", "overpass", "passthrough":
		return false
	}
	for _, s := range []string{"password", "passwd", "passphrase", "secret"} {
		if strings.Contains(p, s) {
			return true
		}
	}
	for _, s := range []string{"token", "pass", "pwd", "apikey", "accesskey", "privatekey", "authkey"} {
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
	if !strings.Contains(s, "://") || !strings.Contains(s, "@") {
		return "" // what urlPasswordRE matches holds both
	}
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
