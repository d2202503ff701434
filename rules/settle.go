package rules

import "regexp"

// What a finding asks the declarations for, so that ask can offer it
// without naming rule IDs outside this package.

// Uncarried reports whether d is a compose field not carried and not
// acknowledged (C2M007): acknowledge: settles it.
func Uncarried(d Diagnostic) bool { return d.Rule == uncarriedID }

// NoImage reports whether d is a service without an image (C2M016):
// images: settles it.
func NoImage(d Diagnostic) bool { return d.Rule == noImageID }

// ComposeSecret reports whether d is a secret-looking environment value
// or credential (C2M015): credentials: or acknowledge: settles it.
func ComposeSecret(d Diagnostic) bool { return d.Rule == composeSecretID }

// DroppedOption returns, when d is a volume option the manifest cannot
// carry that an acknowledgement may drop (C2M012), the acknowledge: item
// that drops it (SERVICE.volumes.TARGET.OPTION).
func DroppedOption(d Diagnostic) (item string, ok bool) {
	if d.Rule != mountOptionID || d.Severity != Error {
		return "", false
	}
	m := droppedOptionRE.FindStringSubmatch(d.Message)
	if m == nil {
		return "", false
	}
	return m[1], true
}

var droppedOptionRE = regexp.MustCompile(`or acknowledge (\S+) to drop it knowingly`)

const (
	noImageID       = "C2M016"
	composeSecretID = "C2M015"
	mountOptionID   = "C2M012"
)
