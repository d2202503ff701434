package gen

import (
	"os"
	"path/filepath"
)

// Recheck is a project, by file name relative to a root, with an included
// file, a .env, an env_file, declarations and a bind source that is a
// file: each an input whose change must make a re-check or a batch
// convert the project again. It converts with VolumeRoot /srv and no
// warning.
var Recheck = map[string]string{
	"proj/app/compose.yaml": `include:
  - inc/extra.yaml
services:
  app:
    image: example/app:1
    env_file: app.env
    environment:
      LEVEL: ${LEVEL:-info}
    volumes:
      - ./conf.ini:/etc/app/conf.ini
      - data:/data
volumes:
  data: {}
`,
	"proj/app/inc/extra.yaml": "services:\n  side:\n    image: example/side:1\n    environment:\n      MODE: ${MODE}\n",
	"proj/app/.env":           "MODE=fast\n",
	"proj/app/app.env":        "A=1\n",
	"proj/app/conf.ini":       "[app]\n",
	"proj/app/compose2manifest.yaml": `version: 1
host_project_directory: /opt/app
binds:
  ./conf.ini: {owner: "0:0", mode: "0755", intent: config} # 0755: it stays valid when a test makes it a directory
volumes:
  data: {owner: "1:1", mode: "0700", intent: state}
directories:
  /opt/app: {owner: "0:0", mode: "0755", intent: config}
  /srv/app: {owner: "0:0", mode: "0755", intent: state}
`,
}

// WriteFiles writes files (contents by slash-separated name) under dir,
// making the folders they need.
func WriteFiles(dir string, files map[string]string) error {
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			return err
		}
	}
	return nil
}
