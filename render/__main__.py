"""`python -m render demo OUTDIR`: write the demo images and replays into OUTDIR."""

from __future__ import annotations

import argparse
from pathlib import Path

from render import demo


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    demo_command = commands.add_parser("demo", help="write the demo PNGs and GIFs")
    demo_command.add_argument("outdir", type=Path)
    args = parser.parse_args(argv)
    for path, shows in demo.write(args.outdir):
        print(f"{path}  ({path.stat().st_size // 1024} KiB): {shows}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
