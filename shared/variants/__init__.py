"""The variants: one module each, and the registry that lists them.

A variant is one :class:`~shared.variants.base.Rules` subclass in one module
(or package, for Freecell), declaring everything the rest of the code needs.
A :class:`Variants` registry is what the engine, the solver and the server
look variants up in; :data:`STANDARD` holds the five, in the order players see
them. Another set, a sixth variant say, is a registry of its own::

    TOYS = Variants((*STANDARD.classes, ToyRules))
    new_game("toy", seed=1, variants=TOYS)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from shared.errors import InvalidOptions
from shared.variants.base import Rules
from shared.variants.freecell import FreecellRules
from shared.variants.gypsy import GypsyRules
from shared.variants.osmosis import OsmosisRules
from shared.variants.thumb_and_pouch import ThumbAndPouchRules
from shared.variants.westhaven import WesthavenRules


class Variants:
    """An immutable registry of variants by id, in the order players see them."""

    __slots__ = ("_by_id", "classes")

    def __init__(self, classes: Iterable[type[Rules]]) -> None:
        self.classes: tuple[type[Rules], ...] = tuple(classes)
        by_id: dict[str, type[Rules]] = {}
        for cls in self.classes:
            if not (isinstance(cls, type) and issubclass(cls, Rules)):
                raise TypeError(f"a variant is a Rules subclass, not {cls!r}")
            if cls.id in by_id:
                raise ValueError(f"two variants have the id {cls.id!r}")
            by_id[cls.id] = cls
        #: (a plain dict, for the lookup every new game makes; nothing changes it)
        self._by_id: dict[str, type[Rules]] = by_id

    def get(self, variant: object) -> type[Rules]:
        """The rules class of ``variant``; :class:`InvalidOptions` for an id not registered."""
        cls = self._by_id.get(variant) if isinstance(variant, str) else None
        if cls is None:
            raise InvalidOptions(f"unknown variant {variant!r} (variants: {', '.join(self.ids)})")
        return cls

    def rules(self, variant: object, options: Mapping[str, object] | None = None) -> Rules:
        """The rules of ``variant`` with ``options`` checked and merged over the defaults."""
        return self.get(variant)(options)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self._by_id)

    def info(self) -> list[dict[str, Any]]:
        """Each variant's VariantInfo (docs/protocol.md), in order (``welcome.server.variants``)."""
        return [cls.info() for cls in self.classes]

    def __iter__(self) -> Iterator[type[Rules]]:
        return iter(self.classes)

    def __len__(self) -> int:
        return len(self.classes)

    def __contains__(self, variant: object) -> bool:
        return isinstance(variant, str) and variant in self._by_id

    def __reduce__(self) -> tuple[type[Variants], tuple[tuple[type[Rules], ...]]]:
        # A registry travels to worker processes: its classes pickle by name.
        return (Variants, (self.classes,))

    def __repr__(self) -> str:
        return f"Variants({', '.join(self.ids)})"


#: the five variants, in the order players see them
STANDARD = Variants((OsmosisRules, ThumbAndPouchRules, GypsyRules, FreecellRules, WesthavenRules))

__all__ = ["STANDARD", "Rules", "Variants"]
