"""Pretrained-model pair scoring (BERTScore, BARTScore): serves PT-M2 and CLEME2.0-sim."""
