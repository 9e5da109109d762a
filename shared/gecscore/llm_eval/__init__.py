"""LLM-S and LLM-E (Kobayashi, Mita and Komachi 2024): an LLM judge scores each corrected sentence
(LLM-S) or its edits (LLM-E) on 1-5; the system score is the mean."""
