package declare

import (
	"bytes"
	"strings"
)

// SchemaCommentPrefix starts the comment that points yaml-language-server
// (VS Code's YAML extension and other editors) at a JSON Schema for the
// file: "# yaml-language-server: $schema=PATH".
const SchemaCommentPrefix = "# yaml-language-server: $schema="

// WithSchemaComment returns data with the line
// "# yaml-language-server: $schema=SCHEMA" first, unless schema is empty or
// a yaml-language-server line is already among the comments that open the
// document (an existing one is left as the author wrote it).
func WithSchemaComment(data []byte, schema string) []byte {
	if schema == "" {
		return data
	}
	for _, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "# yaml-language-server:") {
			return data
		}
		if t != "" && !strings.HasPrefix(t, "#") {
			break
		}
	}
	var b bytes.Buffer
	b.WriteString(SchemaCommentPrefix + schema + "\n")
	b.Write(data)
	return b.Bytes()
}
