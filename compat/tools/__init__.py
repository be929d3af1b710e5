"""Scripts that generate compat's documentation pages from its code."""
