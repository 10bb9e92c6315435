Here is the problem you asked for: blocks b1 to b4, stacked.
