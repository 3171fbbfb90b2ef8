"""Command line: ``wargames list``, ``wargames play GAME --scenario S --seed N`` and
``wargames montecarlo GAME --games N [--workers W | --scheduler ADDRESS]``.

For scripting and a quick look without Jupyter: built-in or random players for every side, rulings printed
as text, the final result, and ``--save FILE`` to keep the game (open it later with ``wargames.open_save``).
"""

from __future__ import annotations

import argparse
import sys

from . import games, load, scenarios


def _players(spec: list[str], game) -> dict:
    from .core import RandomPlayer

    out = {}
    for item in spec:
        side, _, kind = item.partition("=")
        if side not in game.sides or kind not in ("bot", "random"):
            raise SystemExit(f"--player takes SIDE=bot|random with SIDE in {list(game.sides)}; got {item!r}")
        out[side] = RandomPlayer(game.seed) if kind == "random" else game.default_player(side)
    return out


def cmd_list(_args) -> int:
    for g in games():
        from .core.registry import game_class

        cls = game_class(g)
        print(f"{g:6} {cls.title}: sides {', '.join(cls.sides)}; scenarios: {', '.join(scenarios(g))}")
    return 0


def cmd_play(args) -> int:
    from .core import WargamesError

    try:
        game = load(args.game, scenario=args.scenario, seed=args.seed)
    except WargamesError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    game.set_players(_players(args.player, game))
    if args.side is not None and args.side not in (*game.sides, *game.factions):
        print(
            f"error: --side {args.side!r} is not a side or faction of {game.title}; choose one of "
            f"{', '.join(dict.fromkeys((*game.sides, *game.factions)))}",
            file=sys.stderr,
        )
        return 2
    shown = 0
    if not args.quiet:
        print(f"{game.title}, scenario {game.scenario_id}, seed {args.seed}")
    while not game.is_over:
        game.advance("turn" if args.quiet else "phase")
        if not args.quiet:
            for r in game.view(args.side).log[shown:]:  # what that side may read, hidden units masked
                print(r.to_text())
        shown = len(game.log)
    if args.quiet and game.result:
        print(game.result.to_text())
    print("scores: " + ", ".join(f"{k} {v}" for k, v in game.scores().items()))
    if args.save:
        game.save(args.save)
        print(f"saved to {args.save}")
    return 0


def cmd_montecarlo(args) -> int:
    """Bot-against-bot games, one row per seed (wargames.montecarlo): a summary, and the rows as CSV."""
    from . import montecarlo
    from .core import WargamesError

    try:
        frame = montecarlo(
            args.game,
            args.games,
            scenario=args.scenario,
            seed=args.seed,
            workers=args.workers,
            scheduler=args.scheduler,
            progress=not args.quiet,
        )
    except WargamesError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    shares = frame["level"].value_counts(normalize=True).mul(100).round(1)
    print(f"{args.game}: {len(frame)} games (seeds {args.seed}-{args.seed + len(frame) - 1})")
    for level, pct in shares.items():
        print(f"  {pct:5.1f}%  {level}")
    print(f"  median game {frame['seconds'].median():.2f} s")
    if args.out:
        from .core.record import atomic_open

        with atomic_open(args.out, "w", encoding="utf-8", newline="") as fh:  # issue #30 item 3
            frame.to_csv(fh, index=False)
        print(f"rows written to {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="wargames", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="games and their scenarios").set_defaults(func=cmd_list)
    play = sub.add_parser("play", help="play a game to the end with built-in or random players")
    play.add_argument("game", choices=games())
    play.add_argument("--scenario", default=None, help="default: the game's own default scenario")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument(
        "--player",
        action="append",
        default=[],
        metavar="SIDE=bot|random",
        help="who plays a side (default: the built-in bot)",
    )
    play.add_argument("--side", default=None, help="print the rulings as this side may see them")
    play.add_argument("--save", default=None, metavar="FILE", help="save the finished game as JSON")
    play.add_argument("--quiet", action="store_true", help="print only the result and scores")
    play.set_defaults(func=cmd_play)
    mc = sub.add_parser(
        "montecarlo", help="many bot-against-bot games: outcome shares and one CSV row per game"
    )
    mc.add_argument("game", choices=games())
    mc.add_argument("--games", type=int, default=100)
    mc.add_argument("--scenario", default=None, help="default: the game's own default scenario")
    mc.add_argument("--seed", type=int, default=0, help="first seed")
    mc.add_argument("--workers", type=int, default=1, help="local processes")
    mc.add_argument(
        "--scheduler", default=None, metavar="ADDRESS", help="a Dask scheduler, e.g. tcp://host:8786"
    )
    mc.add_argument("--out", default=None, metavar="CSV")
    mc.add_argument("--quiet", action="store_true", help="no progress line")
    mc.set_defaults(func=cmd_montecarlo)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
