"""The study of play: the arena and the ladder, the statistics, the analysis of a record, the simulated exchange."""
