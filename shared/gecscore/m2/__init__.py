"""The M2 family: MaxMatch edit extraction, M2/SentM2, PT-M2 and the ERRANT base (PT-ERRANT)."""
