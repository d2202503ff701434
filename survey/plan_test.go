package survey_test

import (
	"testing"

	"github.com/compose2manifest/compose2manifest/plan"
	"github.com/compose2manifest/compose2manifest/survey"
)

// TestQuoteAsPlan: Quote and ValidVolumeName are plan's, byte for byte.
func TestQuoteAsPlan(t *testing.T) {
	for _, s := range []string{"", "a", "it's", "''", "new\nline", "$x `y` \\ *", "bad\xff", "-rf", "c2m-test_db", "_x", "a/b", "..", "x.y-z_1"} {
		if got, want := survey.Quote(s), plan.Quote(s); got != want {
			t.Errorf("Quote(%q) = %s, plan.Quote %s", s, got, want)
		}
		if got, want := survey.ValidVolumeName(s), plan.ValidVolumeName(s); got != want {
			t.Errorf("ValidVolumeName(%q) = %v, plan's %v", s, got, want)
		}
	}
}
