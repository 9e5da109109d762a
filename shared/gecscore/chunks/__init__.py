"""The chunk metrics: CLEME's chunk partition, chunk labels, length/similarity/LLM weights, CLEME and CLEME2.0."""
