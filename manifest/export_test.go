package manifest

import "go.yaml.in/yaml/v3"

// EmitBoth returns the document of m as emitDocument writes it (ok
// false when it does not) and as yaml.v3 writes it, for
// TestEmitLikeYAMLModules.
func EmitBoth(m *Module) (fast []byte, ok bool, slow []byte, err error) {
	root, err := tree(m)
	if err != nil {
		return nil, false, nil, err
	}
	fast, ok = emitDocument(root)
	slow, err = yamlDocument(root)
	return fast, ok, slow, err
}

// EmitNodes is EmitBoth for a node tree.
func EmitNodes(root *yaml.Node) (fast []byte, ok bool, slow []byte, err error) {
	fast, ok = emitDocument(root)
	slow, err = yamlDocument(root)
	return fast, ok, slow, err
}
