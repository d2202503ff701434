package project

import "testing"

// TestCouldBeSecret is the rule a secret-looking variable's value must
// pass to spread "secret" to other fields (issue 21): placeholders,
// common words, switches, numbers, settings and short values do not.
func TestCouldBeSecret(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  bool
	}{
		{"Tr0ub4dor-and-3", true},
		{"hunter22x", true},
		{"correct-horse-battery-staple", true},
		{"xK9mQ2pL7vR4", true},
		{"a8f5f167f44f4964e6c998dee827110c", true},
		{"CorrectHorseBatteryStaple", true},
		{"enterprise-4f9a", true},
		// Too short, or no secret at all.
		{"hunter2", false},
		{"disabled", false},
		{"DISABLED", false},
		{"none", false},
		{"true", false},
		{"12345678", false},
		{"3600.5", false},
		{"60/minute", false},
		{"512MiB", false},
		{"1h30m0s", false},
		{"https://auth.example.org/callback", false},
		// Placeholders.
		{"changeme", false},
		{"change-me-now", false},
		{"CHANGE_ME", false},
		{"replace-me", false},
		{"replace_with_a_secret", false},
		{"your-secret-here", false},
		{"yourStrongPassword123", false},
		{"<secret>", false},
		{"xxxxxxxxxxxx", false},
		{"********", false},
		{"my-secret-goes-here", false},
		// Common words, one to three.
		{"password", false},
		{"postgres", false},
		{"changePassword", false},
		{"not-set", false},
		{"Super Secret", false},
		{"MAILCOW_PASS", false},
	} {
		if got := CouldBeSecret(tc.value); got != tc.want {
			t.Errorf("CouldBeSecret(%q) = %v, want %v", tc.value, got, tc.want)
		}
	}
}

// TestMaskToken: a value that could not be a secret is masked in a load
// error only where it stands alone, never inside other text.
func TestMaskToken(t *testing.T) {
	for _, c := range []struct{ s, v, want string }{
		{"Invalid hostPort: host", "host", "Invalid hostPort: ********"},
		{"compose.yaml: Invalid hostPort: compose", "compose", "compose.yaml: Invalid hostPort: ********"},
		{"services.postgres.image: postgres", "postgres", "services.postgres.image: ********"},
		{`value "postgres" at line 3.`, "postgres", `value "********" at line 3.`},
		{"postgres.", "postgres", "********."},
		{"./postgres/data and postgres_data", "postgres", "./postgres/data and postgres_data"},
		{"passwords, password-file, password", "password", "passwords, password-file, ********"},
		{"", "x", ""},
	} {
		if got := maskToken(c.s, c.v); got != c.want {
			t.Errorf("maskToken(%q, %q) = %q, want %q", c.s, c.v, got, c.want)
		}
	}
}
