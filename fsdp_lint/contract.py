"""What a static rule and a runtime check share: the code, the name and the severity of a contract.

Kept free of astroid and torch so that both halves of the product can subclass it.
"""

from __future__ import annotations

from typing import ClassVar


class Contract:
    """A contract of the catalogue. The class docstring is its documentation page."""

    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[str] = "error"
