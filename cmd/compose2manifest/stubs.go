package main

// Subcommands not built yet. Each moves to its own file when built.
