"""The study of play: the arena and the ladder, the statistics, the analysis of a record, the simulated exchange."""

from piquet.study.analyse import CardAnalysis, analyse_deal, analyse_partie
from piquet.study.arena import ArenaReport, LadderReport, play_partie, run_arena, run_ladder
from piquet.study.exchange import after_exchange
from piquet.study.stats import StatsReport, run_stats

__all__ = [
    "ArenaReport", "CardAnalysis", "LadderReport", "StatsReport", "after_exchange", "analyse_deal", "analyse_partie",
    "play_partie", "run_arena", "run_ladder", "run_stats",
]
