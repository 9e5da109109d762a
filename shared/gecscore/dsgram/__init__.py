"""DSGram: LLM-judged sub-scores, AHP weights and the scorer."""
