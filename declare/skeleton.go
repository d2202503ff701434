package declare

import (
	"bytes"

	"github.com/compose2manifest/compose2manifest/internal/atomicfile"
)

// SkeletonHeader starts every declarations skeleton convert writes (after
// a yaml-language-server line, when there is one).
const SkeletonHeader = "# Declarations for the sources convert refused."

// WriteSkeleton writes the declarations skeleton data to the file at p
// atomically (convert --skeleton FILE). A file there that is not a
// skeleton (its comments do not open with SkeletonHeader) is a person's,
// replaced only with force.
func WriteSkeleton(p string, data []byte, force bool) error {
	return atomicfile.WriteOwned(p, data, 0o644, force, "a skeleton", isSkeleton)
}

// isSkeleton reports whether data opens as a skeleton convert wrote.
func isSkeleton(data []byte) bool {
	for _, line := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(line, []byte(SchemaCommentPrefix)) {
			continue
		}
		return bytes.HasPrefix(line, []byte(SkeletonHeader))
	}
	return false
}
