"""An implementation class that cannot be made without arguments (verify and serve make it
with none)."""


class Impl:
    def __init__(self, rules: str) -> None:
        self.rules = rules

    def new(self, game: str, players: int, options: dict[str, object], dealer: int) -> None:
        pass

    def to_move(self) -> None:
        return None

    def legal(self) -> list[dict[str, object]]:
        return []

    def apply(self, event: dict[str, object]) -> None:
        pass

    def result(self) -> dict[str, object]:
        return {}
