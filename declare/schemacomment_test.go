package declare

import "testing"

func TestWithSchemaComment(t *testing.T) {
	const line = "# yaml-language-server: $schema=schema/declarations.json\n"
	for _, tc := range []struct{ in, schema, want string }{
		{"version: 1\n", "", "version: 1\n"},
		{"version: 1\n", "schema/declarations.json", line + "version: 1\n"},
		{"# mine\nversion: 1\n", "schema/declarations.json", line + "# mine\nversion: 1\n"},
		{"# mine\n# yaml-language-server: $schema=other.json\nversion: 1\n", "schema/declarations.json", "# mine\n# yaml-language-server: $schema=other.json\nversion: 1\n"},
		{"", "s.json", "# yaml-language-server: $schema=s.json\n"},
	} {
		got := string(WithSchemaComment([]byte(tc.in), tc.schema))
		if got != tc.want {
			t.Errorf("WithSchemaComment(%q, %q) = %q, want %q", tc.in, tc.schema, got, tc.want)
		}
		if _, err := Parse("x.yaml", []byte(got+"version: 1\n")); tc.in == "" && err != nil {
			t.Errorf("does not parse: %v", err)
		}
	}
}
