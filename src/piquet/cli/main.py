"""The ``piquet`` command: ``play`` in the terminal, ``rules`` (how to play), ``replay`` or ``analyse`` a
record, ``arena``, ``ladder``, ``odds``, ``stats``, ``settle`` and ``chouette`` (three players)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

RULES_HELP = "rubicon (the default), four-deal, or au-cent with its agreements: au-cent+small-cards+fours"


def build_parser() -> argparse.ArgumentParser:
    from piquet import __version__

    parser = argparse.ArgumentParser(prog="piquet", description="Rubicon Piquet by the 1896 Laws.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command")

    play = sub.add_parser("play", help="play a partie against the computer in the terminal")
    play.add_argument("--seed", type=int, default=None, help="deal the same cards again")
    play.add_argument("--record", metavar="FILE",
                      help="save the record to FILE as the game goes (without it, the partie is saved in your "
                           "data directory, or $PIQUET_DATA_DIR)")
    play.add_argument("--resume", metavar="FILE", nargs="?", const="", default=None,
                      help="resume the partie saved in FILE; without FILE, the last unfinished partie")
    play.add_argument("--rules", default=None,
                      help="rubicon (six deals, the default), four-deal, or au-cent (games of a hundred up)")
    play.add_argument("--agree", action="append", default=None, metavar="OPTION",
                      help="at au-cent, an option by agreement (p. 19), again for both: small-cards (nines, "
                           "eights and sevens do not count in play) or fours (points ending in four count one less)")
    play.add_argument("--level", default=None,
                      help=f"the computer opponent, by name or number: {_levels()}")
    play.add_argument("--name", default=None, help="your name on the score card (default: You)")
    play.add_argument("--symbols", action="store_true", help="show suits as symbols")
    play.add_argument("--screen", action="store_true",
                      help="play on a full-screen table (cards to click, the score beside the talk); the lines "
                           "stay the default, for screen readers and pipes, and without a terminal --screen "
                           "plays in lines")

    rules = sub.add_parser("rules", help="how to play: the guide to the game, or one topic of it (piquet rules "
                                         "exchange, piquet rules pique)")
    rules.add_argument("topic", metavar="TOPIC", nargs="*", help="a topic or a glossary term; none: the whole guide")

    replay = sub.add_parser("replay", help="score the deals of a record (and the games, at Piquet au cent)")
    replay.add_argument("record", metavar="RECORD.json")
    replay.add_argument("--json", action="store_true", help="print the scores as JSON")

    def two_players(p: argparse.ArgumentParser, parties: int) -> None:
        p.add_argument("--parties", type=int, default=parties,
                       help=f"parties to play, in mirrored pairs (default {parties})")
        p.add_argument("--seed", type=int, default=0, help="the same seed plays the same deals (default 0)")
        p.add_argument("--workers", type=int, default=None, help="processes to use (default: every core)")
        p.add_argument("--rules", default="rubicon", help=RULES_HELP)
        p.add_argument("--json", action="store_true", help="print the report as JSON")
        p.add_argument("--ray", action="store_true", help="run the parties on Ray, every core here (the rl extra)")
        p.add_argument("--address", default=None, help="run the parties on the Ray cluster at this address")

    arena = sub.add_parser("arena", help="two computer levels play mirrored pairs of parties")
    arena.add_argument("p1", metavar="P1", help="a level, by name or number")
    arena.add_argument("p2", metavar="P2", help="a level, by name or number")
    two_players(arena, 100)

    ladder = sub.add_parser("ladder", help="every level against the others, and their ratings")
    ladder.add_argument("--levels", default=None, help="comma-separated levels (default: all)")
    ladder.add_argument("--adjacent", action="store_true", help="only each level against the next")
    two_players(ladder, 40)

    analyse = sub.add_parser("analyse", help="a review of a recorded partie: the exchange, the calls, the play")
    analyse.add_argument("record", metavar="RECORD.json")
    analyse.add_argument("--json", action="store_true", help="print the review as JSON (deals from 1, as the text)")
    analyse.add_argument("--player", default=None, help="one player's mistakes only: A, B or a player's name")
    analyse.add_argument("--worlds", type=int, default=None,
                         help="deals sampled to value each discard (default 16; more is steadier and slower)")
    analyse.add_argument("--discards", type=int, default=None,
                         help="discards tried for each number of cards taken (default 3)")
    analyse.add_argument("--seed", type=int, default=None, help="the seed of the sampled deals (default 1)")

    from piquet.cli.odds import add_odds_arguments

    add_odds_arguments(sub.add_parser("odds", help="the odds of the treatise (p. 116-125, 155) and of the deal"))

    from piquet.web.serve import add_serve_arguments

    add_serve_arguments(sub.add_parser("serve", help="the web server: play in the browser, against the computer or "
                                                     "another person"))

    from piquet.cli.stakes import add_settle_arguments

    add_settle_arguments(sub.add_parser("settle", help="the scoring card of a session and the settlement of the "
                                                       "stakes (p. 100-102, 106)"))

    from piquet.cli.mark import add_mark_arguments

    add_mark_arguments(sub.add_parser("mark", help="the marker: keep the score of a partie played with real cards"))

    from piquet.cli.chouette import add_chouette_arguments

    add_chouette_arguments(sub.add_parser("chouette", help="piquet for three in the terminal: you and two computer "
                                                           "players, one alone against two (p. 106)"))

    stats = sub.add_parser("stats", help="two players play many deals; the statistics of play with 95%% intervals")
    stats.add_argument("p1", metavar="P1", nargs="?", help="a level, by name or number")
    stats.add_argument("p2", metavar="P2", nargs="?", help="a level, by name or number")
    stats.add_argument("--deals", type=int, default=600, help="deals to play, in whole parties (default 600)")
    stats.add_argument("--parties", type=int, default=None, help="or: parties to play (instead of --deals)")
    stats.add_argument("--seed", type=int, default=0, help="the same seed plays the same deals (default 0)")
    stats.add_argument("--workers", type=int, default=None, help="processes to use (default: every core)")
    stats.add_argument("--ray", action="store_true", help="run the parties on Ray, every core here (the rl extra)")
    stats.add_argument("--address", default=None, help="run the parties on the Ray cluster at this address")
    stats.add_argument("--rules", default="rubicon", help=RULES_HELP)
    stats.add_argument("--plot", metavar="PREFIX", default=None,
                       help="draw the distributions to PREFIX-scores.png/.svg and PREFIX-parties.png/.svg")
    stats.add_argument("--save", metavar="FILE", default=None, help="write every partie played to FILE (JSON lines)")
    stats.add_argument("--load", metavar="FILE", default=None, help="report on the parties saved in FILE, not playing")
    stats.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser


def _levels() -> str:
    from piquet.players.levels import DEFAULT_LEVEL, LEVELS

    return ", ".join(f"{i} {lv.name}" for i, lv in enumerate(LEVELS)) + f" (default {DEFAULT_LEVEL})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    ns = parser.parse_args(argv)
    if ns.command == "rules":
        from piquet.talk.guide import find, rules_text

        topic = " ".join(ns.topic)
        sys.stdout.write(rules_text(topic or None))
        return 0 if not topic or find(topic) is not None else 2
    if ns.command == "arena":
        from piquet.study.arena import run_arena_command

        return run_arena_command(ns)
    if ns.command == "ladder":
        from piquet.study.arena import run_ladder_command

        return run_ladder_command(ns)
    if ns.command == "odds":
        from piquet.cli.odds import run_odds_command

        return run_odds_command(ns)
    if ns.command == "serve":
        from piquet.web.serve import run_serve

        return run_serve(ns)
    if ns.command == "settle":
        from piquet.cli.stakes import run_settle_command

        return run_settle_command(ns)
    if ns.command == "chouette":
        from piquet.cli.chouette import run_chouette

        return run_chouette(ns)
    if ns.command == "stats":
        from piquet.study.stats import run_stats_command

        return run_stats_command(ns)
    if ns.command == "analyse":
        from piquet.study.analyse import run_analyse

        return run_analyse(ns)
    if ns.command == "mark":
        from piquet.cli.mark import run_mark

        return run_mark(ns)
    if ns.command == "replay":
        from piquet.cli.stakes import run_marked_replay

        marked = run_marked_replay(ns)
        if marked is not None:
            return marked
        from piquet.records.replay import run_replay

        return run_replay(ns)
    if ns.command in (None, "play"):
        if ns.command is None:
            ns = parser.parse_args(["play", *(argv or [])])
        if ns.screen:
            from piquet.cli.screen import run_screen

            return run_screen(ns)
        from piquet.cli.terminal import run_play

        return run_play(ns)
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
