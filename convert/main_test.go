package convert

import (
	"io"
	"os"
	"testing"

	"github.com/sirupsen/logrus"
)

// TestMain silences compose-go's logrus warnings, which Convert reports
// itself as diagnostics.
func TestMain(m *testing.M) {
	logrus.SetOutput(io.Discard)
	os.Exit(m.Run())
}
