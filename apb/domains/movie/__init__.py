"""Movie (AutoPlanBench's modified variant): buy snacks, then rewind the movie and reset the counter."""
