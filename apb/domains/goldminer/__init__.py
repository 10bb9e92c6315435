"""Gold Miner: a robot blasts through rock with bombs and a laser to pick up the gold."""
