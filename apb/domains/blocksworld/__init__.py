"""Blocksworld (4 operators): one hand rebuilds towers of blocks."""
