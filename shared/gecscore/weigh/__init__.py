"""Edit (chunk) weighting: length, similarity (BERTScore), LLM."""
