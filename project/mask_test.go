package project

import (
	"context"
	"strings"
	"testing"
)

// TestLoadErrorMasksWrittenSecrets: a load error never quotes what the
// compose files write of a secret-looking variable, as written or
// interpolated: a reference's default, a service's environment: value
// repeated in a field (by hand or through an anchor), the value of a
// service's env_file, or an environment: value interpolated from a
// variable whose own name says nothing. Each error is still an error,
// with its place.
func TestLoadErrorMasksWrittenSecrets(t *testing.T) {
	const secret = "Sup3rS3cretValue99"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // in the error
	}{
		{"default of a secret variable", map[string]string{
			"compose.yaml": "services:\n  app:\n    image: nginx:1\n    mem_limit: ${DB_PASSWORD:-" + secret + "}\n"},
			"services.app.mem_limit"},
		{"alternative of a secret variable", map[string]string{
			"compose.yaml": "services:\n  app:\n    image: nginx:1\n    environment: {DB_PASSWORD: x}\n    mem_limit: ${DB_PASSWORD:+" + secret + "}\n", ".env": "DB_PASSWORD=set\n"},
			"services.app.mem_limit"},
		{"environment mapping value repeated", map[string]string{
			"compose.yaml": "services:\n  app:\n    image: nginx:1\n    environment:\n      DB_PASSWORD: " + secret + "\n    healthcheck:\n      interval: " + secret + "\n"},
			"healthcheck.interval"},
		{"environment list value repeated", map[string]string{
			"compose.yaml": "services:\n  app:\n    image: nginx:1\n    environment:\n      - API_TOKEN=" + secret + "\n    ports:\n      - \"" + secret + ":80\"\n"},
			"hostPort"},
		{"environment value through an anchor", map[string]string{
			"compose.yaml": "x-pw: &pw " + secret + "\nservices:\n  app:\n    image: nginx:1\n    environment:\n      DB_PASSWORD: *pw\n    cpus: *pw\n"},
			"services.app.cpus"},
		{"environment value interpolated", map[string]string{
			"compose.yaml": "services:\n  app:\n    image: nginx:1\n    environment:\n      DB_PASSWORD: ${PART}\n    mem_limit: ${PART}\n", ".env": "PART=" + secret + "\n"},
			"services.app.mem_limit"},
		{"service env_file value", map[string]string{
			"compose.yaml": "services:\n  app:\n    image: nginx:1\n    env_file: [{path: app.env}]\n    ports:\n      - \"" + secret + ":80\"\n", "app.env": "API_KEY=" + secret + "\n"},
			"hostPort"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			_, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
			if err == nil {
				t.Fatal("loaded; want an error")
			}
			if msg := err.Error(); strings.Contains(msg, secret) || !strings.Contains(msg, Mask(secret)) || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q: want %q masked, and %q", msg, secret, tc.want)
			}
		})
	}
}
