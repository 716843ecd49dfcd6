"""The one thing pyproject.toml cannot say: the search kernels in C, Lasca's and Oware's.

Built where a C compiler is at hand; where that fails, Kamen installs without
them and its search uses the same functions in Python (games/ai/lasca_kernel.py,
games/ai/oware_kernel.py), only more slowly.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.ai._lasca_kernel",
            ["games/ai/lasca_kernel.c"],
            depends=["games/ai/timed_search.h"],
            optional=True,
        ),
        Extension(
            "games.ai._oware_kernel",
            ["games/ai/oware_kernel.c"],
            depends=["games/ai/timed_search.h"],
            optional=True,
        ),
    ],
)
