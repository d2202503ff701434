package rules

import "testing"

// Unanswered holds for a declaration missing, lacking a value or a
// location, and for nothing an answer would have brought.
func TestUnanswered(t *testing.T) {
	for id, want := range map[string]bool{"C2M001": true, "C2M002": true, "C2M013": true, "C2M004": false, "C2M005": false, "C2M006": false, "C2M021": false, "C2M023": false, "": false} {
		if got := Unanswered(Diagnostic{Rule: id, Severity: Error}); got != want {
			t.Errorf("Unanswered(%q) = %v, want %v", id, got, want)
		}
	}
}

// UndeclaredParent holds for C2M011 alone.
func TestUndeclaredParent(t *testing.T) {
	if !UndeclaredParent(Diagnostic{Rule: "C2M011"}) || UndeclaredParent(Diagnostic{Rule: "C2M001"}) {
		t.Error("UndeclaredParent: want C2M011 alone")
	}
}
