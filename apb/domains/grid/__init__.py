"""Grid: a robot fetches keys to open locked places and carries keys to their goal places."""
