"""Command line: ``python -m scorebook.rules score|games``.

``score`` reads a deal, or a match (an object with ``deals``), as JSON on stdin and prints
the scored result (exit 0) or the rejection (exit 2) as JSON. ``games`` prints every game
with its switches, allowed values, defaults and profiles.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .engine import describe_games, play_match, score_deal
from .errors import Rejection


def run(command: str, text: str, lang: str | None = None) -> tuple[int, dict[str, Any]]:
    if command == "games":
        return 0, describe_games()
    try:
        data = json.loads(text)
    except ValueError as exc:
        return 2, {
            "ok": False,
            "errors": [
                {
                    "code": "input.not_json",
                    "path": "",
                    "message": {
                        "en": f"The input is not valid JSON: {exc}",
                        "it": f"L'input non è un JSON valido: {exc}",
                    },
                    "params": {},
                }
            ],
        }
    try:
        if isinstance(data, dict) and "deals" in data:
            return 0, play_match(data).as_dict()
        return 0, {"ok": True, "result": score_deal(data).as_dict()}
    except Rejection as rejection:
        return 2, rejection.as_dict(lang)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scorebook.rules", description=__doc__)
    parser.add_argument("command", choices=("score", "games"))
    parser.add_argument("--lang", choices=("en", "it"), help="messages in one language only")
    args = parser.parse_args(argv)
    text = sys.stdin.read() if args.command == "score" else ""
    code, out = run(args.command, text, args.lang)
    json.dump(out, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
