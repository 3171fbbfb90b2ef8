"""Packages discovered, not listed by hand (issue #29 item 7); everything else is in ``pyproject.toml``.

Every package under ``wargames/`` is found; the checkout's ``data/`` directory is added as the package
``wargames.data`` (mapped in ``[tool.setuptools.package-dir]``), which ``[tool.setuptools.packages.find]`` cannot
express because it only finds directories by their own names.
"""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["wargames", "wargames.*"]), "wargames.data"])
