"""Ferry: a one-car ferry carries cars between locations."""
