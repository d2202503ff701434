package rules

import (
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/manifest"
)

func TestLooksLikeSecret(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		want        bool
	}{
		{"DB_PASSWORD", "hunter2", true},
		{"API_KEY", "abc123", true},
		{"SECRET_KEY_BASE", "0123abcd", true},
		{"dbPassword", "x", true},
		{"GITHUB_TOKEN", "ghp_x", true},
		{"MYSQL_ROOT_PASSWD", "root", true},
		{"KEYBOARD_LAYOUT", "us", false},
		{"MONKEY", "banana", false},
		{"DB_PASSWORD", "", false},
		{"DB_PASSWORD_FILE", "/run/secrets/db", false},
		{"DB_PASSWORD", "/run/secrets/db", false},
		{"API_KEY_ID", "AKIA", false},
		{"TOKEN_TTL", "3600", false},
		{"SECRET_ENABLED", "true", false},
		{"API_KEY", "12345", false},
		{"APP_SECRET", "${SECRET}", false},
		{"HOSTNAME", "web", false},
	} {
		if got := LooksLikeSecret(tc.name, tc.value); got != tc.want {
			t.Errorf("LooksLikeSecret(%q, %q) = %v, want %v", tc.name, tc.value, got, tc.want)
		}
	}
	if strings.Contains(Mask("hunter2"), "h") {
		t.Errorf("Mask shows the value")
	}
}

func TestCheckPlaintextSecret(t *testing.T) {
	m := &manifest.Module{Version: 1, Module: "m", Resources: []manifest.Resource{
		{Kind: manifest.KindContainer, Pos: manifest.Pos{File: "m.yaml", Line: 9}, Container: &manifest.Container{
			Name: "db", Environment: map[string]string{"DB_PASSWORD": "hunter2", "DB_PASSWORD_FILE": "/run/secrets/db", "LOG_LEVEL": "info"}}},
	}}
	ds := Run([]*Rule{Lookup(All(), "C2M015")}, m)
	if len(ds) != 1 {
		t.Fatalf("got %d diagnostics %v, want 1", len(ds), ds)
	}
	d := ds[0]
	if d.Rule != "C2M015" || d.Severity != Error || d.Line != 9 || d.Service != "db" || !strings.Contains(d.Message, "DB_PASSWORD=********") || strings.Contains(d.Message, "hunter2") {
		t.Errorf("diagnostic = %+v", d)
	}
}
