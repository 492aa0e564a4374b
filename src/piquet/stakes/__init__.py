"""The settlement of stakes and the scoring cards (p. 97-102), and chouette for three (p. 106)."""
