"""One module per game variant; each defines a :class:`~shared.variants.base.Rules` subclass."""
