package project

import (
	"fmt"
	"strings"
)

// requiredRef is one ${NAME:?message} or ${NAME?message} as written.
type requiredRef struct {
	Name string
	// Sep is ":?" (an empty value is missing too) or "?" (only unset is).
	Sep string
	// Message is the author's message as written, not interpolated.
	Message string
}

// requiredRefs returns the required-variable references of s in order,
// as compose-go's template reads them: $$ is a literal $, and the message
// runs to the brace that closes the reference (closingBrace).
func requiredRefs(s string) []requiredRef {
	var out []requiredRef
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			continue
		}
		if s[i+1] == '$' {
			i++ // an escaped $
			continue
		}
		if s[i+1] != '{' {
			continue
		}
		end := closingBrace(s, i)
		if end < 0 {
			return out
		}
		body := s[i+2 : end]
		n := 0
		for n < len(body) && (isWordByte(body[n])) {
			n++
		}
		name, rest := body[:n], body[n:]
		switch {
		case name == "" || '0' <= name[0] && name[0] <= '9':
		case strings.HasPrefix(rest, ":?"):
			out = append(out, requiredRef{Name: name, Sep: ":?", Message: rest[2:]})
		case strings.HasPrefix(rest, "?"):
			out = append(out, requiredRef{Name: name, Sep: "?", Message: rest[1:]})
		}
		i = end
	}
	return out
}

// closingBrace returns the index in s of the } that closes the reference
// at s[at] ("${"), or -1, counting braces as compose-go's template does
// (getFirstBraceClosingIndex): every { opens one, and the byte after a {
// is skipped.
func closingBrace(s string, at int) int {
	open := 0
	for j := at; j < len(s); j++ {
		if s[j] == '}' {
			open--
			if open == 0 {
				return j
			}
		}
		if s[j] == '{' {
			open++
			j++
		}
	}
	return -1
}

// missing reports whether the reference fails with env: the variable is
// unset, or set empty for ":?".
func (r requiredRef) missing(env map[string]string) bool {
	v, ok := env[r.Name]
	return !ok || (r.Sep == ":?" && v == "")
}

// RequiredError returns the error docker compose prints for a required
// variable without a value: "required variable NAME is missing a value:
// MESSAGE", the author's message interpolated, or without ": MESSAGE"
// when there is none (compose-go's template.MissingRequiredError).
func (u VariableUse) RequiredError() string {
	if u.Message == "" {
		return fmt.Sprintf("required variable %s is missing a value", u.Name)
	}
	return fmt.Sprintf("required variable %s is missing a value: %s", u.Name, u.Message)
}
