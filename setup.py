"""The one thing pyproject.toml cannot say: Lasca's search kernel in C.

Built where a C compiler is at hand; where it fails, Kamen installs without it
and plays Lasca through the engine's Python functions (games/ai/lasca_kernel.py).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("games.ai._lasca_kernel", ["games/ai/lasca_kernel.c"], optional=True),
    ],
)
