package rules

// Unreadable returns the rule that stands for input compose2manifest could
// not read or decode: a manifest that is not valid YAML or breaks the
// manifest format, a compose project that does not load, a bad
// declarations file. Its diagnostics are made by the drivers, not by a
// check function (it has none, so it is in no scope and not in All), and
// carry no rule ID in the text and JSON reports; SARIF, whose consumers
// need a ruleId on every result, names this rule for them. explain and
// rules show it after the others.
func Unreadable() *Rule {
	return &Rule{
		ID:       "C2M000",
		Title:    "input could not be read or decoded",
		Severity: Error,
		Doc: `compose2manifest could not read the input: a manifest that is not valid
YAML or does not follow the manifest format (an unknown field, a mode
written as a bare integer), a compose project that does not load, or a
declarations file that does not decode. Nothing was checked or written
for it, and the run exits 2.

Fix the file at the line the message names, or regenerate the manifest
with compose2manifest convert.`,
	}
}

// Documented returns every rule explain and rules document: All, then
// Unreadable.
func Documented() []*Rule {
	return append(All(), Unreadable())
}
