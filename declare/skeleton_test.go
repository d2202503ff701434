package declare

import "testing"

// TestFilledIn: a skeleton holding a value the new one leaves empty is a
// person's answers; one that only holds the new one's values is not.
func TestFilledIn(t *testing.T) {
	const fresh = SkeletonHeader + "\nversion: 1\nbinds:\n  ./data: {owner: \"\", mode: \"0750\", intent: \"\"}\nacknowledge:\n  - \"\"\n"
	for _, tc := range []struct {
		name, old string
		want      bool
	}{
		{"the same", fresh, false},
		{"an owner written", SkeletonHeader + "\nversion: 1\nbinds:\n  ./data: {owner: \"1000:1000\", mode: \"0750\", intent: \"\"}\nacknowledge:\n  - \"\"\n", true},
		{"an item chosen", SkeletonHeader + "\nversion: 1\nbinds:\n  ./data: {owner: \"\", mode: \"0750\", intent: \"\"}\nacknowledge:\n  - \"*.container_name\"\n", true},
		{"less than the new one", SkeletonHeader + "\nversion: 1\nbinds:\n  ./data: {owner: \"\", mode: \"\", intent: \"\"}\n", false},
		{"not YAML", SkeletonHeader + "\n: [\n", true},
	} {
		if got := filledIn([]byte(tc.old), []byte(fresh)); got != tc.want {
			t.Errorf("%s: filledIn = %v, want %v", tc.name, got, tc.want)
		}
	}
}
