"""The argument a call passes for one parameter of the callee, read from the call's syntax.

Torch APIs take their important argument either by position or by keyword (`torch.save(obj, f)`,
`torch.save(obj, f=path)`); each reader of such an API asks here instead of matching both forms
itself.
"""

from __future__ import annotations

from typing import Optional

from astroid import nodes


def call_argument(call: nodes.Call, position: Optional[int], keyword: str) -> Optional[nodes.NodeNG]:
    """The expression passed for the parameter at `position` (None: keyword-only) named `keyword`.

    None where the call passes nothing for it, or where it cannot be told: a `*args` before or at
    the position hides which parameter each later positional argument binds.
    """
    found = next((k.value for k in call.keywords or [] if k.arg == keyword), None)
    if found is not None or position is None:
        return found
    for index, argument in enumerate(call.args or []):
        if isinstance(argument, nodes.Starred):
            return None
        if index == position:
            return argument
    return None
