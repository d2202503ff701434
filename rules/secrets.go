package rules

import "github.com/compose2manifest/compose2manifest/project"

// LooksLikeSecret reports whether an environment variable looks like a
// plaintext secret (C2M015). It is project.LooksLikeSecret, which says
// what looks like one: project masks such values in load errors, and
// rules imports project, not the other way round.
func LooksLikeSecret(name, value string) bool { return project.LooksLikeSecret(name, value) }

// Mask returns the masked form of a secret value for reports: never any of
// its characters. It is project.Mask.
func Mask(v string) string { return project.Mask(v) }
