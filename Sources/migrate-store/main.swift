// Placeholder entry point until the CLI lands (issue 4).
print("migrate-store: not implemented yet")
