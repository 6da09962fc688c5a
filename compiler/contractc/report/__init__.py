"""Messages and their formats: diagnostics and codes, report formatting, the progress line, explain."""
