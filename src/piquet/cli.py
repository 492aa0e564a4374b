"""The ``piquet`` command: ``play`` a partie in the terminal, ``replay`` a record."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="piquet", description="Rubicon Piquet by the 1896 Laws.")
    sub = parser.add_subparsers(dest="command")

    play = sub.add_parser("play", help="play a partie against the computer in the terminal")
    play.add_argument("--seed", type=int, default=None, help="deal the same cards again")
    play.add_argument("--record", metavar="FILE", help="save the record to FILE as the game goes")
    play.add_argument("--resume", metavar="FILE", help="resume the partie saved in FILE")
    play.add_argument("--rules", default=None, help="rubicon (six deals, the default) or four-deal")
    play.add_argument("--level", default=None, help="the computer opponent: random or simple (the default)")
    play.add_argument("--name", default=None, help="your name on the score card (default: You)")
    play.add_argument("--symbols", action="store_true", help="show suits as symbols")

    replay = sub.add_parser("replay", help="score the deals of a record")
    replay.add_argument("record", metavar="RECORD.json")
    replay.add_argument("--json", action="store_true", help="print the scores as JSON")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    ns = parser.parse_args(argv)
    if ns.command == "replay":
        from .replay import run_replay

        return run_replay(ns)
    if ns.command in (None, "play"):
        if ns.command is None:
            ns = parser.parse_args(["play", *(argv or [])])
        from .terminal import run_play

        return run_play(ns)
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
