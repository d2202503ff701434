package project

import "testing"

// TestSecretFileName: a path naming a secret is told from a config file's.
func TestSecretFileName(t *testing.T) {
	for p, want := range map[string]bool{
		"nginx.conf":                      false,
		"/root/.ssh/id_rsa":               true,
		"/etc/wireguard/wg0.conf":         true,
		"/run/secrets/api":                true,
		"rclone.conf":                     true,
		"acme.json":                       true,
		"kubeconfig":                      true,
		".env.local":                      true,
		"service-account.json":            true,
		"/etc/ssl/private/site.key":       true,
		"config.json":                     false,
		"/etc/app/app.yml":                false,
		"conf.d/default.conf":             false,
		"clickhouse/default-password.xml": true,
		"secrets/db.txt":                  true,
		"db_password.txt":                 true,
		"certs/tls.key":                   true,
		"certs/tls.crt":                   false,
		"ssh/id_ed25519":                  true,
		".env":                            true,
		"auth/.htpasswd":                  true,
		"bypass.conf":                     false,
		"prometheus.yml":                  false,
		"keycloak/realm.json":             false,
	} {
		if got := SecretFileName(p); got != want {
			t.Errorf("SecretFileName(%q) = %v, want %v", p, got, want)
		}
	}
}
