"""The guard's API and machinery in one process: import cost, settings, reporting, containment."""

import subprocess
import sys
import warnings

import pytest

torch = pytest.importorskip("torch")

import fsdp_lint.runtime  # noqa: E402
from fsdp_lint.runtime import runtime_guard  # noqa: E402
from fsdp_lint.runtime.check import RuntimeCheck  # noqa: E402
from fsdp_lint.runtime.config import make_config  # noqa: E402
from fsdp_lint.runtime.dispatch import Dispatcher  # noqa: E402
from fsdp_lint.runtime.reporter import format_message  # noqa: E402
from fsdp_lint.runtime_errors import FSDPContractError, FSDPContractWarning  # noqa: E402
from fsdp_lint.runtime_checks.fsd106_device_mapping import DeviceMapping  # noqa: E402
from fsdp_lint.runtime_checks.fsd301_save_sharded_state import find_dtensor  # noqa: E402


@pytest.fixture(autouse=True)
def _guard_off():
    fsdp_lint.runtime.disable()
    yield
    fsdp_lint.runtime.disable()


def _fresh_python(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120).stdout


def test_import_is_cheap_and_free_of_the_static_side():
    out = _fresh_python(
        "import sys, time, torch; t = time.perf_counter(); import fsdp_lint.runtime; "
        "print(time.perf_counter() - t, 'astroid' in sys.modules, 'fsdp_lint.engine.lint' in sys.modules)"
    )
    seconds, astroid, engine = out.split()
    assert float(seconds) < 0.05
    assert (astroid, engine) == ("False", "False")


def test_enable_twice_keeps_one_guard_and_guard_context_restores_the_previous_state():
    fsdp_lint.runtime.enable(mode="warn")
    first = runtime_guard._active
    fsdp_lint.runtime.enable(mode="warn")
    assert runtime_guard._active is first
    with fsdp_lint.runtime.guard(mode="raise", ignore=["FSD3"]):
        assert runtime_guard._active.config.mode == "raise"
    assert runtime_guard._active.config.mode == "warn"
    fsdp_lint.runtime.disable()
    with fsdp_lint.runtime.guard():
        assert fsdp_lint.runtime.is_enabled()
    assert not fsdp_lint.runtime.is_enabled()


def test_save_is_patched_only_while_enabled():
    original = torch.save
    with fsdp_lint.runtime.guard():
        assert torch.save is not original and torch.serialization.save is torch.save
    assert torch.save is original and torch.serialization.save is original


@pytest.mark.parametrize("ignore, off", [(["FSD2"], {"FSD201", "FSD202", "FSD203", "FSD204"}),
                                         (["fsd301", "FSD10"], {"FSD301", "FSD101", "FSD102", "FSD105", "FSD106"})])
def test_ignore_takes_codes_and_prefixes(ignore, off):
    fsdp_lint.runtime.enable(ignore=ignore)
    active = {check.code for check in runtime_guard._active.dispatcher.checks}
    assert active and not active & off


def test_environment_selects_mode_and_ignores(monkeypatch):
    monkeypatch.setenv("FSDP_LINT_RUNTIME", "warn")
    monkeypatch.setenv("FSDP_LINT_RUNTIME_IGNORE", "FSD101, FSD2")
    config = make_config()
    assert config.mode == "warn" and config.ignores("FSD204") and config.ignores("FSD101")
    assert not config.ignores("FSD102")
    assert make_config(mode="raise").mode == "raise"
    with pytest.raises(ValueError):
        make_config(mode="loud")


def test_message_starts_with_code_and_name_and_points_to_the_rule():
    text = format_message("FSD202", "optimizer-before-shard", 1, "AdamW holds stale tensors.", "build it later.")
    assert text.startswith("FSD202 optimizer-before-shard: [rank 1] ")
    assert text.endswith("(see `fsdp-lint rule FSD202`)") and "Fix: build it later." in text


def test_errors_carry_their_code():
    assert issubclass(FSDPContractError, RuntimeError) and issubclass(FSDPContractWarning, UserWarning)
    assert FSDPContractError("x", "FSD201").code == "FSD201"
    assert FSDPContractWarning("x", "FSD101").code == "FSD101"


class _Broken(RuntimeCheck):
    code = "FSD999"
    name = "broken"

    def on_save(self, obj, destination):
        raise ZeroDivisionError("bug in the guard")


class _Counting(RuntimeCheck):
    code = "FSD998"
    name = "counting"
    calls = 0

    def on_save(self, obj, destination):
        type(self).calls += 1


def test_internal_error_warns_once_and_switches_only_that_check_off():
    guard = runtime_guard.Guard(make_config("raise"))
    dispatcher = Dispatcher([_Broken(guard), _Counting(guard)])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dispatcher.emit("on_save", {}, None)
        dispatcher.emit("on_save", {}, None)
    assert [str(w.message).split(" (")[0] for w in caught] == [
        "fsdp-lint: internal error in runtime check FSD999 broken during on_save"
    ]
    assert _Counting.calls == 2 and [c.code for c in dispatcher.checks] == ["FSD998"]


def test_internal_error_at_the_first_forward_warns_and_training_continues():
    """The first-forward agreement itself (not a check) fails on an object it cannot read."""
    guard = runtime_guard.Guard(make_config("raise"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        guard.root_init(object())
    assert len(caught) == 1 and "fsdp-lint: internal error at the first forward" in str(caught[0].message)


def test_user_errors_pass_through_unchanged(tmp_path):
    with fsdp_lint.runtime.guard():
        with pytest.raises(AttributeError, match="expected .f. to be string"):
            torch.save({"weights": torch.ones(2)}, 12345)  # torch's own error for a bad target
        torch.save({"nested": [torch.ones(2), {"k": (torch.zeros(1),)}]}, tmp_path / "plain.pt")
    assert torch.load(tmp_path / "plain.pt")["nested"][0].sum() == 2


def test_plain_objects_hold_no_dtensor():
    assert find_dtensor({"a": [torch.ones(1), (torch.nn.Linear(2, 2),)], "b": 3}) is None


def test_two_ranks_of_one_host_on_one_gpu_stop_with_the_same_error():
    """CUDA is not available here: the cross-rank comparison runs on the records ranks exchange."""
    check = DeviceMapping(runtime_guard.Guard(make_config("raise")))
    records = [{"rank": r, "host": "node1", "facts": {"device": "cuda:0"}} for r in range(2)]
    expected = r"FSD106 device-mapping: .*ranks \[0, 1\] on host node1 all use cuda:0"
    with pytest.raises(FSDPContractError, match=expected):
        check.on_ranks_agreed(records)
    check.on_ranks_agreed([{"rank": r, "host": "node1", "facts": {"device": f"cuda:{r}"}} for r in range(2)])


def test_an_uncaught_finding_prints_a_few_lines_unless_verbose(capsys, monkeypatch):
    monkeypatch.delenv("FSDP_LINT_RUNTIME_VERBOSE", raising=False)
    error = FSDPContractError("FSD201 forward-bypass: [rank 0] detail. Fix: fix.\n  at train.py:3 in <module>: x", "FSD201")
    original = sys.excepthook
    with fsdp_lint.runtime.guard():
        assert sys.excepthook is not original
        try:
            raise RuntimeError("wrapped") from error
        except RuntimeError as exc:
            sys.excepthook(type(exc), exc, exc.__traceback__)
    assert sys.excepthook is original
    printed = capsys.readouterr().err.splitlines()
    assert printed == ["FSDPContractError: FSD201 forward-bypass: [rank 0] detail. Fix: fix.",
                       "  at train.py:3 in <module>: x",
                       "(full traceback: FSDP_LINT_RUNTIME_VERBOSE=1, or enable(verbose=True))"]
    with fsdp_lint.runtime.guard(verbose=True):
        assert sys.excepthook is original
    monkeypatch.setenv("FSDP_LINT_RUNTIME_VERBOSE", "1")
    with fsdp_lint.runtime.guard():
        assert sys.excepthook is original
