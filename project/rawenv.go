package project

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/compose-spec/compose-go/v2/dotenv"
	"github.com/docker/cli/pkg/kvfile"
)

// rawEnvFormat registers, once per process, the env_file format "raw"
// that docker compose v5 adds to compose-go (cmd/compose's init:
// dotenv.RegisterFormat("raw", rawEnv)): lines read as docker run
// --env-file reads them, with github.com/docker/cli/pkg/kvfile, values
// taken as written, without quotes or interpolation. compose-go keeps its
// formats in a process-wide table, so this is the one registration
// compose2manifest makes there; without it, a project docker compose
// runs would fail to load.
var rawEnvFormat sync.Once

func registerRawEnv() {
	rawEnvFormat.Do(func() { dotenv.RegisterFormat("raw", rawEnv) })
}

// rawEnv parses an env_file of format raw as docker compose does.
func rawEnv(r io.Reader, filename string, vars map[string]string, lookup func(key string) (string, bool)) error {
	lines, err := kvfile.ParseFromReader(r, lookup)
	if err != nil {
		return fmt.Errorf("failed to parse env_file %s: %w", filename, err)
	}
	for _, line := range lines {
		key, value, _ := strings.Cut(line, "=")
		vars[key] = value
	}
	return nil
}
