"""Edit extraction: ERRANT (spaCy) for text pairs; gold edits come from M2 (gecscore.io.m2)."""
