"""Exceptions and warnings raised by the runtime guard (``fsdp_lint.runtime``).

Kept free of torch and of the static side so that user code can ``except FSDPContractError``
without paying for either import.
"""


class FSDPContractError(RuntimeError):
    """An FSDP2 correctness contract was violated; ``code`` is the catalogue code (``FSD202``)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


class FSDPContractWarning(UserWarning):
    """An FSDP2 contract was violated in warn mode, or a performance-only contract in any mode."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


class FSDPContractAttributeError(FSDPContractError, AttributeError):
    """An FSDP1-only attribute was read on an FSDP2 module.

    It is also an ``AttributeError`` so that ``hasattr(model, "no_sync")`` stays ``False``:
    libraries feature-detect FSDP1/DDP through ``hasattr`` and must keep working.
    """
