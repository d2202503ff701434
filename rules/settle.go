package rules

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

const (
	noImageID       = "C2M016"
	composeSecretID = "C2M015"
)
