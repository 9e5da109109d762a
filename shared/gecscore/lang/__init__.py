"""Language-specific edit extraction (one sub-package per language)."""
