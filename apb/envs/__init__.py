"""Gymnasium environments: PDDLTextEnv, registration of apb/<Domain>-v0, wrappers."""
