"""Prompt templates as data files, and a small loader."""
