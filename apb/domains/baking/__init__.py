"""Baking: apb's kitchen for the closed-loop relational planning study (souffles and cakes, consumed ingredients)."""
