"""The one part of the build pyproject.toml cannot say yet without an experimental table:
the optional compiled speed-up of Freecell's stuck search (docs/engine.md, "Speed").

``optional=True``: where it does not compile (no C compiler, no Python headers),
the install goes on and the same code runs in Python.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "shared.variants.freecell._children",
            sources=["shared/variants/freecell/_children.c"],
            optional=True,
        )
    ]
)
