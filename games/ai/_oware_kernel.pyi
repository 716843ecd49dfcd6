from collections.abc import Callable, Sequence

def legal(pits: tuple[int, ...], side: int, obliged: bool, forbid_slam: bool) -> list[int]: ...
def by_capture(pits: tuple[int, ...], moves: Sequence[int]) -> list[int]: ...
def capturing(pits: tuple[int, ...], moves: Sequence[int]) -> list[int]: ...
def play(
    pits: tuple[int, ...],
    stores: tuple[int, int],
    side: int,
    origin: int,
    grandslam: int,
    must_play_12: bool,
    obliged: tuple[bool, bool],
) -> tuple[tuple[int, ...], tuple[int, int], bool, tuple[bool, bool], int]: ...
def evaluate(weights: bytes, pits: tuple[int, ...], stores: tuple[int, int], side: int) -> int: ...
def search(
    pits: tuple[int, ...],
    stores: tuple[int, int],
    side: int,
    grandslam: int,
    must_play_12: bool,
    obliged: tuple[bool, bool],
    history: Sequence[tuple[int, ...]],
    depth: int,
    alpha: int,
    beta: int,
) -> int: ...
def think(
    pits: tuple[int, ...],
    stores: tuple[int, int],
    side: int,
    obliged: tuple[bool, bool],
    history: Sequence[tuple[int, ...]],
    grandslam: int,
    must_play_12: bool,
    weights: bytes,
    tables: tuple[object, object | None, object | None] | None,
    moves: Sequence[int],
    max_depth: int,
    quiescence: int,
    reductions: bool,
    table: int,
    clock: Callable[[], float],
    deadline: float | None,
) -> tuple[int, int, int, int]: ...
