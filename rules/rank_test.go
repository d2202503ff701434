package rules

import (
	"slices"
	"testing"
)

// TestRanks: every rule is ranked, with a known precision, tags, and a
// score in range; a data-loss rule is tagged security and scores high
// (7.0 or more), so code scanning ranks it above the others.
func TestRanks(t *testing.T) {
	all := append(All(), Unreadable())
	for _, r := range all {
		k, ok := ranks[r.ID]
		if !ok {
			t.Errorf("%s has no rank", r.ID)
			continue
		}
		if !slices.Contains([]string{"very-high", "high", "medium", "low"}, k.Precision) {
			t.Errorf("%s: precision %q", r.ID, k.Precision)
		}
		if len(k.Tags) == 0 || k.SecuritySeverity <= 0 || k.SecuritySeverity > 10 {
			t.Errorf("%s: rank %+v", r.ID, k)
		}
		if slices.Contains(k.Tags, TagDataLoss) && (!slices.Contains(k.Tags, TagSecurity) || k.SecuritySeverity < 7) {
			t.Errorf("%s: a data-loss rule wants the security tag and a high score: %+v", r.ID, k)
		}
	}
	if len(ranks) != len(all) {
		t.Errorf("%d ranks for %d rules", len(ranks), len(all))
	}
	if got := (&Rule{ID: "C2M022"}).Rank().SecuritySeverityText(); got != "9.0" {
		t.Errorf("C2M022 security-severity %q", got)
	}
}
