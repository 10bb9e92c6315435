"""LLM backends behind one protocol (OpenAI, Anthropic, OpenAI-compatible, local, scripted), cache, usage."""
