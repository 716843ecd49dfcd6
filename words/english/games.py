"""English for the engines: how games end and why a move, variant, position or record is refused."""

TEXTS: dict[str, str] = {
    # A move error is followed by the legal moves (words.explain).
    "legal-moves": "{sentence}. Legal moves: {legal}",
    "legal-moves.none": "{sentence}. The game is over.",
}
