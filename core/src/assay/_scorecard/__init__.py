"""The runtime confidence scorecard (seed 000): types, composition, action policy, signal policy."""
