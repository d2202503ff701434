package schematest

import (
	"strings"
	"testing"
)

// TestSARIFRefuses: what code scanning refuses is reported, and a log
// that breaks the schema is too.
func TestSARIFRefuses(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	const good = `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "c", "version": "1",
  "rules": [{"id": "R1", "shortDescription": {"text": "s"}, "fullDescription": {"text": "f"}, "helpUri": "https://x.test/r1",
  "properties": {"tags": ["data-loss", "security"], "precision": "very-high", "security-severity": "8.0"}}]}},
  "results": [{"ruleId": "R1", "message": {"text": "m"}, "partialFingerprints": {"k/v1": "ab"}, "locations": [{"physicalLocation":
  {"artifactLocation": {"uri": "a/b.yaml", "uriBaseId": "%SRCROOT%"}, "region": {"startLine": 3}}}]}]}]}`
	if err := v.SARIF([]byte(good)); err != nil {
		t.Fatalf("good log: %v", err)
	}
	for _, tc := range []struct{ from, to, want string }{
		{`"ruleId": "R1", `, ``, "names no rule"},
		{`, "region": {"startLine": 3}`, ``, "startLine"},
		{`, "uriBaseId": "%SRCROOT%"`, ``, "without a uriBaseId"},
		{`, "helpUri": "https://x.test/r1"`, ``, "helpUri"},
		{`"version": "1",`, ``, "version"},
		{`"startLine": 3`, `"startLine": 0`, "startLine"},
		{`"message": {"text": "m"}`, `"message": {"txt": "m"}`, "validation failed"},
		{`"partialFingerprints": {"k/v1": "ab"}, `, ``, "no partialFingerprints"},
		{`"security-severity": "8.0"`, `"security-severity": "high"`, "security-severity"},
		{`"precision": "very-high", `, ``, "precision"},
		{`"uri": "a/b.yaml"`, `"uri": "./a/b.yaml"`, "not clean"},
	} {
		bad := strings.Replace(good, tc.from, tc.to, 1)
		err := v.SARIF([]byte(bad))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("without %s: got %v, want an error about %s", tc.from, err, tc.want)
		}
	}
}
