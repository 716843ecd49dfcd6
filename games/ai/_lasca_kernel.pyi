from collections.abc import Callable, Sequence

from games.lasca import MoveData

def generate(board: tuple[str, ...], side: int, continues: bool) -> dict[str, MoveData]: ...
def apply(board: tuple[str, ...], side: int, data: MoveData) -> tuple[tuple[str, ...], bool]: ...
def evaluate(weights: bytes, board: tuple[str, ...], side: int) -> int: ...
def search(
    board: tuple[str, ...],
    side: int,
    continues: bool,
    seen: Sequence[tuple[str, ...]],
    quiet: int,
    depth: int,
    alpha: int,
    beta: int,
) -> int: ...
def think(
    board: tuple[str, ...],
    side: int,
    continues: bool,
    seen: Sequence[tuple[str, ...]],
    quiet: int,
    weights: bytes,
    moves: Sequence[str],
    max_depth: int,
    quiescence: int,
    reductions: bool,
    table: int,
    clock: Callable[[], float],
    deadline: float | None,
) -> tuple[int, int, int, int]: ...
