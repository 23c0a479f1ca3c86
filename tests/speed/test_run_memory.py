"""What a cold run keeps in memory: the bytes of the files it does not analyse, compressed, one
object for each line number its syntax trees share, and no walk past its end; none of it changes
what the run reads."""

from __future__ import annotations

import ast
import gc
import weakref

from fsdp_lint.analysis import paths
from fsdp_lint.engine import source
from fsdp_lint.engine.analysed_run import _Shelf


def test_shelved_files_read_back_as_they_were_in_their_order():
    data = {f"pkg/m{i}.py": f"import torch\nx = {i}\n".encode() * (i + 1) for i in range(5)}
    expected = dict(data)
    shelf = _Shelf(data)
    shelf.shelve(["pkg/m1.py", "pkg/m3.py", "pkg/absent.py"])
    assert list(shelf) == list(expected)
    assert {path: shelf[path] for path in shelf} == expected
    assert "pkg/m3.py" in shelf and "pkg/absent.py" not in shelf and len(shelf) == 5


def test_nodes_on_one_line_share_its_number_and_lines_are_unchanged():
    text = "".join(f"x{i} = f(a{i}, b{i})\n" for i in range(400))
    module = source.parse(text, "long", "/tmp/long.py", "long.py")
    assert not isinstance(module, source.Violation)
    statements = module.body
    assert [s.lineno for s in statements] == [node.lineno for node in ast.parse(text).body]
    last = statements[-1]
    assert last.lineno == 400
    assert last.value.lineno is last.lineno and last.value.args[1].end_lineno is last.lineno


def test_a_search_for_an_uncovered_run_leaves_its_walk_to_reference_counting():
    """A run turns the cyclic collector off (`lint._no_cyclic_gc`), so whatever a walk leaves in a
    reference cycle stays until the run ends: `uncovered`'s recursive search, nested in it, was
    one (it and its closure), and kept every walk that asked it alive, with all the walk held
    (modelscope/twinkle: 331 -> under 200 MB once freed)."""

    class Walk:
        def implied(self, literal: paths.Literal) -> paths.Path:
            return paths.EMPTY

    walk = Walk()
    freed = weakref.ref(walk)
    tested = (("bool", "ready"), True)
    enabled = gc.isenabled()
    gc.disable()
    try:
        assert paths.uncovered(paths.EMPTY, [frozenset([tested])], walk.implied) == frozenset([(tested[0], False)])
        del walk
        assert freed() is None
    finally:
        if enabled:
            gc.enable()
