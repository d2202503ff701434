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

// NoDeclarationSettles reports whether d is an error no declaration
// settles, so that ask, which only writes declarations, says so: an unset
// variable that feeds a volume or an image (C2M014), a volume kind the mesh
// cannot express (C2M010), a volume option no acknowledgement may drop
// (C2M012). The compose file or the environment must change.
func NoDeclarationSettles(d Diagnostic) bool {
	if d.Severity != Error {
		return false
	}
	switch d.Rule {
	case unsetVariableID, volumeKindID:
		return true
	case mountOptionID:
		_, droppable := DroppedOption(d)
		return !droppable
	}
	return false
}

// Unanswered reports whether d says a volume source's declaration is
// missing, lacks a value, or has no location yet (C2M001, C2M002, C2M013):
// what a further answer in ask gives, so that ask, checking an answer
// before the source's last, does not hold it against that answer.
func Unanswered(d Diagnostic) bool {
	switch d.Rule {
	case undeclaredID, incompleteID, noLocationID:
		return true
	}
	return false
}

// UndeclaredParent reports whether d is a declared path's parent that
// nothing declares (C2M011): a directories: entry settles it.
func UndeclaredParent(d Diagnostic) bool { return d.Rule == undeclaredParentID }

const (
	undeclaredParentID = "C2M011"
	undeclaredID       = "C2M001"
	incompleteID       = "C2M002"
	noLocationID       = "C2M013"
	noImageID          = "C2M016"
	composeSecretID    = "C2M015"
	mountOptionID      = "C2M012"
	unsetVariableID    = "C2M014"
	volumeKindID       = "C2M010"
)
