"""Fire in the Lake (GMT COIN IV, 2nd edition) on the shared core."""
